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

/// log2 `x` for a finite, normal `x` > 0 (absolute error under 1e-6): a degree-6 polynomial on
/// the mantissa, the exponent from the bits, so a gain computer can take one a sample and a
/// loop of them vectorizes; plain float arithmetic, so the same bits on every machine.
static inline float aurender_fast_log2(float x) {
    union { float value; uint32_t bits; } in = {x}, mantissa;
    float exponent = (float)((int32_t)((in.bits >> 23) & 0xFF) - 127);
    mantissa.bits = (in.bits & 0x007FFFFF) | 0x3F800000;
    float m = mantissa.value - 1;
    /* log2(1 + m) = m P(m) on [0, 1), a least-squares fit (error under 4e-7). */
    float p = 0.0151269392f;
    p = p * m - 0.0781550683f;
    p = p * m + 0.19238113f;
    p = p * m - 0.324613985f;
    p = p * m + 0.473112609f;
    p = p * m - 0.720515411f;
    p = p * m + 1.44266404f;
    return exponent + p * m;
}

/// 2 to the power `y` (relative error near 1e-7, float's own); -126 and lower give 0, 128 and
/// above infinity. Branch-free, so a loop of them vectorizes.
static inline float aurender_fast_exp2(float y) {
    float clamped = y > -126.0f ? (y < 127.99998f ? y : 127.99998f) : -126.0f;
    float whole = (float)(int32_t)clamped;
    whole = whole > clamped ? whole - 1 : whole;
    float f = clamped - whole;
    /* 2^f on [0, 1), a least-squares fit (relative error under 1e-8). */
    float p = 0.000218775165f;
    p = p * f + 0.00123878315f;
    p = p * f + 0.00968457748f;
    p = p * f + 0.0554804291f;
    p = p * f + 0.240230501f;
    p = p * f + 0.693146929f;
    p = p * f + 1;
    union { uint32_t bits; float value; } scale = {(uint32_t)((int32_t)whole + 127) << 23};
    float result = p * scale.value;
    result = y < 128.0f ? result : __builtin_inff();
    return y > -126.0f ? result : 0.0f;
}

/// A feed-forward compressor's constants in the per-sample path's terms (see `aurender_compress`).
typedef struct {
    float attack;               ///< the detector's one-pole coefficient while the level rises
    float release;              ///< and while it falls
    float knee_start;           ///< the detected level (amplitude, or power with `rms`) where the curve starts
    float makeup_gain;          ///< linear
    float decibels_per_octave;  ///< dB per log2 of the detected level: 20 log10 2, or 10 log10 2 with `rms`
    float threshold_db;
    float knee_db;              ///< the knee's width, 0 for a hard knee
    float slope;                ///< 1/ratio - 1
    float makeup_octaves;       ///< log2 of the makeup gain
    int rms;                    ///< non-zero: detect the channels' mean power, else their largest magnitude
} aurender_compressor;

/// Compresses `frames` frames of `channel_count` channels in place, one gain for every channel.
/// Per frame: the level (largest magnitude, or mean power), the envelope moving toward it,
/// e = c e + (1 - c) level with c the attack coefficient when the level is above e and the
/// release one otherwise (`envelope` holds e between calls), then the static curve's gain in dB
/// (unity below the knee, a quadratic through it, 1/ratio above), makeup, and the multiply.
/// The envelope is the one sequential step; the rest runs over blocks in vectors.
void aurender_compress(float *const *channels, int channel_count, long frames, const aurender_compressor *compressor,
                       float *envelope);

/// The largest magnitude among each frame's interpolated points, over one channel: for frame i
/// (0 ≤ i < frames), with `newest[i]` its newest sample, `peaks[i]` becomes the largest of
/// itself, |newest[i - reach]|, and, for each of the `phases` phases, |the sum over k < taps of
/// coefficients[phase × taps + k] × newest[i - taps + 1 + k]|. So a true-peak meter or limiter
/// runs its oversampling filter over a block in vectors, summing each point in one order on
/// every path. `newest[-(taps - 1)]` onward must be readable.
void aurender_interpolated_peaks(const float *newest, long frames, long reach, const float *coefficients, int phases,
                                 int taps, float *peaks);

