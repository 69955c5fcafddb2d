/* cmd_info.c: `ikshade info TOY`: what a toy is, without drawing it: its passes in the order a frame
 * draws them, what each channel reads (and how: filter, wrap, the sampler the pass declares), and the
 * uniforms its author declared, as text or as JSON (--json) for scripts. It makes no GL context
 * (iks_toy_describe), so it runs where none can be made: a build machine, a container, over ssh. */
#include "cli/cli.h"
#include "cli/session.h"
#include "ikshade/ikshade.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    iks_shared_opts s;
    bool json;
    iks_args args;
} iopts;

static const iks_opt OPTIONS[] = {
    IKS_OPT_FLAG_ROW(iopts, json, "--json", NULL, NULL, "print it as one JSON object (for scripts) instead of text",
      .field = NULL),
    IKS_OPT_TABLE_ROW(iopts, s, IKS_SHARED_OPTS),
    { IKS_OPT_END, .flags = 0 },
};

const iks_help HELP_INFO = {
    .usage = "usage: ikshade info [TOY] [--json] [options]\n",
    .about = "Describes a toy without drawing it, and without a GL context: its passes in the order a frame\n"
             "draws them, what each pass's channels read, and the uniforms its author declared (with an\n"
             "#iUniform's default and range). TOY is a shader file, a shadertoy.com JSON, a directory toy or a\n"
             "demo's name (ikshade demos); none: the IK limb demo. A toy that cannot be read is an error, as\n"
             "for render; nothing is compiled.\n",
    .options = OPTIONS,
    .after = "examples:\n"
             "  ikshade info feedback\n"
             "  ikshade info dirtoy --json\n",
    .operand = "toy",
};

/* ---- JSON ---------------------------------------------------------------------------------------- */

static void json_str(const char *s)
{
    if (!s) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\') printf("\\%c", *p);
        else if (*p < 0x20) printf("\\u%04x", *p);
        else putchar(*p);
    }
    putchar('"');
}

/* a number as JSON has them (%.17g is exact and never writes a locale's comma: the CLI keeps "C") */
static void json_num(double v) { printf("%.17g", v); }

static void json_channels(const iks_toy_spec *s, int i)
{
    fputs("\"channels\": [", stdout);
    bool first = true;
    for (int c = 0; c < 4; c++) {
        iks_channel_info ci = { IKS_DESC_SIZE(iks_channel_info) };
        if (iks_toy_spec_channel(s, i, c, &ci) != IKS_OK || !ci.kind) continue;
        printf("%s{\"channel\": %d, \"kind\": ", first ? "" : ", ", c);
        json_str(ci.kind);
        fputs(", \"source\": ", stdout);
        json_str(ci.source);
        fputs(", \"filter\": ", stdout);
        json_str(ci.filter);
        fputs(", \"wrap\": ", stdout);
        json_str(ci.wrap);
        printf(", \"vflip\": %s, \"srgb\": %s, \"sampler\": ", ci.vflip ? "true" : "false", ci.srgb ? "true" : "false");
        json_str(ci.sampler);
        putchar('}');
        first = false;
    }
    putchar(']');
}

static void json_uniform(const iks_declared_uniform *u)
{
    static const char *const TYPES[] = { "float", "int", "uint", "bool" };
    fputs("{\"name\": ", stdout);
    json_str(u->name);
    fputs(", \"glsl_type\": ", stdout);
    json_str(u->glsl_type);
    printf(", \"type\": \"%s\", \"components\": %d, \"passes\": ", TYPES[u->type], u->n);
    json_str(u->passes);
    printf(", \"declared\": %s", u->declared ? "true" : "false");
    if (u->declared) {
        fputs(", \"default\": [", stdout);
        for (int k = 0; k < u->n; k++) {
            if (k) fputs(", ", stdout);
            json_num(u->initial[k]);
        }
        printf("], \"color\": %s", u->color ? "true" : "false");
    }
    if (u->has_range) {
        fputs(", \"min\": ", stdout);
        json_num(u->min);
        fputs(", \"max\": ", stdout);
        json_num(u->max);
        fputs(", \"step\": ", stdout);
        json_num(u->step);
    }
    putchar('}');
}

