/* hud.c: stb_easy_font makes quads (4 vertices of x, y, z, rgba8 each); GL 3.3 core has no quads, so
 * a fixed index buffer turns each into two triangles. The panel behind the text is one more quad. */
#include "gpu/hud.h"

#include <glad/gl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wsign-compare"
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"
#endif
#include <stb/stb_easy_font.h>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

typedef struct {
    float x, y, z;
    uint8_t c[4];
} vtx;

static const char *VS = "#version 330 core\n"
                        "layout(location = 0) in vec3 pos;\n"
                        "layout(location = 1) in vec4 col;\n"
                        "uniform vec2 view;\n"
                        "uniform float scale;\n"
                        "uniform vec2 origin;\n"
                        "out vec4 c;\n"
                        "void main() {\n"
                        "  vec2 p = pos.xy * scale + origin;\n"
                        "  gl_Position = vec4(p.x / view.x * 2.0 - 1.0, 1.0 - p.y / view.y * 2.0, 0.0, 1.0);\n"
                        "  c = col;\n"
                        "}\n";
static const char *FS = "#version 330 core\n"
                        "in vec4 c;\n"
                        "out vec4 o;\n"
                        "void main() { o = c; }\n";

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    return s;
}

bool iks_hud_create(iks_hud *h)
{
    memset(h, 0, sizeof *h);
    GLuint vs = shader(GL_VERTEX_SHADER, VS), fs = shader(GL_FRAGMENT_SHADER, FS);
    h->prog = glCreateProgram();
    glAttachShader(h->prog, vs);
    glAttachShader(h->prog, fs);
    glLinkProgram(h->prog);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(h->prog, GL_LINK_STATUS, &ok);
    if (!ok) {
        glDeleteProgram(h->prog);
        h->prog = 0;
        return false;
    }
    h->loc_view = glGetUniformLocation(h->prog, "view");
    h->loc_scale = glGetUniformLocation(h->prog, "scale");
    h->loc_origin = glGetUniformLocation(h->prog, "origin");
    glGenVertexArrays(1, &h->vao);
    glGenBuffers(1, &h->vbo);
    glGenBuffers(1, &h->ibo);
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(vtx), (void *)0);
    glVertexAttribPointer(1, 4, GL_UNSIGNED_BYTE, GL_TRUE, sizeof(vtx), (void *)offsetof(vtx, c));
    glEnableVertexAttribArray(0);
    glEnableVertexAttribArray(1);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    return true;
}

void iks_hud_destroy(iks_hud *h)
{
    if (h->prog) glDeleteProgram(h->prog);
    if (h->vao) glDeleteVertexArrays(1, &h->vao);
    if (h->vbo) glDeleteBuffers(1, &h->vbo);
    if (h->ibo) glDeleteBuffers(1, &h->ibo);
    memset(h, 0, sizeof *h);
}

/* grows the index buffer to cover quads (0 1 2, 0 2 3 per quad), keeping it between frames */
static bool reserve(iks_hud *h, int quads)
{
    if (quads <= h->cap_quads) return true;
    int cap = h->cap_quads ? h->cap_quads : 1024;
    while (cap < quads) cap *= 2;
    uint32_t *idx = malloc(sizeof *idx * 6 * (size_t)cap);
    if (!idx) return false;
    for (int q = 0; q < cap; q++) {
        uint32_t b = 4u * (uint32_t)q;
        uint32_t *i = idx + 6 * q;
        i[0] = b, i[1] = b + 1, i[2] = b + 2, i[3] = b, i[4] = b + 2, i[5] = b + 3;
    }
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, h->ibo);
    glBufferData(GL_ELEMENT_ARRAY_BUFFER, (GLsizeiptr)(sizeof *idx * 6 * (size_t)cap), idx, GL_STATIC_DRAW);
    glBindVertexArray(0);
    free(idx);
    h->cap_quads = cap;
    return true;
}

static bool is_error_line(const char *s, size_t n)
{
    if (n >= 5 && strncmp(s, "error", 5) == 0) return true;
    for (size_t i = 0; i + 8 <= n; i++)
        if (strncmp(s + i, ": error", 7) == 0) return true;
    return false;
}

