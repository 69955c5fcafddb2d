/* main.c: the `ikshade` entry point: one table of subcommands (with what each needs), which also
 * prints the help; each command's options are its own table (cmd_*.c, opts.h). */
#include "cli/cli.h"
#include "ikshade/ikshade.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

const iks_command IKS_COMMANDS[] = {
    { "view", cmd_view, IKS_CMD_GL | IKS_CMD_DISPLAY, "run a shader in a window: drag the IK target, live reload on save",
      &HELP_VIEW },
    { "render", cmd_render, IKS_CMD_GL, "render frames of a shader to images, a video or sound, headless", &HELP_RENDER },
    { "check", cmd_check, IKS_CMD_GL, "verify the GLSL IK solver against the C one on this GPU", &HELP_CHECK },
    { "solve", cmd_solve, 0, "solve IK cases read from stdin (scriptable)", &HELP_SOLVE },
    { "bench", cmd_bench, IKS_CMD_GL, "benchmarks, printed as ratios against a baseline", &HELP_BENCH },
    { "import", cmd_import, IKS_CMD_NET, "fetch a shader's JSON and media from shadertoy.com's API", &HELP_IMPORT },
    { "info", cmd_info, 0, "describe a toy without drawing it: passes, channels, uniforms (--json)", &HELP_INFO },
    { "demos", cmd_demos, 0, "list the toys that ship with ikshade, by name (ikshade view creature)", &HELP_DEMOS },
    { "devices", cmd_devices, 0, "list the microphones and webcams live channels can capture (mic:, webcam:)",
      &HELP_DEVICES },
    { "completion", cmd_completion, 0, "print a shell's completion script (bash, zsh, fish)", &HELP_COMPLETION },
};
const int IKS_NCOMMANDS = (int)(sizeof IKS_COMMANDS / sizeof IKS_COMMANDS[0]);
#define COMMANDS IKS_COMMANDS
#define NCOMMANDS ((size_t)IKS_NCOMMANDS)

static void usage(FILE *f) /* the full list, for --help and a bare `ikshade` */
{
    fprintf(f, "usage: ikshade <command> [options]\n\n"
               "A Shadertoy-style GLSL runner built around analytic two-bone IK.\n\ncommands:\n");
    /* the summaries in one column after the longest name, two spaces clear of it: help2man makes the
     * man page's list from rows it can split there */
    int w = 0;
    for (size_t i = 0; i < NCOMMANDS; i++)
        if ((int)strlen(COMMANDS[i].name) > w) w = (int)strlen(COMMANDS[i].name);
    for (size_t i = 0; i < NCOMMANDS; i++) fprintf(f, "  %-*s  %s\n", w, COMMANDS[i].name, COMMANDS[i].summary);
    fprintf(f, "\n  ikshade help <command>   (or ikshade <command> --help) for a command's options\n"
               "  ikshade help uniforms    the uniforms ikshade gives every pass\n"
               "  ikshade --version\n");
}

static const iks_command *find(const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (strcmp(COMMANDS[i].name, name) == 0) return &COMMANDS[i];
    return NULL;
}

/* `ikshade help uniforms`: the built-in uniforms, from the library's one list */
static void print_uniforms(FILE *f)
{
    fprintf(f, "The uniforms ikshade declares in a pass and sets before every draw (a --set of one is\n"
               "refused), as the library lists them:\n");
    const char *passes = "";
    for (int i = 0; iks_builtin_uniform(i); i++) {
        const iks_builtin *b = iks_builtin_uniform(i);
        if (strcmp(passes, b->passes)) fprintf(f, "\nIn %s:\n", passes = b->passes);
        /* the library's words for its fields (time0, fps) as render's options */
        char *doc = iks_opts_words(HELP_RENDER.options, b->doc);
        const char *d = doc ? doc : b->doc;
        fprintf(f, "  %-10s %-19s ", b->type, b->name);
        iks_put_wrapped(f, d, 33);
        free(doc);
    }
}

