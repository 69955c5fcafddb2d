/* cmd_import.c: `ikshade import`, a shader's JSON and media from shadertoy.com's API (iks_import). */
#include "cli/cli.h"
#include "ikshade/ikshade.h"
#include "cli/session.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char HELP_IMPORT[] =
    "usage: ikshade import ID|URL -o DIR [--key KEY] [--base-url URL] [--quiet]\n"
    "\n"
    "Fetches a shader from shadertoy.com's API into DIR: its JSON as DIR/ID.json, and the textures,\n"
    "cubemap faces, volumes, music and videos its passes read, beside it, so that `ikshade render\n"
    "DIR/ID.json` and `ikshade view DIR/ID.json` run it. The API serves only shaders published\n"
    "\"public+api\", and only with a key (make one at https://www.shadertoy.com/myapps). Nothing reaches\n"
    "DIR unless all of it arrived.\n"
    "Webcam, microphone and music-stream inputs are live, not files: they are not fetched.\n"
    "\n"
    "options:\n"
    "  -o, --output DIR     where ID.json and its media go (created when absent)\n"
    "  --key KEY            the API key (default: $SHADERTOY_KEY, which keeps it out of `ps`)\n"
    "  --base-url URL       another server than https://www.shadertoy.com, serving the same paths (a\n"
    "                       mirror, or a local server for tests; default: $IKSHADE_SHADERTOY_URL)\n"
    "  --timeout S          seconds to connect, and of less than 1 KiB/s, per request (default 20 and 30);\n"
    "                       whatever its pace, a request ends S + 256 s (the JSON) or S + 1024 s (a media\n"
    "                       file) after it began\n"
    "  --quiet              no progress and no summary\n"
    "\n"
    "examples:\n"
    "  ikshade import XsXXDn -o toys --key KEY\n"
    "  ikshade import https://www.shadertoy.com/view/XsXXDn -o toys && ikshade view toys/XsXXDn.json\n";

static void import_log(void *user, iks_log_level level, const char *message)
{
    const iks_cli_log *l = user;
    /* notes of progress only on a terminal: a script sees one line, the summary or the error */
    if (level == IKS_LOG_WARN) iks_warn(l->cmd, "%s", message);
    else if (!l->quiet && isatty(STDERR_FILENO)) {
        fputs("import: ", stderr);
        iks_put_text(stderr, message);
        fputc('\n', stderr);
    }
}

/* iks_put_text keeps a newline (compiler logs are many lines); the summary is one line, as the
 * messages are, whatever the shader's name holds */
static void put_one_line(FILE *f, const char *s)
{
    for (; *s; s++) {
        char one[2] = { *s, '\0' };
        if (*s == '\n') fputs("\\n", f);
        else iks_put_text(f, one);
    }
}

int cmd_import(int argc, char **argv)
{
    const char *shader = NULL, *out = NULL, *key = getenv("SHADERTOY_KEY");
    const char *base = getenv("IKSHADE_SHADERTOY_URL");
    double timeout = 0;
    bool quiet = false;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v;
        bool miss;
        if ((v = iks_opt_value(argc, argv, &i, "--output", &miss)) || miss ||
            (v = iks_opt_value(argc, argv, &i, "-o", &miss)) || miss) {
            if (miss) return iks_usage("import", "%s needs a directory", a);
            out = v;
        } else if ((v = iks_opt_value(argc, argv, &i, "--key", &miss)) || miss) {
            if (miss) return iks_usage("import", "--key needs the API key");
            key = v;
        } else if ((v = iks_opt_value(argc, argv, &i, "--base-url", &miss)) || miss) {
            if (miss) return iks_usage("import", "--base-url needs a URL");
            if (strncmp(v, "http://", 7) && strncmp(v, "https://", 8))
                return iks_usage("import", "--base-url '%s': expected an http:// or https:// URL", v);
            base = v;
        } else if ((v = iks_opt_value(argc, argv, &i, "--timeout", &miss)) || miss) {
            if (miss) return iks_usage("import", "--timeout needs seconds");
            if (!iks_parse_finite(v, &timeout) || timeout <= 0 || timeout > 86400)
                return iks_usage("import", "--timeout '%s': expected seconds, more than 0 and at most 86400", v);
        } else if (strcmp(a, "--quiet") == 0) {
            quiet = true;
        } else if (a[0] == '-' && a[1]) {
            return iks_unknown_option("import", HELP_IMPORT, a);
        } else if (!shader) {
            shader = a;
        } else {
            return iks_usage("import", "'%s': one shader at a time (already given: '%s')", a, shader);
        }
    }
    if (!shader) return iks_usage("import", "no shader ID or URL given (ikshade import ID -o DIR)");
    if (!out) return iks_usage("import", "no output directory: -o DIR");
    if (!key || !*key)
        return iks_usage("import", "no API key: --key KEY or $SHADERTOY_KEY (make one at "
                         "https://www.shadertoy.com/myapps)");
    iks_cli_log log = { "import", quiet };
    iks_import_desc d = { .shader = shader, .key = key, .out_dir = out, .base_url = base, .timeout = timeout,
                          .log = import_log, .log_user = &log };
    iks_import_stats st;
    if (iks_import(&d, &st) != IKS_OK) return iks_print_last_error("import");
    if (!quiet) {
        size_t n = strlen(out);
        while (n > 1 && out[n - 1] == '/') n--;
        printf("%.*s/%s.json", (int)n, out, st.id);
        if (st.name[0]) {
            fputs(" (\"", stdout);
            put_one_line(stdout, st.name);
            fputs("\")", stdout);
        }
        printf(": %d media file%s, %lld bytes; run it: ikshade view %.*s/%s.json\n", st.media,
               st.media == 1 ? "" : "s", st.bytes, (int)n, out, st.id);
    }
    return EXIT_OK;
}
