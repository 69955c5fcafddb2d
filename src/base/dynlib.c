/* dynlib.c: libraries loaded on first use (see dynlib.h). */
#include "base/dynlib.h"

#include <dlfcn.h>
#include <stdio.h>

bool iks_dynlib_load(iks_dynlib *l, const char *const *names, void **const *slots, int n, const char *what,
                     iks_err *e)
{
    pthread_mutex_lock(&l->mu);
    if (l->state == 0) {
        /* RTLD_LOCAL: its symbols stay out of the host's namespace, as a linked library's would not */
        void *h = dlopen(l->soname, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            const char *d = dlerror();
            snprintf(l->why, sizeof l->why, "%s cannot be loaded (%s): install %s", l->soname, d ? d : "?",
                     l->package);
            l->state = -1;
        } else {
            l->state = 1;
            for (int i = 0; i < n; i++) {
                void *p = dlsym(h, names[i]);
                if (!p) {
                    snprintf(l->why, sizeof l->why, "%s has no %s: install %s as Debian 12 has it", l->soname,
                             names[i], l->package);
                    l->state = -1;
                    break;
                }
                *slots[i] = p;
            }
            /* a library that failed stays loaded: its pointers are never used, and unloading what
             * may have run constructors is not safe */
        }
    }
    bool ok = l->state == 1;
    pthread_mutex_unlock(&l->mu);
    if (!ok) iks_err_set(e, IKS_E_UNSUPPORTED, "%s: %s", what, l->why);
    return ok;
}
