/* bench_article.c: the article's formula, the baseline `ikshade bench solver` holds the solver against.
 *
 * Built with libik's flags (-O3 -fno-math-errno -fno-trapping-math -ffp-contract=off; CMakeLists.txt),
 * so that max() is a maxss and sqrtf one instruction, as in the library: the baseline gets every
 * advantage the solver has. And with -fno-tree-vectorize: a program calls the formula once per limb,
 * as it calls ik_solve2; eight cases at a time is what ik_solve2_batch is for. */
#include "cli/bench_article.h"

#include <math.h>

void iks_bench_article(size_t n, const float *restrict px, const float *restrict py, const float *restrict r1,
                       const float *restrict r2, float *restrict x, float *restrict y)
{
    for (size_t i = 0; i < n; i++) {
        float h = px[i] * px[i] + py[i] * py[i];
        float w = h + r1[i] * r1[i] - r2[i] * r2[i];
        float s = 4.0f * r1[i] * r1[i] * h - w * w;
        /* max(s, 0), exactly (s + |s| is 2s or 0): GCC makes s > 0 ? s : 0 a branch around the square
         * root, mispredicted on a third of these cases, and fmaxf a call */
        float q = sqrtf(0.5f * (s + fabsf(s)));
        float k = 0.5f / h;
        x[i] = (w * px[i] - py[i] * q) * k;
        y[i] = (w * py[i] + px[i] * q) * k;
    }
}
