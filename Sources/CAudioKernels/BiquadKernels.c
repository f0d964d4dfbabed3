// The EQ's biquad cascade over a pair of channels, both samples of a frame in one register of
// two Doubles, each frame through every section before the next. In C so that the AVX2
// instance uses three-operand instructions (no register copies); the arithmetic, and so every
// output bit, is the same on every path.
#include "AudioKernels.h"
#include "KernelDispatch.h"

typedef double pair __attribute__((vector_size(16)));

/// One section's coefficients and state, as `aurender_biquad_pairs` documents them.
typedef struct {
    pair b0, c1, c2, a1, a2, z1, z2;
} section;

/// `count` sections over the frames; inlined with a constant `count`, the state stays in registers.
INLINE void run_sections(float *left, float *right, long frames, section *restrict sections, int count) {
    pair z1[AURENDER_BIQUAD_UNROLLED], z2[AURENDER_BIQUAD_UNROLLED];
    for (int i = 0; i < count; i++) z1[i] = sections[i].z1, z2[i] = sections[i].z2;
    for (long f = 0; f < frames; f++) {
        pair x = {(double)left[f], (double)right[f]};
        for (int i = 0; i < count; i++) {
            const section *s = sections + i;
            pair state = z1[i];
            pair y = s->b0 * x + state;
            z1[i] = s->c1 * x + z2[i] - s->a1 * state;
            z2[i] = s->c2 * x - s->a2 * state;
            x = y;
        }
        right[f] = (float)x[1];
        left[f] = (float)x[0];
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

KERNEL(void, aurender_biquad_pairs,
       (float *left, float *right, long frames, void *sections, int count),
       (left, right, frames, sections, count),
       run_cascade(left, right, frames, (section *)sections, count);)
