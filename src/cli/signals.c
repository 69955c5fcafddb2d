/* signals.c: one signal policy for every command.
 * - SIGINT, SIGTERM, SIGHUP: the first asks the engine to stop (iks_interrupt: renders end after the
 *   frames in flight, every file complete; blocking writes give up) and the command exits with
 *   128 + the signal's number, as a shell expects. A second one ends the process at once, after
 *   removing the temporaries of files in flight (iks_remove_temporaries is async-signal-safe). So
 *   does the end of a grace period after the first (GRACE_SECONDS): a driver busy compiling a huge
 *   shader or drawing a frame that takes a minute cannot be asked to stop, and `timeout` sends its
 *   SIGTERM only once.
 * - SIGPIPE is ignored: a closed pipe is an EPIPE error where it matters (raw frames to stdout) and
 *   nothing at all on stderr, instead of death by signal.
 * Handlers are installed without SA_RESTART, and a signal taken by another thread (the main thread
 * waiting for the command, a driver's worker) is passed on to the command's thread, so that a write
 * blocked there returns. */
#include "cli.h"
#include "ikshade/ikshade.h"

#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#define GRACE_SECONDS 5

static atomic_int first_signal;
static pthread_t command_thread;
static atomic_bool have_command_thread;

/* SIGURG pokes the command's thread out of a blocking call; it does nothing else */
static void on_poke(int sig) { (void)sig; }

/* Ends the process now, as the signal sig would have, leaving no temporary behind */
static void die_now(int sig)
{
    iks_remove_temporaries();
    signal(sig, SIG_DFL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
    raise(sig);
}

/* the grace period after the first signal is over */
static void on_alarm(int sig)
{
    (void)sig;
    die_now(atomic_load(&first_signal));
}

static void on_stop(int sig)
{
    int expect = 0;
    if (!atomic_compare_exchange_strong(&first_signal, &expect, sig)) {
        die_now(expect); /* the second: now, with the first one's status */
        return;
    }
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
    sa.sa_handler = on_stop; /* no SA_RESTART: blocking calls return EINTR */
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    sa.sa_handler = on_poke;
    sigaction(SIGURG, &sa, NULL);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = SIG_IGN;
    sigaction(SIGPIPE, &sa, NULL);
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
    return sig && status != EXIT_OK && status != EXIT_USAGE ? 128 + sig : status;
}
