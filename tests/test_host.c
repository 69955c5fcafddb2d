/* test_host.c: the host contract (docs/DESIGN-NOTES.md, "The host contract"). A program with its own GLFW
 * window, context, GL state and GLFW error callback uses the library three ways: a headless engine, an
 * engine on its own context (.get_proc) and an engine on a library window. After each it checks that
 * every binding and value it set is as it left it, that its context is current (GLFW's idea and GLX's),
 * that its callback is installed, and that its window outlives the library's. Run under Xvfb
 * (test_host.sh). The snapshot below is the test's own list, independent of the library's table. */
#include "check.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>

#include <dlfcn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int host_errors, host_not_init;
static void host_error_cb(int code, const char *msg)
{
    (void)msg;
    host_errors++;
    if (code == GLFW_NOT_INITIALIZED) host_not_init++;
}

/* what glXGetCurrentContext says: GLFW's current window is only its own bookkeeping */
static void *(*glx_current)(void);
static void *host_glx;

typedef struct {
    GLint program, vao, array_buf, element_buf, read_fb, draw_fb, active_tex, viewport[4], scissor[4];
    GLint tex2d[8], tex3d[8], texcube[8], sampler[8];
    GLint pack_align, unpack_align, pack_row, unpack_row;
    GLboolean scissor_on, blend, depth, cull, stencil, color_mask[4];
    GLfloat clear[4];
} gl_snapshot;

static void snapshot(gl_snapshot *s)
{
    memset(s, 0, sizeof *s);
    glGetIntegerv(GL_CURRENT_PROGRAM, &s->program);
    glGetIntegerv(GL_VERTEX_ARRAY_BINDING, &s->vao);
    glGetIntegerv(GL_ARRAY_BUFFER_BINDING, &s->array_buf);
    glGetIntegerv(GL_ELEMENT_ARRAY_BUFFER_BINDING, &s->element_buf);
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &s->read_fb);
    glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &s->draw_fb);
    glGetIntegerv(GL_ACTIVE_TEXTURE, &s->active_tex);
    glGetIntegerv(GL_VIEWPORT, s->viewport);
    glGetIntegerv(GL_SCISSOR_BOX, s->scissor);
    for (int u = 0; u < 8; u++) {
        glActiveTexture(GL_TEXTURE0 + (GLenum)u);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &s->tex2d[u]);
        glGetIntegerv(GL_TEXTURE_BINDING_3D, &s->tex3d[u]);
        glGetIntegerv(GL_TEXTURE_BINDING_CUBE_MAP, &s->texcube[u]);
        glGetIntegerv(GL_SAMPLER_BINDING, &s->sampler[u]);
    }
    glActiveTexture((GLenum)s->active_tex);
    glGetIntegerv(GL_PACK_ALIGNMENT, &s->pack_align);
    glGetIntegerv(GL_UNPACK_ALIGNMENT, &s->unpack_align);
    glGetIntegerv(GL_PACK_ROW_LENGTH, &s->pack_row);
    glGetIntegerv(GL_UNPACK_ROW_LENGTH, &s->unpack_row);
    s->scissor_on = glIsEnabled(GL_SCISSOR_TEST);
    s->blend = glIsEnabled(GL_BLEND);
    s->depth = glIsEnabled(GL_DEPTH_TEST);
    s->cull = glIsEnabled(GL_CULL_FACE);
    s->stencil = glIsEnabled(GL_STENCIL_TEST);
    glGetBooleanv(GL_COLOR_WRITEMASK, s->color_mask);
    glGetFloatv(GL_COLOR_CLEAR_VALUE, s->clear);
}

