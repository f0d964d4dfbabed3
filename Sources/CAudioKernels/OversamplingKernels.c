// The 4x oversampler's two cascaded 2x half-band IIR stages (each a sum of two chains of
// first-order allpass sections in the polyphase domain), up and down, over blocks of frames of a
// pair of channels. One vector of four lanes holds both branches of both channels, so every
// section is one multiply and three adds for the four; the recursion runs frame by frame.
#include "AudioKernels.h"
#include "KernelDispatch.h"

typedef float floats4 __attribute__((vector_size(16)));

/// One allpass chain step per lane: section k maps its input v to a·(v − y₁) + x₁, where x₁
/// and y₁ are the section's last input and output; `state` holds x₁ then y₁ per section.
INLINE floats4 allpass(floats4 v, const floats4 *coefficients, floats4 *state, int sections) {
    for (int k = 0; k < sections; k++) {
        floats4 out = coefficients[k] * (v - state[2 * k + 1]) + state[2 * k];
        state[2 * k] = v;
        state[2 * k + 1] = out;
        v = out;
    }
    return v;
}

/// The two lanes' halves summed per channel: (v₀ + v₁)/2 in lane 0, (v₂ + v₃)/2 in lane 2.
INLINE floats4 pair_means(floats4 v) {
    floats4 swapped = __builtin_shufflevector(v, v, 1, 0, 3, 2);
    return (v + swapped) * (floats4){0.5f, 0.5f, 0.5f, 0.5f};
}

void aurender_halfband_up4(const float *const *in, long frames, const aurender_halfband_stages *stages,
                           aurender_halfband_state *state, float *const *phases) {
    floats4 c1[AURENDER_HALFBAND_FIRST_SECTIONS], c2[AURENDER_HALFBAND_SECOND_SECTIONS];
    floats4 s1[2 * AURENDER_HALFBAND_FIRST_SECTIONS], s2[2 * AURENDER_HALFBAND_SECOND_SECTIONS];
    __builtin_memcpy(c1, stages->first, sizeof c1);
    __builtin_memcpy(c2, stages->second, sizeof c2);
    __builtin_memcpy(s1, state->first, sizeof s1);
    __builtin_memcpy(s2, state->second, sizeof s2);
    const float *in0 = in[0], *in1 = in[1];
    float *a0 = phases[0], *a1 = phases[1], *a2 = phases[2], *a3 = phases[3];
    float *b0 = phases[4], *b1 = phases[5], *b2 = phases[6], *b3 = phases[7];
    for (long i = 0; i < frames; i++) {
        // Lanes: channel 0's branches 0 and 1, channel 1's; branch 0 gives the even output, 1 the odd.
        floats4 twice = allpass((floats4){in0[i], in0[i], in1[i], in1[i]}, c1, s1, AURENDER_HALFBAND_FIRST_SECTIONS);
        floats4 even = allpass(__builtin_shufflevector(twice, twice, 0, 0, 2, 2), c2, s2, AURENDER_HALFBAND_SECOND_SECTIONS);
        floats4 odd = allpass(__builtin_shufflevector(twice, twice, 1, 1, 3, 3), c2, s2, AURENDER_HALFBAND_SECOND_SECTIONS);
        a0[i] = even[0], a1[i] = even[1], a2[i] = odd[0], a3[i] = odd[1];
        b0[i] = even[2], b1[i] = even[3], b2[i] = odd[2], b3[i] = odd[3];
    }
    __builtin_memcpy(state->first, s1, sizeof s1);
    __builtin_memcpy(state->second, s2, sizeof s2);
}

