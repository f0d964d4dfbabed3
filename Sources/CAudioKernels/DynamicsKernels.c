// The dynamics processors' per-sample work, over blocks: the compressor's level detector and
// static curve, and the oversampling filter a true-peak limiter measures with. Each splits into
// loops over a block that vectorize (levels, the curve's logarithm and power, the gain, every
// interpolated point) around the one step that cannot (the envelope's recurrence), and every
// lane does a frame's operations in the frame's own order, so each path gives the same bits.
#include "AudioKernels.h"
#include "KernelDispatch.h"

/// Frames a block's scratch (on the stack) holds.
enum { DYNAMICS_BLOCK = 256 };

/// `frames` (at most `DYNAMICS_BLOCK`) frames from `start` through the compressor.
INLINE void compress_block(float *const *channels, int channel_count, long start, long frames,
                           const aurender_compressor *c, float *envelope) {
    float level[DYNAMICS_BLOCK], rising[DYNAMICS_BLOCK], falling[DYNAMICS_BLOCK], gain[DYNAMICS_BLOCK];
    for (long i = 0; i < frames; i++) level[i] = 0;
    if (c->rms) {
        const float scale = 1.0f / (float)channel_count;
        for (int channel = 0; channel < channel_count; channel++) {
            const float *restrict x = channels[channel] + start;
            for (long i = 0; i < frames; i++) level[i] += x[i] * x[i];
        }
        for (long i = 0; i < frames; i++) level[i] *= scale;
    } else {
        for (int channel = 0; channel < channel_count; channel++) {
            const float *restrict x = channels[channel] + start;
            for (long i = 0; i < frames; i++) {
                float magnitude = __builtin_fabsf(x[i]);
                level[i] = magnitude > level[i] ? magnitude : level[i];
            }
        }
    }
    const float attack = c->attack, release = c->release, toward_rising = 1 - attack, toward_falling = 1 - release;
    for (long i = 0; i < frames; i++) rising[i] = toward_rising * level[i], falling[i] = toward_falling * level[i];

    // The recurrence: both candidates come off the previous envelope at once, so each frame
    // waits on one multiply, one add and a select.
    float e = *envelope;
    for (long i = 0; i < frames; i++) {
        float up = attack * e + rising[i], down = release * e + falling[i];
        e = level[i] > e ? up : down;
        level[i] = e;
    }
    *envelope = e;

    const float half_knee = c->knee_db / 2, knee_scale = c->knee_db > 0 ? c->slope / (2 * c->knee_db) : 0;
    const float octaves_per_decibel = (float)(1 / (20 * 0.30102999566398120));
    // Forced: the cost model balks at the conversions, yet eight frames a vector pay. The loop
    // has no reduction, so each lane computes its frame exactly as the scalar loop would.
#pragma clang loop vectorize(enable) vectorize_width(8)
    for (long i = 0; i < frames; i++) {
        float detected = level[i];
        float over = c->decibels_per_octave * aurender_fast_log2(detected) - c->threshold_db;
        float into = over + half_knee;
        float reduction = 2 * over <= c->knee_db ? knee_scale * into * into : c->slope * over;
        float curved = aurender_fast_exp2(reduction * octaves_per_decibel + c->makeup_octaves);
        gain[i] = detected > c->knee_start ? curved : c->makeup_gain;
    }
    for (int channel = 0; channel < channel_count; channel++) {
        float *restrict x = channels[channel] + start;
        for (long i = 0; i < frames; i++) x[i] *= gain[i];
    }
}

KERNEL(void, aurender_compress,
       (float *const *channels, int channel_count, long frames, const aurender_compressor *compressor, float *envelope),
       (channels, channel_count, frames, compressor, envelope),
       for (long start = 0; start < frames; start += DYNAMICS_BLOCK) {
           long count = frames - start < DYNAMICS_BLOCK ? frames - start : DYNAMICS_BLOCK;
           compress_block(channels, channel_count, start, count, compressor, envelope);
       })

typedef float floats8 __attribute__((vector_size(32)));
// The helpers on eight floats are always inlined, so no call passes one in an AVX register
// that a baseline caller would pass in two; clang's warning about that ABI does not apply.
#pragma clang diagnostic ignored "-Wpsabi"

