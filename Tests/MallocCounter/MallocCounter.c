#include "MallocCounter.h"
#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define MALLOC_COUNTER_THROUGH_SANITIZER_HOOKS 1
#endif
#endif

static __thread long thread_allocations __attribute__((tls_model("initial-exec")));
static __thread long thread_frees __attribute__((tls_model("initial-exec")));

long malloc_counter_thread_allocations(void) { return thread_allocations; }
long malloc_counter_thread_frees(void) { return thread_frees; }

#ifdef MALLOC_COUNTER_THROUGH_SANITIZER_HOOKS
// A sanitizer's allocator must serve every block (`make tsan`), so malloc is left to it and
// counted through the hooks it calls on each allocation and free.
extern int __sanitizer_install_malloc_and_free_hooks(void (*)(const volatile void *, size_t), void (*)(const volatile void *));

static void count_allocation(const volatile void *pointer, size_t size) {
    (void)pointer;
    (void)size;
    thread_allocations++;
}

static void count_free(const volatile void *pointer) {
    if (pointer != NULL) thread_frees++;
}

__attribute__((constructor)) static void install_hooks(void) {
    __sanitizer_install_malloc_and_free_hooks(count_allocation, count_free);
}
#else
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

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
#endif
