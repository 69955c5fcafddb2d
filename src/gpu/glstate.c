/* glstate.c: the GL state an engine on a host's own context may change, as one table: each row reads a
 * piece of state, sets it back, and (where the library's drawing depends on it) says the value the
 * library needs, set on entry, since a host's blend, scissor or wireframe would otherwise reach into our
 * passes. Saving, resetting and restoring all walk the table; a new binding the library starts to touch
 * is one more row. Contexts of our own (headless, our windows) are not saved: nobody else draws there. */
#include "gpu/gpu.h"

#include <glad/gl.h>
#include <string.h>

/* the texture units the library binds: iChannel0..3 */
#define UNITS 4

typedef enum { INT1, INT4, FLOAT4, BOOL4, ENABLE } kind;

typedef struct {
    kind k;
    GLenum pname;               /* what glGet reads (the capability, for ENABLE) */
    void (*set)(GLenum pname, const iks_glvalue *v); /* NULL for ENABLE */
    int unit;                   /* texture and sampler rows: the unit; -1 otherwise */
    bool reset;                 /* set to need on entry */
    iks_glvalue need;
} row;

static void set_program(GLenum p, const iks_glvalue *v) { (void)p; glUseProgram((GLuint)v->i[0]); }
static void set_vao(GLenum p, const iks_glvalue *v) { (void)p; glBindVertexArray((GLuint)v->i[0]); }
static void set_buffer(GLenum p, const iks_glvalue *v)
{
    GLenum target = p == GL_ARRAY_BUFFER_BINDING           ? GL_ARRAY_BUFFER
                    : p == GL_ELEMENT_ARRAY_BUFFER_BINDING ? GL_ELEMENT_ARRAY_BUFFER
                    : p == GL_PIXEL_PACK_BUFFER_BINDING    ? GL_PIXEL_PACK_BUFFER
                                                           : GL_PIXEL_UNPACK_BUFFER;
    glBindBuffer(target, (GLuint)v->i[0]);
}
static void set_fb(GLenum p, const iks_glvalue *v)
{
    glBindFramebuffer(p == GL_READ_FRAMEBUFFER_BINDING ? GL_READ_FRAMEBUFFER : GL_DRAW_FRAMEBUFFER, (GLuint)v->i[0]);
}
static void set_rb(GLenum p, const iks_glvalue *v) { (void)p; glBindRenderbuffer(GL_RENDERBUFFER, (GLuint)v->i[0]); }
static void set_viewport(GLenum p, const iks_glvalue *v) { (void)p; glViewport(v->i[0], v->i[1], v->i[2], v->i[3]); }
static void set_scissor(GLenum p, const iks_glvalue *v) { (void)p; glScissor(v->i[0], v->i[1], v->i[2], v->i[3]); }
static void set_pixel_store(GLenum p, const iks_glvalue *v) { glPixelStorei(p, v->i[0]); }
static void set_clear(GLenum p, const iks_glvalue *v) { (void)p; glClearColor(v->f[0], v->f[1], v->f[2], v->f[3]); }
static void set_mask(GLenum p, const iks_glvalue *v)
{
    (void)p;
    glColorMask((GLboolean)v->i[0], (GLboolean)v->i[1], (GLboolean)v->i[2], (GLboolean)v->i[3]);
}
static void set_polygon(GLenum p, const iks_glvalue *v) { (void)p; glPolygonMode(GL_FRONT_AND_BACK, (GLenum)v->i[0]); }
static void set_active(GLenum p, const iks_glvalue *v) { (void)p; glActiveTexture((GLenum)v->i[0]); }
static GLenum tex_target(GLenum p)
{
    return p == GL_TEXTURE_BINDING_2D ? GL_TEXTURE_2D : p == GL_TEXTURE_BINDING_3D ? GL_TEXTURE_3D : GL_TEXTURE_CUBE_MAP;
}
/* the unit is made active by the walk (row.unit) */
static void set_texture(GLenum p, const iks_glvalue *v) { glBindTexture(tex_target(p), (GLuint)v->i[0]); }

#define ROW(k, pname, set) { k, pname, set, -1, false, { { 0 } } },
#define NEED(k, pname, set, ...) { k, pname, set, -1, true, { { __VA_ARGS__ } } },
#define UNIT_ROWS(u)                                                                                           \
    { INT1, GL_TEXTURE_BINDING_2D, set_texture, u, false, { { 0 } } },                                        \
    { INT1, GL_TEXTURE_BINDING_3D, set_texture, u, false, { { 0 } } },                                        \
    { INT1, GL_TEXTURE_BINDING_CUBE_MAP, set_texture, u, false, { { 0 } } },                                  \
    { INT1, GL_SAMPLER_BINDING, NULL, u, false, { { 0 } } },

/* Restored in this order: the vertex array before the element buffer (a vertex array's own state), the
 * units before the active unit that the walk moved. */
