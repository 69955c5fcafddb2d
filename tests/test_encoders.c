/* test_encoders.c: the JPEG (src/io/jpgio.c) and animated WebP (src/io/webpio.c) encoders alone. Writes
 * each encoded file beside the pixels it was made from (top row first, RGBA) into a temporary directory
 * and has encoders_check.py read them back with PIL and its own walk over the files' structure (size,
 * orientation, PSNR, sampling, WebP frame count, durations, loop count). Here it asserts what only C can
 * see: bad arguments refused with IKS_E_USAGE and nothing returned, the calls' order enforced, encoders
 * on several threads at once making the bytes of one alone, and running out of memory inside libjpeg
 * and libwebp reported as IKS_E_NOMEM, with nothing printed (and, in a sanitized build, nothing leaked).
 * The source frames have alpha that varies from pixel to pixel: the encoders must ignore it.
 * usage: test_encoders PYTHON CHECKER_SCRIPT */
#include "check.h"
#include "io/jpgio.h"
#include "io/webpio.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

/* A frame as GL gives it (bottom row first): a gradient, a red square in the top-left corner (so that a
 * flip or a mirror shows), a blue disc that moves with the frame's index, and noise in alpha. */
static uint8_t *make_frame(int w, int h, int index)
{
    uint8_t *px = malloc((size_t)w * (size_t)h * 4);
    if (!px) return NULL;
    uint32_t s = 2463534242u ^ (uint32_t)index;
    int side = (w < h ? w : h) / 4 + 1;
    double cx = w * (0.25 + 0.08 * index), cy = h * 0.5, r = h * 0.2 + 1;
    for (int gy = 0; gy < h; gy++) {    /* GL's row: 0 is the bottom */
        int ty = h - 1 - gy;             /* the same row counted from the top */
        for (int x = 0; x < w; x++) {
            uint8_t *p = px + ((size_t)gy * (size_t)w + (size_t)x) * 4;
            p[0] = (uint8_t)(40 + 120 * x / (w > 1 ? w - 1 : 1));
            p[1] = (uint8_t)(60 + 120 * ty / (h > 1 ? h - 1 : 1));
            p[2] = (uint8_t)(90 + index * 10);
            if (x < side && ty < side) p[0] = 255, p[1] = 0, p[2] = 0;
            if (hypot(x + 0.5 - cx, ty + 0.5 - cy) < r) p[0] = 0, p[1] = 0, p[2] = 255;
            s ^= s << 13, s ^= s >> 17, s ^= s << 5;
            p[3] = (uint8_t)s;
        }
    }
    return px;
}

static char dir[4096];

static bool write_file(const char *name, const uint8_t *data, size_t len)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f && fclose(f) != 0) ok = false;
    CHECK(ok, "cannot write %s", path);
    return ok;
}

/* the pixels a file must hold, top row first */
static bool write_source(const char *name, const uint8_t *px, int w, int h)
{
    size_t row = (size_t)w * 4;
    uint8_t *top = malloc(row * (size_t)h);
    if (!top) return false;
    for (int y = 0; y < h; y++) memcpy(top + row * (size_t)y, px + row * (size_t)(h - 1 - y), row);
    bool ok = write_file(name, top, row * (size_t)h);
    free(top);
    return ok;
}

static FILE *cases;

static void jpg_case(const char *name, int w, int h, int quality)
{
    uint8_t *px = make_frame(w, h, 0), *out = NULL;
    size_t len = 0;
    iks_err e = IKS_ERR_INIT;
    bool ok = px && iks_jpg_encode(px, w, h, quality, &out, &len, &e);
    CHECK(ok, "%s: %s", name, iks_err_msg(&e));
    if (ok) {
        char f[256];
        snprintf(f, sizeof f, "%s.jpg", name);
        write_file(f, out, len);
        snprintf(f, sizeof f, "%s.rgba", name);
        write_source(f, px, w, h);
        fprintf(cases, "jpg %s %d %d 1 0 %d\n", name, w, h, quality);
    }
    iks_err_clear(&e);
    free(out);
    free(px);
}

