/* embed_bare.c: the baseline of `ikshade bench embed`: a program with no ikshade in it that does what
 * an embedder's does, with EGL and GL alone: a headless GL 3.3 core context (Mesa's surfaceless
 * platform, as libikshade uses first), one fragment shader, one 64x64 frame drawn and read back.
 * Prints a checksum of the pixels and the shared libraries it mapped (embed_common.h). */
#include <glad/egl.h>
#include <glad/gl.h>

#include <stdint.h>
#include <stdlib.h>

#include "embed_common.h"

static int fail(const char *what)
{
    fprintf(stderr, "embed-bare: %s\n", what);
    return 1;
}

static GLuint shader(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    return ok ? s : 0;
}

int main(void)
{
    if (!gladLoaderLoadEGL(EGL_NO_DISPLAY)) return fail("no libEGL");
    EGLDisplay dpy = eglGetPlatformDisplayEXT ? eglGetPlatformDisplayEXT(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL)
                                              : eglGetDisplay(EGL_DEFAULT_DISPLAY);
    if (dpy == EGL_NO_DISPLAY || !eglInitialize(dpy, NULL, NULL)) return fail("no EGL display");
    gladLoaderLoadEGL(dpy);
    const EGLint cfg_attr[] = { EGL_SURFACE_TYPE, 0, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_RED_SIZE, 8,
                                EGL_GREEN_SIZE, 8, EGL_BLUE_SIZE, 8, EGL_NONE };
    EGLConfig cfg;
    EGLint n = 0;
    if (!eglChooseConfig(dpy, cfg_attr, &cfg, 1, &n) || n < 1) return fail("no EGL config");
    eglBindAPI(EGL_OPENGL_API);
    const EGLint ctx_attr[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                                EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE };
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, ctx_attr);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, ctx)) return fail("no context");
    if (!gladLoaderLoadGL()) return fail("no GL");
    GLuint fbo, tex, vao;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, EMBED_SIDE, EMBED_SIDE, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    GLuint vs = shader(GL_VERTEX_SHADER, "#version 330 core\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);"
                                         " gl_Position = vec4(p * 4.0 - 1.0, 0.0, 1.0); }\n");
    GLuint fs = shader(GL_FRAGMENT_SHADER, "#version 330 core\nuniform vec3 iResolution;\nout vec4 o;\n" EMBED_IMAGE
                                           "void main() { mainImage(o, gl_FragCoord.xy); }\n");
    if (!vs || !fs) return fail("shader did not compile");
    GLuint prog = glCreateProgram();
    glAttachShader(prog, vs);
    glAttachShader(prog, fs);
    glLinkProgram(prog);
    glUseProgram(prog);
    glUniform3f(glGetUniformLocation(prog, "iResolution"), EMBED_SIDE, EMBED_SIDE, 1);
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glViewport(0, 0, EMBED_SIDE, EMBED_SIDE);
    glDrawArrays(GL_TRIANGLES, 0, 3);
    static uint8_t px[EMBED_SIDE * EMBED_SIDE * 4];
    glReadPixels(0, 0, EMBED_SIDE, EMBED_SIDE, GL_RGBA, GL_UNSIGNED_BYTE, px);
    unsigned long sum = 0;
    for (size_t i = 0; i < sizeof px; i++) sum += px[i];
    printf("sum %lu\n", sum);
    embed_list_libs();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    return 0;
}
