// Compares the file-edge kernels' baseline and widest paths, built with the package's release
// flags: every output and count must be identical, on data with NaN, ±Inf, overs and exact
// halves of an LSB. Prints one line; exits 1 on any difference.
#include "AudioKernels.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { FRAMES = 10007, CHANNELS = 3 };

static float input[CHANNELS][FRAMES];

static float awkward(uint64_t *state) {
    *state ^= *state << 13, *state ^= *state >> 7, *state ^= *state << 17;
    float unit = (float)(*state >> 40) / (float)(1 << 24) * 2 - 1;
    switch (*state % 12) {
    case 0: return NAN;
    case 1: return (*state & 64) ? INFINITY : -INFINITY;
    case 2: return unit * 3;
    case 3: return ((float)(int)(unit * 30000) + 0.5f) / 32768.0f;
    case 4: return ((float)(int)(unit * 8000000) + 0.5f) / 8388608.0f;
    case 5: return (*state & 64) ? 1.0f : -1.0f;
    default: return unit;
    }
}

/// Runs every kernel on `channels` channels on the given path, writing everything they produce
/// into `record`, which the caller compares byte for byte.
static void run(int baseline, int channels, unsigned char *record, size_t *length) {
    static int16_t shorts[CHANNELS * FRAMES];
    static int32_t integers[CHANNELS * FRAMES];
    static float floats[CHANNELS * FRAMES], split[CHANNELS][FRAMES];
    const float *sources[CHANNELS] = {input[0], input[1], input[2]};
    float *destinations[CHANNELS] = {split[0], split[1], split[2]};
    aurender_kernels_use_baseline(baseline);
    *length = 0;
#define KEEP(what, size) (memcpy(record + *length, what, size), *length += (size))
    for (int dithered = 0; dithered < 2; dithered++) {
        for (int bits = 8; bits <= 32; bits += 8) {
            aurender_clip_stats stats = {0, 0, 0};
            aurender_dither_state dither = aurender_dither_seeded(7);
            if (bits <= 16) {
                aurender_quantize_s16(sources, channels, FRAMES, bits, shorts, &stats, dithered ? &dither : NULL);
                KEEP(shorts, sizeof(int16_t) * channels * FRAMES);
            }
            aurender_quantize_s32(sources, channels, FRAMES, bits, integers, &stats, dithered ? &dither : NULL);
            KEEP(integers, sizeof(int32_t) * channels * FRAMES);
            KEEP(&stats, sizeof stats);
        }
    }
    aurender_clip_stats stats = {0, 0, 0};
    aurender_interleave_float(sources, channels, FRAMES, floats, &stats);
    KEEP(floats, sizeof(float) * channels * FRAMES);
    KEEP(&stats, sizeof stats);
    aurender_deinterleave_float(floats, channels, FRAMES, destinations);
    for (int c = 0; c < channels; c++) KEEP(split[c], sizeof(float) * FRAMES);
    aurender_deinterleave_s16(shorts, channels, FRAMES, destinations);
    for (int c = 0; c < channels; c++) KEEP(split[c], sizeof(float) * FRAMES);
    double squares = aurender_sum_of_squares((const float *const *)destinations, channels, FRAMES);
    KEEP(&squares, sizeof squares);
#undef KEEP
}

int main(void) {
    static unsigned char narrow[64 << 20], wide[64 << 20];
    uint64_t state = 0x9E3779B97F4A7C15ull;
    for (int c = 0; c < CHANNELS; c++)
        for (int f = 0; f < FRAMES; f++) input[c][f] = awkward(&state);
    for (int channels = 1; channels <= CHANNELS; channels++) {
        size_t narrow_length, wide_length;
        run(1, channels, narrow, &narrow_length);
        run(0, channels, wide, &wide_length);
        if (narrow_length != wide_length || memcmp(narrow, wide, narrow_length) != 0) {
            printf("FAIL: the baseline and widest kernels differ with %d channels\n", channels);
            return 1;
        }
    }
    printf("baseline and widest kernel paths agree bit for bit (1 to %d channels, dithered and not, 8 to 32 bits)\n", CHANNELS);
    return 0;
}
