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

static inline uint32_t xorshift32(uint32_t x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

/// Triangular noise in (-1, 1) from 32 random bits: the difference of their two halves.
static inline float triangular(uint32_t x) {
    return ((float)(x & 0xFFFFu) - (float)(x >> 16)) * (1.0f / 65536.0f);
}

aurender_dither_state aurender_dither_seeded(uint64_t seed) {
    aurender_dither_state state;
    uint64_t mix = seed;
    for (int lane = 0; lane < 8; lane++) {
        mix = mix * 6364136223846793005ULL + 1442695040888963407ULL;
        uint32_t value = (uint32_t)(mix >> 32);
        state.lanes[lane] = value ? value : 0x9E3779B9u;
    }
    state.next = 0;
    return state;
}

/// The next sample's noise from the lane whose turn it is.
static inline float next_noise(aurender_dither_state *state) {
    uint32_t lane = state->next;
    state->lanes[lane] = xorshift32(state->lanes[lane]);
    state->next = (lane + 1) & 7;
    return triangular(state->lanes[lane]);
}

/// The noise for the next `count` samples, in order; whole rounds of the eight lanes run as
/// one vectorized loop.
static void fill_noise(aurender_dither_state *state, float *noise, long count) {
    long i = 0;
    for (; i < count && state->next != 0; i++) noise[i] = next_noise(state);
    uint32_t x[8];
    for (int lane = 0; lane < 8; lane++) x[lane] = state->lanes[lane];
    for (; i + 8 <= count; i += 8) {
        for (int lane = 0; lane < 8; lane++) {
            x[lane] = xorshift32(x[lane]);
            noise[i + lane] = triangular(x[lane]);
        }
    }
    for (int lane = 0; lane < 8; lane++) state->lanes[lane] = x[lane];
    for (; i < count; i++) noise[i] = next_noise(state);
}

enum { NOISE_BLOCK = 2048 };

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

/// Quantizes `frames` frames from `first`, adding `noise` (one value per interleaved sample)
/// when it is not NULL; inlined with NULL, the loop is the undithered one.
static inline void quantize_block_s16(const float *const *channels, int channel_count, long first, long frames,
                                      int bits, int16_t *out, const float *noise,
                                      long *overs, long *non_finite, int32_t *peak) {
    const float scale = (float)(1 << (bits - 1)), high = scale - 1, low = -scale;
    const int shift = 16 - bits;
    if (channel_count == 2) {
        // Each lane keeps its own counts: one update per reduction per iteration vectorizes.
        const float *left = channels[0] + first, *right = channels[1] + first;
        int16_t *destination = out + 2 * first;
        long right_overs = 0, right_non_finite = 0;
        int32_t right_peak = *peak;
        for (long f = 0; f < frames; f++) {
            destination[2 * f] = (int16_t)(quantize_float(left[f], scale, high, low, noise ? noise[2 * f] : 0,
                                                          overs, non_finite, peak) << shift);
            destination[2 * f + 1] = (int16_t)(quantize_float(right[f], scale, high, low, noise ? noise[2 * f + 1] : 0,
                                                              &right_overs, &right_non_finite, &right_peak) << shift);
        }
        *overs += right_overs;
        *non_finite += right_non_finite;
        *peak = right_peak > *peak ? right_peak : *peak;
        return;
    }
    for (int c = 0; c < channel_count; c++) {
        const float *source = channels[c] + first;
        for (long f = 0; f < frames; f++) {
            out[(first + f) * channel_count + c] = (int16_t)(quantize_float(
                source[f], scale, high, low, noise ? noise[f * channel_count + c] : 0, overs, non_finite, peak) << shift);
        }
    }
}

static inline void quantize_block_s32(const float *const *channels, int channel_count, long first, long frames,
                                      int bits, int32_t *out, const float *noise,
                                      long *overs, long *non_finite, int32_t *peak) {
    const double scale = (double)(1LL << (bits - 1)), high = scale - 1, low = -scale;
    const int shift = 32 - bits;
    for (int c = 0; c < channel_count; c++) {
        const float *source = channels[c] + first;
        for (long f = 0; f < frames; f++) {
            uint32_t value = (uint32_t)quantize_double(source[f], scale, high, low, noise ? noise[f * channel_count + c] : 0,
                                                       overs, non_finite, peak);
            out[(first + f) * channel_count + c] = (int32_t)(value << shift);
        }
    }
}

/// The body both public quantizers share: the whole buffer at once, or, with dither, in
/// blocks of noise drawn in interleaved order. `BLOCK` is the inlined block quantizer.
#define QUANTIZE_IN_BLOCKS(BLOCK)                                                                   \
    long overs = 0, non_finite = 0;                                                                \
    int32_t peak = stats->peak_bits;                                                               \
    if (!dither) {                                                                                 \
        BLOCK(channels, channel_count, 0, frames, bits, out, NULL, &overs, &non_finite, &peak);    \
    } else {                                                                                       \
        float noise[NOISE_BLOCK];                                                                  \
        long step = NOISE_BLOCK / channel_count > 0 ? NOISE_BLOCK / channel_count : 1;             \
        for (long first = 0; first < frames; first += step) {                                     \
            long count = frames - first < step ? frames - first : step;                            \
            fill_noise(dither, noise, count * channel_count);                                      \
            BLOCK(channels, channel_count, first, count, bits, out, noise, &overs, &non_finite, &peak); \
        }                                                                                          \
    }                                                                                              \
    stats->overs += overs;                                                                         \
    stats->non_finite += non_finite;                                                               \
    stats->peak_bits = peak;

void aurender_quantize_s16(const float *const *channels, int channel_count, long frames, int bits,
                           int16_t *out, aurender_clip_stats *stats, aurender_dither_state *dither) {
    QUANTIZE_IN_BLOCKS(quantize_block_s16)
}

void aurender_quantize_s32(const float *const *channels, int channel_count, long frames, int bits,
                           int32_t *out, aurender_clip_stats *stats, aurender_dither_state *dither) {
    QUANTIZE_IN_BLOCKS(quantize_block_s32)
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

double aurender_sum_of_squares(const float *const *channels, int channel_count, long frames) {
    double total = 0;
    for (int c = 0; c < channel_count; c++) {
        const float *source = channels[c];
        float partial = 0;
        double sum = 0;
        for (long f = 0; f < frames; f++) {
            float x = source[f];
            uint32_t bits;
            memcpy(&bits, &x, sizeof bits);
            partial += (bits & 0x7FFFFFFFu) < 0x7F800000u ? x * x : 0.0f;
            if ((f & 4095) == 4095) { sum += partial; partial = 0; }
        }
        total += sum + partial;
    }
    return total;
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
