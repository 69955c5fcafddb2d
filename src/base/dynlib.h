/* dynlib.h: a shared library loaded the first time it is needed, not when libikshade is. A headless
 * embedder that draws frames never uses libcurl (import), ALSA (the viewer's sound) or OpenEXR (.exr
 * outputs), and linking them made every program that loads libikshade map some 35 libraries more
 * (libcurl alone brings its TLS, Kerberos and LDAP stacks) and start several times slower.
 *
 * A user lists the functions it calls in an X-macro, declares their pointers with IKS_DYN_PTR (typed by
 * the library's own header), and calls through them; iks_dynlib_load resolves every name once (thread
 * safe), or fails with a message that names the library and the Debian package that holds it. */
#ifndef IKS_DYNLIB_H
#define IKS_DYNLIB_H

#include "base/err.h"

#include <pthread.h>
#include <stdbool.h>

typedef struct {
    const char *soname;  /* what dlopen is given: "libcurl.so.4" */
    const char *package; /* the Debian package that installs it, for the message: "libcurl4" */
    /* filled on first use */
    pthread_mutex_t mu;
    int state;           /* 0: not tried, 1: loaded, -1: failed (and stays failed: the message is kept) */
    char why[256];
} iks_dynlib;

#define IKS_DYNLIB(so, pkg) { .soname = (so), .package = (pkg), .mu = PTHREAD_MUTEX_INITIALIZER }

/* A pointer member named as the function, of its type: `IKS_DYN_PTR(curl_easy_init)` */
#define IKS_DYN_PTR(f) __typeof__(f) *f;

/* Loads l and resolves names[i] into *slots[i] (n of them), once; later calls return the first answer.
 * On failure: IKS_E_UNSUPPORTED, "what: SONAME cannot be loaded (...): install PACKAGE". */
bool iks_dynlib_load(iks_dynlib *l, const char *const *names, void **const *slots, int n, const char *what,
                     iks_err *e);

/* Defines `static bool FN(iks_err *e)`, which loads LIB and fills the pointer struct named by
 * IKS_DYN_TABLE (#defined by the user first) from the X-macro FNS; WHAT names the feature in messages.
 * Use it before the #defines that route the calls through the pointers. */
#define IKS_DYN_NAME_(f) #f,
#define IKS_DYN_SLOT_(f) (void **)&IKS_DYN_TABLE.f,
#define IKS_DYNLIB_LOADER(fn, FNS, lib, what)                                                          \
    static bool fn(iks_err *e)                                                                         \
    {                                                                                                  \
        static const char *const names[] = { FNS(IKS_DYN_NAME_) };                                     \
        static void **const slots[] = { FNS(IKS_DYN_SLOT_) };                                          \
        return iks_dynlib_load(&(lib), names, slots, (int)(sizeof names / sizeof names[0]), what, e); \
    }

#endif
