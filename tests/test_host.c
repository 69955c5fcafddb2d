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
#include <errno.h>
#include <stdio.h>
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
    /* units the library never binds hold the host's too, and the active one is past them: a texture the
     * library made while unit 5 was active stayed bound there, and the unit came back as GL_TEXTURE3 */
    glActiveTexture(GL_TEXTURE6);
    glBindTexture(GL_TEXTURE_CUBE_MAP, tex[1]);
    glActiveTexture(GL_TEXTURE5);
    glBindTexture(GL_TEXTURE_2D, tex[0]);
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

/* ---- GPU in and out (issue 26, item 2): the host's own framebuffer and textures ---- */

/* made before the host sets its state, so that making them disturbs nothing the test compares */
static GLuint host_fbo, host_fbo_tex, chan_tex[2], cube_tex, vol_tex;

static void make_host_objects(void)
{
    glGenTextures(1, &host_fbo_tex);
    glBindTexture(GL_TEXTURE_2D, host_fbo_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 16, 16, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &host_fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, host_fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, host_fbo_tex, 0);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    /* two 2x2 textures a camera might hand over, frame after frame (GL's rows: bottom first) */
    static const uint8_t texels[2][16] = { { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120, 130, 140, 150, 160 },
                                           { 200, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 250 } };
    glGenTextures(2, chan_tex);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    for (int i = 0; i < 2; i++) {
        glBindTexture(GL_TEXTURE_2D, chan_tex[i]);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels[i]);
    }
    glBindTexture(GL_TEXTURE_2D, 0);
    /* a cubemap with a colour of its own on each face (+X, -X, +Y, -Y, +Z, -Z) and a 1x1x1 volume */
    glGenTextures(1, &cube_tex);
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube_tex);
    for (int f = 0; f < 6; f++) {
        const uint8_t face[4] = { (uint8_t)(10 + 40 * f), (uint8_t)(250 - 30 * f), 77, 255 };
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + (GLenum)f, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, face);
    }
    glBindTexture(GL_TEXTURE_CUBE_MAP, 0);
    static const uint8_t voxel[4] = { 33, 66, 99, 255 };
    glGenTextures(1, &vol_tex);
    glBindTexture(GL_TEXTURE_3D, vol_tex);
    glTexImage3D(GL_TEXTURE_3D, 0, GL_RGBA8, 1, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, voxel);
    glBindTexture(GL_TEXTURE_3D, 0);
}

/* reads w x h RGBA8 of framebuffer fbo (or of texture tex when fbo is 0), bottom row first, and puts
 * back what reading changes: the test's own reads must not look like the library's changes */
static void host_read(GLuint fbo, GLuint tex, int x, int y, int w, int h, uint8_t *out)
{
    GLint read_fb, pack_row, pack_align, active, bound;
    glGetIntegerv(GL_READ_FRAMEBUFFER_BINDING, &read_fb);
    glGetIntegerv(GL_PACK_ROW_LENGTH, &pack_row);
    glGetIntegerv(GL_PACK_ALIGNMENT, &pack_align);
    glPixelStorei(GL_PACK_ROW_LENGTH, 0);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    if (fbo) {
        glBindFramebuffer(GL_READ_FRAMEBUFFER, fbo);
        glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE, out);
        glBindFramebuffer(GL_READ_FRAMEBUFFER, (GLuint)read_fb);
    } else {
        glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
        glActiveTexture(GL_TEXTURE7);
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
        glBindTexture(GL_TEXTURE_2D, tex);
        glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, out);
        glBindTexture(GL_TEXTURE_2D, (GLuint)bound);
        glActiveTexture((GLenum)active);
    }
    glPixelStorei(GL_PACK_ROW_LENGTH, pack_row);
    glPixelStorei(GL_PACK_ALIGNMENT, pack_align);
}

/* puts back the draw framebuffer, scissor, colour mask and clear colour the test's own clear changed */
static void set_host_state_again(const gl_snapshot *s)
{
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, (GLuint)s->draw_fb);
    if (s->scissor_on) glEnable(GL_SCISSOR_TEST);
    glColorMask(s->color_mask[0], s->color_mask[1], s->color_mask[2], s->color_mask[3]);
    glClearColor(s->clear[0], s->clear[1], s->clear[2], s->clear[3]);
}