INLINE floats8 load8(const float *p) {
    floats8 v;
    __builtin_memcpy(&v, p, sizeof v);
    return v;
}

INLINE floats8 magnitude8(floats8 v) {
    typedef int32_t ints8 __attribute__((vector_size(32)));
    return (floats8)((ints8)v & 0x7FFFFFFF);
}

INLINE floats8 larger8(floats8 a, floats8 b) {
    typedef int32_t ints8 __attribute__((vector_size(32)));
    ints8 keep = a > b;
    return (floats8)((keep & (ints8)a) | (~keep & (ints8)b));
}

/// One phase's points over the frames, eight frames a vector, each lane one frame summing its
/// taps in the scalar frame's order; inlined with a constant `taps`, the coefficients stay in
/// registers across the frames.
INLINE void phase_peaks(const float *newest, long frames, const float *c, int taps, float *peaks) {
    const float *oldest = newest - (taps - 1);
    long i = 0;
    // Four vectors at once, so four chains of additions overlap.
    for (; i + 32 <= frames; i += 32) {
        floats8 sum0 = {0}, sum1 = {0}, sum2 = {0}, sum3 = {0};
        for (int k = 0; k < taps; k++) {
            const float *tap = oldest + i + k;
            sum0 += c[k] * load8(tap);
            sum1 += c[k] * load8(tap + 8);
            sum2 += c[k] * load8(tap + 16);
            sum3 += c[k] * load8(tap + 24);
        }
        floats8 peak0 = larger8(magnitude8(sum0), load8(peaks + i)), peak1 = larger8(magnitude8(sum1), load8(peaks + i + 8));
        floats8 peak2 = larger8(magnitude8(sum2), load8(peaks + i + 16)), peak3 = larger8(magnitude8(sum3), load8(peaks + i + 24));
        __builtin_memcpy(peaks + i, &peak0, sizeof peak0);
        __builtin_memcpy(peaks + i + 8, &peak1, sizeof peak1);
        __builtin_memcpy(peaks + i + 16, &peak2, sizeof peak2);
        __builtin_memcpy(peaks + i + 24, &peak3, sizeof peak3);
    }
    for (; i + 8 <= frames; i += 8) {
        floats8 sum = {0};
        for (int k = 0; k < taps; k++) sum += c[k] * load8(oldest + i + k);
        floats8 peak = larger8(magnitude8(sum), load8(peaks + i));
        __builtin_memcpy(peaks + i, &peak, sizeof peak);
    }
    for (; i < frames; i++) {
        float sum = 0;
        for (int k = 0; k < taps; k++) sum += c[k] * oldest[i + k];
        float magnitude = __builtin_fabsf(sum);
        peaks[i] = magnitude > peaks[i] ? magnitude : peaks[i];
    }
}

/// Every frame's largest magnitude among its reach sample and its points, phase by phase.
INLINE void interpolated_peaks(const float *newest, long frames, long reach, const float *coefficients, int phases,
                               int taps, float *peaks) {
    for (long i = 0; i < frames; i++) {
        float sample = __builtin_fabsf(newest[i - reach]);
        peaks[i] = sample > peaks[i] ? sample : peaks[i];
    }
    for (int phase = 0; phase < phases; phase++) {
        const float *c = coefficients + (long)phase * taps;
        switch (taps) {
        case 12: phase_peaks(newest, frames, c, 12, peaks); break;  // 4× oversampling, under 96 kHz
        case 24: phase_peaks(newest, frames, c, 24, peaks); break;  // 2×, under 192 kHz
        default: phase_peaks(newest, frames, c, taps, peaks);
        }
    }
}

KERNEL(void, aurender_interpolated_peaks,
       (const float *newest, long frames, long reach, const float *coefficients, int phases, int taps, float *peaks),
       (newest, frames, reach, coefficients, phases, taps, peaks),
       interpolated_peaks(newest, frames, reach, coefficients, phases, taps, peaks);)

/// Frames `aurender_mark_loud` takes at a time, and the longest reach it ORs in vectors.
enum { LOUD_BLOCK = 256, LOUD_REACH = 64 };

