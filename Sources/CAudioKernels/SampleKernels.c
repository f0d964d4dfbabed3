// The sample conversions at the file edges. Every loop is branch-free so the compiler
// vectorizes it: counts and peaks are kept in 32-bit locals (never through pointers that could
// alias), clipping is a min/max, rounding adds a magic number and reads the integer from the
// bits (exact, ties to even, no float-to-int conversion), and the dithered and undithered
// loops are separate instances. On x86-64 each kernel is built twice, for SSE2 and for AVX2,
// and the widest the processor has is chosen at run time; both give identical results, since
// every operation is exactly rounded and lanes never mix (no reassociation, no contraction).
#include "AudioKernels.h"
#include "KernelDispatch.h"
#include <string.h>

/// Frames per pass of a loop that counts in 32 bits: far below overflow for any channel count.
enum { COUNT_CHUNK = 1 << 20, NOISE_BLOCK = 2048, SQUARES_BLOCK = 4096, SQUARES_LANES = 8 };

atomic_int aurender_kernels_baseline_only;

void aurender_kernels_use_baseline(int enabled) {
    atomic_store_explicit(&aurender_kernels_baseline_only, enabled != 0, memory_order_relaxed);
}

/// The bits of |x|: for finite values they order as the magnitudes do, as signed integers.
INLINE int32_t magnitude_bits(float x) {
    int32_t bits;
    memcpy(&bits, &x, sizeof bits);
    return bits & 0x7FFFFFFF;
}

/// What a loop met, in registers.
typedef struct {
    int32_t overs, non_finite, peak;
} counts;

/// Notes a sample's finiteness and magnitude; returns whether it is finite (0 or 1).
INLINE int32_t inspect(float x, counts *c) {
    int32_t magnitude = magnitude_bits(x);
    int32_t finite = magnitude < 0x7F800000;
    c->non_finite += finite ^ 1;
    int32_t kept = finite ? magnitude : 0;
    c->peak = kept > c->peak ? kept : c->peak;
    return finite;
}

/// Counts `v` (a sample in integer steps) as an over when it rounds beyond [low, high] and
/// clamps it into `clipped`: the one rule of the Float and the Double paths, `half` being 0.5 in
/// their type so that each stays in its own precision.
#define COUNT_OVER_AND_CLAMP(c, v, low, high, half, clipped)           \
    do {                                                                \
        (c)->overs += ((v) >= (high) + (half)) | ((v) < (low) - (half)); \
        clipped = (v) > (high) ? (high) : (v);                          \
        clipped = clipped < (low) ? (low) : clipped;                    \
    } while (0)

/// Quantizes one sample to an integer in [low, high] with Float arithmetic (exact to 2^22),
/// after adding `noise` (in LSBs): the integer is read from the bits of `value + 1.5 * 2^23`.
/// An exact zero gets no noise, so digital silence stays exact zeros.
INLINE int32_t quantize_float(float x, float scale, float high, float low, float noise, counts *c) {
    const float magic = 12582912.0f;
    int32_t finite = inspect(x, c);
    float v = (finite & (x != 0.0f)) ? x * scale + noise : 0.0f;
    float clipped;
    COUNT_OVER_AND_CLAMP(c, v, low, high, 0.5f, clipped);
    float shifted = clipped + magic;
    int32_t bits;
    memcpy(&bits, &shifted, sizeof bits);
    return bits - 0x4B400000;
}

/// As `quantize_float` with Double arithmetic (for 17 to 32 bits), from `value + 1.5 * 2^52`.
INLINE int32_t quantize_double(float x, double scale, double high, double low, float noise, counts *c) {
    const double magic = 6755399441055744.0;
    int32_t finite = inspect(x, c);
    double v = (finite & (x != 0.0f)) ? (double)x * scale + (double)noise : 0.0;
    double clipped;
    COUNT_OVER_AND_CLAMP(c, v, low, high, 0.5, clipped);
    double shifted = clipped + magic;
    uint64_t bits;
    memcpy(&bits, &shifted, sizeof bits);
    return (int32_t)(uint32_t)bits;
}

/// One interleaved 16-bit sample: the integer left-justified.
INLINE int16_t justify16(int32_t value, int shift) { return (int16_t)(uint16_t)((uint32_t)value << shift); }
INLINE int32_t justify32(int32_t value, int shift) { return (int32_t)((uint32_t)value << shift); }

