/* gpu_io.c: a toy on a program's own GL context, with nothing going through memory that need not:
 * a channel fed from the program's pixels (a camera's frame, say), the toy drawn into the program's
 * framebuffer, its Image pass handed over as a texture, and that texture fed back as a channel.
 *
 *     cc -std=c11 $(pkg-config --cflags ikshade) examples/gpu_io.c $(pkg-config --libs ikshade glfw3 gl) -o gpu_io
 *     ./gpu_io          # needs a display (Xvfb will do)
 */
#define GL_GLEXT_PROTOTYPES
#include <GL/glcorearb.h>
#include <GLFW/glfw3.h>
#include <ikshade/ikshade.h>

#include <stdio.h>
#include <string.h>

static int fail(const char *what)
{
    const char *msg;
    iks_last_error(&msg);
    fprintf(stderr, "gpu_io: %s: %s (field '%s')\n", what, msg, iks_last_error_field(NULL));
    return 1;
}

int main(void)
{
    if (!glfwInit()) return fprintf(stderr, "gpu_io: no display\n"), 1;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    GLFWwindow *win = glfwCreateWindow(64, 64, "gpu_io", NULL, NULL);
    if (!win) return fprintf(stderr, "gpu_io: no GL 3.3 window\n"), 1;
    glfwMakeContextCurrent(win);

    /* The program's own framebuffer: a 32x32 texture the toy will be drawn into. */
    GLuint fbo, fbo_tex;
    glGenTextures(1, &fbo_tex);
    glBindTexture(GL_TEXTURE_2D, fbo_tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 32, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, fbo_tex, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    /* An engine on this context: every call gives back the GL state it touched. */
    iks_engine *e = NULL;
    iks_toy *t = NULL;
    iks_engine_desc ed = IKS_ENGINE_DESC_INIT; /* struct_size: the layout this program was built with */
    ed.get_proc = glfwGetProcAddress;
    if (iks_engine_create(&ed, &e) != IKS_OK) return fail("iks_engine_create");
    iks_toy_desc td = IKS_TOY_DESC_INIT;
    td.source = "void mainImage(out vec4 c, in vec2 p) { c = texture(iChannel0, p / iResolution.xy).bgra; }";
    td.width = td.height = 16;
    if (iks_toy_load(e, &td, &t) != IKS_OK) return fail("iks_toy_load");

    /* 1. A channel from memory: 4x4 RGBA8 pixels, top row first, rows 32 bytes apart (a frame inside a
     *    wider buffer). Copied at once: the buffer may change, and the next frame is one more call. */
    static uint8_t frame[4 * 32];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) memcpy(frame + y * 32 + x * 4, (uint8_t[4]){ (uint8_t)(x * 80), 0, 200, 255 }, 4);
    iks_channel_desc cd = IKS_CHANNEL_DESC_INIT;
    cd.pixels = frame, cd.format = IKS_PIXELS_RGBA8, cd.width = 4, cd.height = 4, cd.stride = 32;
    if (iks_toy_set_channel(t, 0, &cd) != IKS_OK) return fail("iks_toy_set_channel (pixels)");

    /* 2. Into the program's framebuffer, its top-right quarter, and into memory in the same call. */
    uint8_t px[16 * 16 * 4];
    iks_draw_desc dd = IKS_DRAW_DESC_INIT;
    dd.width = dd.height = 16;
    dd.rgba8 = px, dd.rgba8_len = sizeof px; /* a buffer too small is refused, never overrun */
    dd.to_fbo = true, dd.fbo = fbo, dd.x = 16, dd.y = 16;
    if (iks_toy_draw(t, &(iks_frame_info){ .time = 1 }, &dd) != IKS_OK) return fail("iks_toy_draw");

    /* 3. The Image pass as a texture to sample: the toy's, valid until its next draw. */
    unsigned image;
    int w, h;
    if (iks_toy_image_texture(t, &image, &w, &h, NULL) != IKS_OK) return fail("iks_toy_image_texture");
    uint8_t texels[16 * 16 * 4];
    glBindTexture(GL_TEXTURE_2D, image);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels); /* GL's rows: bottom first */
    glBindTexture(GL_TEXTURE_2D, 0);
    printf("image texture %ux%d: bottom-left %d %d %d, the memory draw's %d %d %d\n", (unsigned)w, h, texels[0],
           texels[1], texels[2], px[15 * 64], px[15 * 64 + 1], px[15 * 64 + 2]);

    /* 4. A channel from the program's own texture (it keeps it): what was drawn into the framebuffer,
     *    whose top-right quarter the toy's top-right pixel now reads, swizzled back. */
    cd = (iks_channel_desc)IKS_CHANNEL_DESC_INIT;
    cd.texture = fbo_tex, cd.target = GL_TEXTURE_2D;
    if (iks_toy_set_channel(t, 0, &cd) != IKS_OK) return fail("iks_toy_set_channel (texture)");
    dd.to_fbo = false;
    if (iks_toy_draw(t, &(iks_frame_info){ .time = 2 }, &dd) != IKS_OK) return fail("iks_toy_draw again");
    printf("fed back: top-right %d %d %d\n", px[15 * 4], px[15 * 4 + 1], px[15 * 4 + 2]);

    /* 5. A mistake, in the library's words: the field and why. */
    dd.rgba8_len = 100;
    if (iks_toy_draw(t, NULL, &dd) == IKS_E_USAGE) {
        const char *reason, *field = iks_last_error_field(&reason);
        printf("refused: %s: %s\n", field, reason);
    }
    iks_toy_destroy(t);
    iks_engine_destroy(e);
    glDeleteFramebuffers(1, &fbo);
    glDeleteTextures(1, &fbo_tex);
    glfwDestroyWindow(win);
    glfwTerminate();
    return 0;
}