void aurender_halfband_down4(const float *const *phases, long frames, const aurender_halfband_stages *stages,
                             aurender_halfband_state *state, float *const *out) {
    floats4 c1[AURENDER_HALFBAND_FIRST_SECTIONS], c2[AURENDER_HALFBAND_SECOND_SECTIONS];
    floats4 s1[2 * AURENDER_HALFBAND_FIRST_SECTIONS], s2[2 * AURENDER_HALFBAND_SECOND_SECTIONS];
    __builtin_memcpy(c1, stages->first, sizeof c1);
    __builtin_memcpy(c2, stages->second, sizeof c2);
    __builtin_memcpy(s1, state->first, sizeof s1);
    __builtin_memcpy(s2, state->second, sizeof s2);
    const float *a0 = phases[0], *a1 = phases[1], *a2 = phases[2], *a3 = phases[3];
    const float *b0 = phases[4], *b1 = phases[5], *b2 = phases[6], *b3 = phases[7];
    float last0 = state->last[0], last1 = state->last[1];
    float *out0 = out[0], *out1 = out[1];
    for (long i = 0; i < frames; i++) {
        // Second stage: half-rate sample 2i from high-rate 4i (branch 0) and 4i − 1 (branch 1),
        // 2i + 1 from 4i + 2 and 4i + 1.
        floats4 first = pair_means(allpass((floats4){a0[i], last0, b0[i], last1}, c2, s2, AURENDER_HALFBAND_SECOND_SECTIONS));
        floats4 second = pair_means(allpass((floats4){a2[i], a1[i], b2[i], b1[i]}, c2, s2, AURENDER_HALFBAND_SECOND_SECTIONS));
        last0 = a3[i], last1 = b3[i];
        // First stage: base frame i from half-rate 2i + 1 (branch 0) and 2i (branch 1).
        floats4 frame = pair_means(allpass((floats4){second[0], first[0], second[2], first[2]}, c1, s1, AURENDER_HALFBAND_FIRST_SECTIONS));
        out0[i] = frame[0], out1[i] = frame[2];
    }
    state->last[0] = last0, state->last[1] = last1;
    __builtin_memcpy(state->first, s1, sizeof s1);
    __builtin_memcpy(state->second, s2, sizeof s2);
}

/// e^t for −700 ≤ t ≤ 0 in double: t = k ln 2 + r with |r| ≤ ln 2 / 2, e^r by its Taylor
/// series to r¹¹ (relative error under 1e-14), times 2^k built in the exponent bits.
INLINE double exp_nonpositive(double t) {
    const double magic = 0x1.8p52, ln2_high = 0x1.62e42fee00000p-1, ln2_low = 0x1.a39ef35793c76p-33;
    double shifted = t * 0x1.71547652b82fep0 + magic, k = shifted - magic;
    double r = (t - k * ln2_high) - k * ln2_low;
    double p = 1.0 / 39916800;
    p = p * r + 1.0 / 3628800;
    p = p * r + 1.0 / 362880;
    p = p * r + 1.0 / 40320;
    p = p * r + 1.0 / 5040;
    p = p * r + 1.0 / 720;
    p = p * r + 1.0 / 120;
    p = p * r + 1.0 / 24;
    p = p * r + 1.0 / 6;
    p = p * r + 0.5;
    p = p * r + 1;
    p = p * r + 1;
    int64_t bits;
    __builtin_memcpy(&bits, &shifted, sizeof bits);
    int64_t scale_bits = (bits - 0x8000000000000 + 1023) << 52;
    double scale;
    __builtin_memcpy(&scale, &scale_bits, sizeof scale);
    return p * scale;
}

/// e^(−2|x|), held at e^(−700) from |x| = 350 on (where it no longer matters beside 1).
INLINE double decay(double x) {
    double magnitude = __builtin_fabs(x);
    return exp_nonpositive(-2 * (magnitude < 350 ? magnitude : 350));
}

/// log cosh x = |x| − ln 2 + log(1 + u) with u = e^(−2|x|) given; log(1 + u) = 2 atanh(u / (2 + u)),
/// whose series in s = u / (2 + u) ≤ 1/3 is within 1e-10 by s¹⁷.
INLINE double log_cosh(double x, double u) {
    const double ln2 = 0.69314718055994530942;
    double s = u / (2 + u), s2 = s * s;
    double series = 1 + s2 * (1.0 / 3 + s2 * (1.0 / 5 + s2 * (1.0 / 7 + s2 * (1.0 / 9 + s2 * (1.0 / 11 + s2 * (1.0 / 13 + s2 * (1.0 / 15 + s2 / 17)))))));
    return __builtin_fabs(x) - ln2 + 2 * s * series;
}