void iks_hud_draw(iks_hud *h, const char *text, int w, int h_, float scale)
{
    if (!h->prog || !text || !*text || w <= 0 || h_ <= 0) return;
    /* ~270 bytes of vertices per character is stb_easy_font's own worst case estimate */
    size_t len = strlen(text);
    size_t cap = 300 * (len + 1) + 4 * sizeof(vtx);
    vtx *v = malloc(cap);
    char *line = malloc(len + 1);
    if (!v || !line) {
        free(v);
        free(line);
        return;
    }
    /* the panel first, so the glyphs land on it */
    int lines = 0, widest = 0;
    int quads = 1;
    size_t used = 4 * sizeof(vtx);
    float y = 0;
    for (const char *s = text; *s;) {
        const char *e = strchr(s, '\n');
        size_t n = e ? (size_t)(e - s) : strlen(s);
        /* stb_easy_font has glyphs for ' '..'~' alone and indexes its table with (char - 32): any
         * other byte (a path's "café", a tab) would read outside it. One '?' per character: UTF-8's
         * continuation bytes are dropped */
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            unsigned char ch = (unsigned char)s[i];
            if (ch >= 0x80 && ch < 0xC0) continue;
            line[k++] = ch == '\t' ? ' ' : ch >= 32 && ch < 127 ? (char)ch : '?';
        }
        line[k] = '\0';
        int lw = stb_easy_font_width(line);
        if (lw > widest) widest = lw;
        unsigned char col[4] = { 235, 235, 235, 255 };
        if (is_error_line(line, k)) col[0] = 255, col[1] = 120, col[2] = 90;
        quads += stb_easy_font_print(0, y, line, col, (char *)v + used, (int)(cap - used));
        used = 4 * sizeof(vtx) * (size_t)quads;
        y += 12;
        lines++;
        s = e ? e + 1 : s + n;
    }
    float pw = (float)widest + 6, ph = 12.0f * (float)lines + 2;
    const vtx panel[4] = { { -4, -4, 0, { 0, 0, 0, 170 } }, { pw, -4, 0, { 0, 0, 0, 170 } },
                           { pw, ph, 0, { 0, 0, 0, 170 } }, { -4, ph, 0, { 0, 0, 0, 170 } } };
    memcpy(v, panel, sizeof panel);
    if (reserve(h, quads)) {
        glBindFramebuffer(GL_FRAMEBUFFER, 0);
        glViewport(0, 0, w, h_);
        glEnable(GL_BLEND);
        glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
        glUseProgram(h->prog);
        glUniform2f(h->loc_view, (float)w, (float)h_);
        glUniform1f(h->loc_scale, scale);
        glUniform2f(h->loc_origin, 8.0f, 8.0f); /* the text's margin from the corner */
        glBindVertexArray(h->vao);
        glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
        glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)used, v, GL_STREAM_DRAW);
        glDrawElements(GL_TRIANGLES, 6 * quads, GL_UNSIGNED_INT, (void *)0);
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        glDisable(GL_BLEND);
    }
    free(v);
    free(line);
}

/* the vertices (used bytes of v) as triangles: pos in pixels already (scale 1, no margin) */
static void draw_quads(iks_hud *h, const vtx *v, int quads, int w, int h_)
{
    if (!quads || !reserve(h, quads)) return;
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(0, 0, w, h_);
    glEnable(GL_BLEND);
    glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
    glUseProgram(h->prog);
    glUniform2f(h->loc_view, (float)w, (float)h_);
    glUniform1f(h->loc_scale, 1.0f);
    glUniform2f(h->loc_origin, 0.0f, 0.0f);
    glBindVertexArray(h->vao);
    glBindBuffer(GL_ARRAY_BUFFER, h->vbo);
    glBufferData(GL_ARRAY_BUFFER, (GLsizeiptr)(sizeof *v * 4 * (size_t)quads), v, GL_STREAM_DRAW);
    glDrawElements(GL_TRIANGLES, 6 * quads, GL_UNSIGNED_INT, (void *)0);
    glBindVertexArray(0);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glDisable(GL_BLEND);
}

