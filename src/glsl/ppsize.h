/* ppsize.h: how many tokens the GLSL preprocessor makes of a text, its macros expanded, measured
 * without expanding them, then (when that is within the limit) counted by expanding them.
 *
 * Why: a few lines whose macros double at each level (`#define A1 A0+A0` ... `A21`) are millions of
 * tokens to the GL compiler, which recurses once per operator and overflowed even a 512 MiB stack
 * (a crash), or at forty levels expands for ever (gigabytes, a hang). The size of a macro's expansion
 * is an affine function of the sizes of its arguments, so each macro is measured once, as a constant
 * and a coefficient per parameter, and a text of any expansion is measured in time linear in it.
 *
 * Rescanning is followed where it makes calls: a function-like macro reached through an object-like
 * name, or passed as an argument and called in the body. Splices and lone-CR line ends are read as the
 * compiler reads them. A measure taken while another macro was busy is not reused outside it.
 *
 * An estimate, on the side of more: both branches of an #if are counted, #undef is not followed and a
 * redefined name counts as the larger of its definitions (either may stand in a skipped group), `#`
 * and `##` count as their operands do, and an operator of two characters as two tokens. A text that
 * needs more than 2e7 steps to measure counts as without measure.
 *
 * The measure cannot follow a call that a macro's expansion opens and the text after it closes
 * (`#define D H(H(x` then `D))`), so a text it finds within the limit is also expanded, as Mesa's
 * preprocessor would, and counted up to the limit; the larger count is the answer. That count follows
 * #undef. Arguments a body does not use count once in both: Mesa expands every argument.
 *
 * The expansion count follows the newest definition of a name, which a definition in an #if group the
 * preprocessor skips can fool; so the constructs only it can follow are refused (iks_pp_measure says
 * which macro and why): a call a macro's expansion opens and the text after it closes, a function-like
 * macro's expansion ending in a name the text after it calls, a name defined both with and without
 * parameters, and ## (no shadertoy.com shader has it: GLSL ES has none). Text only, no GL. */
#ifndef IKS_PPSIZE_H
#define IKS_PPSIZE_H

#include "base/err.h"

#include <stddef.h>

/* The expanded size of text (NUL-terminated) in tokens, or some number above limit once it is known
 * to be over it (up to 1e30 for a text that expands without measure). Out of memory counts as over. */
double iks_pp_tokens(const char *text, double limit);
/* The same, and when the text is refused for a construct neither count can bound (see ppsize.c:
 * refuse), refused gets IKS_E_FORMAT and why ("#define NAME ..."); it is left clear otherwise. */
double iks_pp_measure(const char *text, double limit, iks_err *refused);

#endif