/* an animation of n frames; the bytes in *out when out is not NULL (for the threads' comparison) */
static bool webp_encode(int w, int h, int n, double fps, int quality, uint8_t **out, size_t *len, iks_err *e)
{
    iks_webp_anim *a = NULL;
    bool ok = iks_webp_anim_open(w, h, fps, quality, &a, e);
    for (int i = 0; ok && i < n; i++) {
        uint8_t *px = make_frame(w, h, i);
        ok = px && iks_webp_anim_add(a, px, e);
        free(px);
    }
    ok = ok && iks_webp_anim_finish(a, out, len, e);
    iks_webp_anim_free(a);
    return ok;
}

static void webp_case(const char *name, int w, int h, int n, double fps, int quality)
{
    uint8_t *out = NULL;
    size_t len = 0;
    iks_err e = IKS_ERR_INIT;
    bool ok = webp_encode(w, h, n, fps, quality, &out, &len, &e);
    CHECK(ok, "%s: %s", name, iks_err_msg(&e));
    if (ok) {
        char f[256];
        snprintf(f, sizeof f, "%s.webp", name);
        write_file(f, out, len);
        for (int i = 0; i < n; i++) {
            uint8_t *px = make_frame(w, h, i);
            snprintf(f, sizeof f, "%s.%d.rgba", name, i);
            if (px) write_source(f, px, w, h);
            free(px);
        }
        fprintf(cases, "webp %s %d %d %d %.17g %d\n", name, w, h, n, fps, quality);
    }
    iks_err_clear(&e);
    free(out);
}

/* ---- arguments and call order ---------------------------------------------------------------- */

static void expect_usage(const char *what, bool ok, iks_err *e, const void *out, const char *mention)
{
    CHECK(!ok && e->code == IKS_E_USAGE, "%s: want usage, got %s (%s)", what, ok ? "success" : cname(e->code),
          iks_err_msg(e));
    CHECK(out == NULL, "%s: something returned beside the error", what);
    if (mention) CHECK(strstr(iks_err_msg(e), mention) != NULL, "%s: '%s' does not say %s", what, iks_err_msg(e), mention);
    iks_err_clear(e);
}

