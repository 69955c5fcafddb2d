/* cmd_devices.c: `ikshade devices`: the capture devices a live channel can name (mic:DEVICE, the
 * viewer's --mic), each kind of the library's table (iks_device_kind) under its own heading, so that a
 * new kind needs no change here. */
#include "cli/cli.h"
#include "ikshade/ikshade.h"

#include <stdio.h>
#include <stdlib.h>

typedef struct {
    iks_args args;
} devopts;

static const iks_opt OPTIONS[] = {
    { IKS_OPT_END, .flags = 0 },
};

const iks_help HELP_DEVICES = {
    .usage = "usage: ikshade devices\n",
    .about = "Lists the capture devices a toy's live channels can use: microphones (PulseAudio or PipeWire\n"
             "sources; a speaker's monitor records what plays) and webcams (V4L2 /dev/videoN that capture, and\n"
             "'test', a test pattern). The default is marked *; a channel that names none (mic, webcam)\n"
             "captures it, `ikshade view --mic NAME` / `--webcam NAME` another, and mic:NAME, webcam:NAME\n"
             "name one per channel. Nothing is captured by listing.\n",
    .options = OPTIONS,
    .after = "examples:\n"
             "  ikshade devices\n"
             "  ikshade view creature --mic alsa_input.usb-Blue_Yeti-00.analog-stereo\n"
             "  ikshade view --channel0 mic:alsa_input.pci-0000_00_1f.3.analog-stereo\n"
             "  ikshade view --channel0 webcam:test\n",
};

static void one(void *user, const char *name, const char *about, bool is_default)
{
    int *n = user;
    /* a name as the system gives it: on one line, as every message shows names */
    iks_say(stdout, "  %s %s%s%s", is_default ? "*" : " ", name, about && *about ? "  " : "", about ? about : "");
    ++*n;
}

int cmd_devices(int argc, char **argv)
{
    devopts o = { 0 };
    int rc = iks_opts_parse("devices", OPTIONS, argc, argv, &o, &o.args);
    if (rc < 0 && o.args.npos) rc = iks_usage("devices", "'%s': devices takes no operands", o.args.pos[0]);
    iks_args_free(&o.args, &o);
    if (rc >= 0) return rc;
    int failed = 0;
    const char *kind;
    for (int i = 0; (kind = iks_device_kind(i)); i++) {
        printf("%ss:\n", kind);
        int n = 0;
        if (iks_devices(kind, one, &n) != IKS_OK) {
            const char *why = "";
            iks_last_error(&why);
            printf("  (cannot list them: see below)\n");
            fflush(stdout);
            (void)iks_fail("devices", "%ss: %s", kind, why);
            failed++;
        } else if (!n) printf("  (none)\n");
    }
    return failed ? EXIT_FAIL : EXIT_OK; /* what could be listed is, and a kind that could not is a failure */
}
