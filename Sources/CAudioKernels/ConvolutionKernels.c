// A partitioned convolution's frequency-domain work: spectra moved between FFTW's interleaved
// layout and blocks of eight bins (eight real parts, then their eight imaginary parts), and the
// sum of products of spectra in that layout, which is the convolution's hot loop.
#include "AudioKernels.h"
#include "KernelDispatch.h"

typedef float floats8 __attribute__((vector_size(32)));
// The helpers on eight floats are always inlined, so no call passes one in an AVX register
// that a baseline caller would pass in two; clang's warning about that ABI does not apply.
#pragma clang diagnostic ignored "-Wpsabi"

INLINE floats8 load8(const float *p) {
    floats8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

INLINE void store8(float *p, floats8 v) { __builtin_memcpy(p, &v, sizeof v); }

INLINE void to_blocks(const float *interleaved, long bins, float *blocked) {
    for (long bin = 0; bin < bins; bin += 8) {
        floats8 a = load8(interleaved + 2 * bin), b = load8(interleaved + 2 * bin + 8);
        store8(blocked + 2 * bin, __builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14));
        store8(blocked + 2 * bin + 8, __builtin_shufflevector(a, b, 1, 3, 5, 7, 9, 11, 13, 15));
    }
}

INLINE void from_blocks(const float *blocked, long bins, float *interleaved) {
    for (long bin = 0; bin < bins; bin += 8) {
        floats8 re = load8(blocked + 2 * bin), im = load8(blocked + 2 * bin + 8);
        store8(interleaved + 2 * bin, __builtin_shufflevector(re, im, 0, 8, 1, 9, 2, 10, 3, 11));
        store8(interleaved + 2 * bin + 8, __builtin_shufflevector(re, im, 4, 12, 5, 13, 6, 14, 7, 15));
    }
}

/// One block of eight bins: term after term, the product's real part (x.re·h.re − x.im·h.im)
/// and imaginary part (x.re·h.im + x.im·h.re) added to the sums.
#define MULTIPLY_ADD(re, im, x, h, at)                                                          \
    do {                                                                                        \
        floats8 xr = load8((x) + (at)), xi = load8((x) + (at) + 8);                             \
        floats8 hr = load8((h) + (at)), hi = load8((h) + (at) + 8);                             \
        re += xr * hr - xi * hi;                                                                \
        im += xr * hi + xi * hr;                                                                \
    } while (0)

/// Two blocks at a time, so four sums are in flight while the terms go by, then any last one.
INLINE void multiply_sum(const float *const *x, const float *const *h, int terms, long bins, float *sum) {
    long at = 0, end = 2 * bins;
    for (; at + 32 <= end; at += 32) {
        floats8 re0 = {0}, im0 = {0}, re1 = {0}, im1 = {0};
        for (int t = 0; t < terms; t++) {
            MULTIPLY_ADD(re0, im0, x[t], h[t], at);
            MULTIPLY_ADD(re1, im1, x[t], h[t], at + 16);
        }
        store8(sum + at, re0), store8(sum + at + 8, im0), store8(sum + at + 16, re1), store8(sum + at + 24, im1);
    }
    for (; at < end; at += 16) {
        floats8 re = {0}, im = {0};
        for (int t = 0; t < terms; t++) MULTIPLY_ADD(re, im, x[t], h[t], at);
        store8(sum + at, re), store8(sum + at + 8, im);
    }
}

KERNEL(void, aurender_spectrum_to_blocks, (const float *interleaved, long bins, float *blocked), (interleaved, bins, blocked),
       to_blocks(interleaved, bins, blocked);)

KERNEL(void, aurender_spectrum_from_blocks, (const float *blocked, long bins, float *interleaved), (blocked, bins, interleaved),
       from_blocks(blocked, bins, interleaved);)

KERNEL(void, aurender_spectra_multiply_sum, (const float *const *x, const float *const *h, int terms, long bins, float *sum),
       (x, h, terms, bins, sum), multiply_sum(x, h, terms, bins, sum);)
