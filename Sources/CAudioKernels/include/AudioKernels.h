#ifndef AURENDER_AUDIO_KERNELS_H
#define AURENDER_AUDIO_KERNELS_H

#include <stdint.h>

/// Samples that could not be written as they were, and the largest magnitude seen.
typedef struct {
    long overs;          ///< samples beyond full scale (clipped when written as integers)
    long non_finite;     ///< NaN and infinite samples (written as 0)
    int32_t peak_bits;   ///< bit pattern of the largest finite magnitude (ordered like the value)
} aurender_clip_stats;

/// TPDF dither's random state: eight 32-bit xorshift generators used in turn, sample by
/// sample in interleaved order, so eight draws run side by side in SIMD registers.
typedef struct {
    uint32_t lanes[8];  ///< never zero
    uint32_t next;      ///< the lane of the next sample
} aurender_dither_state;

/// With a non-zero argument, holds every kernel to the baseline instruction set (SSE2 on
/// x86-64) instead of the widest the processor has (AVX2), so tests can compare the paths;
/// every path gives identical results.
void aurender_kernels_use_baseline(int enabled);

/// A dither state from a seed; equal seeds give equal noise.
aurender_dither_state aurender_dither_seeded(uint64_t seed);

/// Interleaves `channel_count` channels of `frames` frames into integers of `bits` bits
/// (8 to 16), left-justified in 16 bits, rounding to nearest even and clipping at full scale
/// (2^(bits-1)); NaN and infinities become 0. Adds what it met to `stats`. With a non-null
/// `dither` (a random generator's state, advanced in place), TPDF dither of ±1 LSB is added
/// before rounding, in interleaved order, so the noise does not depend on block sizes; a sample
/// that is exactly zero gets none (its noise value is drawn and dropped), so silence stays zeros.
void aurender_quantize_s16(const float *const *channels, int channel_count, long frames, int bits,
                           int16_t *out, aurender_clip_stats *stats, aurender_dither_state *dither);

/// As `aurender_quantize_s16`, for 8 to 32 bits, left-justified in 32 bits.
void aurender_quantize_s32(const float *const *channels, int channel_count, long frames, int bits,
                           int32_t *out, aurender_clip_stats *stats, aurender_dither_state *dither);

/// Interleaves floats unchanged but for NaN and infinities, which become 0; counts overs.
void aurender_interleave_float(const float *const *channels, int channel_count, long frames,
                               float *out, aurender_clip_stats *stats);

/// The sum of the squares of `frames` samples of every channel, in double precision (for RMS).
double aurender_sum_of_squares(const float *const *channels, int channel_count, long frames);

/// Splits interleaved 16-bit integers into one float buffer per channel, full scale 32768.
void aurender_deinterleave_s16(const int16_t *in, int channel_count, long frames, float *const *channels);

/// Splits interleaved floats into one buffer per channel.
void aurender_deinterleave_float(const float *in, int channel_count, long frames, float *const *channels);

/// Sections a cascade runs with its state in registers; longer cascades run in batches.
#define AURENDER_BIQUAD_UNROLLED 10

/// Runs `count` biquad sections in series over `frames` frames of two channels in place (an
/// odd channel may be passed as both; the left result is kept). `sections` holds, per section,
/// seven pairs of Doubles (one per channel, 16-byte aligned): b0, b1 - a1 b0, b2 - a2 b0, a1, a2,
/// then the state z1 and z2, which is updated. Per frame and section:
/// y = b0 x + z1; z1 = (b1 - a1 b0) x + z2 - a1 z1; z2 = (b2 - a2 b0) x - a2 z1.
void aurender_biquad_pairs(float *left, float *right, long frames, void *sections, int count);

#endif