static void check_arguments(void)
{
    uint8_t px[4 * 4 * 4] = { 0 };
    iks_err e = IKS_ERR_INIT;
    static const struct { int w, h, q; const char *mention; } jbad[] = {
        { 4, 4, 0, "1..100" }, { 4, 4, 101, "1..100" }, { 4, 4, -5, "1..100" }, { 0, 4, 90, "65500" },
        { 4, 0, 90, "65500" }, { -1, 4, 90, "65500" }, { 65501, 4, 90, "65500" }, { 4, 65501, 90, "65500" },
    };
    for (size_t i = 0; i < sizeof jbad / sizeof jbad[0]; i++) {
        uint8_t *out = (uint8_t *)px; /* must come back NULL */
        size_t len = 7;
        char what[80];
        snprintf(what, sizeof what, "JPEG %dx%d quality %d", jbad[i].w, jbad[i].h, jbad[i].q);
        bool ok = iks_jpg_encode(px, jbad[i].w, jbad[i].h, jbad[i].q, &out, &len, &e);
        expect_usage(what, ok, &e, out, jbad[i].mention);
        CHECK(len == 0, "%s: length %zu", what, len);
        if (ok) free(out);
    }
    static const struct { int w, h; double fps; int q; const char *mention; } wbad[] = {
        { 4, 4, 30, 0, "1..100" }, { 4, 4, 30, 101, "1..100" }, { 0, 4, 30, 90, "16383" }, { 4, 0, 30, 90, "16383" },
        { 16384, 4, 30, 90, "16383" }, { 4, 16384, 30, 90, "16383" }, { -3, 4, 30, 90, "16383" },
        { 4, 4, 0, 90, "fps" }, { 4, 4, -30, 90, "fps" }, { 4, 4, NAN, 90, "fps" }, { 4, 4, INFINITY, 90, "fps" },
        { 4, 4, 1000.5, 90, "fps" }, { 4, 4, 1e-5, 90, "fps" },
    };
    for (size_t i = 0; i < sizeof wbad / sizeof wbad[0]; i++) {
        iks_webp_anim *a = (iks_webp_anim *)px; /* must come back NULL */
        char what[80];
        snprintf(what, sizeof what, "WebP %dx%d at %g fps, quality %d", wbad[i].w, wbad[i].h, wbad[i].fps, wbad[i].q);
        bool ok = iks_webp_anim_open(wbad[i].w, wbad[i].h, wbad[i].fps, wbad[i].q, &a, &e);
        expect_usage(what, ok, &e, a, wbad[i].mention);
        if (ok) iks_webp_anim_free(a);
    }
    /* the edges that are allowed */
    iks_webp_anim *a = NULL;
    bool ok = iks_webp_anim_open(16383, 1, 1000, 1, &a, &e);
    CHECK(ok, "WebP 16383x1 at 1000 fps, quality 1: %s", iks_err_msg(&e));
    iks_webp_anim_free(a);
    a = NULL;
    ok = iks_webp_anim_open(1, 16383, 0.001, 100, &a, &e);
    CHECK(ok, "WebP 1x16383 at 0.001 fps, quality 100: %s", iks_err_msg(&e));
    iks_webp_anim_free(a);
    iks_err_clear(&e);

    /* order: no frames, a frame after finish, finish twice */
    uint8_t *out = NULL;
    size_t len = 0;
    a = NULL;
    ok = iks_webp_anim_open(4, 4, 30, 80, &a, &e);
    CHECK(ok, "WebP 4x4: %s", iks_err_msg(&e));
    if (ok) {
        ok = iks_webp_anim_finish(a, &out, &len, &e);
        expect_usage("WebP finished with no frames", ok, &e, out, "no frames");
        free(out);
        out = NULL;
        CHECK(iks_webp_anim_add(a, px, &e), "WebP 4x4, a frame after the empty finish was refused: %s", iks_err_msg(&e));
        CHECK(iks_webp_anim_finish(a, &out, &len, &e) && out && len > 0, "WebP 4x4 of one frame: %s", iks_err_msg(&e));
        free(out);
        out = NULL;
        ok = iks_webp_anim_add(a, px, &e);
        expect_usage("WebP frame after finish", ok, &e, NULL, "finished");
        ok = iks_webp_anim_finish(a, &out, &len, &e);
        expect_usage("WebP finished twice", ok, &e, out, "already");
        free(out);
    }
    iks_webp_anim_free(a);
    iks_webp_anim_free(NULL);
    iks_err_clear(&e);
}

/* ---- threads ----------------------------------------------------------------------------------- */

typedef struct {
    const uint8_t *px, *want;
    size_t want_len;
    int bad;
} jworker;

static void *jpg_worker(void *v)
{
    jworker *k = v;
    for (int i = 0; i < 6; i++) {
        uint8_t *out = NULL;
        size_t len = 0;
        iks_err e = IKS_ERR_INIT;
        if (!iks_jpg_encode(k->px, 320, 180, 60 + i * 7, &out, &len, &e)) k->bad++;
        /* quality 88 (i == 4) is the one compared: the others are there to mix settings between threads */
        else if (i == 4 && (len != k->want_len || memcmp(out, k->want, len) != 0)) k->bad++;
        free(out);
        iks_err_clear(&e);
    }
    return NULL;
}

typedef struct {
    const uint8_t *want;
    size_t want_len;
    int bad;
} wworker;

static void *webp_worker(void *v)
{
    wworker *k = v;
    uint8_t *out = NULL;
    size_t len = 0;
    iks_err e = IKS_ERR_INIT;
    if (!webp_encode(96, 64, 4, 24, 70, &out, &len, &e) || len != k->want_len || memcmp(out, k->want, len) != 0)
        k->bad++;
    free(out);
    iks_err_clear(&e);
    return NULL;
}