static const row ROWS[] = {
    ROW(INT1, GL_CURRENT_PROGRAM, set_program)
    ROW(INT1, GL_VERTEX_ARRAY_BINDING, set_vao)
    ROW(INT1, GL_ELEMENT_ARRAY_BUFFER_BINDING, set_buffer)
    ROW(INT1, GL_ARRAY_BUFFER_BINDING, set_buffer)
    /* bound, they would turn our uploads and readbacks into offsets in the host's buffers */
    NEED(INT1, GL_PIXEL_PACK_BUFFER_BINDING, set_buffer, 0)
    NEED(INT1, GL_PIXEL_UNPACK_BUFFER_BINDING, set_buffer, 0)
    ROW(INT1, GL_READ_FRAMEBUFFER_BINDING, set_fb)
    ROW(INT1, GL_DRAW_FRAMEBUFFER_BINDING, set_fb)
    ROW(INT1, GL_RENDERBUFFER_BINDING, set_rb)
    ROW(INT4, GL_VIEWPORT, set_viewport)
    ROW(INT4, GL_SCISSOR_BOX, set_scissor)
    NEED(ENABLE, GL_SCISSOR_TEST, NULL, 0)
    NEED(ENABLE, GL_BLEND, NULL, 0)
    NEED(ENABLE, GL_DEPTH_TEST, NULL, 0)
    NEED(ENABLE, GL_CULL_FACE, NULL, 0)
    NEED(ENABLE, GL_STENCIL_TEST, NULL, 0)
    NEED(ENABLE, GL_FRAMEBUFFER_SRGB, NULL, 0)
    NEED(ENABLE, GL_RASTERIZER_DISCARD, NULL, 0)
    NEED(ENABLE, GL_POLYGON_OFFSET_FILL, NULL, 0)
    NEED(ENABLE, GL_SAMPLE_ALPHA_TO_COVERAGE, NULL, 0)
    NEED(ENABLE, GL_MULTISAMPLE, NULL, 0)
    ROW(ENABLE, GL_TEXTURE_CUBE_MAP_SEAMLESS, NULL) /* the library enables it for a toy's cubemaps */
    NEED(BOOL4, GL_COLOR_WRITEMASK, set_mask, 1, 1, 1, 1)
    NEED(INT1, GL_POLYGON_MODE, set_polygon, GL_FILL)
    ROW(FLOAT4, GL_COLOR_CLEAR_VALUE, set_clear)
    NEED(INT1, GL_PACK_ALIGNMENT, set_pixel_store, 4)
    NEED(INT1, GL_UNPACK_ALIGNMENT, set_pixel_store, 4)
    NEED(INT1, GL_PACK_ROW_LENGTH, set_pixel_store, 0)
    NEED(INT1, GL_UNPACK_ROW_LENGTH, set_pixel_store, 0)
    NEED(INT1, GL_PACK_SKIP_ROWS, set_pixel_store, 0)
    NEED(INT1, GL_PACK_SKIP_PIXELS, set_pixel_store, 0)
    NEED(INT1, GL_UNPACK_SKIP_ROWS, set_pixel_store, 0)
    NEED(INT1, GL_UNPACK_SKIP_PIXELS, set_pixel_store, 0)
    NEED(INT1, GL_UNPACK_IMAGE_HEIGHT, set_pixel_store, 0)
    NEED(INT1, GL_UNPACK_SKIP_IMAGES, set_pixel_store, 0)
    NEED(INT1, GL_PACK_SWAP_BYTES, set_pixel_store, 0)
    NEED(INT1, GL_UNPACK_SWAP_BYTES, set_pixel_store, 0)
    UNIT_ROWS(0) UNIT_ROWS(1) UNIT_ROWS(2) UNIT_ROWS(3)
    /* last: the walk over the units moves it. The library works on unit 0: with the host's unit 5 active,
     * a texture it made stayed bound on a unit nobody gave back */
    NEED(INT1, GL_ACTIVE_TEXTURE, set_active, GL_TEXTURE0)
};
#define NROWS (sizeof ROWS / sizeof ROWS[0])
_Static_assert(NROWS <= IKS_GLSTATE_ROWS, "iks_glstate holds a value for every row");

static void get(const row *r, iks_glvalue *v)
{
    memset(v, 0, sizeof *v);
    if (r->k == ENABLE) v->i[0] = glIsEnabled(r->pname);
    else if (r->k == FLOAT4) glGetFloatv(r->pname, v->f);
    else if (r->k == BOOL4) {
        GLboolean b[4] = { 0 };
        glGetBooleanv(r->pname, b);
        for (int i = 0; i < 4; i++) v->i[i] = b[i];
    } else glGetIntegerv(r->pname, v->i); /* INT1, INT4; GL_POLYGON_MODE writes front and back */
}

static void set(const row *r, const iks_glvalue *v)
{
    if (r->unit >= 0) glActiveTexture(GL_TEXTURE0 + (GLenum)r->unit);
    if (r->k == ENABLE) (v->i[0] ? glEnable : glDisable)(r->pname);
    else if (r->pname == GL_SAMPLER_BINDING) glBindSampler((GLuint)r->unit, (GLuint)v->i[0]);
    else r->set(r->pname, v);
}

void iks_glstate_save(iks_glstate *s)
{
    GLint active = GL_TEXTURE0;
    glGetIntegerv(GL_ACTIVE_TEXTURE, &active);
    for (size_t i = 0; i < NROWS; i++) {
        if (ROWS[i].unit >= 0) glActiveTexture(GL_TEXTURE0 + (GLenum)ROWS[i].unit);
        get(&ROWS[i], &s->v[i]);
        /* the host's unit, as it was before the walk over the units moved it */
        if (ROWS[i].pname == GL_ACTIVE_TEXTURE) s->v[i].i[0] = active;
    }
    glActiveTexture((GLenum)active);
}

void iks_glstate_reset(void)
{
    for (size_t i = 0; i < NROWS; i++)
        if (ROWS[i].reset) set(&ROWS[i], &ROWS[i].need);
}

void iks_glstate_restore(const iks_glstate *s)
{
    for (size_t i = 0; i < NROWS; i++) set(&ROWS[i], &s->v[i]);
}
