/* cmd_demos.c: the toys that ship with ikshade, by name. `ikshade demos` lists them; `view`, `render`,
 * `info` and `bench render` take a name where they take a toy (`ikshade view creature`), so that an
 * installed ikshade runs its demos from any directory. A toy of the user's under the name wins over the
 * demo: their own ./creature directory toy, or a shader file called creature, is theirs. What is there
 * but cannot be a toy does not hide the demo: the output directory of `render creature -o
 * creature/%03d.png`, met again by the same command, or an empty file; the demo is taken, with a warning
 * that names ./creature. The demos themselves are the library's one table (iks_demo, iks_demo_path:
 * src/engine/demos.c), which the Python package reads too. */
#include "cli/cli.h"
#include "ikshade/ikshade.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <stdbool.h>

static bool is_name(const char *s)
{
    if (!*s) return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_')) return false;
    return true;
}

typedef enum { HERE_NOTHING, HERE_TOY, HERE_NO_TOY } here;

/* What a bare name finds in the current directory. Anything that may be a toy is the user's, and the
 * loader speaks of it (a directory with image.glsl, a file with text in it, a FIFO, a link that leads
 * nowhere); HERE_NO_TOY is what cannot be one, *what saying why. The directory's test is the loader's
 * (toyfile.c's load_dir: image.glsl, a regular file), so that what this hands to the demo is what
 * the loader would refuse. */
static here what_is_here(const char *arg, const char **what)
{
    struct stat st;
    if (lstat(arg, &st) != 0) return errno == ENOENT ? HERE_NOTHING : HERE_TOY;
    if (stat(arg, &st) != 0) return HERE_TOY;
    if (S_ISREG(st.st_mode) && st.st_size == 0) {
        *what = "an empty file";
        return HERE_NO_TOY;
    }
    if (!S_ISDIR(st.st_mode)) return HERE_TOY;
    char image[PATH_MAX];
    snprintf(image, sizeof image, "%s/image.glsl", arg);
    /* a directory that cannot be searched is left to the loader to name */
    if (stat(image, &st) == 0 ? S_ISREG(st.st_mode) : errno != ENOENT) return HERE_TOY;
    *what = "a directory without image.glsl";
    return HERE_NO_TOY;
}

const char *iks_cli_toy_path(const char *arg, char *buf, size_t n)
{
    const char *what;
    if (!arg || !is_name(arg) || what_is_here(arg, &what) == HERE_TOY) return arg;
    return iks_demo_path(arg, buf, n) ? buf : arg;
}

void iks_cli_toy_note(const char *cmd, const char *arg, const char *path)
{
    const char *what;
    if (!arg || path == arg || !is_name(arg) || what_is_here(arg, &what) != HERE_NO_TOY) return;
    iks_warn(cmd, "%s: the demo of that name, since ./%s here is %s, not a toy (to mean it, name ./%s)", arg, arg,
             what, arg);
}

bool iks_cli_toy_missing(const char *cmd, const char *arg)
{
    const char *what;
    if (!arg || !is_name(arg) || what_is_here(arg, &what) != HERE_NOTHING) return false;
    iks_fail(cmd, "%s: no such file here, and no demo of that name (ikshade demos lists them)", arg);
    return true;
}

void iks_cli_demo_names(FILE *f)
{
    for (int i = 0; iks_demo(i, NULL); i++) fprintf(f, "%s%s", i ? " " : "", iks_demo(i, NULL));
}

typedef struct {
    bool paths;
    iks_args args;
} dopts;

static const iks_opt OPTIONS[] = {
    IKS_OPT_FLAG_ROW(dopts, paths, "--paths", NULL, NULL, "print where each demo is instead of what it shows",
      .field = NULL),
    { IKS_OPT_END, .flags = 0 },
};

const iks_help HELP_DEMOS = {
    .usage = "usage: ikshade demos [--paths]\n",
    .about = "Lists the toys that ship with ikshade, by the names that `view`, `render`, `info` and `bench\n"
             "render` take in place of a path. A toy of that name in the current directory wins (a shader file,\n"
             "a directory with image.glsl); a directory without image.glsl or an empty file does not: the demo\n"
             "is taken, and a warning says so (./NAME names what is here).\n",
    .options = OPTIONS,
    .after = "examples:\n"
             "  ikshade view creature\n"
             "  ikshade render feedback -o trail/%04d.png --frames 60\n",
};

int cmd_demos(int argc, char **argv)
{
    dopts o = { 0 };
    int rc = iks_opts_parse("demos", OPTIONS, argc, argv, &o, &o.args);
    if (rc < 0 && o.args.npos) rc = iks_usage("demos", "'%s': demos takes no operands", o.args.pos[0]);
    iks_args_free(&o.args, &o);
    if (rc >= 0) return rc;
    const char *dir = iks_find_shader_dir();
    if (!dir) return iks_fail("demos", "cannot find the shaders directory (set IKSHADE_SHADERS)");
    int shown = 0;
    const char *name, *about;
    for (int i = 0; (name = iks_demo(i, &about)); i++) {
        char p[PATH_MAX];
        if (!iks_demo_path(name, p, sizeof p)) continue;
        if (o.paths) iks_say(stdout, "%-9s %s", name, p); /* under $IKSHADE_SHADERS, a name of the user's */
        else printf("%-9s %s\n", name, about);
        shown++;
    }
    if (!shown) return iks_fail("demos", "no demo found beside %s", dir);
    return EXIT_OK;
}
