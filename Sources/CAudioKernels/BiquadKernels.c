// The EQ's biquad cascade over a pair of channels, both samples of a frame in one register of
// two Doubles, each frame through every section before the next. The AVX2 instance runs the
// cascade as a two-stage pipeline in registers of four Doubles: the first half of the sections
// on frame f in the low pair while the second half runs on frame f - 1 in the high pair, so each
// instruction does the work of two sections. Every lane does the same operations in the same
// order as the baseline, so every output bit is the same on every path.
#include "AudioKernels.h"
#include "KernelDispatch.h"

typedef double pair __attribute__((vector_size(16)));
typedef double quad __attribute__((vector_size(32)));
typedef float floats2 __attribute__((vector_size(8)));
typedef float floats4 __attribute__((vector_size(16)));

/// One section's coefficients and state, as `aurender_biquad_pairs` documents them.
typedef struct {
    pair b0, c1, c2, a1, a2, z1, z2;
} section;

/// One section's recurrence on `x`, for pairs or quads of lanes: the output, with the state
/// `z1`, `z2` advanced. Written once so that every path rounds alike.
#define SECTION_STEP(NAME, LANES, ...)                                                            \
    __VA_ARGS__ INLINE LANES NAME(LANES x, LANES b0, LANES c1, LANES c2, LANES a1, LANES a2, LANES *z1, LANES *z2) { \
        LANES state = *z1;                                                                        \
        LANES y = b0 * x + state;                                                                 \
        *z1 = c1 * x + *z2 - a1 * state;                                                          \
        *z2 = c2 * x - a2 * state;                                                                \
        return y;                                                                                 \
    }
SECTION_STEP(step_pair, pair)

/// `x` through `s`, with its state in memory (the pipeline's first and last frames).
INLINE pair step_stored(pair x, section *s) { return step_pair(x, s->b0, s->c1, s->c2, s->a1, s->a2, &s->z1, &s->z2); }

INLINE pair read_frame(const float *left, const float *right, long f) { return (pair){(double)left[f], (double)right[f]}; }

/// Stores right first: when both point at one odd channel, the left lane is the one kept.
INLINE void write_frame(float *left, float *right, long f, pair y) {
    floats2 rounded = __builtin_convertvector(y, floats2);
    right[f] = rounded[1];
    left[f] = rounded[0];
}

/// `count` sections over the frames; inlined with a constant `count`, the state stays in registers.
INLINE void run_sections(float *left, float *right, long frames, section *restrict sections, int count) {
    pair z1[AURENDER_BIQUAD_UNROLLED], z2[AURENDER_BIQUAD_UNROLLED];
    for (int i = 0; i < count; i++) z1[i] = sections[i].z1, z2[i] = sections[i].z2;
    for (long f = 0; f < frames; f++) {
        pair x = read_frame(left, right, f);
        for (int i = 0; i < count; i++) {
            const section *s = sections + i;
            x = step_pair(x, s->b0, s->c1, s->c2, s->a1, s->a2, &z1[i], &z2[i]);
        }
        write_frame(left, right, f, x);
    }
    for (int i = 0; i < count; i++) sections[i].z1 = z1[i], sections[i].z2 = z2[i];
}

/// Runs `count` sections, in `AURENDER_BIQUAD_UNROLLED`-section batches when there are more.
INLINE void run_cascade(float *left, float *right, long frames, section *restrict sections, int count) {
    switch (count) {
#define CASE(N) case N: run_sections(left, right, frames, sections, N); return;
        CASE(1) CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10)
#undef CASE
    default:
        for (int first = 0; first < count; first += AURENDER_BIQUAD_UNROLLED) {
            int batch = count - first < AURENDER_BIQUAD_UNROLLED ? count - first : AURENDER_BIQUAD_UNROLLED;
            run_sections(left, right, frames, sections + first, batch);
        }
    }
}

