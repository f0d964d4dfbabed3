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

// Sequential by nature (each frame's release and average follow the last), so one instance;
// its state stays in registers across the block. The release is written as
// gain (1 - step) + minimum step, so a frame waits on one multiply and one add of the last.
void aurender_limiter_gains(aurender_limiter_gain *state, const float *peaks, const _Bool *loud, long frames,
                            float *gains) {
    double *restrict needs = state->needs, *restrict suffix = state->suffix, *restrict released = state->released;
    const long window = state->window, attack_frames = state->attack_frames;
    const double ceiling = state->ceiling, step = state->release_step, keep = 1 - step;
    const double inverse_attack = 1 / (double)attack_frames, close_enough = 1e-9;
    long slot = state->slot, position = state->released_position, unity = state->unity_frames;
    long unity_needs = state->unity_needs;
    double prefix = state->prefix, sum = state->released_sum, gain = state->released_gain;
    for (long i = 0; i < frames; i++) {
        const double peak = peaks[i];
        const double need = loud[i] && peak > ceiling ? ceiling / peak : 1;
        unity_needs = need == 1 ? unity_needs + 1 : 0;
        needs[slot] = need;
        prefix = slot == 0 || need < prefix ? need : prefix;
        double minimum = prefix;
        if (slot + 1 < window) {
            minimum = suffix[slot + 1] < prefix ? suffix[slot + 1] : prefix;
            slot++;
        } else {
            double least = needs[window - 1];
            for (long k = window - 1; k >= 0; k--) least = needs[k] < least ? needs[k] : least, suffix[k] = least;
            slot = 0;
        }
        gain = minimum - gain < close_enough ? minimum : gain * keep + minimum * step;
        unity = gain == 1 ? unity + 1 : 0;
        sum += gain - released[position];
        released[position] = gain;
        position = position + 1 == attack_frames ? 0 : position + 1;
        gains[i] = (float)(sum * inverse_attack);
    }
    state->slot = slot, state->prefix = prefix, state->unity_needs = unity_needs;
    state->released_position = position, state->unity_frames = unity;
    state->released_sum = sum, state->released_gain = gain;
}