/* rows bottom first (GL's) against rows top first (memory's): how many bytes differ */
static int flipped_diff(const uint8_t *gl_rows, const uint8_t *top_rows, int w, int h)
{
    int bad = 0;
    for (int y = 0; y < h; y++)
        bad += memcmp(gl_rows + (size_t)y * w * 4, top_rows + (size_t)(h - 1 - y) * w * 4, (size_t)w * 4) != 0;
    return bad;
}

/* Channels the toy declared a cubemap and a volume (files of its own, grey), fed the host's cubemap and 3D
 * texture: the shader's samplers are fixed at load, so only those targets fit; NULL gives the files back */
static void cube_and_volume(iks_engine *e, const gl_snapshot *before)
{
    char dir[] = "/tmp/test_host.XXXXXX", face[64], path[6][80], vol[80], cube_spec[96];
    if (!mkdtemp(dir)) {
        CHECK(0, "mkdtemp: %s", strerror(errno));
        return;
    }
    static const uint8_t grey[4] = { 200, 200, 200, 255 };
    for (int f = 0; f < 6; f++) {
        if (f) snprintf(face, sizeof face, "_%d", f);
        snprintf(path[f], sizeof path[f], "%s/face%s.png", dir, f ? face : "");
        CHECK(iks_write_png(path[f], grey, 1, 1, true) == IKS_OK, "write %s", path[f]);
    }
    snprintf(cube_spec, sizeof cube_spec, "cube:%s", path[0]);
    snprintf(vol, sizeof vol, "%s/v.bin", dir);
    FILE *fp = fopen(vol, "wb");
    /* shadertoy.com's volume: "BIN\0", x, y, z (le32), 4 channels, 0, format 0 (bytes), then the texels */
    static const uint8_t bin[] = { 'B', 'I', 'N', 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 200, 200, 200, 255 };
    CHECK(fp && fwrite(bin, sizeof bin, 1, fp) == 1 && fclose(fp) == 0, "write %s", vol);
    const char *src = "void mainImage(out vec4 c, in vec2 f) {\n"
                      "    c = f.x < 1.0 ? texture(iChannel1, vec3(1.0, 0.0, 0.0))\n"
                      "      : f.x < 2.0 ? texture(iChannel1, vec3(0.0, 0.0, -1.0)) : texture(iChannel3, vec3(0.5));\n"
                      "}\n";
    iks_toy_desc td = IKS_TOY_DESC_INIT;
    td.path = "cubevol.frag", td.source = src, td.width = 3, td.height = 1;
    td.channel[1] = cube_spec, td.channel[3] = vol;
    iks_toy *t = NULL;
    const char *msg;
    iks_code c = iks_toy_load(e, &td, &t);
    CHECK(c == IKS_OK, "gpu: load the cubemap and volume toy: %s: %s", cname(c), (iks_last_error(&msg), msg));
    uint8_t out[3 * 4];
    iks_draw_desc d = IKS_DRAW_DESC_INIT;
    d.width = 3, d.height = 1, d.rgba8 = out, d.rgba8_len = sizeof out;
    /* what each step must give: the files' grey, the host's faces +X (0) and -Z (5) and its voxel, grey again */
    for (int step = 0; t && step < 3; step++) {
        if (step == 1) {
            iks_channel_desc cd = IKS_CHANNEL_DESC_INIT;
            cd.texture = cube_tex, cd.target = GL_TEXTURE_CUBE_MAP;
            c = iks_toy_set_channel(t, 1, &cd);
            CHECK(c == IKS_OK, "gpu: channel 1 from the host's cubemap: %s: %s", cname(c), (iks_last_error(&msg), msg));
            cd.texture = vol_tex, cd.target = GL_TEXTURE_3D;
            c = iks_toy_set_channel(t, 3, &cd);
            CHECK(c == IKS_OK, "gpu: channel 3 from the host's volume: %s: %s", cname(c), (iks_last_error(&msg), msg));
            /* a cubemap where the shader samples a volume, and the other way round */
            c = iks_toy_set_channel(t, 3, &(iks_channel_desc){ IKS_DESC_SIZE(iks_channel_desc), .texture = cube_tex,
                                                               .target = GL_TEXTURE_CUBE_MAP });
            CHECK(c == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "target"), "gpu: a cubemap for the volume "
                  "channel: %s about '%s'", cname(c), iks_last_error_field(NULL));
            c = iks_toy_set_channel(t, 1, &(iks_channel_desc){ IKS_DESC_SIZE(iks_channel_desc), .texture = vol_tex,
                                                               .target = GL_TEXTURE_3D });
            CHECK(c == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "target"), "gpu: a volume for the cubemap "
                  "channel: %s about '%s'", cname(c), iks_last_error_field(NULL));
        } else if (step == 2) {
            CHECK(iks_toy_set_channel(t, 1, NULL) == IKS_OK && iks_toy_set_channel(t, 3, NULL) == IKS_OK,
                  "gpu: channels 1 and 3 given back");
        }
        memset(out, 0, sizeof out);
        c = iks_toy_draw(t, NULL, &d);
        uint8_t want[12] = { 200, 200, 200, 255, 200, 200, 200, 255, 200, 200, 200, 255 };
        if (step == 1) {
            const uint8_t host[12] = { 10, 250, 77, 255, 210, 100, 77, 255, 33, 66, 99, 255 };
            memcpy(want, host, sizeof want);
        }
        CHECK(c == IKS_OK && !memcmp(out, want, sizeof want), "gpu: step %d: +X %d %d %d, -Z %d %d %d, volume %d %d %d;"
              " expected %d %d %d, %d %d %d, %d %d %d", step, out[0], out[1], out[2], out[4], out[5], out[6], out[8],
              out[9], out[10], want[0], want[1], want[2], want[4], want[5], want[6], want[8], want[9], want[10]);
        gl_snapshot after;
        snapshot(&after);
        same_state("a cubemap and a volume from the host", before, &after);
    }
    iks_toy_destroy(t);
    for (int f = 0; f < 6; f++) unlink(path[f]);
    unlink(vol);
    rmdir(dir);
}