#if HAS_WIDE_TARGET
SECTION_STEP(step_quad, quad, WIDE_TARGET)
WIDE_TARGET INLINE quad join(pair low, pair high) { return __builtin_shufflevector(low, high, 0, 1, 2, 3); }
WIDE_TARGET INLINE pair low_pair(quad q) { return __builtin_shufflevector(q, q, 0, 1); }
WIDE_TARGET INLINE pair high_pair(quad q) { return __builtin_shufflevector(q, q, 2, 3); }

/// `count` (2 or more) sections as a two-stage pipeline: the first `count / 2` sections (the
/// low pair of each quad) run on frame f beside the next `count / 2` (the high pair) on frame
/// f - 1; an odd last section runs on pairs after them. Frame 0 enters through the first half
/// alone and the last frame leaves through the second half alone, with the state in memory.
WIDE_TARGET INLINE void run_pipeline(float *left, float *right, long frames, section *restrict sections, int count) {
    enum { STAGES = AURENDER_BIQUAD_UNROLLED / 2 };
    const int half = count / 2, odd = count & 1;
    section *first = sections, *second = sections + half, *last = sections + 2 * half;
    pair carried = read_frame(left, right, 0);
    for (int i = 0; i < half; i++) carried = step_stored(carried, first + i);

    quad b0[STAGES], c1[STAGES], c2[STAGES], a1[STAGES], a2[STAGES], z1[STAGES], z2[STAGES];
    for (int i = 0; i < half; i++) {
        const section *low = first + i, *high = second + i;
        b0[i] = join(low->b0, high->b0), c1[i] = join(low->c1, high->c1), c2[i] = join(low->c2, high->c2);
        a1[i] = join(low->a1, high->a1), a2[i] = join(low->a2, high->a2);
        z1[i] = join(low->z1, high->z1), z2[i] = join(low->z2, high->z2);
    }
    pair last_z1 = odd ? last->z1 : (pair){0, 0}, last_z2 = odd ? last->z2 : (pair){0, 0};
    for (long f = 1; f < frames; f++) {
        quad x = join(read_frame(left, right, f), carried);
        for (int i = 0; i < half; i++) x = step_quad(x, b0[i], c1[i], c2[i], a1[i], a2[i], &z1[i], &z2[i]);
        carried = low_pair(x);
        if (odd) {
            write_frame(left, right, f - 1, step_pair(high_pair(x), last->b0, last->c1, last->c2, last->a1, last->a2,
                                                     &last_z1, &last_z2));
        } else {
            floats4 rounded = __builtin_convertvector(x, floats4);
            right[f - 1] = rounded[3];
            left[f - 1] = rounded[2];
        }
    }
    for (int i = 0; i < half; i++) {
        first[i].z1 = low_pair(z1[i]), first[i].z2 = low_pair(z2[i]);
        second[i].z1 = high_pair(z1[i]), second[i].z2 = high_pair(z2[i]);
    }
    if (odd) last->z1 = last_z1, last->z2 = last_z2;

    for (int i = 0; i < half; i++) carried = step_stored(carried, second + i);
    if (odd) carried = step_stored(carried, last);
    write_frame(left, right, frames - 1, carried);
}

/// Runs `count` (at most `AURENDER_BIQUAD_UNROLLED`) sections, through the pipeline if two or more.
WIDE_TARGET INLINE void run_pipelined_batch(float *left, float *right, long frames, section *restrict sections, int count) {
    switch (count) {
    case 1: run_sections(left, right, frames, sections, 1); return;
#define CASE(N) case N: run_pipeline(left, right, frames, sections, N); return;
        CASE(2) CASE(3) CASE(4) CASE(5) CASE(6) CASE(7) CASE(8) CASE(9) CASE(10)
#undef CASE
    }
}

/// As `run_cascade`, through the pipeline.
WIDE_TARGET INLINE void run_pipelined_cascade(float *left, float *right, long frames, section *restrict sections, int count) {
    for (int first = 0; first < count; first += AURENDER_BIQUAD_UNROLLED) {
        int batch = count - first < AURENDER_BIQUAD_UNROLLED ? count - first : AURENDER_BIQUAD_UNROLLED;
        run_pipelined_batch(left, right, frames, sections + first, batch);
    }
}