static void check_threads(void)
{
    uint8_t *px = make_frame(320, 180, 3), *jwant = NULL, *wwant = NULL;
    size_t jlen = 0, wlen = 0;
    iks_err e = IKS_ERR_INIT;
    bool ok = px && iks_jpg_encode(px, 320, 180, 88, &jwant, &jlen, &e);
    ok = ok && webp_encode(96, 64, 4, 24, 70, &wwant, &wlen, &e);
    CHECK(ok, "the threads' reference encodings: %s", iks_err_msg(&e));
    if (ok) {
        jworker jk[3];
        wworker wk[2];
        pthread_t jt[3], wt[2];
        int started = 0;
        for (int t = 0; t < 3; t++) {
            jk[t] = (jworker){ px, jwant, jlen, 0 };
            if (pthread_create(&jt[t], NULL, jpg_worker, &jk[t]) == 0) started |= 1 << t;
        }
        for (int t = 0; t < 2; t++) {
            wk[t] = (wworker){ wwant, wlen, 0 };
            if (pthread_create(&wt[t], NULL, webp_worker, &wk[t]) == 0) started |= 8 << t;
        }
        int bad = 0;
        for (int t = 0; t < 3; t++)
            if (started & (1 << t)) pthread_join(jt[t], NULL), bad += jk[t].bad;
        int wbad = 0;
        for (int t = 0; t < 2; t++)
            if (started & (8 << t)) pthread_join(wt[t], NULL), wbad += wk[t].bad;
        CHECK(started == 31, "could not start every thread");
        CHECK(bad == 0, "%d JPEGs encoded beside other threads failed or differ from the one made alone", bad);
        CHECK(wbad == 0, "%d WebPs encoded beside other threads failed or differ from the one made alone", wbad);
    }
    iks_err_clear(&e);
    free(px);
    free(jwant);
    free(wwant);
}

/* ---- out of memory inside the libraries ------------------------------------------------------- */

/* The child's side of check_out_of_memory: both encoders ask for more than the child may have. Its
 * exit status says what came back: 0 when both said IKS_E_NOMEM and returned nothing (20-22: the JPEG,
 * 30-32: the WebP, succeeded, another code, something returned). It returns from main, so that in a
 * sanitized build LeakSanitizer checks that the failures freed everything. */
static int oom_child(void)
{
    static uint8_t row[64]; /* never read: libjpeg fails before the first row */
    uint8_t *out = (uint8_t *)row;
    size_t len = 1;
    iks_err e = IKS_ERR_INIT;
    bool ok = iks_jpg_encode(row, 65500, 65500, 90, &out, &len, &e);
    int rc = ok ? 20 : e.code != IKS_E_NOMEM ? 21 : out != NULL || len != 0 ? 22 : 0;
    iks_err_clear(&e);
    iks_webp_anim *a = (iks_webp_anim *)row;
    ok = iks_webp_anim_open(16383, 16383, 30, 80, &a, &e);
    if (rc == 0) rc = ok ? 30 : e.code != IKS_E_NOMEM ? 31 : a != NULL ? 32 : 0;
    iks_err_clear(&e);
    return rc;
}

/* Out of memory inside the libraries: libjpeg's coefficient buffer for a 65500x65500 frame (optimized
 * tables keep the whole frame's coefficients, about 25 GB, allocated in chunks of about 1 GB before any
 * row is read) and libwebp's canvases for 16383x16383 (1 GiB each) cannot be had in a child of this
 * program whose allocations are capped: by its address space (RLIMIT_AS, 512 MiB above what this
 * process uses), or in a sanitized build, whose shadow memory does not fit under such a cap, by
 * AddressSanitizer refusing any allocation over 512 MiB. The error must come back as IKS_E_NOMEM through
 * libjpeg's longjmp, and the child must print nothing (but AddressSanitizer's own note of the refusal). */
