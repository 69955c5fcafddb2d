/* signals.c: one signal policy for every command.
 * - SIGINT, SIGTERM, SIGHUP: the first asks the engine to stop (iks_interrupt: renders end after the
 *   frames in flight, every file complete; blocking writes give up) and the command exits with
 *   128 + the signal's number, as a shell expects. A second one ends the process at once, after
 *   removing the temporaries of files in flight (iks_remove_temporaries is async-signal-safe). So
 *   does the end of a grace period after the first (GRACE_SECONDS): a driver busy compiling a huge
 *   shader or drawing a frame that takes a minute cannot be asked to stop, and `timeout` sends its
 *   SIGTERM only once. The grace is extended (up to FINISH_SECONDS) while a video that has had its
 *   last frame is being finished by ffmpeg, and the end of the grace is said in one line.
 * - SIGPIPE is ignored: a closed pipe is an EPIPE error where it matters (raw frames to stdout) and
 *   nothing at all on stderr, instead of death by signal. SIGXFSZ too: a file past `ulimit -f` is the
 *   one-line EFBIG error of the file it was, its temporary removed; children (ffmpeg) inherit that on
 *   purpose, so an encoder past the limit says "File too large" too instead of dying silently.
 * - One signal sent twice at once is one request: `timeout` sends its SIGTERM to the command and then
 *   to the command's process group, which holds the command again, and a stop that counted the copy
 *   as the second signal died at once, losing a recording half the time; `timeout --foreground`,
 *   docker or tini pass on the terminal's Ctrl-C that the command also got, and bash resends the
 *   SIGHUP of a closed terminal. A copy is the same signal within DUPLICATE_NS of the first, from the
 *   same sending process, or one from the terminal (si_pid 0) and one from our parent. Two signals a
 *   script sends on purpose must come further apart; a person's two Ctrl-C always do.
 * Handlers are installed without SA_RESTART, and a signal taken by another thread (the main thread
 * waiting for the command, a driver's worker) is passed on to the command's thread, so that a write
 * blocked there returns. */
#include "cli/cli.h"
#include "base/clock.h"
#include "ikshade/ikshade.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GRACE_SECONDS 5
#define FINISH_SECONDS 300 /* a video's end: minutes of 1080p GIF frames are still a few minutes' work */
#define DUPLICATE_NS 100000000L /* 0.1 s: far above a sender's two kill(2) calls, below a person's two */

static atomic_int first_signal;
static atomic_int first_sender;     /* si_pid of the first, when a process sent it (SI_USER) */
static atomic_llong first_ns;       /* iks_now() in ns when it came */
_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2, "handlers use these atomics");
static pthread_t command_thread;
static atomic_bool have_command_thread;

/* SIGURG pokes the command's thread out of a blocking call; it does nothing else */
static void on_poke(int sig) { (void)sig; }

/* Ends the process now, as the signal sig would have, leaving no temporary behind */
void iks_signals_die(int sig)
{
    iks_remove_temporaries();
    signal(sig, SIG_DFL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
    raise(sig);
}

static void say(const char *s) { ssize_t r = write(STDERR_FILENO, s, strlen(s)); (void)r; }

/* the grace period after the first signal is over: a video whose encoder is writing its end (a GIF's
 * palette pass over every frame takes longer than the grace) is waited for, up to FINISH_SECONDS;
 * anything else ends now, saying so */
static void on_alarm(int sig)
{
    (void)sig;
    static int waited; /* only this handler touches it, and SIGALRM is blocked while it runs */
    bool finishing = iks_outputs_finishing();
    if (finishing && waited < FINISH_SECONDS) {
        if (waited == 0) say("ikshade: stopping: ffmpeg is still finishing the video; a second signal drops it\n");
        waited += GRACE_SECONDS;
        alarm(GRACE_SECONDS);
        return;
    }
    say(finishing ? "ikshade: ffmpeg did not finish the video in time: stopped, the unfinished file removed\n"
                  : "ikshade: the command did not stop within the grace after the signal: ended, unfinished files removed\n");
    iks_signals_die(atomic_load(&first_signal));
}

static long long now_ns(void)
{
    return (long long)(iks_now() * 1e9); /* iks_now is clock_gettime: async-signal-safe */
}

/* Whether a signal from sender is a copy of the first (see the top): first_ns 0 means the first one's
 * handler, on another thread, has not yet written down when and whence, microseconds ago */
static bool is_copy(int sig, int first, int sender)
{
    if (sig != first) return false;
    long long t0 = atomic_load(&first_ns);
    if (t0 == 0) return true; /* microseconds after the first, whoever sent it */
    if (now_ns() - t0 >= DUPLICATE_NS) return false;
    int from = atomic_load(&first_sender), parent = (int)getppid();
    return (sender != 0 && sender == from) || (from == 0 && sender == parent) || (sender == 0 && from == parent);
}

static void on_stop(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    int sender = info && info->si_code <= 0 ? (int)info->si_pid : 0; /* kill, sigqueue, tgkill; not the kernel's */
    int expect = 0;
    if (!atomic_compare_exchange_strong(&first_signal, &expect, sig)) {
        if (is_copy(sig, expect, sender)) return; /* the same request again */
        iks_signals_die(expect); /* the second: now, with the first one's status */
        return;
    }
    atomic_store(&first_sender, sender);
    atomic_store(&first_ns, now_ns()); /* last: its being nonzero says both are written */
    alarm(GRACE_SECONDS);
    iks_interrupt();
    if (atomic_load(&have_command_thread) && !pthread_equal(pthread_self(), command_thread))
        pthread_kill(command_thread, SIGURG);
}

void iks_signals_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_sigaction = on_stop; /* no SA_RESTART: blocking calls return EINTR */
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_flags = 0;
    sa.sa_handler = on_poke;
    sigaction(SIGURG, &sa, NULL);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
    /* past `ulimit -f` a write fails with EFBIG ("File too large", named, temporaries removed) instead
     * of the process dying silently with its temporary left */
    sigaction(SIGXFSZ, &sa, NULL);
}

void iks_signals_command_thread(void)
{
    command_thread = pthread_self();
    atomic_store(&have_command_thread, true);
}

int iks_signals_stopped(void) { return atomic_load(&first_signal); }

int iks_signals_exit_status(int status)
{
    int sig = atomic_load(&first_signal);
    /* also when the command then ended well (a viewer closes on Ctrl-C; a render had its last frame in
     * flight): it was stopped, and a script must be able to tell */
    return sig && status != EXIT_USAGE ? 128 + sig : status;
}