/// The 8× reconstruction's three halfband stages, each the odd phase of a Kaiser-windowed sinc
/// (designed by `ReconstructionFilter`), oldest tap first.
typedef struct {
    float half[40];    ///< the point between samples k and k + 1, from samples k − 19 to k + 20
    float quarter[8];  ///< a point between two of the 2× stream's, from the 8 around it
    float eighth[6];   ///< a point between two of the 4× stream's, from the 6 around it
} aurender_reconstruction;

/// Frames the reconstruction reads after the sample whose interval it fills (21 before it).
enum { AURENDER_RECONSTRUCTION_REACH = 22 };

/// The largest magnitude among each frame's reconstructed points, over one channel: for frame
/// i, with `newest[i]` its newest sample, `peaks[i]` becomes the largest of itself,
/// |newest[i − 22]| and the seven 8× points between newest[i − 22] and newest[i − 21], which
/// read newest[i − 43] to newest[i]; those must be readable.
void aurender_reconstructed_peaks(const float *newest, long frames, const aurender_reconstruction *filter, float *peaks);

/// Marks which of `frames` frames are loud: frame i is when one of the `reach` frames up to it
/// (i - reach + 1 to i) has a level at or over `quiet_level`, those before the block counting
/// through `*quiet_frames`, the frames since the last such one, which is updated. Returns
/// whether any frame is loud.
_Bool aurender_mark_loud(const float *levels, long frames, float quiet_level, long reach, long *quiet_frames, _Bool *loud);

/// A true-peak limiter's gain path, carried between blocks: the sliding minimum of the gains
/// frames need over `window` frames (van Herk and Gil-Werman: the window's minimum is the
/// smaller of the running minimum since the current block of `window` frames began and the
/// previous block's minimum from the window's start on, so no frame branches on its data), the
/// release toward that minimum, and the moving average of the released gains over the
/// lookahead (a ring and its sum). The rings are the caller's memory.
typedef struct {
    double *needs;            ///< the current block's needs, by frame modulo `window`
    double *suffix;           ///< the previous block's minima from each frame to its end
    long window;              ///< frames the minimum spans
    long slot;                ///< the next frame's place in the block
    double prefix;            ///< the current block's minimum so far
    long unity_needs;         ///< frames in a row that needed no gain
    double *released;         ///< the last `attack_frames` released gains
    long attack_frames;
    long released_position;
    double released_sum;
    double released_gain;
    double release_step;      ///< how far the released gain rises toward the minimum each frame
    double ceiling;           ///< linear
    long unity_frames;        ///< frames in a row released at exactly 1
} aurender_limiter_gain;

/// Runs `frames` frames through a limiter's gain path: each frame needs ceiling / peaks[i]
/// when loud[i] and its peak is over the ceiling, else 1; the released gain follows the
/// window's minimum need (at once downward, by `release_step` upward, snapping to it within
/// 1e-9), and gains[i] becomes the average of the last `attack_frames` released gains.
void aurender_limiter_gains(aurender_limiter_gain *state, const float *peaks, const _Bool *loud, long frames,
                            float *gains);

/// Runs two biquad sections in series (the layout `aurender_biquad_pairs` reads, state updated)
/// over `frames` frames of two channels without writing them, adding each output's square to
/// `energy[0]` (left) and `energy[1]` (right) frame by frame, in double precision: a loudness
/// meter's K-weighted power. Each frame's operations do not depend on where a block begins,
/// so the state and the sums are the same however the stream is cut.
void aurender_two_biquad_energy(const float *left, const float *right, long frames, void *sections, double *energy);

/// Lowers `minimum` and raises `maximum` to the smallest and largest of `frames` frames of
/// `channel_count` channels, and adds each frame's squares, channel by channel, to
/// `sums[(phase + i) % 8]` (frame i) in single precision: with the stream's position modulo 8 as
/// `phase`, each sum sees its frames in stream order, so the sums do not depend on how the
/// stream was cut into blocks (a waveform outline's columns).
void aurender_outline_accumulate(const float *const *channels, int channel_count, long frames, long phase,
                                 float *minimum, float *maximum, float *sums);


