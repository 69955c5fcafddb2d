/* demos.c: the toys that ship with ikshade, by name: one table that the command line (`ikshade demos`,
 * a name where a toy goes) and the Python package (ikshade.Toy("creature")) both read, so that a demo
 * added here is one everywhere. Only names and where their files are: what a bare name means beside a
 * file of the user's is the caller's rule (src/cli/cmd_demos.c). The lines say what a demo shows,
 * in the library's words: no command-line option in them (tests/test_layers.py). */
#include "ikshade/ikshade.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    const char *path;  /* relative to the shaders directory's parent: shaders/... or examples/... */
    const char *about; /* one line, for the list */
} demo;

static const demo DEMOS[] = {
    { "limb", "shaders/limb.frag", "Inigo Quilez's two-bone IK: drag the target (the default toy)" },
    { "creature", "shaders/creature.frag", "a four-legged creature walking, every leg solved by ik.glsl" },
    { "feedback", "examples/feedback.json", "a shadertoy.com JSON: Common, Buffer A fed back into itself, Image" },
    { "dirtoy", "examples/dirtoy", "a directory toy: a wave equation in Buffer A lighting a texture" },
    { "cube", "examples/cube", "Cube A: a sky kept in a cubemap, seen in a mirror ball" },
    { "trails", "examples/scale-out/trails", "trails that remember every frame (the scale-out example)" },
    { "busy", "examples/busy.frag", "SDF iso-lines drawn to be hard to compress (bench render's scene)" },
    { "sound", "examples/sound.frag", "a sound shader and its picture: render its sound into a .wav, or hear it in the viewer" },
};
enum { NDEMOS = sizeof DEMOS / sizeof DEMOS[0] };

const char *iks_demo(int i, const char **about)
{
    if (i < 0 || i >= NDEMOS) return NULL;
    if (about) *about = DEMOS[i].about;
    return DEMOS[i].name;
}

bool iks_demo_path(const char *name, char *buf, size_t n)
{
    const demo *d = NULL;
    for (int i = 0; name && i < NDEMOS; i++)
        if (!strcmp(DEMOS[i].name, name)) d = &DEMOS[i];
    const char *dir = iks_find_shader_dir();
    if (!d || !dir || !buf) return false;
    char p[PATH_MAX], real[PATH_MAX];
    int w = snprintf(p, sizeof p, "%s/../%s", dir, d->path);
    /* the name messages and the window's title show: /usr/share/ikshade/examples/cube, not .../shaders/../ */
    if (w <= 0 || (size_t)w >= sizeof p || !realpath(p, real)) return false;
    return (size_t)snprintf(buf, n, "%s", real) < n;
}