/* Mesa's GLSL compiler recurses once per operator: one machine-made expression of ~20,000 terms
 * overflows the usual 8 MiB main stack and kills the process. Commands run on a thread whose stack is
 * reserved large (pages are used only as deep as the compiler goes), 512 MiB or what an address-space
 * limit leaves room for (limits.c); where even the reservation fails they run on the main thread. */

typedef struct {
    const iks_command *c;
    int argc;
    char **argv;
    int rc;
} command_run;

/* The process ends on the command's own thread: what the GL driver and X keep in this thread's
 * locals stays reachable until exit (the leak checker of sanitized builds looks at exit time). */
static void *run_command(void *p)
{
    command_run *r = p;
    iks_signals_command_thread();
    iks_limits_thread();
    exit(iks_signals_exit_status(iks_stdout_status(r->c->name, r->c->run(r->argc, r->argv))));
}

static int run_on_big_stack(const iks_command *c, int argc, char **argv)
{
    command_run r = { c, argc, argv, 0 };
    size_t stack;
    if (!iks_limits_prepare(c->name, &stack)) return EXIT_FAIL;
    pthread_attr_t at;
    pthread_t th;
    bool started = pthread_attr_init(&at) == 0 && pthread_attr_setstacksize(&at, stack) == 0 &&
                   pthread_create(&th, &at, run_command, &r) == 0;
    pthread_attr_destroy(&at);
    if (!started) {
        iks_signals_command_thread();
        return iks_signals_exit_status(iks_stdout_status(c->name, c->run(argc, argv)));
    }
    pthread_join(th, NULL); /* never returns: the command's thread exits the process */
    return r.rc;
}

/* Help and the version in one buffer, written at the final flush: a write that fails (a full disk)
 * then fails there, with its errno, not part-way with the errno lost by the end */
static void buffer_whole(void)
{
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
}

int main(int argc, char **argv)
{
    /* help and the version too: a reader that goes away (`ikshade --help | true`) is a quiet exit 1
     * (iks_stdout_status), as for every command (signals.c), not death by SIGPIPE */
    signal(SIGPIPE, SIG_IGN);
    /* a newcomer's first try: the usage on stdout, and still a usage error in one line for a script */
    if (argc < 2) {
        usage(stdout);
        fflush(stdout); /* before the error line, where both go to one terminal */
        return iks_usage(NULL, "no command given (the commands are listed above)");
    }
    const char *a = argv[1];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
        buffer_whole();
        usage(stdout);
        return iks_stdout_status(NULL, EXIT_OK);
    }
    if (strcmp(a, "--version") == 0 || strcmp(a, "version") == 0) {
        buffer_whole();
        printf("ikshade %s\n", iks_version());
        return iks_stdout_status(NULL, EXIT_OK);
    }
    if (strcmp(a, "help") == 0) {
        buffer_whole();
        if (argc < 3) {
            usage(stdout);
            return iks_stdout_status(NULL, EXIT_OK);
        }
        if (strcmp(argv[2], "uniforms") == 0) {
            print_uniforms(stdout);
            return iks_stdout_status(NULL, EXIT_OK);
        }
        const iks_command *c = find(argv[2]);
        if (!c) return iks_usage(NULL, "help: no command '%s' (try ikshade --help)", argv[2]);
        iks_print_help(stdout, c);
        return iks_stdout_status(NULL, EXIT_OK);
    }
    const iks_command *c = find(a);
    if (!c) return iks_usage(NULL, "no command '%s' (try ikshade --help)", a);
    /* Mesa's EGL prints loader warnings of its own before our one-line error says what failed and
     * why; a user who wants them sets EGL_LOG_LEVEL=warning (or debug) */
    if (c->flags & IKS_CMD_GL) setenv("EGL_LOG_LEVEL", "fatal", 0);
    iks_signals_install();
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) break;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            buffer_whole();
            iks_print_help(stdout, c);
            return iks_stdout_status(c->name, EXIT_OK);
        }
    }
    /* only a GL compiler recurses that deep: the others run where they are */
    if (!(c->flags & IKS_CMD_GL)) {
        iks_signals_command_thread();
        return iks_signals_exit_status(iks_stdout_status(c->name, c->run(argc - 1, argv + 1)));
    }
    return run_on_big_stack(c, argc - 1, argv + 1);
}