static void gpu_in_out(iks_engine *e, const gl_snapshot *before)
{
    gl_snapshot after;
    const char *msg;
    iks_toy *t = NULL;
    /* a picture with a different value in every pixel, so a shifted or flipped copy cannot pass */
    const char *src = "void mainImage(out vec4 c, in vec2 f) { c = vec4(f.x / 8.0, f.y / 8.0, 0.25, 1.0); }\n";
    iks_code c = iks_toy_load(e, &(iks_toy_desc){ IKS_DESC_SIZE(iks_toy_desc), .path = "fbo.frag", .source = src,
                                                  .width = 8, .height = 8 }, &t);
    CHECK(c == IKS_OK, "gpu: load: %s: %s", cname(c), (iks_last_error(&msg), msg));
    if (!t) return;
    uint8_t ref[8 * 8 * 4], got[16 * 16 * 4];
    iks_draw_desc d = IKS_DRAW_DESC_INIT;
    d.width = 8, d.height = 8, d.rgba8 = ref, d.rgba8_len = sizeof ref;
    c = iks_toy_draw(t, NULL, &d);
    CHECK(c == IKS_OK, "gpu: the draw into memory: %s: %s", cname(c), (iks_last_error(&msg), msg));

    /* into the host's framebuffer at (4, 2): the same pixels, the rest of it untouched */
    d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
    d.width = 8, d.height = 8, d.to_fbo = true, d.fbo = host_fbo, d.x = 4, d.y = 2;
    c = iks_toy_draw(t, NULL, &d);
    CHECK(c == IKS_OK, "gpu: the draw into the host's framebuffer: %s: %s", cname(c), (iks_last_error(&msg), msg));
    snapshot(&after);
    same_state("draw into the host's framebuffer", before, &after);
    host_read(host_fbo, 0, 4, 2, 8, 8, got);
    CHECK(flipped_diff(got, ref, 8, 8) == 0, "gpu: the framebuffer's 8x8 at (4,2) differs from the memory draw "
          "(first pixel %d %d %d, expected %d %d %d)", got[0], got[1], got[2], ref[7 * 32], ref[7 * 32 + 1], ref[7 * 32 + 2]);
    host_read(host_fbo, 0, 0, 0, 16, 16, got);
    int outside = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++)
            if (x < 4 || x >= 12 || y < 2 || y >= 10) outside += got[(y * 16 + x) * 4 + 3] != 0;
    CHECK(outside == 0, "gpu: %d pixels outside the rectangle were written", outside);

    /* scaled: the 8x8 frame over a 16x12 rectangle at (0, 4) covers it exactly, corner to corner */
    glBindFramebuffer(GL_DRAW_FRAMEBUFFER, host_fbo);
    glDisable(GL_SCISSOR_TEST);
    glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
    glClearColor(0, 0, 0, 0);
    glClear(GL_COLOR_BUFFER_BIT);
    set_host_state_again(before);
    d.x = 0, d.y = 4, d.w = 16, d.h = 12;
    c = iks_toy_draw(t, NULL, &d);
    CHECK(c == IKS_OK, "gpu: a scaled draw: %s: %s", cname(c), (iks_last_error(&msg), msg));
    snapshot(&after);
    same_state("a scaled draw into the host's framebuffer", before, &after);
    host_read(host_fbo, 0, 0, 0, 16, 16, got);
    int covered = 0, spilled = 0;
    for (int y = 0; y < 16; y++)
        for (int x = 0; x < 16; x++) *(y >= 4 ? &covered : &spilled) += got[(y * 16 + x) * 4 + 3] != 0;
    CHECK(covered == 16 * 12 && spilled == 0, "gpu: the scaled rectangle: %d of 192 pixels written, %d outside",
          covered, spilled);
    d.w = d.h = 0;

    /* the Image texture, read by the host itself */
    unsigned tex = 0, fmt = 0;
    int tw = 0, th = 0;
    c = iks_toy_image_texture(t, &tex, &tw, &th, &fmt);
    CHECK(c == IKS_OK && tex && tw == 8 && th == 8 && fmt == GL_RGBA8, "gpu: iks_toy_image_texture: %s, %u %dx%d 0x%x",
          cname(c), tex, tw, th, fmt);
    if (tex) {
        host_read(0, tex, 0, 0, 8, 8, got);
        CHECK(flipped_diff(got, ref, 8, 8) == 0, "gpu: the Image texture read by the host differs from the memory draw");
    }
    snapshot(&after);
    same_state("the Image texture", before, &after);

    /* refusals, naming the field, and the state still the host's */
    d.fbo = 4242;
    c = iks_toy_draw(t, NULL, &d);
    CHECK(c == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "fbo"), "gpu: fbo 4242: %s about '%s'", cname(c),
          iks_last_error_field(NULL));
    iks_toy_destroy(t);
    t = NULL;

    /* channels: the host's textures (kept by the host), then its pixels in memory */
    const char *fetch = "void mainImage(out vec4 c, in vec2 f) { c = texelFetch(iChannel2, ivec2(f), 0); }\n";
    c = iks_toy_load(e, &(iks_toy_desc){ IKS_DESC_SIZE(iks_toy_desc), .path = "chan.frag", .source = fetch,
                                         .width = 2, .height = 2 }, &t);
    CHECK(c == IKS_OK, "gpu: load the channel shader: %s: %s", cname(c), (iks_last_error(&msg), msg));
    if (!t) return;
    uint8_t out[16], want[16];
    for (int k = 0; k < 2; k++) {
        iks_channel_desc cd = IKS_CHANNEL_DESC_INIT;
        cd.texture = chan_tex[k], cd.target = GL_TEXTURE_2D;
        c = iks_toy_set_channel(t, 2, &cd);
        CHECK(c == IKS_OK, "gpu: channel 2 from the host's texture %d: %s: %s", k, cname(c), (iks_last_error(&msg), msg));
        d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
        d.width = 2, d.height = 2, d.rgba8 = out, d.rgba8_len = sizeof out;
        c = iks_toy_draw(t, NULL, &d);
        host_read(0, chan_tex[k], 0, 0, 2, 2, want);
        CHECK(c == IKS_OK && flipped_diff(want, out, 2, 2) == 0, "gpu: frame %d samples the host's texture %d "
              "(got %d %d %d %d, its texel (0,1) is %d %d %d %d)", k, k, out[0], out[1], out[2], out[3], want[8],
              want[9], want[10], want[11]);
        snapshot(&after);
        same_state("a channel from the host's texture", before, &after);
    }
    iks_channel_desc bad = IKS_CHANNEL_DESC_INIT;
    bad.texture = chan_tex[0], bad.target = GL_TEXTURE_3D;
    c = iks_toy_set_channel(t, 2, &bad);
    CHECK(c == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "target"), "gpu: a 2D texture as GL_TEXTURE_3D: %s "
          "about '%s'", cname(c), iks_last_error_field(NULL));
    bad.texture = 4243, bad.target = GL_TEXTURE_2D;
    c = iks_toy_set_channel(t, 2, &bad);
    CHECK(c == IKS_E_USAGE && !strcmp(iks_last_error_field(NULL), "texture"), "gpu: texture 4243: %s about '%s'",
          cname(c), iks_last_error_field(NULL));
    /* pixels in memory on the host's context, whose UNPACK_ROW_LENGTH is 5: rows 12 bytes apart */
    uint8_t mem[2 * 12] = { 1, 2, 3, 4, 5, 6, 7, 8, 0xEE, 0xEE, 0xEE, 0xEE, 9, 10, 11, 12, 13, 14, 15, 16 };
    iks_channel_desc cd = IKS_CHANNEL_DESC_INIT;
    cd.pixels = mem, cd.format = IKS_PIXELS_RGBA8, cd.width = 2, cd.height = 2, cd.stride = 12;
    c = iks_toy_set_channel(t, 2, &cd);
    d = (iks_draw_desc)IKS_DRAW_DESC_INIT;
    d.width = 2, d.height = 2, d.rgba8 = out, d.rgba8_len = sizeof out;
    if (c == IKS_OK) c = iks_toy_draw(t, NULL, &d);
    CHECK(c == IKS_OK && !memcmp(out, mem, 8) && !memcmp(out + 8, mem + 12, 8), "gpu: a channel from memory on the "
          "host's context: %s, got %d %d %d %d / %d %d", cname(c), out[0], out[1], out[2], out[3], out[8], out[9]);
    snapshot(&after);
    same_state("a channel from memory", before, &after);
    iks_toy_destroy(t);
    snapshot(&after);
    same_state("the channel toy destroyed", before, &after);
    cube_and_volume(e, before);
}

