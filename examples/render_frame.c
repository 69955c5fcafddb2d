/* render_frame.c: the smallest useful program on libikshade.
 *
 * Makes a headless engine (an EGL context of its own: no window, no display needed), loads the IK limb
 * demo, draws one 640x360 frame at iTime 1.5 with the mouse held at (400, 200) into a buffer this
 * program owns, and writes that buffer as a PNG. The picture is the one
 *
 *     ikshade render shaders/limb.frag -o limb.png --size 640x360 --time 1.5 --mouse 400,200
 *
 * gives. Build it against an installed ikshade:
 *
 *     cc $(pkg-config --cflags ikshade) render_frame.c $(pkg-config --libs ikshade) -o render_frame
 *     ./render_frame limb.png
 */
#include <ikshade/ikshade.h>

#include <stdio.h>
#include <stdlib.h>

enum { WIDTH = 640, HEIGHT = 360 };

/* Every call that can fail returns an iks_code and leaves a message in the thread's last error. */
static int fail(const char *what)
{
    const char *msg;
    iks_code code = iks_last_error(&msg);
    fprintf(stderr, "render_frame: %s failed (%s): %s\n", what, iks_code_name(code), msg);
    return 1;
}

/* Warnings (a uniform the compiler removed, ...), notes and the driver's compile warnings come here
 * instead of being printed by the library. */
static void log_warning(void *user, iks_log_level level, const char *message)
{
    (void)user;
    if (level == IKS_LOG_DIAGNOSTICS) fprintf(stderr, "%s\n", message); /* already path:line:col: warning: */
    else fprintf(stderr, "render_frame: %s: %s\n", level == IKS_LOG_WARN ? "warning" : "note", message);
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : "limb.png";
    int status = 1;
    iks_engine *engine = NULL;
    iks_toy *toy = NULL;

    /* Zero fields are defaults: no window and no loader given, so the engine makes a headless EGL
     * context; shader_dir NULL finds ik.glsl and the demos ($IKSHADE_SHADERS, else the installed
     * share/ikshade/shaders). IKS_DESC_SIZE tells the library which layout of the struct this program
     * was built with. */
    if (iks_engine_create(&(iks_engine_desc){ IKS_DESC_SIZE(iks_engine_desc), .log = log_warning }, &engine) != IKS_OK)
        return fail("iks_engine_create");
    const char *shaders = iks_engine_shader_dir(engine);
    printf("GL: %s, %s\nshaders: %s\n", iks_engine_renderer(engine), iks_engine_gl_version(engine),
           shaders ? shaders : "(none found)");

    /* path NULL and source NULL: the limb demo, limb.frag. The size is that of its first draw. */
    if (iks_toy_load(engine, &(iks_toy_desc){ IKS_DESC_SIZE(iks_toy_desc), .width = WIDTH, .height = HEIGHT }, &toy)
        != IKS_OK) {
        fail("iks_toy_load");
        goto done;
    }

    /* The uniforms of this frame. iMouse follows shadertoy.com: xy where the pointer is, zw where the
     * button went down (z > 0 while held, w > 0 on the frame of the click), in pixels, y up. time_delta
     * and frame_rate are what `ikshade render` gives frame 0 at its default 60 fps. */
    iks_frame_info frame = {
        .time = 1.5,
        .frame = 0,
        .time_delta = 1.0 / 60.0,
        .frame_rate = 60.0,
        .mouse = { 400, 200, 400, 200 },
    };

    /* The caller owns the pixels: width * height RGBA8, top row first (the order PNGs store); the
     * library is told their length and writes nothing into a buffer too small for the frame. */
    size_t len = (size_t)WIDTH * HEIGHT * 4;
    uint8_t *rgba = malloc(len);
    if (!rgba) {
        fprintf(stderr, "render_frame: out of memory\n");
        goto done;
    }
    iks_draw_desc target = IKS_DRAW_DESC_INIT;
    target.width = WIDTH;
    target.height = HEIGHT;
    target.rgba8 = rgba;
    target.rgba8_len = len;
    if (iks_toy_draw(toy, &frame, &target) != IKS_OK) {
        fail("iks_toy_draw");
    } else if (iks_write_png(out, rgba, WIDTH, HEIGHT, false) != IKS_OK) { /* RGB, written atomically */
        fail("iks_write_png");
    } else {
        printf("wrote %s (%dx%d, %s)\n", out, WIDTH, HEIGHT, iks_toy_name(toy));
        status = 0;
    }
    free(rgba);

done:
    /* Toys before the engine that made them. */
    iks_toy_destroy(toy);
    iks_engine_destroy(engine);
    return status;
}