/* every field that differs, by name, so a failure says which binding the library left changed */
static void same_state(const char *when, const gl_snapshot *a, const gl_snapshot *b)
{
#define SAME(f, fmt, cast) CHECK(memcmp(&a->f, &b->f, sizeof a->f) == 0, "%s: %s changed (its first value was " fmt \
                                 ", now " fmt ")", when, #f, ((cast)&a->f)[0], ((cast)&b->f)[0])
#define SAMEI(f) SAME(f, "%d", const GLint *)
#define SAMEB(f) SAME(f, "%d", const GLboolean *)
    SAMEI(program); SAMEI(vao); SAMEI(array_buf); SAMEI(element_buf); SAMEI(read_fb); SAMEI(draw_fb);
    SAMEI(active_tex); SAMEI(viewport); SAMEI(scissor);
    for (int u = 0; u < 8; u++) {
        CHECK(a->tex2d[u] == b->tex2d[u], "%s: unit %d's 2D texture %d, now %d", when, u, a->tex2d[u], b->tex2d[u]);
        CHECK(a->tex3d[u] == b->tex3d[u], "%s: unit %d's 3D texture %d, now %d", when, u, a->tex3d[u], b->tex3d[u]);
        CHECK(a->texcube[u] == b->texcube[u], "%s: unit %d's cube map %d, now %d", when, u, a->texcube[u], b->texcube[u]);
        CHECK(a->sampler[u] == b->sampler[u], "%s: unit %d's sampler %d, now %d", when, u, a->sampler[u], b->sampler[u]);
    }
    SAMEI(pack_align); SAMEI(unpack_align); SAMEI(pack_row); SAMEI(unpack_row);
    SAMEB(scissor_on); SAMEB(blend); SAMEB(depth); SAMEB(cull); SAMEB(stencil); SAMEB(color_mask);
    SAME(clear, "%g", const GLfloat *);
#undef SAME
#undef SAMEI
#undef SAMEB
    GLenum e = glGetError();
    CHECK(e == GL_NO_ERROR, "%s: the host's context has GL error 0x%x", when, e);
}

/* the host's context is current by GLFW's account and by GLX's */
static void host_current(const char *when, GLFWwindow *host)
{
    CHECK(glfwGetCurrentContext() == host, "%s: glfwGetCurrentContext is %p, not the host's window %p", when,
          (void *)glfwGetCurrentContext(), (void *)host);
    CHECK(glx_current() == host_glx, "%s: glXGetCurrentContext is %p, not the host's %p", when, glx_current(), host_glx);
}

static GLuint compile(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    return s;
}

/* a state no library default would produce: every value set to something distinctive */
static void set_host_state(int w, int h)
{
    GLuint prog = glCreateProgram(), vs = compile(GL_VERTEX_SHADER, "#version 330 core\nvoid main(){gl_Position=vec4(0);}\n"),
           fs = compile(GL_FRAGMENT_SHADER, "#version 330 core\nout vec4 c;void main(){c=vec4(1);}\n");
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glUseProgram(prog);
    GLuint vao, buf[2], tex[4], fbo, samp;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(2, buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf[0]);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, buf[1]);
    glGenTextures(4, tex);
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
    glBindTexture(GL_TEXTURE_CUBE_MAP, tex[1]);
    glActiveTexture(GL_TEXTURE1);
    glBindTexture(GL_TEXTURE_3D, tex[2]);
    glActiveTexture(GL_TEXTURE3);
    glBindTexture(GL_TEXTURE_2D, tex[3]);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenSamplers(1, &samp);
    glBindSampler(2, samp);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex[3], 0);
    glBindFramebuffer(GL_READ_FRAMEBUFFER, 0); /* read and draw apart */
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 2);
    glPixelStorei(GL_PACK_ROW_LENGTH, 7);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 5);
    glViewport(3, 4, w - 7, h - 9);
    glScissor(1, 2, 11, 13);
    glEnable(GL_SCISSOR_TEST);
    glEnable(GL_BLEND);
    glEnable(GL_DEPTH_TEST);
    glEnable(GL_CULL_FACE);
    glEnable(GL_STENCIL_TEST);
    glClearColor(0.125f, 0.25f, 0.375f, 0.5f);
    glColorMask(GL_TRUE, GL_FALSE, GL_TRUE, GL_FALSE);
}