INLINE double hard_integral(double x) {
    double magnitude = __builtin_fabs(x);
    return magnitude <= 1 ? x * x / 2 : magnitude - 0.5;
}

double aurender_clip_integral(double x, int hard) { return hard ? hard_integral(x) : log_cosh(x, decay(x)); }

/// Frames of high-rate quadruples a clipper block's scratch (on the stack) holds.
enum { CLIP_BLOCK = 128 };

/// `frames` (at most `CLIP_BLOCK`) frames of the four phases from `start` through the clipper.
INLINE void clip_block(float *const *phases, long start, long frames, aurender_clipper *c) {
    // Each phase's driven samples, their decays and antiderivatives, one slot ahead of the frame,
    // so that slot 0 of phase 0's predecessor (phase 3) is the sample before the block.
    double x[4][CLIP_BLOCK + 1], u[4][CLIP_BLOCK + 1], integral[4][CLIP_BLOCK + 1];
    const double gain = c->gain;
    const int hard = c->hard;
    x[3][0] = c->last, u[3][0] = decay(c->last), integral[3][0] = c->last_integral;
    for (int p = 0; p < 4; p++) {
        const float *high = phases[p] + start;
        if (hard) {
            for (long i = 0; i < frames; i++) {
                double driven = gain * (double)high[i];
                x[p][i + 1] = driven;
                integral[p][i + 1] = hard_integral(driven);
            }
        } else {
            for (long i = 0; i < frames; i++) {
                double driven = gain * (double)high[i], decayed = decay(driven);
                x[p][i + 1] = driven;
                u[p][i + 1] = decayed;
                integral[p][i + 1] = log_cosh(driven, decayed);
            }
        }
    }
    for (int p = 0; p < 4; p++) {
        const long before = p == 0 ? 0 : 1;
        const double *x0 = p == 0 ? x[3] : x[p - 1], *u0 = p == 0 ? u[3] : u[p - 1], *i0 = p == 0 ? integral[3] : integral[p - 1];
        float *high = phases[p] + start;
        // Under the smallest step the mean of the curve is its value at the middle: tanh there
        // is (1 − v)/(1 + v) with v = e^(−|x + x0|) = √(u·u0) for samples of one sign, √(min/max)
        // else, that is (q − w)/(q + w) with w = √(u·u0) and q = 1, or q = max: the same one
        // division as the mean's, chosen before it.
        if (hard) {
            for (long i = 0; i < frames; i++) {
                double a = x0[i + before], b = x[p][i + 1], step = b - a, middle = (a + b) / 2;
                double clipped = middle < -1 ? -1 : middle > 1 ? 1 : middle;
                double mean = (integral[p][i + 1] - i0[i + before]) / step;
                high[i] = (float)(__builtin_fabs(step) < 0.01 ? clipped : mean);
            }
        } else {
            for (long i = 0; i < frames; i++) {
                double a = x0[i + before], b = x[p][i + 1], step = b - a, middle = (a + b) / 2;
                double ua = u0[i + before], ub = u[p][i + 1];
                double q = (a < 0) == (b < 0) ? 1 : (ua < ub ? ub : ua), w = __builtin_elementwise_sqrt(ua * ub);
                double difference = middle < 0 ? w - q : q - w;
                int small = __builtin_fabs(step) < 0.01;
                double numerator = small ? difference : integral[p][i + 1] - i0[i + before];
                high[i] = (float)(numerator / (small ? q + w : step));
            }
        }
    }
    c->last = x[3][frames], c->last_integral = integral[3][frames];
}

KERNEL(void, aurender_clip_antiderivative, (float *const *phases, long frames, aurender_clipper *clipper),
       (phases, frames, clipper),
       for (long start = 0; start < frames; start += CLIP_BLOCK) {
           long count = frames - start < CLIP_BLOCK ? frames - start : CLIP_BLOCK;
           clip_block(phases, start, count, clipper);
       })