/// The quantizer loops for one element type (`int16_t`/`justify16` with Float arithmetic, or
/// `int32_t`/`justify32` with Double): `frames` frames from `first` of every channel into `out`,
/// with one noise value per interleaved sample when `DITHERED`. Stereo and mono have loops of
/// their own (contiguous stores); other counts go channel by channel.
#define QUANTIZE_LOOPS(NAME, TYPE, REAL, QUANTIZE, JUSTIFY, WIDTH)                                        \
    INLINE void NAME(const float *const *channels, int channel_count, long first, long frames, int bits,  \
                     TYPE *restrict out, const float *restrict noise, int dithered, counts *c) {          \
        const REAL scale = (REAL)(1LL << (bits - 1)), high = scale - 1, low = -scale;                     \
        const int shift = WIDTH - bits;                                                                    \
        if (channel_count == 2) {                                                                          \
            const float *restrict left = channels[0] + first, *restrict right = channels[1] + first;       \
            TYPE *restrict destination = out + 2 * first;                                                  \
            counts l = *c, r = {0, 0, 0};                                                                  \
            for (long f = 0; f < frames; f++) {                                                            \
                destination[2 * f] = JUSTIFY(QUANTIZE(left[f], scale, high, low, dithered ? noise[2 * f] : 0.0f, &l), shift); \
                destination[2 * f + 1] = JUSTIFY(QUANTIZE(right[f], scale, high, low, dithered ? noise[2 * f + 1] : 0.0f, &r), shift); \
            }                                                                                              \
            c->overs = l.overs + r.overs;                                                                  \
            c->non_finite = l.non_finite + r.non_finite;                                                   \
            c->peak = l.peak > r.peak ? l.peak : r.peak;                                                   \
            return;                                                                                        \
        }                                                                                                  \
        for (int channel = 0; channel < channel_count; channel++) {                                        \
            const float *restrict source = channels[channel] + first;                                     \
            TYPE *restrict destination = out + first * channel_count + channel;                            \
            counts k = *c;                                                                                 \
            if (channel_count == 1) {                                                                      \
                for (long f = 0; f < frames; f++)                                                          \
                    destination[f] = JUSTIFY(QUANTIZE(source[f], scale, high, low, dithered ? noise[f] : 0.0f, &k), shift); \
            } else {                                                                                       \
                for (long f = 0; f < frames; f++)                                                          \
                    destination[f * channel_count] = JUSTIFY(QUANTIZE(source[f], scale, high, low,         \
                        dithered ? noise[f * channel_count + channel] : 0.0f, &k), shift);                 \
            }                                                                                              \
            *c = k;                                                                                        \
        }                                                                                                  \
    }

QUANTIZE_LOOPS(quantize_loops_s16, int16_t, float, quantize_float, justify16, 16)
QUANTIZE_LOOPS(quantize_loops_s32, int32_t, double, quantize_double, justify32, 32)

INLINE uint32_t xorshift32(uint32_t x) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x;
}

