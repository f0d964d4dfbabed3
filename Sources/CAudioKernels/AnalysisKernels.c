// A signal sketch's per-sample passes: a waveform outline's extremes and sums of squares, and
// a true-peak meter's scan, which interpolates only the groups of frames loud enough to matter.
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

/// Frames a true-peak scan tests, and interpolates, together.
enum { SCAN_GROUP = 16 };

/// Whether any lane of `v` is above `limit`.
INLINE int any_above(floats8 v, float limit) {
    ints8 above = v > limit;
    return __builtin_reduce_or(above) != 0;
}

INLINE float largest_lane(floats8 v) {
    float result = v[0];
    for (int lane = 1; lane < 8; lane++) result = v[lane] > result ? v[lane] : result;
    return result;
}

/// Frame `i`'s points, each phase's taps summed in order, as `aurender_interpolated_peaks` sums them.
INLINE float frame_points(const float *oldest, long i, const float *coefficients, int phases, int taps) {
    float largest = 0;
    for (int phase = 0; phase < phases; phase++) {
        const float *c = coefficients + (long)phase * taps;
        float sum = 0;
        for (int k = 0; k < taps; k++) sum += c[k] * oldest[i + k];
        float magnitude = __builtin_fabsf(sum);
        largest = magnitude > largest ? magnitude : largest;
    }
    return largest;
}

/// A group's points, two vectors of eight frames, the largest magnitude per lane.
INLINE floats8 group_points(const float *oldest, long i, const float *coefficients, int phases, int taps) {
    floats8 largest = {0};
    for (int phase = 0; phase < phases; phase++) {
        const float *c = coefficients + (long)phase * taps;
        floats8 early = {0}, late = {0};
        for (int k = 0; k < taps; k++) {
            early += c[k] * load8(oldest + i + k);
            late += c[k] * load8(oldest + i + 8 + k);
        }
        largest = larger8(larger8(magnitude8(early), magnitude8(late)), largest);
    }
    return largest;
}

/// The scan, inlined with a constant `taps` for the common filters.
INLINE long true_peak_scan(const float *newest, long frames, const float *coefficients, int phases, int taps, float bound,
                           int skips, float *sample_peak, float *point_peak) {
    const float *oldest = newest - (taps - 1);
    float samples = *sample_peak, points = *point_peak;
    float threshold = samples > points ? samples : points;
    float limit = skips ? threshold / bound : -1;
    floats8 sample_lanes = {0};
    long skipped = 0, i = 0;
    for (; i + SCAN_GROUP <= frames; i += SCAN_GROUP) {
        floats8 early = magnitude8(load8(newest + i)), late = magnitude8(load8(newest + i + 8));
        floats8 own = larger8(early, late);
        sample_lanes = larger8(own, sample_lanes);
        if (phases == 0) continue;
        floats8 window = own;
        for (int k = -(taps - 1); k < 0; k += 8) window = larger8(magnitude8(load8(newest + i + k)), window);
        if (!any_above(window, limit)) {
            skipped++;
            continue;
        }
        float found = largest_lane(group_points(oldest, i, coefficients, phases, taps));
        if (found > points) {
            points = found;
            threshold = points > threshold ? points : threshold;
            limit = skips ? threshold / bound : -1;
        }
    }
    samples = largest_lane(larger8(sample_lanes, (floats8){samples, samples, samples, samples, samples, samples, samples, samples}));
    if (i < frames) {
        float window = 0;
        for (long j = i; j < frames; j++) {
            float magnitude = __builtin_fabsf(newest[j]);
            samples = magnitude > samples ? magnitude : samples;
        }
        for (long j = i - (taps - 1); j < frames; j++) {
            float magnitude = __builtin_fabsf(newest[j]);
            window = magnitude > window ? magnitude : window;
        }
        if (phases > 0 && window > limit) {
            for (long j = i; j < frames; j++) {
                float found = frame_points(oldest, j, coefficients, phases, taps);
                points = found > points ? found : points;
            }
        } else if (phases > 0) {
            skipped++;
        }
    }
    *sample_peak = samples, *point_peak = points;
    return skipped;
}

INLINE long true_peak_dispatch(const float *newest, long frames, const float *coefficients, int phases, int taps, float bound,
                               int skips, float *sample_peak, float *point_peak) {
    switch (taps) {
    case 12: return true_peak_scan(newest, frames, coefficients, phases, 12, bound, skips, sample_peak, point_peak);
    case 24: return true_peak_scan(newest, frames, coefficients, phases, 24, bound, skips, sample_peak, point_peak);
    default: return true_peak_scan(newest, frames, coefficients, phases, taps, bound, skips, sample_peak, point_peak);
    }
}

KERNEL(long, aurender_true_peak_scan,
       (const float *newest, long frames, const float *coefficients, int phases, int taps, float bound, int skips,
        float *sample_peak, float *point_peak),
       (newest, frames, coefficients, phases, taps, bound, skips, sample_peak, point_peak),
       return true_peak_dispatch(newest, frames, coefficients, phases, taps, bound, skips, sample_peak, point_peak);)
