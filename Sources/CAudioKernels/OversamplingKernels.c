// The 4x oversampler's two polyphase FIRs over blocks of frames: the interpolator computes each
// phase's taps only (never the stuffed zeros), the decimator each base frame only (never the
// three high-rate samples it drops). Each vector lane is one frame summing its taps in the
// scalar frame's order, so every path (and the scalar tail) gives the same bits.
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

/// One sub-filter over frames from `i`, added into `sums` (32 frames, four vectors): each tap is
/// read once for the 32 frames, each frame adding its taps in order.
INLINE void taps32(const float *x, const float *c, int count, floats8 sums[4]) {
    floats8 s0 = sums[0], s1 = sums[1], s2 = sums[2], s3 = sums[3];
    for (int k = 0; k < count; k++) {
        float tap = c[k];
        s0 += tap * load8(x + k);
        s1 += tap * load8(x + k + 8);
        s2 += tap * load8(x + k + 16);
        s3 += tap * load8(x + k + 24);
    }
    sums[0] = s0, sums[1] = s1, sums[2] = s2, sums[3] = s3;
}

/// As `taps32`, for 8 frames.
INLINE floats8 taps8(const float *x, const float *c, int count, floats8 sum) {
    for (int k = 0; k < count; k++) sum += c[k] * load8(x + k);
    return sum;
}

/// As `taps32`, for one frame.
INLINE float taps1(const float *x, const float *c, int count, float sum) {
    for (int k = 0; k < count; k++) sum += c[k] * x[k];
    return sum;
}

INLINE void polyphase_up(const float *oldest, long frames, const float *taps, int count, float *const *phases) {
    for (int phase = 0; phase < 4; phase++) {
        const float *c = taps + phase * count;
        float *out = phases[phase];
        long i = 0;
        for (; i + 32 <= frames; i += 32) {
            floats8 sums[4] = {{0}, {0}, {0}, {0}};
            taps32(oldest + i, c, count, sums);
            for (int v = 0; v < 4; v++) store8(out + i + 8 * v, sums[v]);
        }
        for (; i + 8 <= frames; i += 8) store8(out + i, taps8(oldest + i, c, count, (floats8){0}));
        for (; i < frames; i++) out[i] = taps1(oldest + i, c, count, 0);
    }
}

INLINE void polyphase_down(const float *const *oldest, long frames, const float *taps, int count, float *out) {
    long i = 0;
    for (; i + 32 <= frames; i += 32) {
        floats8 sums[4] = {{0}, {0}, {0}, {0}};
        for (int phase = 0; phase < 4; phase++) taps32(oldest[phase] + i, taps + phase * count, count, sums);
        for (int v = 0; v < 4; v++) store8(out + i + 8 * v, sums[v]);
    }
    for (; i + 8 <= frames; i += 8) {
        floats8 sum = {0};
        for (int phase = 0; phase < 4; phase++) sum = taps8(oldest[phase] + i, taps + phase * count, count, sum);
        store8(out + i, sum);
    }
    for (; i < frames; i++) {
        float sum = 0;
        for (int phase = 0; phase < 4; phase++) sum = taps1(oldest[phase] + i, taps + phase * count, count, sum);
        out[i] = sum;
    }
}

KERNEL(void, aurender_polyphase_up, (const float *oldest, long frames, const float *taps, int count, float *const *phases),
       (oldest, frames, taps, count, phases), polyphase_up(oldest, frames, taps, count, phases);)

KERNEL(void, aurender_polyphase_down, (const float *const *oldest, long frames, const float *taps, int count, float *out),
       (oldest, frames, taps, count, out), polyphase_down(oldest, frames, taps, count, out);)

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
        // is (1 − v)/(1 + v) with v = e^(−|x + x0|) = √(u·u0) for samples of one sign, √(min/max) else.
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
                double smaller = ua < ub ? ua : ub, larger = ua < ub ? ub : ua;
                double v = __builtin_elementwise_sqrt((a < 0) == (b < 0) ? ua * ub : smaller / larger);
                double magnitude = (1 - v) / (1 + v), tanh_middle = middle < 0 ? -magnitude : magnitude;
                double mean = (integral[p][i + 1] - i0[i + before]) / step;
                high[i] = (float)(__builtin_fabs(step) < 0.01 ? tanh_middle : mean);
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