void iks_hud_draw_items(iks_hud *h, const iks_hud_rect *rects, int nrects, const iks_hud_label *labels, int nlabels,
                        int w, int h_, float scale)
{
    if (!h->prog || w <= 0 || h_ <= 0 || nrects < 0 || nlabels < 0) return;
    /* a label's text is at most 47 characters: 300 bytes of vertices each is stb_easy_font's bound */
    size_t cap = sizeof(vtx) * 4 * (size_t)nrects + 300 * 48 * (size_t)nlabels + 1;
    vtx *v = malloc(cap);
    if (!v) return;
    int quads = 0;
    for (int i = 0; i < nrects; i++) {
        const iks_hud_rect *r = &rects[i];
        vtx *q = v + 4 * quads++;
        float x0 = r->x, y0 = r->y, x1 = r->x + r->w, y1 = r->y + r->h;
        q[0] = (vtx){ x0, y0, 0, { r->rgba[0], r->rgba[1], r->rgba[2], r->rgba[3] } };
        q[1] = (vtx){ x1, y0, 0, { r->rgba[0], r->rgba[1], r->rgba[2], r->rgba[3] } };
        q[2] = (vtx){ x1, y1, 0, { r->rgba[0], r->rgba[1], r->rgba[2], r->rgba[3] } };
        q[3] = (vtx){ x0, y1, 0, { r->rgba[0], r->rgba[1], r->rgba[2], r->rgba[3] } };
    }
    for (int i = 0; i < nlabels; i++) {
        const iks_hud_label *l = &labels[i];
        char text[sizeof l->text];
        size_t k = 0;
        /* as iks_hud_draw: stb_easy_font has glyphs for ' '..'~' alone */
        for (size_t j = 0; j < sizeof l->text - 1 && l->text[j]; j++) {
            unsigned char ch = (unsigned char)l->text[j];
            text[k++] = ch >= 32 && ch < 127 ? (char)ch : '?';
        }
        text[k] = '\0';
        unsigned char col[4] = { l->rgba[0], l->rgba[1], l->rgba[2], l->rgba[3] };
        size_t used = sizeof(vtx) * 4 * (size_t)quads;
        int made = stb_easy_font_print(0, 0, text, col, (char *)v + used, (int)(cap - used));
        /* font units to pixels at the label's place */
        for (int j = 0; j < 4 * made; j++) {
            vtx *p = v + 4 * quads + j;
            p->x = l->x + p->x * scale;
            p->y = l->y + p->y * scale;
        }
        quads += made;
    }
    draw_quads(h, v, quads, w, h_);
    free(v);
}

void iks_hud_error_lines(char *out, size_t cap, const char *error, int cols, int max_lines)
{
    if (!cap) return;
    out[0] = '\0';
    if (cols < 20) cols = 20;
    size_t k = 0;
    const char *s = error;
    int shown = 0;
    bool cont = false; /* s continues a line that was wrapped */
    while (*s && shown < max_lines) {
        const char *e = strchr(s, '\n');
        int len = e ? (int)(e - s) : (int)strlen(s);
        int indent = cont ? 2 : 0, room = cols - indent;
        bool wrap = len > room;
        if (wrap) {
            int b = room;
            while (b > room / 2 && s[b] != ' ') b--;
            len = s[b] == ' ' ? b : room;
        }
        int m = snprintf(out + k, cap - k, "%s%*s%.*s", shown ? "\n" : "", indent, "", len, s);
        if (m < 0 || (size_t)m >= cap - k) return;
        k += (size_t)m;
        shown++;
        s += len;
        cont = wrap;
        if (wrap) {
            while (*s == ' ') s++;
        } else if (*s == '\n') s++;
    }
    int more = 0;
    for (const char *q = s; *q;) {
        const char *e = strchr(q, '\n');
        size_t n = e ? (size_t)(e - q) : strlen(q);
        more += n > 0;
        q = e ? e + 1 : q + n;
    }
    if (more)
        snprintf(out + k, cap - k, "%s+%d more line%s (in the terminal)", shown ? "\n" : "", more, more == 1 ? "" : "s");
}