static void check_out_of_memory(void)
{
    int fds[2];
    if (pipe(fds) != 0) {
        CHECK(false, "pipe: %s", strerror(errno));
        return;
    }
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        dup2(fds[1], 2);
        close(fds[0]);
        close(fds[1]);
#ifdef IKS_SANITIZE
        const char *old = getenv("ASAN_OPTIONS");
        char opts[2048];
        snprintf(opts, sizeof opts, "%s%sallocator_may_return_null=1:max_allocation_size_mb=512", old ? old : "",
                 old && *old ? ":" : "");
        setenv("ASAN_OPTIONS", opts, 1);
#else
        long pages = 0;
        FILE *f = fopen("/proc/self/statm", "r");
        if (!f || fscanf(f, "%ld", &pages) != 1) _exit(10);
        fclose(f);
        size_t cap = (size_t)pages * (size_t)sysconf(_SC_PAGESIZE) + ((size_t)512 << 20);
        struct rlimit rl = { cap, cap };
        if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(11);
#endif
        execl("/proc/self/exe", "test_encoders", "--oom-child", (char *)NULL);
        _exit(12);
    }
    close(fds[1]);
    /* everything it said, a line at a time; AddressSanitizer's "failed to allocate" notes left out */
    char said[2048] = "", line[1024];
    size_t n = 0, ln = 0;
    char c;
    while (read(fds[0], &c, 1) == 1) {
        if (ln < sizeof line - 1) line[ln++] = c;
        if (c != '\n') continue;
        line[ln] = '\0';
        if (!strstr(line, "AddressSanitizer failed to allocate") && n + ln < sizeof said) {
            memcpy(said + n, line, ln + 1);
            n += ln;
        }
        ln = 0;
    }
    if (ln && n + ln < sizeof said) memcpy(said + n, line, ln), n += ln, said[n] = '\0';
    close(fds[0]);
    int st = 0;
    CHECK(pid > 0 && waitpid(pid, &st, 0) == pid, "fork or wait failed");
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "out of memory: child status %d (exit %d, signal %d)", st,
          WIFEXITED(st) ? WEXITSTATUS(st) : -1, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
    CHECK(n == 0, "out of memory: the encoders printed: %s", said);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--oom-child") == 0) return oom_child();
    if (argc != 3) {
        fprintf(stderr, "usage: test_encoders PYTHON CHECKER_SCRIPT\n");
        return 2;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/iks-encoders-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir)) {
        perror(dir);
        return 2;
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/cases.txt", dir);
    cases = fopen(path, "w");
    if (!cases) {
        perror(path);
        return 2;
    }
    /* JPEG: sizes that are and are not whole 8x8 blocks, the quality the checker bounds (90), the ends */
    jpg_case("jpg_640x360_q90", 640, 360, 90);
    jpg_case("jpg_97x61_q90", 97, 61, 90);
    jpg_case("jpg_33x17_q1", 33, 17, 1);
    jpg_case("jpg_1x1_q100", 1, 1, 100);
    jpg_case("jpg_200x120_q100", 200, 120, 100);
    /* WebP: 7 frames at 30 fps (durations of 33 and 34 ms), frames of odd sizes, one frame (a still), and
     * 2 frames at 3 fps: 333 and 334 ms, where libwebp left to itself gives the last frame the others'
     * average (333) */
    webp_case("webp_200x120_7f_30fps", 200, 120, 7, 30, 90);
    webp_case("webp_61x37_5f_24fps", 61, 37, 5, 24, 90);
    webp_case("webp_64x48_1f", 64, 48, 1, 30, 90);
    webp_case("webp_120x80_2f_3fps_q20", 120, 80, 2, 3, 20);
    fclose(cases);

    check_arguments();
    check_threads();
    check_out_of_memory();

    /* the independent reader */
    char cmd[9000];
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s'", argv[1], argv[2], dir);
    fflush(stdout);
    int st = system(cmd);
    CHECK(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: status %d", cmd, st);

    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "note: could not remove %s\n", dir);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
