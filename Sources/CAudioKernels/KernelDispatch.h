// What the kernel files share: exact IEEE arithmetic (no contraction into fused multiply-adds,
// which would change results between instruction sets), and the two instances of each kernel,
// baseline and AVX2 on x86-64, with the choice between them made at run time.
#ifndef AURENDER_KERNEL_DISPATCH_H
#define AURENDER_KERNEL_DISPATCH_H

#include <stdatomic.h>

#pragma STDC FP_CONTRACT OFF

#define INLINE static inline __attribute__((always_inline))

#if defined(__x86_64__) && defined(__clang__)
#define WIDE_TARGET __attribute__((target("avx2")))
#define HAS_WIDE_TARGET 1
#else
#define HAS_WIDE_TARGET 0
#endif

/// Set by `aurender_kernels_use_baseline`.
extern atomic_int aurender_kernels_baseline_only;

/// Whether this call may use the AVX2 instances.
static inline int use_wide(void) {
#if HAS_WIDE_TARGET
    return !atomic_load_explicit(&aurender_kernels_baseline_only, memory_order_relaxed) && __builtin_cpu_supports("avx2");
#else
    return 0;
#endif
}

/// Declares a kernel's baseline instance, its AVX2 instance where there is one, and the public
/// function that chooses between them; `ARGS` passes the parameters on, the rest is the body.
#if HAS_WIDE_TARGET
#define KERNEL(RESULT, NAME, PARAMETERS, ARGS, ...)                                                       \
    static RESULT NAME##_baseline PARAMETERS { __VA_ARGS__ }                                              \
    WIDE_TARGET static RESULT NAME##_wide PARAMETERS { __VA_ARGS__ }                                      \
    RESULT NAME PARAMETERS { return use_wide() ? NAME##_wide ARGS : NAME##_baseline ARGS; }
#else
#define KERNEL(RESULT, NAME, PARAMETERS, ARGS, ...) RESULT NAME PARAMETERS { __VA_ARGS__ }
#endif

#endif
