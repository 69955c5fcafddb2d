/* strict.c: would shadertoy.com compile this toy? The site compiles WebGL2's GLSL ES 3.00, which is
 * stricter than the GLSL 3.30 a single file is built as here (`float x = 1;`, `texture2D`, desktop-only
 * functions), and stricter than some drivers' own ES front ends (Mesa accepts `texture2D` under
 * `#version 300 es`; ANGLE does not). Each pass is assembled again exactly as for the ES build (the
 * site's prelude, Common, zero-initialisation) and handed to an independent validator: Debian's
 * glslangValidator in ES mode where it is installed (the Khronos reference front end, which agrees with
 * ANGLE here), else the GL's own ES compiler where the context has one. What it rejects comes back as
 * warnings in the user's file:line. A check never fails a load: the toy was built and runs here.
 * Not done: linking (the GL build already did), vertex stages (the site's are its own). */
#include "engine/engine.h"
#include "base/buf.h"
#include "base/strutil.h"
#include "glsl/source.h"
#include "base/subproc.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_LINES_PER_PASS 8  /* the first errors say what is wrong; a flood of follow-ons does not */
#define VALIDATOR_SECONDS 10  /* a validator that takes longer is stuck (or fed a pathological shader) */
#define MAX_OUTPUT (1 << 20)  /* what we read of a validator's report; the rest is follow-on errors */

/* Whether the user's lines of src declare a uniform with a value (`uniform float r1 = 0.5;`): ikshade's
 * knobs for --set, which GLSL 3.30 allows and ES does not. Such a file is written for ikshade. */
static bool has_uniform_default(const iks_source *src)
{
    int line = 1;
    for (const char *p = src->fragment; *p; line++) {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) : strlen(p);
        const char *path;
        int fl;
        if (iks_source_where(src, line, &path, &fl) && path && strcmp(path, IKS_PRELUDE_NAME) != 0) {
            const char *c = p, *end = p + n;
            for (const char *q = p; q + 1 < end; q++)
                if (q[0] == '/' && (q[1] == '/' || q[1] == '*')) { end = q; break; }
            for (; c + 7 <= end; c++) {
                if (strncmp(c, "uniform", 7) || (c > p && (isalnum((unsigned char)c[-1]) || c[-1] == '_')) ||
                    (c + 7 < end && (isalnum((unsigned char)c[7]) || c[7] == '_')))
                    continue;
                const char *semi = memchr(c, ';', (size_t)(end - c));
                if (semi && memchr(c, '=', (size_t)(semi - c))) return true;
            }
        }
        p = e ? e + 1 : p + n;
    }
    return false;
}

/* glslangValidator's path: $IKSHADE_GLSLANG ("" or "none": use none), else the one iks_spawn finds */
static char *find_glslang(void)
{
    const char *env = getenv("IKSHADE_GLSLANG");
    if (env) return *env && strcmp(env, "none") ? strdup(env) : NULL;
    return iks_find_program("glslangValidator");
}

/* Runs `prog --stdin -S frag` on text; its report (stdout and stderr) malloc'd, or NULL when it could not
 * be run or did not finish in time. The text goes through a socket, not a pipe, so that a validator that
 * dies early costs an EPIPE (MSG_NOSIGNAL) instead of a SIGPIPE in the embedding program. */