/* a toy drawn on e: its picture is what the shader says (the library really drew) */
static void draw_toy(const char *when, iks_engine *e)
{
    iks_toy *t = NULL;
    const char *src = "void mainImage(out vec4 c, in vec2 f) { c = vec4(f.x / 8.0, 0.5, 0.25, 1.0); }\n";
    iks_code c = iks_toy_load(e, &(iks_toy_desc){ .path = "host.frag", .source = src, .width = 8, .height = 8 }, &t);
    const char *msg;
    CHECK(c == IKS_OK, "%s: iks_toy_load: %s: %s", when, cname(c), (iks_last_error(&msg), msg));
    if (!t) return;
    uint8_t px[8 * 8 * 4];
    c = iks_toy_draw(t, &(iks_frame_info){ .time = 1 },
                     &(iks_draw_desc){ IKS_DESC_SIZE(iks_draw_desc), .width = 8, .height = 8, .rgba8 = px, .rgba8_len = sizeof px });
    CHECK(c == IKS_OK, "%s: iks_toy_draw: %s: %s", when, cname(c), (iks_last_error(&msg), msg));
    /* pixel (4, 0): f.x = 4.5 -> 0.5625 -> 143; green 0.5 -> 128 (GL rounds to nearest; 1 of slack) */
    CHECK(abs(px[4 * 4] - 143) <= 1 && abs(px[4 * 4 + 1] - 128) <= 1, "%s: pixel (4,0) is %d %d, expected 143 128",
          when, px[16], px[17]);
    iks_toy_destroy(t);
}

/* A progress callback that draws with the host's own context, as a program showing progress in its
 * window would: the render must get its engine's context back (over GLX: glvnd refuses EGL beside it) */
static GLFWwindow *cb_host;
static int cb_calls;
static bool host_draws(void *user, const iks_progress *p)
{
    (void)user;
    (void)p;
    cb_calls++;
    glfwMakeContextCurrent(cb_host);
    glClear(GL_COLOR_BUFFER_BIT);
    return true;
}

static void render_with_callback(const char *when, iks_engine *e, GLFWwindow *host)
{
    iks_toy *t = NULL;
    const char *src = "void mainImage(out vec4 c, in vec2 f) { c = vec4(f.x / 8.0, 0.5, 0.25, 1.0); }\n";
    if (iks_toy_load(e, &(iks_toy_desc){ .path = "cb.frag", .source = src, .width = 8, .height = 8 }, &t) != IKS_OK) {
        CHECK(false, "%s: load for the render", when);
        return;
    }
    char dir[] = "/tmp/ikshade-host-XXXXXX", out[64];
    if (!mkdtemp(dir)) {
        CHECK(false, "%s: mkdtemp", when);
        iks_toy_destroy(t);
        return;
    }
    snprintf(out, sizeof out, "%s/%%02d.png", dir);
    cb_host = host;
    cb_calls = 0;
    iks_render_stats st;
    const char *msg;
    iks_code c = iks_render(t, &(iks_render_desc){ .output = out, .width = 8, .height = 8, .end = 3, .jobs = 1,
                                                   .progress = host_draws }, &st);
    CHECK(c == IKS_OK && st.written == 3 && cb_calls > 0, "%s: a render whose callback draws with the host's "
          "context: %s (%s), %ld frames, %d calls", when, cname(c), (iks_last_error(&msg), msg), st.written, cb_calls);
    iks_toy_destroy(t);
    for (int i = 0; i < 3; i++) {
        char f[96];
        snprintf(f, sizeof f, "%s/%02d.png", dir, i);
        CHECK(remove(f) == 0, "%s: frame %d written", when, i);
    }
    rmdir(dir);
}

