// The sample conversions at the file edges, written so the compiler vectorizes them:
// no branches in the loops, rounding by adding and subtracting a magic number (exact,
// ties to even, with plain SSE2), clipping and counting with selects.
#include "AudioKernels.h"
#include <string.h>

/// The bits of |x|: for finite values they order as the magnitudes do, as signed integers.
static inline int32_t magnitude_bits(float x) {
    int32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits & 0x7FFFFFFF;
}

/// Triangular noise in (-1, 1): the difference of two uniform values, from xorshift64*.
static inline double tpdf_noise(uint64_t *state) {
    double pair[2];
    for (int i = 0; i < 2; i++) {
        uint64_t x = *state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        *state = x;
        pair[i] = (double)((x * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
    }
    return pair[0] - pair[1];
}

/// Quantizes one sample to an integer in [low, high] with Float arithmetic (exact to 2^22),
/// after adding `noise` (in LSBs).
static inline int32_t quantize_float(float x, float scale, float high, float low, float noise,
                                     long *overs, long *non_finite, int32_t *peak) {
    const float magic = 12582912.0f;  // 1.5 * 2^23
    int32_t magnitude = magnitude_bits(x);
    int finite = magnitude < 0x7F800000;
    *non_finite += !finite;
    int32_t kept = finite ? magnitude : 0;
    *peak = kept > *peak ? kept : *peak;
    float v = finite ? x * scale + noise : 0.0f;
    *overs += (v >= high + 0.5f) | (v < low - 0.5f);
    float c = v > high ? high : v;
    c = c < low ? low : c;
    return (int32_t)((c + magic) - magic);
}

/// Quantizes one sample to an integer in [low, high] with Double arithmetic (for 17 to 32 bits),
/// after adding `noise` (in LSBs).
static inline int32_t quantize_double(float x, double scale, double high, double low, double noise,
                                      long *overs, long *non_finite, int32_t *peak) {
    const double magic = 6755399441055744.0;  // 1.5 * 2^52
    int32_t magnitude = magnitude_bits(x);
    int finite = magnitude < 0x7F800000;
    *non_finite += !finite;
    int32_t kept = finite ? magnitude : 0;
    *peak = kept > *peak ? kept : *peak;
    double v = finite ? (double)x * scale + noise : 0.0;
    *overs += (v >= high + 0.5) | (v < low - 0.5);
    double c = v > high ? high : v;
    c = c < low ? low : c;
    return (int32_t)((c + magic) - magic);
}

void aurender_quantize_s16(const float *const *channels, int channel_count, long frames, int bits,
                           int16_t *out, aurender_clip_stats *stats, uint64_t *dither) {
    const float scale = (float)(1 << (bits - 1)), high = scale - 1, low = -scale;
    const int shift = 16 - bits;
    long overs = 0, non_finite = 0;
    int32_t peak = stats->peak_bits;
    if (dither) {
        for (long f = 0; f < frames; f++) {
            for (int c = 0; c < channel_count; c++) {
                float noise = (float)tpdf_noise(dither);
                out[f * channel_count + c] =
                    (int16_t)(quantize_float(channels[c][f], scale, high, low, noise, &overs, &non_finite, &peak) << shift);
            }
        }
    } else if (channel_count == 2) {
        // Each lane keeps its own counts: one update per reduction per iteration vectorizes.
        const float *left = channels[0], *right = channels[1];
        long right_overs = 0, right_non_finite = 0;
        int32_t right_peak = peak;
        for (long f = 0; f < frames; f++) {
            out[2 * f] = (int16_t)(quantize_float(left[f], scale, high, low, 0, &overs, &non_finite, &peak) << shift);
            out[2 * f + 1] = (int16_t)(quantize_float(right[f], scale, high, low, 0, &right_overs, &right_non_finite,
                                                      &right_peak) << shift);
        }
        overs += right_overs;
        non_finite += right_non_finite;
        peak = right_peak > peak ? right_peak : peak;
    } else {
        for (int c = 0; c < channel_count; c++) {
            const float *source = channels[c];
            for (long f = 0; f < frames; f++) {
                out[f * channel_count + c] =
                    (int16_t)(quantize_float(source[f], scale, high, low, 0, &overs, &non_finite, &peak) << shift);
            }
        }
    }
    stats->overs += overs;
    stats->non_finite += non_finite;
    stats->peak_bits = peak;
}

void aurender_quantize_s32(const float *const *channels, int channel_count, long frames, int bits,
                           int32_t *out, aurender_clip_stats *stats, uint64_t *dither) {
    const double scale = (double)(1LL << (bits - 1)), high = scale - 1, low = -scale;
    const int shift = 32 - bits;
    long overs = 0, non_finite = 0;
    int32_t peak = stats->peak_bits;
    if (dither) {
        for (long f = 0; f < frames; f++) {
            for (int c = 0; c < channel_count; c++) {
                double noise = tpdf_noise(dither);
                uint32_t value = (uint32_t)quantize_double(channels[c][f], scale, high, low, noise, &overs, &non_finite, &peak);
                out[f * channel_count + c] = (int32_t)(value << shift);
            }
        }
    } else {
        for (int c = 0; c < channel_count; c++) {
            const float *source = channels[c];
            for (long f = 0; f < frames; f++) {
                uint32_t value = (uint32_t)quantize_double(source[f], scale, high, low, 0, &overs, &non_finite, &peak);
                out[f * channel_count + c] = (int32_t)(value << shift);
            }
        }
    }
    stats->overs += overs;
    stats->non_finite += non_finite;
    stats->peak_bits = peak;
}

void aurender_interleave_float(const float *const *channels, int channel_count, long frames,
                               float *out, aurender_clip_stats *stats) {
    long overs = 0, non_finite = 0;
    int32_t peak = stats->peak_bits;
    for (int c = 0; c < channel_count; c++) {
        const float *source = channels[c];
        for (long f = 0; f < frames; f++) {
            float x = source[f];
            int32_t magnitude = magnitude_bits(x);
            int finite = magnitude < 0x7F800000;
            non_finite += !finite;
            overs += finite & (magnitude > 0x3F800000);  // beyond 1.0
            int32_t kept = finite ? magnitude : 0;
            peak = kept > peak ? kept : peak;
            out[f * channel_count + c] = finite ? x : 0.0f;
        }
    }
    stats->overs += overs;
    stats->non_finite += non_finite;
    stats->peak_bits = peak;
}

void aurender_deinterleave_s16(const int16_t *in, int channel_count, long frames, float *const *channels) {
    const float scale = 1.0f / 32768.0f;
    if (channel_count == 2) {
        float *left = channels[0], *right = channels[1];
        for (long f = 0; f < frames; f++) {
            left[f] = (float)in[2 * f] * scale;
            right[f] = (float)in[2 * f + 1] * scale;
        }
        return;
    }
    for (int c = 0; c < channel_count; c++) {
        float *destination = channels[c];
        for (long f = 0; f < frames; f++) destination[f] = (float)in[f * channel_count + c] * scale;
    }
}

void aurender_deinterleave_float(const float *in, int channel_count, long frames, float *const *channels) {
    if (channel_count == 2) {
        float *left = channels[0], *right = channels[1];
        for (long f = 0; f < frames; f++) {
            left[f] = in[2 * f];
            right[f] = in[2 * f + 1];
        }
        return;
    }
    for (int c = 0; c < channel_count; c++) {
        float *destination = channels[c];
        for (long f = 0; f < frames; f++) destination[f] = in[f * channel_count + c];
    }
}
