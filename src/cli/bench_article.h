/* bench_article.h: the baseline of `ikshade bench solver`, in a file of its own for its build flags. */
#ifndef IKS_BENCH_ARTICLE_H
#define IKS_BENCH_ARTICLE_H

#include <stddef.h>

/* The article's formula over n cases, one at a time: x = (w p + perp(p) sqrt(s)) 0.5 / h with
 * h = dot(p, p), w = h + r1^2 - r2^2, s = max(4 r1^2 h - w^2, 0). */
void iks_bench_article(size_t n, const float *px, const float *py, const float *r1, const float *r2, float *x,
                       float *y);

#endif
