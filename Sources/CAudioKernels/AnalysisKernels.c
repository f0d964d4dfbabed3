// A signal sketch's per-sample passes: a waveform outline's extremes and sums of squares, and
// the largest magnitude a true-peak meter tests before it interpolates.
#include "AudioKernels.h"
#include "KernelDispatch.h"

typedef float floats8 __attribute__((vector_size(32)));
typedef int32_t ints8 __attribute__((vector_size(32)));
// The helpers on eight floats are always inlined, so no call passes one in an AVX register
// that a baseline caller would pass in two; clang's warning about that ABI does not apply.
#pragma clang diagnostic ignored "-Wpsabi"

INLINE floats8 load8(const float *p) {
    floats8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

INLINE floats8 smaller8(floats8 a, floats8 b) {
    ints8 keep = a < b;
    return (floats8)((keep & (ints8)a) | (~keep & (ints8)b));
}

INLINE floats8 larger8(floats8 a, floats8 b) {
    ints8 keep = a > b;
    return (floats8)((keep & (ints8)a) | (~keep & (ints8)b));
}

INLINE floats8 magnitude8(floats8 v) { return (floats8)((ints8)v & 0x7FFFFFFF); }

/// Frame `i`'s samples into the extremes and its lane's sum, channel by channel.
INLINE void outline_frame(const float *const *channels, int channel_count, long i, float *lo, float *hi, float *sum) {
    for (int c = 0; c < channel_count; c++) {
        float x = channels[c][i];
        *lo = x < *lo ? x : *lo;
        *hi = x > *hi ? x : *hi;
        *sum += x * x;
    }
}

/// Frames one at a time up to lane 0, then eight at a time, each lane one frame, then the rest;
/// inlined with a constant `channel_count` for one and two channels.
INLINE void outline_accumulate(const float *const *channels, int channel_count, long frames, long phase, float *minimum,
                               float *maximum, float *sums) {
    float lo = *minimum, hi = *maximum;
    long i = 0;
    for (; i < frames && ((phase + i) & 7) != 0; i++) outline_frame(channels, channel_count, i, &lo, &hi, sums + ((phase + i) & 7));
    floats8 low = {lo, lo, lo, lo, lo, lo, lo, lo}, high = {hi, hi, hi, hi, hi, hi, hi, hi}, sum = load8(sums);
    for (; i + 8 <= frames; i += 8) {
        for (int c = 0; c < channel_count; c++) {
            floats8 x = load8(channels[c] + i);
            low = smaller8(x, low);
            high = larger8(x, high);
            sum += x * x;
        }
    }
    __builtin_memcpy(sums, &sum, sizeof sum);
    for (int lane = 0; lane < 8; lane++) {
        lo = low[lane] < lo ? low[lane] : lo;
        hi = high[lane] > hi ? high[lane] : hi;
    }
    for (; i < frames; i++) outline_frame(channels, channel_count, i, &lo, &hi, sums + ((phase + i) & 7));
    *minimum = lo, *maximum = hi;
}

INLINE void outline_dispatch(const float *const *channels, int channel_count, long frames, long phase, float *minimum,
                             float *maximum, float *sums) {
    switch (channel_count) {
    case 1: outline_accumulate(channels, 1, frames, phase, minimum, maximum, sums); break;
    case 2: outline_accumulate(channels, 2, frames, phase, minimum, maximum, sums); break;
    default: outline_accumulate(channels, channel_count, frames, phase, minimum, maximum, sums);
    }
}

KERNEL(void, aurender_outline_accumulate,
       (const float *const *channels, int channel_count, long frames, long phase, float *minimum, float *maximum, float *sums),
       (channels, channel_count, frames, phase, minimum, maximum, sums),
       outline_dispatch(channels, channel_count, frames, phase, minimum, maximum, sums);)

INLINE float largest_magnitude(const float *const *channels, int channel_count, long frames) {
    floats8 largest = {0};
    float result = 0;
    for (int c = 0; c < channel_count; c++) {
        const float *x = channels[c];
        long i = 0;
        for (; i + 8 <= frames; i += 8) largest = larger8(magnitude8(load8(x + i)), largest);
        for (; i < frames; i++) {
            float magnitude = __builtin_fabsf(x[i]);
            result = magnitude > result ? magnitude : result;
        }
    }
    for (int lane = 0; lane < 8; lane++) result = largest[lane] > result ? largest[lane] : result;
    return result;
}

KERNEL(float, aurender_largest_magnitude, (const float *const *channels, int channel_count, long frames),
       (channels, channel_count, frames), return largest_magnitude(channels, channel_count, frames);)