static void aurender_biquad_pairs_baseline(float *left, float *right, long frames, section *sections, int count) {
    run_cascade(left, right, frames, sections, count);
}

WIDE_TARGET static void aurender_biquad_pairs_wide(float *left, float *right, long frames, section *sections, int count) {
    run_pipelined_cascade(left, right, frames, sections, count);
}

void aurender_biquad_pairs(float *left, float *right, long frames, void *sections, int count) {
    if (frames <= 0) return;
    if (use_wide()) aurender_biquad_pairs_wide(left, right, frames, (section *)sections, count);
    else aurender_biquad_pairs_baseline(left, right, frames, (section *)sections, count);
}
#else
void aurender_biquad_pairs(float *left, float *right, long frames, void *sections, int count) {
    if (frames <= 0) return;
    run_cascade(left, right, frames, (section *)sections, count);
}
#endif

/// The K-weighting pair's energy on pairs: both sections on each frame in turn, then its square.
INLINE void two_section_energy(const float *left, const float *right, long frames, section *restrict s, double *energy) {
    pair z1a = s[0].z1, z2a = s[0].z2, z1b = s[1].z1, z2b = s[1].z2, sum = {energy[0], energy[1]};
    for (long f = 0; f < frames; f++) {
        pair x = step_pair(read_frame(left, right, f), s[0].b0, s[0].c1, s[0].c2, s[0].a1, s[0].a2, &z1a, &z2a);
        x = step_pair(x, s[1].b0, s[1].c1, s[1].c2, s[1].a1, s[1].a2, &z1b, &z2b);
        sum += x * x;
    }
    s[0].z1 = z1a, s[0].z2 = z2a, s[1].z1 = z1b, s[1].z2 = z2b;
    energy[0] = sum[0], energy[1] = sum[1];
}

#if HAS_WIDE_TARGET
/// As `two_section_energy`, as a two-stage pipeline: the first section on frame f in the low
/// pair beside the second on frame f - 1 in the high pair, whose squares the high pair of the
/// sum collects in frame order (the low pair's sum is not used).
WIDE_TARGET INLINE void two_section_energy_pipelined(const float *left, const float *right, long frames,
                                                     section *restrict s, double *energy) {
    pair carried = step_stored(read_frame(left, right, 0), s);
    quad b0 = join(s[0].b0, s[1].b0), c1 = join(s[0].c1, s[1].c1), c2 = join(s[0].c2, s[1].c2);
    quad a1 = join(s[0].a1, s[1].a1), a2 = join(s[0].a2, s[1].a2), z1 = join(s[0].z1, s[1].z1), z2 = join(s[0].z2, s[1].z2);
    quad sum = join((pair){0, 0}, (pair){energy[0], energy[1]});
    for (long f = 1; f < frames; f++) {
        quad x = step_quad(join(read_frame(left, right, f), carried), b0, c1, c2, a1, a2, &z1, &z2);
        carried = low_pair(x);
        sum += x * x;
    }
    s[0].z1 = low_pair(z1), s[0].z2 = low_pair(z2), s[1].z1 = high_pair(z1), s[1].z2 = high_pair(z2);
    pair last = step_stored(carried, s + 1), total = high_pair(sum) + last * last;
    energy[0] = total[0], energy[1] = total[1];
}

WIDE_TARGET static void two_biquad_energy_wide(const float *left, const float *right, long frames, section *s, double *energy) {
    two_section_energy_pipelined(left, right, frames, s, energy);
}
#endif

void aurender_two_biquad_energy(const float *left, const float *right, long frames, void *sections, double *energy) {
    if (frames <= 0) return;
#if HAS_WIDE_TARGET
    if (use_wide()) {
        two_biquad_energy_wide(left, right, frames, (section *)sections, energy);
        return;
    }
#endif
    two_section_energy(left, right, frames, (section *)sections, energy);
}
