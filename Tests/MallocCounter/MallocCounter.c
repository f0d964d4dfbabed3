#include "MallocCounter.h"
#include <stddef.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static __thread long thread_allocations __attribute__((tls_model("initial-exec")));
static __thread long thread_frees __attribute__((tls_model("initial-exec")));

long malloc_counter_thread_allocations(void) { return thread_allocations; }
long malloc_counter_thread_frees(void) { return thread_frees; }

void *malloc(size_t size) { thread_allocations++; return __libc_malloc(size); }
void *calloc(size_t count, size_t size) { thread_allocations++; return __libc_calloc(count, size); }
void *realloc(void *pointer, size_t size) {
    thread_allocations++;
    if (pointer != NULL) thread_frees++;
    return __libc_realloc(pointer, size);
}
void *memalign(size_t alignment, size_t size) { thread_allocations++; return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { thread_allocations++; return __libc_memalign(alignment, size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    thread_allocations++;
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) return 12;
    *result = pointer;
    return 0;
}
void free(void *pointer) {
    if (pointer != NULL) thread_frees++;
    __libc_free(pointer);
}