/// Triangular noise in (-1, 1) from 32 random bits: the difference of their two halves.
INLINE float triangular(uint32_t x) {
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
INLINE float next_noise(aurender_dither_state *state) {
    uint32_t lane = state->next;
    state->lanes[lane] = xorshift32(state->lanes[lane]);
    state->next = (lane + 1) & 7;
    return triangular(state->lanes[lane]);
}

/// The noise for the next `count` samples, in order; whole rounds of the eight lanes run as
/// one vectorized loop.
INLINE void fill_noise(aurender_dither_state *state, float *restrict noise, long count) {
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

/// A public quantizer's body: the buffer in chunks the 32-bit counts cannot overflow in, or,
/// with dither, in blocks of noise drawn in interleaved order.
#define QUANTIZE_BODY(LOOPS)                                                                              \
    int32_t peak = stats->peak_bits;                                                                      \
    if (!dither) {                                                                                        \
        for (long first = 0; first < frames; first += COUNT_CHUNK) {                                      \
            long count = frames - first < COUNT_CHUNK ? frames - first : COUNT_CHUNK;                     \
            counts k = {0, 0, peak};                                                                      \
            LOOPS(channels, channel_count, first, count, bits, out, NULL, 0, &k);                         \
            peak = k.peak;                                                                                \
            stats->overs += k.overs, stats->non_finite += k.non_finite;                                   \
        }                                                                                                 \
    } else {                                                                                              \
        float noise[NOISE_BLOCK];                                                                         \
        long step = NOISE_BLOCK / channel_count > 0 ? NOISE_BLOCK / channel_count : 1;                    \
        for (long first = 0; first < frames; first += step) {                                             \
            long count = frames - first < step ? frames - first : step;                                   \
            fill_noise(dither, noise, count * channel_count);                                             \
            counts k = {0, 0, peak};                                                                      \
            LOOPS(channels, channel_count, first, count, bits, out, noise, 1, &k);                        \
            peak = k.peak;                                                                                \
            stats->overs += k.overs, stats->non_finite += k.non_finite;                                   \
        }                                                                                                 \
    }                                                                                                     \
    stats->peak_bits = peak;

KERNEL(void, aurender_quantize_s16,
       (const float *const *channels, int channel_count, long frames, int bits, int16_t *out,
        aurender_clip_stats *stats, aurender_dither_state *dither),
       (channels, channel_count, frames, bits, out, stats, dither),
       QUANTIZE_BODY(quantize_loops_s16))

KERNEL(void, aurender_quantize_s32,
       (const float *const *channels, int channel_count, long frames, int bits, int32_t *out,
        aurender_clip_stats *stats, aurender_dither_state *dither),
       (channels, channel_count, frames, bits, out, stats, dither),
       QUANTIZE_BODY(quantize_loops_s32))

/// One float for a float file: NaN and infinities become 0, beyond 1.0 is an over.
INLINE float pass_float(float x, counts *c) {
    int32_t finite = inspect(x, c);
    c->overs += finite & (magnitude_bits(x) > 0x3F800000);
    return finite ? x : 0.0f;
}

INLINE void interleave_loops(const float *const *channels, int channel_count, long first, long frames,
                             float *restrict out, counts *c) {
    if (channel_count == 2) {
        const float *restrict left = channels[0] + first, *restrict right = channels[1] + first;
        float *restrict destination = out + 2 * first;
        counts l = *c, r = {0, 0, 0};
        for (long f = 0; f < frames; f++) {
            destination[2 * f] = pass_float(left[f], &l);
            destination[2 * f + 1] = pass_float(right[f], &r);
        }
        c->overs = l.overs + r.overs;
        c->non_finite = l.non_finite + r.non_finite;
        c->peak = l.peak > r.peak ? l.peak : r.peak;
        return;
    }
    for (int channel = 0; channel < channel_count; channel++) {
        const float *restrict source = channels[channel] + first;
        float *restrict destination = out + first * channel_count + channel;
        counts k = *c;
        for (long f = 0; f < frames; f++) destination[f * channel_count] = pass_float(source[f], &k);
        *c = k;
    }
}

KERNEL(void, aurender_interleave_float,
       (const float *const *channels, int channel_count, long frames, float *out, aurender_clip_stats *stats),
       (channels, channel_count, frames, out, stats),
       int32_t peak = stats->peak_bits;
       for (long first = 0; first < frames; first += COUNT_CHUNK) {
           long count = frames - first < COUNT_CHUNK ? frames - first : COUNT_CHUNK;
           counts k = {0, 0, peak};
           interleave_loops(channels, channel_count, first, count, out, &k);
           peak = k.peak;
           stats->overs += k.overs, stats->non_finite += k.non_finite;
       }
       stats->peak_bits = peak;)

/// One channel's sum of squares: eight Float lanes over blocks of 4096 samples, each block
/// added in Double, so the order of additions is fixed whatever the vector width.
INLINE double channel_sum_of_squares(const float *restrict source, long frames) {
    double sum = 0;
    for (long first = 0; first < frames; first += SQUARES_BLOCK) {
        long count = frames - first < SQUARES_BLOCK ? frames - first : SQUARES_BLOCK;
        float lanes[SQUARES_LANES] = {0};
        long f = 0;
        for (; f + SQUARES_LANES <= count; f += SQUARES_LANES) {
            for (int lane = 0; lane < SQUARES_LANES; lane++) {
                float x = source[first + f + lane];
                lanes[lane] += magnitude_bits(x) < 0x7F800000 ? x * x : 0.0f;
            }
        }
        for (; f < count; f++) {
            float x = source[first + f];
            lanes[0] += magnitude_bits(x) < 0x7F800000 ? x * x : 0.0f;
        }
        for (int lane = 0; lane < SQUARES_LANES; lane++) sum += lanes[lane];
    }
    return sum;
}

KERNEL(double, aurender_sum_of_squares,
       (const float *const *channels, int channel_count, long frames),
       (channels, channel_count, frames),
       double total = 0;
       for (int channel = 0; channel < channel_count; channel++) total += channel_sum_of_squares(channels[channel], frames);
       return total;)

KERNEL(void, aurender_deinterleave_s16,
       (const int16_t *in, int channel_count, long frames, float *const *channels),
       (in, channel_count, frames, channels),
       const float scale = 1.0f / 32768.0f;
       if (channel_count == 2) {
           const int16_t *restrict source = in;
           float *restrict left = channels[0], *restrict right = channels[1];
           for (long f = 0; f < frames; f++) {
               left[f] = (float)source[2 * f] * scale;
               right[f] = (float)source[2 * f + 1] * scale;
           }
           return;
       }
       for (int channel = 0; channel < channel_count; channel++) {
           const int16_t *restrict source = in + channel;
           float *restrict destination = channels[channel];
           for (long f = 0; f < frames; f++) destination[f] = (float)source[f * channel_count] * scale;
       })

KERNEL(void, aurender_deinterleave_float,
       (const float *in, int channel_count, long frames, float *const *channels),
       (in, channel_count, frames, channels),
       if (channel_count == 2) {
           const float *restrict source = in;
           float *restrict left = channels[0], *restrict right = channels[1];
           for (long f = 0; f < frames; f++) {
               left[f] = source[2 * f];
               right[f] = source[2 * f + 1];
           }
           return;
       }
       for (int channel = 0; channel < channel_count; channel++) {
           const float *restrict source = in + channel;
           float *restrict destination = channels[channel];
           for (long f = 0; f < frames; f++) destination[f] = source[f * channel_count];
       })