static char *run_validator(const char *prog, const char *text)
{
    int in[2], out[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0) return NULL;
    if (pipe2(out, O_CLOEXEC) != 0) {
        close(in[0]);
        close(in[1]);
        return NULL;
    }
    char *argv[] = { (char *)prog, "--stdin", "-S", "frag", NULL };
    const int fds[] = { in[1], out[1], out[1] };
    pid_t pid;
    int rc = iks_spawn(&pid, argv, fds, 3, false);
    close(in[1]);
    close(out[1]);
    if (rc != 0) {
        close(in[0]);
        close(out[0]);
        return NULL;
    }
    fcntl(in[0], F_SETFL, fcntl(in[0], F_GETFL) | O_NONBLOCK);
    size_t len = strlen(text), sent = 0, got = 0, cap = 0;
    char *rep = NULL;
    bool oom = false, done = false;
    double deadline = iks_now() + VALIDATOR_SECONDS;
    int wfd = in[0];
    while (!done) {
        double left = deadline - iks_now();
        if (left <= 0) break;
        struct pollfd pf[2] = { { .fd = out[0], .events = POLLIN }, { .fd = wfd, .events = POLLOUT } };
        int np = wfd >= 0 ? 2 : 1;
        int r = poll(pf, (nfds_t)np, (int)(left * 1000) + 1);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) break;
        if (np == 2 && (pf[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
            ssize_t k = send(wfd, text + sent, len - sent, MSG_NOSIGNAL);
            if (k > 0) sent += (size_t)k;
            if ((k < 0 && errno != EAGAIN && errno != EINTR) || sent == len) {
                shutdown(wfd, SHUT_WR); /* end of input: the validator starts */
                close(wfd);
                wfd = -1;
            }
        }
        if (pf[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            if (cap - got < 4097 && cap < MAX_OUTPUT + 4097 && !IKS_GROW(rep, got + 8192, cap)) oom = true;
            char sink[4096];
            bool keep = rep && cap - got > 1 && got < MAX_OUTPUT;
            ssize_t k = keep ? read(out[0], rep + got, cap - got - 1) : read(out[0], sink, sizeof sink);
            if (k > 0 && keep) got += (size_t)k;
            else if (k == 0) done = true;
            else if (k < 0 && errno != EINTR && errno != EAGAIN) done = true;
        }
    }
    if (wfd >= 0) close(wfd);
    close(out[0]);
    if (!done) kill(pid, SIGKILL);
    iks_reap(pid);
    if (!done || oom || !rep) {
        free(rep);
        return NULL;
    }
    rep[got] = '\0';
    return rep;
}

static bool ident(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Whether name (n bytes) is #defined in text as a macro of exactly one parameter */
static bool one_param_macro(const char *text, const char *name, size_t n)
{
    for (const char *p = strstr(text, "#"); p; p = strstr(p + 1, "#")) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '\t') q++;
        if (strncmp(q, "define", 6) != 0 || ident(q[6])) continue;
        q += 6;
        while (*q == ' ' || *q == '\t') q++;
        if (strncmp(q, name, n) != 0 || q[n] != '(') continue;
        q += n + 1;
        while (*q == ' ' || *q == '\t') q++;
        if (!ident(*q)) return false;
        while (ident(*q)) q++;
        while (*q == ' ' || *q == '\t') q++;
        return *q == ')';
    }
    return false;
}

/* The text glslang is given: the fragment with each call `M()` of a one-parameter macro M written as
 * `M(iks_empty_arg)`, a macro that expands to nothing, #defined on a blank line of the prelude (no line
 * moves). `M()` passes M one empty argument in C's preprocessor and ANGLE's, where glslang counts none
 * ("Too few args in Macro"): a warning the site would not give. NULL when out of memory. */
static char *for_glslang(const iks_source *src)
{
    const char *t = src->fragment;
    iks_sbuf b = { 0 };
    bool changed = false;
    for (const char *p = t; *p;) {
        if (ident(*p) && (p == t || !ident(p[-1]))) {
            const char *e = p;
            while (ident(*e)) e++;
            const char *q = e;
            while (*q == ' ' || *q == '\t') q++;
            if (*q == '(') {
                const char *r = q + 1;
                while (*r == ' ' || *r == '\t') r++;
                if (*r == ')' && one_param_macro(t, p, (size_t)(e - p))) {
                    iks_sbuf_add(&b, p, (size_t)(e - p));
                    iks_sbuf_str(&b, "(iks_empty_arg)");
                    p = r + 1;
                    changed = true;
                    continue;
                }
            }
            iks_sbuf_add(&b, p, (size_t)(e - p));
            p = e;
            continue;
        }
        iks_sbuf_add(&b, p, 1);
        p++;
    }
    if (b.oom || !changed) {
        free(b.s);
        return b.oom ? NULL : strdup(t);
    }
    /* the first blank line of ours: the padding before the user's lines (glsl/source.c) */
    char *o = b.s;
    int line = 1;
    for (char *p = o; *p; line++) {
        char *e = strchr(p, '\n');
        if (!e) break;
        const char *path;
        int fl;
        if (e == p && line > 1 && iks_source_where(src, line, &path, &fl) && path && !strcmp(path, IKS_PRELUDE_NAME)) {
            iks_sbuf out = { 0 };
            iks_sbuf_add(&out, o, (size_t)(p - o));
            iks_sbuf_str(&out, "#define iks_empty_arg");
            iks_sbuf_str(&out, p);
            free(o);
            if (out.oom) free(out.s);
            return out.oom ? NULL : out.s;
        }
        p = e + 1;
    }
    return o; /* no blank line: glslang will say what it says */
}

/* Appends to *acc (growing) the validator's errors in report as the user's file:line warnings, at most
 * MAX_LINES_PER_PASS of them plus a count of the rest; returns how many errors there were. */
static int report_errors(const char *report, const iks_source *src, const char *validator, iks_sbuf *acc)
{
    int n = 0, shown = 0;
    for (const char *p = report; p && *p;) {
        const char *e = strchr(p, '\n');
        size_t ln = e ? (size_t)(e - p) : strlen(p);
        char line[2048];
        snprintf(line, sizeof line, "%.*s", (int)(ln < sizeof line ? ln : sizeof line - 1), p);
        p = e ? e + 1 : p + ln;
        iks_log_line L;
        if (!iks_log_parse(line, &L) || strcmp(L.sev, "error") || L.line <= 0) continue;
        /* glslang's "compilation terminated" follows the error that stopped it: nothing of its own */
        if (strstr(L.msg, "compilation terminated")) continue;
        const char *path;
        int fl;
        /* lines of our own (the prelude, main()) are not the user's to fix */
        if (!iks_source_where(src, L.line, &path, &fl) || !path || strcmp(path, IKS_PRELUDE_NAME) == 0) continue;
        n++;
        if (shown >= MAX_LINES_PER_PASS) continue;
        shown++;
        /* glslang pads its messages ("'=' :  cannot convert from ' const int'"): single spaces read better */
        char msg[2048];
        size_t k0 = 0;
        bool quoted = false;
        for (const char *q = L.msg; *q && k0 + 1 < sizeof msg; q++) {
            if (*q == '\'') quoted = !quoted;
            /* doubled spaces, and the space just inside an opening quote */
            if (*q == ' ' && (k0 == 0 || msg[k0 - 1] == ' ' || (quoted && msg[k0 - 1] == '\''))) continue;
            msg[k0++] = *q;
        }
        while (k0 > 0 && msg[k0 - 1] == ' ') k0--;
        msg[k0] = '\0';
        /* the file's name on one line, as the compiler's lines show it: these lines reach the terminal as
         * they are, many to a report */
        size_t wn = iks_shown_text(NULL, 0, path, true) + 1;
        char *where = malloc(wn), *m = NULL;
        if (!where) continue;
        iks_shown_text(where, wn, path, true);
        int k = L.col > 0 ? asprintf(&m, "%s:%d:%d: warning: shadertoy.com (GLSL ES 3.00) rejects this, says %s: %s\n",
                                     where, fl, L.col, validator, msg)
                          : asprintf(&m, "%s:%d: warning: shadertoy.com (GLSL ES 3.00) rejects this, says %s: %s\n",
                                     where, fl, validator, msg);
        free(where);
        if (k < 0) continue;
        /* Common is part of every pass: its errors once */
        if (acc->s && strstr(acc->s, m)) {
            free(m);
            n--;
            shown--;
            continue;
        }
        iks_sbuf_add(acc, m, (size_t)k);
        free(m);
    }
    if (n > shown) {
        iks_sbuf_fmt(acc, "  ... and %d more from the same validator\n", n - shown);
    }
    return n;
}

int iks_es_check(const iks_spec *d, const iks_source_opts *base, const iks_logger *log)
{
    char *glslang = find_glslang();
    /* without glslang, a toy built as ES was already judged by the GL's own ES compiler */
    if (!glslang && (d->es || !iks_gpu_has_es3())) return -1;
    const char *validator = glslang ? "glslang" : "the GL's ES compiler";
    int total = 0, checked = 0;
    iks_sbuf acc = { 0 };
    /* the passes, Cube A with its own entry point, then a sound pass of its own */
    for (int s = 0; s <= IKS_PASSES; s++) {
        const iks_pass *ps = s < IKS_PASSES ? &d->pass[s] : &d->sound;
        if (!ps->path) continue;
        iks_entry entry = s == IKS_CUBE_PASS ? IKS_ENTRY_CUBEMAP : s == IKS_PASSES ? IKS_ENTRY_SOUND : IKS_ENTRY_IMAGE;
        iks_source_opts o;
        iks_gltoy_pass_opts(d, ps, entry, base, &o);
        o.es = true; /* whatever this GL builds: the site's language */
        iks_source src = { 0 };
        iks_err e = IKS_ERR_INIT;
        bool loaded = iks_source_load(&src, ps->path, &o, &e);
        /* a sound shader alone in a file: its entry point is mainSound */
        if (loaded && entry == IKS_ENTRY_IMAGE && src.image_unseen && src.sound_seen) {
            iks_source_free(&src);
            o.entry = IKS_ENTRY_SOUND;
            loaded = iks_source_load(&src, ps->path, &o, &e);
        }
        /* a file with its own #version and main() is not a Shadertoy shader, and one that #includes
         * others or gives its uniforms values uses ikshade's extensions (as its demos do): the site
         * never sees these */
        if (loaded && src.shadertoy && src.nfiles == src.main_file + 1 && !has_uniform_default(&src) &&
            src.nparams == 0) { /* #iUniform lines: written for ikshade or VS Code's extension */
            char *report = NULL;
            bool ok = true;
            checked++;
            if (glslang) {
                char *text = for_glslang(&src);
                report = text ? run_validator(glslang, text) : NULL;
                free(text);
            }
            else report = iks_gpu_compile_only(src.fragment, &ok);
            if (report) total += report_errors(report, &src, validator, &acc);
            else if (glslang) iks_warnf(log, "%s: %s could not be run (or took over %d s): no GLSL ES check", ps->path,
                                        glslang, VALIDATOR_SECONDS);
            free(report);
        }
        iks_err_clear(&e);
        iks_source_free(&src);
    }
    if (acc.len && !acc.oom) {
        acc.s[acc.len - 1] = '\0'; /* one message, its lines compiler-style as the driver's are */
        iks_logf(log, IKS_LOG_DIAGNOSTICS, "%s", acc.s);
    }
    iks_sbuf_free(&acc);
    free(glslang);
    return checked ? total : -1;
}
