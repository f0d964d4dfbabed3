#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H
/// Counts heap allocations made by the calling thread, so tests can prove a render loop
/// allocates nothing. Linked into the test executable, these definitions of malloc and its
/// relatives take the place of the C library's for the whole process and forward to it.
long malloc_counter_thread_allocations(void);
/// Counts the blocks the calling thread has freed, so tests can prove what is made is also freed.
long malloc_counter_thread_frees(void);
#endif