/// `frames` (at most `LOUD_BLOCK`) frames of `aurender_mark_loud`: whether each frame is at or
/// over the level (hot) goes into a row of bytes after the `reach - 1` frames before the block,
/// of which only the last hot one can be (only it matters), then each frame ORs its reach.
INLINE _Bool mark_loud_block(const float *restrict levels, long frames, float quiet_level, long reach,
                             long *quiet_frames, _Bool *restrict loud) {
    unsigned char hot[LOUD_REACH + LOUD_BLOCK];
    const long before = reach - 1, quiet = *quiet_frames;
    for (long k = 0; k < before; k++) hot[k] = before - 1 - k == quiet;
    unsigned char *restrict now = hot + before;
    for (long i = 0; i < frames; i++) now[i] = levels[i] >= quiet_level;
    // The last hot frame, from the end, eight frames a word while they are all cool.
    long last = frames - 1;
    while (last >= 7) {
        uint64_t word;
        __builtin_memcpy(&word, now + last - 7, sizeof word);
        if (word != 0) break;
        last -= 8;
    }
    while (last >= 0 && !now[last]) last--;
    // Each frame ORs the `reach` flags ending at it: spans of 1, 2, 4, … flags (row[i] the OR of
    // the `span` ending at i, from i = span - 1 on), then two spans that together cover `reach`.
    unsigned char rows[2][LOUD_REACH + LOUD_BLOCK];
    const unsigned char *restrict row = hot;
    const long total = before + frames;
    long span = 1;
    for (int next = 0; 2 * span <= reach; next ^= 1) {
        unsigned char *restrict wider = rows[next];
        for (long i = 2 * span - 1; i < total; i++) wider[i] = row[i] | row[i - span];
        row = wider;
        span *= 2;
    }
    unsigned char *restrict marks = (unsigned char *)loud;
    const unsigned char *restrict ending = row + before, *restrict starting = row + before - (reach - span);
    for (long i = 0; i < frames; i++) marks[i] = ending[i] | starting[i];
    unsigned char any = 0;
    for (long i = 0; i < frames; i++) any |= marks[i];
    const long limit = (long)1 << 62;
    *quiet_frames = last >= 0 ? frames - 1 - last : (quiet < limit ? quiet + frames : quiet);
    return any != 0;
}

/// The same, frame by frame: a count of frames since the last hot one.
INLINE _Bool mark_loud_frames(const float *levels, long frames, float quiet_level, long reach, long *quiet_frames,
                              _Bool *loud) {
    long quiet = *quiet_frames;
    _Bool any = 0;
    for (long i = 0; i < frames; i++) {
        quiet = levels[i] >= quiet_level ? 0 : (quiet < ((long)1 << 62) ? quiet + 1 : quiet);
        loud[i] = quiet < reach;
        any |= loud[i];
    }
    *quiet_frames = quiet;
    return any;
}

KERNEL(_Bool, aurender_mark_loud,
       (const float *levels, long frames, float quiet_level, long reach, long *quiet_frames, _Bool *loud),
       (levels, frames, quiet_level, reach, quiet_frames, loud),
       if (reach < 1 || reach > LOUD_REACH) return mark_loud_frames(levels, frames, quiet_level, reach, quiet_frames, loud);
       _Bool any = 0;
       for (long start = 0; start < frames; start += LOUD_BLOCK) {
           long count = frames - start < LOUD_BLOCK ? frames - start : LOUD_BLOCK;
           any |= mark_loud_block(levels + start, count, quiet_level, reach, quiet_frames, loud + start);
       }
       return any;)

/// Frames the gain path takes at a time: its scratch is on the stack.
enum { GAIN_BLOCK = 256 };

/// Each frame's need: ceiling / its peak when it is loud and its peak is over the ceiling, else 1.
INLINE void frame_needs(const float *restrict peaks, const _Bool *restrict loud, long frames, double ceiling,
                        double *restrict need) {
    for (long i = 0; i < frames; i++) {
        const double peak = peaks[i], ratio = ceiling / peak;
        need[i] = (loud[i] & (peak > ceiling)) ? ratio : 1;
    }
}

/// Frames at the end of `values` equal to 1: the last other's index as a maximum, so it vectorizes.
INLINE long trailing_ones(const double *restrict values, long frames) {
    long last = -1;
    for (long i = 0; i < frames; i++) {
        const long other = values[i] != 1 ? i : -1;
        last = other > last ? other : last;
    }
    return frames - 1 - last;
}

