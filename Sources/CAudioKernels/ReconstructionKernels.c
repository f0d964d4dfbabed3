// The limiter's 8× reconstruction, as three halfband stages: the point halfway between two
// samples from 40 around it (the stage that sets the pass band, flat to 0.45 of the rate),
// the quarter points from 8 of the 2× stream, the eighth points from 6 of the 4× stream. The
// later stages need few taps because what they interpolate already lies far under their
// Nyquist; together they cost 80 multiply-adds a frame where one 8× polyphase filter of the
// same response costs 7 × 43. Every loop runs across frames, one lane a frame, each point
// summed in one order, so the baseline and AVX2 paths give the same bits.
#include "AudioKernels.h"
#include "KernelDispatch.h"

/// Frames a pass holds; its stage rows are on the stack.
enum { RECONSTRUCTION_BLOCK = 256, REACH = AURENDER_RECONSTRUCTION_REACH };

typedef float floats8 __attribute__((vector_size(32)));
// Always inlined, so no call passes eight floats in an AVX register a baseline caller would pass in two.
#pragma clang diagnostic ignored "-Wpsabi"

/// The eight half points from `k + 1/2`, each lane summing the 40 taps in the scalar order.
INLINE floats8 half_points8(const float *restrict x, long k, const float *restrict h1) {
    floats8 sum = {0};
    for (int j = 0; j < 40; j++) {
        floats8 v;
        __builtin_memcpy(&v, x + k - 19 + j, sizeof v);
        sum += h1[j] * v;
    }
    return sum;
}

/// `frames` (at most `RECONSTRUCTION_BLOCK`) frames whose first interval starts at `x[0]`
/// (`x[1 - REACH]` to `x[frames - 1 + REACH]` readable).
INLINE void reconstruct_block(const float *restrict x, long frames, const aurender_reconstruction *restrict filter,
                              float *restrict peaks) {
    // half[k + 2] is the point at k + 1/2, for k from -2 to frames + 1.
    float half[RECONSTRUCTION_BLOCK + 4];
    // early[k] at k + 1/4 for k from 0 to frames; late[k + 1] at k + 3/4 for k from -1 to frames - 1.
    float early[RECONSTRUCTION_BLOCK + 1], late[RECONSTRUCTION_BLOCK + 1];
    const float *restrict h1 = filter->half, *restrict h2 = filter->quarter, *restrict h3 = filter->eighth;
    // Eight half points a vector, each lane summing its taps in the scalar order; four vectors
    // at once, so four chains of additions overlap (one chain waits on each addition's latency).
    long k = -2;
    for (; k + 32 <= frames + 2; k += 32) {
        floats8 sum0 = {0}, sum1 = {0}, sum2 = {0}, sum3 = {0};
        for (int j = 0; j < 40; j++) {
            floats8 v0, v1, v2, v3;
            const float *restrict tap = x + k - 19 + j;
            __builtin_memcpy(&v0, tap, sizeof v0);
            __builtin_memcpy(&v1, tap + 8, sizeof v1);
            __builtin_memcpy(&v2, tap + 16, sizeof v2);
            __builtin_memcpy(&v3, tap + 24, sizeof v3);
            sum0 += h1[j] * v0;
            sum1 += h1[j] * v1;
            sum2 += h1[j] * v2;
            sum3 += h1[j] * v3;
        }
        __builtin_memcpy(half + k + 2, &sum0, sizeof sum0);
        __builtin_memcpy(half + k + 10, &sum1, sizeof sum1);
        __builtin_memcpy(half + k + 18, &sum2, sizeof sum2);
        __builtin_memcpy(half + k + 26, &sum3, sizeof sum3);
    }
    for (; k + 8 <= frames + 2; k += 8) {
        floats8 sum = half_points8(x, k, h1);
        __builtin_memcpy(half + k + 2, &sum, sizeof sum);
    }
    // The last few half points as one vector ending at the last, over points already found
    // (each found again the same way, so to the same bits), rather than one at a time.
    if (k < frames + 2 && frames + 4 >= 8) {
        floats8 sum = half_points8(x, frames + 2 - 8, h1);
        __builtin_memcpy(half + frames - 4, &sum, sizeof sum);
        k = frames + 2;
    }
    for (; k < frames + 2; k++) {
        const float *restrict oldest = x + k - 19;
        float sum = 0;
        for (int j = 0; j < 40; j++) sum += h1[j] * oldest[j];
        half[k + 2] = sum;
    }
    const float *restrict h = half + 2;
    for (long k = 0; k <= frames; k++) {
        early[k] = h2[0] * h[k - 2] + h2[1] * x[k - 1] + h2[2] * h[k - 1] + h2[3] * x[k] + h2[4] * h[k]
                 + h2[5] * x[k + 1] + h2[6] * h[k + 1] + h2[7] * x[k + 2];
    }
    for (long k = -1; k < frames; k++) {
        late[k + 1] = h2[0] * x[k - 1] + h2[1] * h[k - 1] + h2[2] * x[k] + h2[3] * h[k] + h2[4] * x[k + 1]
                    + h2[5] * h[k + 1] + h2[6] * x[k + 2] + h2[7] * h[k + 2];
    }
    const float *restrict q1 = early, *restrict q3 = late + 1;
    for (long k = 0; k < frames; k++) {
        float e1 = h3[0] * h[k - 1] + h3[1] * q3[k - 1] + h3[2] * x[k] + h3[3] * q1[k] + h3[4] * h[k] + h3[5] * q3[k];
        float e3 = h3[0] * q3[k - 1] + h3[1] * x[k] + h3[2] * q1[k] + h3[3] * h[k] + h3[4] * q3[k] + h3[5] * x[k + 1];
        float e5 = h3[0] * x[k] + h3[1] * q1[k] + h3[2] * h[k] + h3[3] * q3[k] + h3[4] * x[k + 1] + h3[5] * q1[k + 1];
        float e7 = h3[0] * q1[k] + h3[1] * h[k] + h3[2] * q3[k] + h3[3] * x[k + 1] + h3[4] * q1[k + 1] + h3[5] * h[k + 1];
        float a = __builtin_fabsf(x[k]), b = __builtin_fabsf(e1), c = __builtin_fabsf(q1[k]), d = __builtin_fabsf(e3);
        float e = __builtin_fabsf(h[k]), f = __builtin_fabsf(e5), g = __builtin_fabsf(q3[k]), i = __builtin_fabsf(e7);
        a = a > b ? a : b, c = c > d ? c : d, e = e > f ? e : f, g = g > i ? g : i;
        a = a > c ? a : c, e = e > g ? e : g;
        a = a > e ? a : e;
        peaks[k] = a > peaks[k] ? a : peaks[k];
    }
}

KERNEL(void, aurender_reconstructed_peaks,
       (const float *newest, long frames, const aurender_reconstruction *filter, float *peaks),
       (newest, frames, filter, peaks),
       for (long start = 0; start < frames; start += RECONSTRUCTION_BLOCK) {
           long count = frames - start < RECONSTRUCTION_BLOCK ? frames - start : RECONSTRUCTION_BLOCK;
           reconstruct_block(newest + start - REACH, count, filter, peaks + start);
       })