static void print_json(const iks_toy_spec *s, const char *path)
{
    fputs("{\"name\": ", stdout);
    json_str(iks_toy_spec_name(s));
    fputs(", \"path\": ", stdout);
    json_str(path);
    fputs(", \"passes\": [", stdout);
    for (int i = 0; i < iks_toy_spec_pass_count(s); i++) {
        iks_pass_info pi = { IKS_DESC_SIZE(iks_pass_info) };
        if (iks_toy_spec_pass(s, i, &pi) != IKS_OK) continue;
        fputs(i ? ", {\"name\": " : "{\"name\": ", stdout);
        json_str(pi.name);
        fputs(", \"id\": ", stdout);
        if (pi.id >= 0) printf("%d", pi.id);
        else fputs("null", stdout);
        fputs(", \"source\": ", stdout);
        json_str(pi.source);
        fputs(", \"entry\": ", stdout);
        json_str(pi.entry[0] ? pi.entry : NULL);
        fputs(", ", stdout);
        json_channels(s, i);
        putchar('}');
    }
    fputs("], \"uniforms\": [", stdout);
    for (int i = 0; i < iks_toy_spec_uniform_count(s); i++) {
        iks_declared_uniform u = { IKS_DESC_SIZE(iks_declared_uniform) };
        if (iks_toy_spec_uniform(s, i, &u) != IKS_OK) continue;
        if (i) fputs(", ", stdout);
        json_uniform(&u);
    }
    fputs("]}\n", stdout);
}

/* ---- text ---------------------------------------------------------------------------------------- */

static void print_text(const iks_toy_spec *s)
{
    iks_put_name(stdout, iks_toy_spec_name(s)); /* a JSON's name is the toy author's: no escapes reach the terminal */
    putchar('\n');
    printf("passes (in the order a frame draws them):\n");
    for (int i = 0; i < iks_toy_spec_pass_count(s); i++) {
        iks_pass_info pi = { IKS_DESC_SIZE(iks_pass_info) };
        if (iks_toy_spec_pass(s, i, &pi) != IKS_OK) continue;
        printf("  %-9s ", pi.name);
        iks_put_name(stdout, pi.source ? pi.source : "");
        if (pi.entry[0]) printf("  (%s)", pi.entry);
        putchar('\n');
        for (int c = 0; c < 4; c++) {
            iks_channel_info ci = { IKS_DESC_SIZE(iks_channel_info) };
            if (iks_toy_spec_channel(s, i, c, &ci) != IKS_OK || !ci.kind) continue;
            printf("    iChannel%d  %-8s ", c, ci.kind);
            if (ci.source) iks_put_name(stdout, ci.source), fputs("  ", stdout);
            printf("%s filter=%s wrap=%s%s%s\n", ci.sampler, ci.filter, ci.wrap, ci.vflip ? " vflip" : "",
                   ci.srgb ? " srgb" : "");
        }
    }
    int n = iks_toy_spec_uniform_count(s);
    printf("uniforms of its own:%s\n", n ? "" : " none");
    for (int i = 0; i < n; i++) {
        iks_declared_uniform u = { IKS_DESC_SIZE(iks_declared_uniform) };
        if (iks_toy_spec_uniform(s, i, &u) != IKS_OK) continue;
        printf("  %-6s %s", u.glsl_type, u.name);
        if (u.declared) {
            fputs(" = ", stdout);
            for (int k = 0; k < u.n; k++) printf("%s%g", k ? ", " : "", u.initial[k]);
        }
        if (u.has_range) printf("  in %g .. %g", u.min, u.max);
        if (u.has_range && u.step > 0) printf(" step %g", u.step);
        if (u.color) fputs("  (a colour)", stdout);
        printf("  [%s]\n", u.passes);
    }
}

int cmd_info(int argc, char **argv)
{
    iopts o = { 0 };
    int rc = iks_opts_parse("info", OPTIONS, argc, argv, &o, &o.args);
    if (rc < 0) rc = iks_shared_parse(&o.s, &o.args);
    if (rc < 0 && o.args.npos > 1) rc = iks_usage("info", "'%s': info takes one toy", o.args.pos[1]);
    char demo[PATH_MAX];
    const char *arg = rc < 0 && o.args.npos ? o.args.pos[0] : NULL;
    const char *path = iks_cli_toy_path(arg, demo, sizeof demo);
    if (rc < 0 && path == arg && iks_cli_toy_missing("info", arg)) rc = EXIT_FAIL;
    if (rc < 0) {
        iks_cli_toy_note("info", arg, path);
        iks_toy_desc td = iks_shared_toy(&o.s, path);
        iks_toy_spec *s = NULL;
        if (iks_toy_describe(&td, &s) != IKS_OK) rc = iks_opts_error(&o.args);
        else {
            if (o.json) print_json(s, path);
            else print_text(s);
            rc = fflush(stdout) == 0 ? EXIT_OK : iks_fail("info", "cannot write the description: standard output failed");
        }
        iks_toy_spec_free(s);
    }
    iks_shared_free(&o.s);
    iks_args_free(&o.args, &o);
    return rc;
}
