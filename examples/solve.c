/* solve.c: the two-bone IK solver alone (libik): pure C, no GL, no window, no shaders.
 *
 *     cc $(pkg-config --cflags ik) solve.c $(pkg-config --libs ik) -o solve
 *     ./solve
 *
 * The chain starts at the origin; bone 1 (length r1) ends at the joint x, bone 2 (length r2) at the
 * effector, which ik_solve2 puts on the target p when it can.
 */
#include <ikshade/ik.h>

#include <stdio.h>

static void show(const char *what, ik_vec2 p, float r1, float r2, const ik_opts *opts)
{
    ik_vec2 x, end;
    ik_status s = ik_solve2(p, r1, r2, opts, &x, &end);
    printf("%-28s p = (%g, %g), r1 = %g, r2 = %g -> %-10s joint (%.7g, %.7g), effector (%.7g, %.7g)\n", what,
           p.x, p.y, r1, r2, ik_status_name(s), x.x, x.y, end.x, end.y);
}

int main(void)
{
    /* Reached: the joint is where the circles |x| = 1 and |x - p| = 1 meet, on the left of 0 -> p. */
    show("reached", (ik_vec2){ 1, 1 }, 1, 1, NULL);
    /* The same target, the other solution: bend < 0 mirrors the joint across the line 0 -> p. */
    show("reached, bend -1", (ik_vec2){ 1, 1 }, 1, 1, &(ik_opts){ .bend = -1 });
    /* Out of reach: the bones keep their lengths and point straight at the target. */
    show("too far", (ik_vec2){ 3, 0 }, 1, 1, NULL);
    /* ...or stretch to it, as in Inigo Quilez's article. */
    show("too far, stretch", (ik_vec2){ 3, 0 }, 1, 1, &(ik_opts){ .stretch = 1 });
    /* Inside the inner ring |r1 - r2|: the chain folds. */
    show("too near", (ik_vec2){ 0.1f, 0 }, 1, 0.5f, NULL);
    /* No direction to work with: still a finite, documented answer. */
    show("degenerate", (ik_vec2){ 0, 0 }, 1, 1, NULL);
    return 0;
}