/* A progress callback that draws with the host's own context, as a program showing progress in its
 * window would: the render must get its engine's context back (over GLX: glvnd refuses EGL beside it) */
static GLFWwindow *cb_host;
static int cb_calls, cb_steps;
static bool host_draws(void *user, const iks_progress *p)
{
    (void)user;
    cb_calls++;
    cb_steps += p->parts > 0; /* within a frame, between Cube A's faces */
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

    /* the same between Cube A's steps, in the middle of a frame: the host's clear must not reach a face
     * (an engine on the host's context that left our framebuffer bound would clear the face just drawn) */
    const char *json =
        "{\"Shader\":{\"renderpass\":["
        "{\"type\":\"cubemap\",\"name\":\"Cube A\",\"inputs\":[],\"outputs\":[{\"id\":\"4dX3Rr\",\"channel\":0}],"
        "\"code\":\"void mainCubemap(out vec4 c, in vec2 f, in vec3 ro, in vec3 rd) { c = vec4(0.2, 0.4, 0.6, 1.0); }\"},"
        "{\"type\":\"image\",\"name\":\"Image\",\"inputs\":[{\"id\":\"4dX3Rr\",\"type\":\"cubemap\",\"channel\":0}],"
        "\"outputs\":[],\"code\":\"void mainImage(out vec4 c, in vec2 f) {"
        " c = vec4(texture(iChannel0, normalize(vec3(f - 4.0, 1.0))).rgb, 1.0); }\"}]}}";
    iks_toy_desc td = IKS_TOY_DESC_INIT;
    td.json = json, td.width = 8, td.height = 8, td.cube_size = 64;
    t = NULL;
    if (iks_toy_load(e, &td, &t) != IKS_OK) {
        CHECK(false, "%s: load a Cube A toy: %s", when, (iks_last_error(&msg), msg));
        return;
    }
    FILE *raw = tmpfile();
    if (!raw) {
        iks_toy_destroy(t);
        return;
    }
    cb_calls = cb_steps = 0;
    c = iks_render(t, &(iks_render_desc){ .output = "-", .raw_fd = fileno(raw), .width = 8, .height = 8,
                                          .progress = host_draws }, &st);
    uint8_t px[8 * 8 * 4];
    rewind(raw);
    size_t got = fread(px, 1, sizeof px, raw);
    fclose(raw);
    int bad = 0;
    /* 0.2, 0.4, 0.6 in 8 bits: 51, 102, 153 exactly (the faces hold half floats; within 1) */
    for (int i = 0; i < 64 && got == sizeof px; i++)
        bad += abs(px[4 * i] - 51) > 1 || abs(px[4 * i + 1] - 102) > 1 || abs(px[4 * i + 2] - 153) > 1;
    CHECK(c == IKS_OK && cb_steps == 6 && got == sizeof px && bad == 0,
          "%s: a Cube A render whose callback draws with the host's context between faces: %s (%s), %d calls "
          "within the frame (want 6), %zu bytes, %d pixels not (51, 102, 153)",
          when, cname(c), (iks_last_error(&msg), msg), cb_steps, got, bad);
    iks_toy_destroy(t);
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
    make_host_objects();
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
        gpu_in_out(e, &before);
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
