/* cmd_import.c: `ikshade import`, a shader's JSON and media from shadertoy.com's API (iks_import). */
#include "cli/cli.h"
#include "ikshade/ikshade.h"
#include "cli/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    const char *out, *key, *base;
    double timeout;
    bool quiet;
    iks_args args;
} iopts;

static const iks_opt OPTIONS[] = {
    IKS_OPT_STRING_ROW(iopts, out, "--output", "-o", "DIR",
      "where ID.json and its media go (created when absent)", "out_dir",
      .complete = "dir", .need = "a directory"),
    IKS_OPT_STRING_ROW(iopts, key, "--key", NULL, "KEY",
      "the API key (default: $SHADERTOY_KEY, which keeps it out of `ps`)", "key",
      .flags = IKS_OPT_SECRET, .need = "the API key"),
    IKS_OPT_STRING_ROW(iopts, base, "--base-url", NULL, "URL",
      "another server than https://www.shadertoy.com, serving the same paths (a\n"
      "mirror, or a local server for tests; default: $IKSHADE_SHADERTOY_URL)", "base_url", .need = "a URL"),
    IKS_OPT_DOUBLE_ROW(iopts, timeout, "--timeout", NULL, "S",
      "seconds to connect, and of less than 1 KiB/s, per request (default 20 and\n"
      "30); whatever its pace, a request ends S + 256 s (the JSON) or S + 1024 s\n(a media file) after it began",
      "timeout", .flags = IKS_OPT_NONZERO, .expect = "expected seconds", .need = "seconds"),
    IKS_OPT_FLAG_ROW(iopts, quiet, "--quiet", NULL, NULL, "no progress and no summary", .flags = 0),
    { IKS_OPT_END, .flags = 0 },
};

const iks_help HELP_IMPORT = {
    .usage = "usage: ikshade import ID|URL -o DIR [--key KEY] [--base-url URL] [--quiet]\n",
    .about = "Fetches a shader from shadertoy.com's API into DIR: its JSON as DIR/ID.json, and the textures,\n"
             "cubemap faces, volumes, music and videos its passes read, beside it, so that `ikshade render\n"
             "DIR/ID.json` and `ikshade view DIR/ID.json` run it. The API serves only shaders published\n"
             "\"public+api\", and only with a key (make one at https://www.shadertoy.com/myapps). Nothing reaches\n"
             "DIR unless all of it arrived.\n"
             "Webcam, microphone and music-stream inputs are live, not files: they are not fetched.\n",
    .options = OPTIONS,
    .after = "examples:\n"
             "  ikshade import XsXXDn -o toys --key KEY\n"
             "  ikshade import https://www.shadertoy.com/view/XsXXDn -o toys && ikshade view toys/XsXXDn.json\n",
};

static int import(const iopts *o, const char *shader);

static void import_log(void *user, iks_log_level level, const char *message)
{
    const iks_cli_log *l = user;
    /* notes of progress only on a terminal: a script sees one line, the summary or the error */
    if (level == IKS_LOG_WARN) {
        /* its warnings speak of what render and view will need, in their flags */
        char *words = iks_opts_words(HELP_RENDER.options, message);
        iks_warn(l->cmd, "%s", words ? words : message);
        free(words);
    } else if (!l->quiet && isatty(STDERR_FILENO)) {
        iks_say(stderr, "import: %s", message);
    }
}

int cmd_import(int argc, char **argv)
{
    iopts o = { .key = getenv("SHADERTOY_KEY"), .base = getenv("IKSHADE_SHADERTOY_URL") };
    int rc = iks_opts_parse("import", OPTIONS, argc, argv, &o, &o.args);
    if (rc < 0 && o.args.npos > 1)
        rc = iks_usage("import", "'%s': one shader at a time (already given: '%s')", o.args.pos[1], o.args.pos[0]);
    if (rc < 0) rc = import(&o, o.args.npos ? o.args.pos[0] : NULL);
    iks_args_free(&o.args, &o);
    return rc;
}

static int import(const iopts *o, const char *shader)
{
    const char *out = o->out, *key = o->key, *base = o->base;
    double timeout = o->timeout;
    bool quiet = o->quiet;
    if (!shader) return iks_usage("import", "no shader ID or URL given (ikshade import ID -o DIR)");
    if (!out) return iks_usage("import", "no output directory: -o DIR");
    if (!key || !*key)
        return iks_usage("import", "no API key: --key KEY or $SHADERTOY_KEY (make one at "
                         "https://www.shadertoy.com/myapps)");
    iks_cli_log log = { "import", quiet, OPTIONS };
    iks_import_desc d = { IKS_DESC_SIZE(iks_import_desc), .shader = shader, .key = key, .out_dir = out, .base_url = base, .timeout = timeout,
                          .log = import_log, .log_user = &log };
    iks_import_stats st;
    if (iks_import(&d, &st) != IKS_OK) return iks_opts_error(&o->args);
    if (!quiet) {
        size_t n = strlen(out);
        while (n > 1 && out[n - 1] == '/') n--;
        /* one line, whatever the directory's name or the shader's (its author's) holds */
        iks_say(stdout, "%.*s/%s.json%s%s%s: %d media file%s, %lld bytes; run it: ikshade view %.*s/%s.json", (int)n, out,
                st.id, st.name[0] ? " (\"" : "", st.name, st.name[0] ? "\")" : "", st.media, st.media == 1 ? "" : "s",
                st.bytes, (int)n, out, st.id);
    }
    return EXIT_OK;
}