int main(void)
{
    glfwSetErrorCallback(host_error_cb);
    if (!glfwInit()) {
        fprintf(stderr, "test_host: no display (run it under Xvfb: test_host.sh)\n");
        return 1;
    }
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow *host = glfwCreateWindow(64, 48, "host", NULL, NULL);
    if (!host) {
        fprintf(stderr, "test_host: cannot open the host's window\n");
        return 1;
    }
    glfwMakeContextCurrent(host);
    void *libgl = dlopen("libGL.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!libgl) libgl = dlopen("libGLX.so.0", RTLD_LAZY | RTLD_NOLOAD);
    if (libgl) *(void **)&glx_current = dlsym(libgl, "glXGetCurrentContext");
    if (!glx_current || !gladLoadGL(glfwGetProcAddress)) {
        fprintf(stderr, "test_host: no GLX or no GL entry points\n");
        return 1;
    }
    host_glx = glx_current();
    set_host_state(64, 48);
    gl_snapshot before, after;
    snapshot(&before);
    CHECK(glGetError() == GL_NO_ERROR, "the host's own state is valid GL");

    /* 1. a headless engine, made and used while the host's GLX context is current */
    iks_engine *e = NULL;
    const char *msg;
    iks_code c = iks_engine_create(NULL, &e);
    CHECK(c == IKS_OK, "a headless engine while the host's context is current: %s: %s", cname(c),
          (iks_last_error(&msg), msg));
    host_current("after iks_engine_create (headless)", host);
    /* the host binds its own context again: with an EGL context left current, GLX refuses (BadAccess) */
    glfwMakeContextCurrent(NULL);
    glfwMakeContextCurrent(host);
    host_current("after the host's glfwMakeContextCurrent", host);
    snapshot(&after);
    same_state("headless engine created", &before, &after);
    if (e) {
        draw_toy("headless engine", e);
        host_current("after drawing on the headless engine", host);
        snapshot(&after);
        same_state("headless draw", &before, &after);
        render_with_callback("headless engine", e, host);
        host_current("after a render on the headless engine", host);
        snapshot(&after);
        same_state("headless render", &before, &after);
        /* the explicit pair: the engine's context while bound, the host's after */
        CHECK(iks_engine_bind(e) == IKS_OK, "iks_engine_bind");
        CHECK(glx_current() != host_glx, "iks_engine_bind left the host's GLX context current");
        draw_toy("between bind and unbind", e);
        CHECK(glx_current() == NULL, "a call between bind and unbind keeps the engine's (EGL) context current "
              "(GLX has %p)", glx_current());
        iks_engine_unbind(e);
        host_current("after iks_engine_unbind", host);
        iks_engine_destroy(e);
        host_current("after destroying the headless engine", host);
    }

    /* 2. an engine on the host's own context: every draw gives back the state it touched */
    e = NULL;
    c = iks_engine_create(&(iks_engine_desc){ .get_proc = glfwGetProcAddress }, &e);
    CHECK(c == IKS_OK, "an engine on the host's context: %s: %s", cname(c), (iks_last_error(&msg), msg));
    if (e) {
        draw_toy("engine on the host's context", e);
        host_current("after drawing on the host's context", host);
        snapshot(&after);
        same_state("draw on the host's context", &before, &after);
        render_with_callback("engine on the host's context", e, host);
        snapshot(&after);
        same_state("render on the host's context", &before, &after);
        CHECK(iks_engine_bind(e) == IKS_OK, "iks_engine_bind on the host's context");
        iks_engine_unbind(e);
        iks_engine_destroy(e);
        snapshot(&after);
        same_state("engine on the host's context destroyed", &before, &after);
    }

    /* 3. a library window beside the host's: GLFW stays the host's (its callback, its window) */
    iks_window *w = NULL;
    c = iks_window_open(&(iks_window_desc){ .width = 32, .height = 32 }, &w);
    CHECK(c == IKS_OK, "iks_window_open: %s: %s", cname(c), (iks_last_error(&msg), msg));
    host_current("after iks_window_open", host);
    if (w) {
        e = NULL;
        c = iks_engine_create(&(iks_engine_desc){ .window = w }, &e);
        CHECK(c == IKS_OK, "an engine on a library window: %s", cname(c));
        host_current("after an engine on a library window", host);
        if (e) {
            draw_toy("library window", e);
            host_current("after drawing on a library window", host);
            iks_engine_destroy(e);
        }
        iks_window_close(w);
    }
    host_current("after iks_window_close", host);
    snapshot(&after);
    same_state("library window closed", &before, &after);
    GLFWerrorfun now = glfwSetErrorCallback(host_error_cb);
    CHECK(now == host_error_cb, "the host's GLFW error callback was replaced");
    int errors = host_errors;
    CHECK(!glfwWindowShouldClose(host), "the host's window is alive");
    CHECK(host_not_init == 0, "GLFW was terminated under the host (%d NOT_INITIALIZED errors)", host_not_init);
    (void)glfwGetKey(host, -5); /* GLFW_INVALID_ENUM: reaches the host's callback */
    CHECK(host_errors == errors + 1, "a GLFW error after the library's window reaches the host's callback");
    int fw = 0, fh = 0;
    glfwGetFramebufferSize(host, &fw, &fh);
    CHECK(fw == 64 && fh == 48, "the host's window is %dx%d, expected 64x48", fw, fh);

    glfwDestroyWindow(host);
    glfwTerminate();
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures != 0;
}