/// A true-peak meter's pass over `frames` frames of one channel: raises `sample_peak` to their
/// largest magnitude and `point_peak` to the largest magnitude among their interpolated points
/// (frame i's, with `newest[i]` its newest sample: for each of the `phases` phases, |the sum over
/// k < taps of coefficients[phase × taps + k] × newest[i - taps + 1 + k]|, summed in that order,
/// as `aurender_interpolated_peaks` sums them). With `skips` non-zero, frames go in groups of 16,
/// and a group none of whose points can pass the larger peak so far is not interpolated: its
/// largest magnitude over the samples its points read, times `bound` (at least the largest sum
/// of a phase's absolute coefficients, a little over for rounding), is not above that peak. So the
/// peaks are the ones interpolating every frame gives, bit for bit. Returns the groups skipped.
/// `newest[-(taps - 1)]` onward must be readable.
long aurender_true_peak_scan(const float *newest, long frames, const float *coefficients, int phases, int taps, float bound,
                             int skips, float *sample_peak, float *point_peak);

/// Spectra for a partitioned convolution, in blocks of eight bins: eight real parts, then the
/// same eight bins' imaginary parts. Moves the first `bins` bins (a multiple of 8) of an
/// interleaved spectrum (re, im, re, im, …: FFTW's r2c output) into `blocked` (2 × bins floats).
void aurender_spectrum_to_blocks(const float *interleaved, long bins, float *blocked);

/// The inverse of `aurender_spectrum_to_blocks`: `bins` bins (a multiple of 8) back to interleaved.
void aurender_spectrum_from_blocks(const float *blocked, long bins, float *interleaved);

/// Writes into `sum` the sum of `terms` complex products x[t] × h[t], bin by bin, spectra in
/// blocks of eight bins (`bins` a multiple of 8): real parts x.re·h.re − x.im·h.im, imaginary
/// parts x.re·h.im + x.im·h.re, each rounded as written and added to the sum in term order,
/// so every instruction set gives the same bits. `sum` may not overlap the terms.
void aurender_spectra_multiply_sum(const float *const *x, const float *const *h, int terms, long bins, float *sum);

/// Allpass sections per branch of the 4x oversampler's first 2x half-band stage (at the base
/// rate) and of its second (at twice it).
enum { AURENDER_HALFBAND_FIRST_SECTIONS = 3, AURENDER_HALFBAND_SECOND_SECTIONS = 2 };

/// The two half-band stages' allpass coefficients, four lanes per section: branch 0's, branch
/// 1's, branch 0's, branch 1's (the lanes hold two channels' two branches).
typedef struct {
    float first[4 * AURENDER_HALFBAND_FIRST_SECTIONS];
    float second[4 * AURENDER_HALFBAND_SECOND_SECTIONS];
} aurender_halfband_stages;

/// One direction's running state for a pair of channels: each section's last input and output
/// per lane, and (going down) each channel's last high-rate sample of the frame before.
typedef struct {
    float first[8 * AURENDER_HALFBAND_FIRST_SECTIONS];
    float second[8 * AURENDER_HALFBAND_SECOND_SECTIONS];
    float last[2];
} aurender_halfband_state;

/// Interpolates `frames` base frames of two channels (`in[0]`, `in[1]`) by 4 through the two
/// stages: `phases[4c + p][i]` gets channel c's high-rate sample 4i + p.
void aurender_halfband_up4(const float *const *in, long frames, const aurender_halfband_stages *stages,
                           aurender_halfband_state *state, float *const *phases);

/// Decimates two channels' high-rate samples (laid out as `aurender_halfband_up4` writes them)
/// by 4 through the two stages into `frames` base frames at `out[0]`, `out[1]`.
void aurender_halfband_down4(const float *const *phases, long frames, const aurender_halfband_stages *stages,
                             aurender_halfband_state *state, float *const *out);

/// A clipper's state between blocks: the drive gain, tanh or hard clipping, and the last
/// high-rate driven sample with its antiderivative.
typedef struct {
    double gain;
    int hard;
    double last;
    double last_integral;
} aurender_clipper;

/// The antiderivative of a clipper's curve: log cosh x for tanh (by |x| − ln 2 + log(1 + e^(−2|x|)),
/// within 1e-10), x²/2 or |x| − 1/2 for hard clipping.
double aurender_clip_integral(double x, int hard);

/// Clips the four phases' `frames` high-rate frames in place, in high-rate order (sample 4i + p
/// is `phases[p][i]`), each driven sample replaced by the mean of the curve since the one
/// before (the difference of antiderivatives over the step; under a step of 0.01 the curve
/// at the middle), continuing from `clipper`'s last sample and leaving the block's last there.
void aurender_clip_antiderivative(float *const *phases, long frames, aurender_clipper *clipper);

#endif