/// The window's minimum need at each frame into `minimum`, van Herk–Gil-Werman: within a run of
/// frames that stays in one block of `window` frames, a running minimum (the prefix), then the
/// smaller of it and the previous block's minimum from the next slot on (the suffix, remade
/// when a block fills). Minima are exact, so this gives the frame-by-frame loop's values.
INLINE void window_minima(aurender_limiter_gain *state, const double *restrict need, long frames,
                          double *restrict minimum) {
    double *restrict needs = state->needs, *restrict suffix = state->suffix;
    const long window = state->window;
    long slot = state->slot;
    double prefix = state->prefix;
    for (long i = 0; i < frames;) {
        const long run = window - slot < frames - i ? window - slot : frames - i;
        if (slot == 0) prefix = need[i];
        for (long j = 0; j < run; j++) {
            const double value = need[i + j];
            needs[slot + j] = value;
            prefix = value < prefix ? value : prefix;
            minimum[i + j] = prefix;
        }
        // The window's last slot has no suffix after it: its minimum is the prefix alone.
        const long paired = slot + run < window ? run : run - 1;
        const double *restrict later = suffix + slot + 1;
        double *restrict out = minimum + i;
        for (long j = 0; j < paired; j++) out[j] = later[j] < out[j] ? later[j] : out[j];
        slot += run;
        i += run;
        if (slot == window) {
            double least = needs[window - 1];
            for (long k = window - 1; k >= 0; k--) least = needs[k] < least ? needs[k] : least, suffix[k] = least;
            slot = 0;
        }
    }
    state->slot = slot, state->prefix = prefix;
}

/// `frames` (at most `GAIN_BLOCK`) frames through the gain path. The needs, the minima and the
/// release's target term come out of loops over the block; what is left frame by frame is the
/// release (one multiply and one add of the last gain, written gain (1 - step) + minimum step)
/// and the average's running sum, each frame's operations as the plain loop does them.
INLINE void gain_block(aurender_limiter_gain *state, const float *peaks, const _Bool *loud, long frames, float *gains) {
    double need[GAIN_BLOCK], minimum[GAIN_BLOCK], target[GAIN_BLOCK];
    frame_needs(peaks, loud, frames, state->ceiling, need);
    const long settled_needs = trailing_ones(need, frames);
    state->unity_needs = settled_needs == frames ? state->unity_needs + frames : settled_needs;
    window_minima(state, need, frames, minimum);

    const double step = state->release_step, keep = 1 - step, close_enough = 1e-9;
    for (long i = 0; i < frames; i++) target[i] = minimum[i] * step;
    const long attack_frames = state->attack_frames;
    long position = state->released_position;
    double sum = state->released_sum, gain = state->released_gain;
    // In runs that do not wrap around the average's ring; `need` takes the released gains,
    // `target` the running sums.
    for (long i = 0; i < frames;) {
        const long run = attack_frames - position < frames - i ? attack_frames - position : frames - i;
        double *restrict released = state->released + position;
        for (long j = i; j < i + run; j++) {
            gain = minimum[j] - gain < close_enough ? minimum[j] : gain * keep + target[j];
            sum += gain - *released;
            *released++ = gain;
            need[j] = gain;
            target[j] = sum;
        }
        i += run;
        position = position + run == attack_frames ? 0 : position + run;
    }
    const double inverse_attack = 1 / (double)attack_frames;
    for (long i = 0; i < frames; i++) gains[i] = (float)(target[i] * inverse_attack);
    const long settled = trailing_ones(need, frames);
    state->unity_frames = settled == frames ? state->unity_frames + frames : settled;
    state->released_position = position, state->released_sum = sum, state->released_gain = gain;
}

KERNEL(void, aurender_limiter_gains,
       (aurender_limiter_gain *state, const float *peaks, const _Bool *loud, long frames, float *gains),
       (state, peaks, loud, frames, gains),
       for (long start = 0; start < frames; start += GAIN_BLOCK) {
           long count = frames - start < GAIN_BLOCK ? frames - start : GAIN_BLOCK;
           gain_block(state, peaks + start, loud + start, count, gains + start);
       })
