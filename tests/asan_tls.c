/* asan_tls: the sanitized build's runtime options keep LeakSanitizer's exit scan alive when a dynamic
 * TLS block lands 16 bytes past a page (see src/base/sanopts.c). 200 threads each take a small block of
 * a dlopen'd module and stay alive through exit, so that some block lands there in every run: with
 * ASAN_OPTIONS=intercept_tls_get_addr=1 this program dies with "Tracer caught signal 11" (5 runs of 5
 * with GCC 12). Run by ctest in sanitized builds only; success is exit 0 and the leak check finishing. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int *(*touch)(void);
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER, touched = PTHREAD_COND_INITIALIZER;
static int ntouched;

static void *park(void *arg)
{
    /* a small allocation of a varying size first, so that the blocks fall at every offset in the class */
    volatile char *shift = malloc((uintptr_t)arg % 48 + 1);
    (void)shift;
    touch()[0] = 1;
    pthread_mutex_lock(&lock);
    ntouched++;
    pthread_cond_signal(&touched);
    for (;;) pthread_cond_wait(&never, &lock);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: asan_tls MODULE.so\n");
        return 2;
    }
    void *mod = dlopen(argv[1], RTLD_NOW);
    if (!mod) {
        fprintf(stderr, "asan_tls: %s\n", dlerror());
        return 1;
    }
    *(void **)&touch = dlsym(mod, "asan_tls_touch");
    if (!touch) {
        fprintf(stderr, "asan_tls: %s has no asan_tls_touch\n", argv[1]);
        return 1;
    }
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 1 << 16);
    for (uintptr_t i = 0; i < 200; i++) {
        pthread_t t;
        if (pthread_create(&t, &attr, park, (void *)(i * 7))) {
            fprintf(stderr, "asan_tls: pthread_create failed at thread %u\n", (unsigned)i);
            return 1;
        }
    }
    pthread_attr_destroy(&attr);
    /* every block exists before exit's leak scan */
    pthread_mutex_lock(&lock);
    while (ntouched < 200) pthread_cond_wait(&touched, &lock);
    pthread_mutex_unlock(&lock);
    return 0;
}
