/* gen_layout.c: the layout of <ikshade/ikshade.h>'s description structs, as this compiler lays them
 * out, written as a Python module (ikshade/_layout.py) for the ctypes binding. Built and run when the
 * package is built (setup.py, and CMake for the .deb), so the binding never holds a copy of the header
 * made by hand: a field that is renamed or removed stops this file compiling, a field that moves or
 * changes type moves with it, and the header's version goes with the module, for a check at import.
 * The fields listed are the ones the binding sets or reads; a kind is one struct format letter. */
#include "ikshade/ik.h"
#include "ikshade/ikshade.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* one struct module letter a field's type, by the compiler's own idea of the type */
#define KIND(x)                                                                                          \
    _Generic((x), bool: "?", int: "i", unsigned: "I", long: "l", unsigned long: "L", float: "f",           \
             double: "d", default: "P")

#define FIELD(T, f) printf("        '%s': (%zu, '%s', 1),\n", #f, offsetof(T, f), KIND(((T *)0)->f))
#define ARRAY(T, f)                                                                                      \
    printf("        '%s': (%zu, '%s', %zu),\n", #f, offsetof(T, f), KIND(((T *)0)->f[0]),                  \
           sizeof ((T *)0)->f / sizeof ((T *)0)->f[0])
#define BEGIN(T) printf("    '%s': (%zu, {\n", #T, sizeof(T))
#define END() printf("    }),\n")

int main(int argc, char **argv)
{
    /* CMake names the file (a shell's redirection is not portable across its generators) */
    if (argc > 1 && !freopen(argv[1], "w", stdout)) {
        perror(argv[1]);
        return 1;
    }
    printf("# Made by python/gen_layout.c from <ikshade/ikshade.h> at build time: do not edit.\n"
           "# STRUCTS[name] = (size, {field: (offset, struct format letter, count)})\n"
           "STRUCTS = {\n");
    BEGIN(iks_engine_desc);
    FIELD(iks_engine_desc, struct_size);
    FIELD(iks_engine_desc, window);
    FIELD(iks_engine_desc, get_proc);
    FIELD(iks_engine_desc, shader_dir);
    FIELD(iks_engine_desc, log);
    FIELD(iks_engine_desc, log_user);
    END();
    BEGIN(iks_toy_desc);
    FIELD(iks_toy_desc, struct_size);
    FIELD(iks_toy_desc, path);
    FIELD(iks_toy_desc, source);
    ARRAY(iks_toy_desc, channel);
    FIELD(iks_toy_desc, sets);
    FIELD(iks_toy_desc, nsets);
    FIELD(iks_toy_desc, include_dirs);
    FIELD(iks_toy_desc, n_include_dirs);
    FIELD(iks_toy_desc, glsl);
    FIELD(iks_toy_desc, missing_media_black);
    FIELD(iks_toy_desc, width);
    FIELD(iks_toy_desc, height);
    FIELD(iks_toy_desc, allow_media_outside);
    FIELD(iks_toy_desc, json);
    FIELD(iks_toy_desc, cube_size);
    END();
    BEGIN(iks_frame_info);
    FIELD(iks_frame_info, time);
    FIELD(iks_frame_info, frame);
    FIELD(iks_frame_info, time_delta);
    FIELD(iks_frame_info, frame_rate);
    ARRAY(iks_frame_info, mouse);
    END();
    BEGIN(iks_render_desc);
    FIELD(iks_render_desc, struct_size);
    FIELD(iks_render_desc, output);
    FIELD(iks_render_desc, width);
    FIELD(iks_render_desc, height);
    FIELD(iks_render_desc, first);
    FIELD(iks_render_desc, end);
    FIELD(iks_render_desc, fps);
    FIELD(iks_render_desc, time0);
    FIELD(iks_render_desc, have_mouse);
    ARRAY(iks_render_desc, mouse);
    FIELD(iks_render_desc, ssaa);
    FIELD(iks_render_desc, progress);
    FIELD(iks_render_desc, user);
    FIELD(iks_render_desc, seconds);
    FIELD(iks_render_desc, quality);
    FIELD(iks_render_desc, stats_size);
    FIELD(iks_render_desc, segment);
    FIELD(iks_render_desc, segments);
    FIELD(iks_render_desc, join);
    END();
    BEGIN(iks_draw_desc);
    FIELD(iks_draw_desc, struct_size);
    FIELD(iks_draw_desc, width);
    FIELD(iks_draw_desc, height);
    FIELD(iks_draw_desc, rgba8);
    FIELD(iks_draw_desc, rgba8_len);
    FIELD(iks_draw_desc, rgba8_stride);
    FIELD(iks_draw_desc, rgbaf);
    FIELD(iks_draw_desc, rgbaf_len);
    FIELD(iks_draw_desc, rgbaf_stride);
    END();
    BEGIN(iks_channel_desc);
    FIELD(iks_channel_desc, struct_size);
    FIELD(iks_channel_desc, pass);
    FIELD(iks_channel_desc, pixels);
    FIELD(iks_channel_desc, format);
    FIELD(iks_channel_desc, width);
    FIELD(iks_channel_desc, height);
    FIELD(iks_channel_desc, stride);
    END();
    BEGIN(iks_render_stats);
    FIELD(iks_render_stats, written);
    FIELD(iks_render_stats, total);
    FIELD(iks_render_stats, seconds);
    FIELD(iks_render_stats, samples);
    FIELD(iks_render_stats, width);
    FIELD(iks_render_stats, height);
    FIELD(iks_render_stats, segments_there);
    FIELD(iks_render_stats, joined);
    FIELD(iks_render_stats, joined_before);
    END();
    BEGIN(iks_progress);
    FIELD(iks_progress, done);
    FIELD(iks_progress, total);
    FIELD(iks_progress, seconds);
    FIELD(iks_progress, frame);
    FIELD(iks_progress, part);
    FIELD(iks_progress, parts);
    END();
    BEGIN(iks_uniform_info);
    FIELD(iks_uniform_info, name);
    FIELD(iks_uniform_info, glsl_type);
    FIELD(iks_uniform_info, type);
    FIELD(iks_uniform_info, n);
    ARRAY(iks_uniform_info, value);
    FIELD(iks_uniform_info, active);
    FIELD(iks_uniform_info, has_range);
    FIELD(iks_uniform_info, min);
    FIELD(iks_uniform_info, max);
    FIELD(iks_uniform_info, step);
    ARRAY(iks_uniform_info, initial);
    FIELD(iks_uniform_info, color);
    FIELD(iks_uniform_info, declared);
    END();
    BEGIN(iks_pass_info);
    FIELD(iks_pass_info, struct_size);
    FIELD(iks_pass_info, name);
    FIELD(iks_pass_info, id);
    FIELD(iks_pass_info, source);
    FIELD(iks_pass_info, entry);
    FIELD(iks_pass_info, channels);
    END();
    BEGIN(iks_channel_info);
    FIELD(iks_channel_info, struct_size);
    FIELD(iks_channel_info, kind);
    FIELD(iks_channel_info, source);
    FIELD(iks_channel_info, filter);
    FIELD(iks_channel_info, wrap);
    FIELD(iks_channel_info, vflip);
    FIELD(iks_channel_info, srgb);
    FIELD(iks_channel_info, sampler);
    END();
    BEGIN(iks_declared_uniform);
    FIELD(iks_declared_uniform, struct_size);
    FIELD(iks_declared_uniform, name);
    FIELD(iks_declared_uniform, glsl_type);
    FIELD(iks_declared_uniform, type);
    FIELD(iks_declared_uniform, n);
    FIELD(iks_declared_uniform, passes);
    FIELD(iks_declared_uniform, declared);
    FIELD(iks_declared_uniform, has_range);
    FIELD(iks_declared_uniform, color);
    FIELD(iks_declared_uniform, min);
    FIELD(iks_declared_uniform, max);
    FIELD(iks_declared_uniform, step);
    ARRAY(iks_declared_uniform, initial);
    END();
    BEGIN(ik_opts);
    FIELD(ik_opts, bend);
    FIELD(ik_opts, stretch);
    FIELD(ik_opts, soften);
    END();
    printf("}\n");
    /* the enum's values, by name, as the header numbers them */
    printf("CODES = {\n");
#define IKS_PY_CODE_(e, s) printf("    %d: '%s',\n", (int)e, s);
    IKS_ERROR_LIST(IKS_PY_CODE_)
#undef IKS_PY_CODE_
    printf("}\nUNIFORM_TYPES = {%d: 'float', %d: 'int', %d: 'uint', %d: 'bool'}\n", (int)IKS_UNIFORM_FLOAT,
           (int)IKS_UNIFORM_INT, (int)IKS_UNIFORM_UINT, (int)IKS_UNIFORM_BOOL);
    printf("PIXELS = {'rgba8': %d, 'rgbaf': %d}\n", (int)IKS_PIXELS_RGBA8, (int)IKS_PIXELS_RGBAF);
    /* the passes a channel of memory may feed (iks_channel_desc.pass), by the names Toy.set_channel takes */
    printf("PASSES = {'image': %d, 'a': %d, 'b': %d, 'c': %d, 'd': %d, 'cube_a': %d}\n", (int)IKS_PASS_IMAGE,
           (int)IKS_PASS_A, (int)IKS_PASS_B, (int)IKS_PASS_C, (int)IKS_PASS_D, (int)IKS_PASS_CUBE_A);
    printf("GLSL = {'auto': %d, 'es': %d, '330': %d}\n", (int)IKS_GLSL_AUTO, (int)IKS_GLSL_ES, (int)IKS_GLSL_330);
    /* what a render in segments does about the film (iks_render_desc.join), by the names render takes */
    printf("JOIN = {'none': %d, 'when_done': %d, 'now': %d}\n", (int)IKS_JOIN_NONE, (int)IKS_JOIN_WHEN_DONE,
           (int)IKS_JOIN_NOW);
    /* the header's version, which the library loaded at run time must give (iks_version) */
    printf("HEADER_VERSION = '%d.%d.%d'\n", IKSHADE_VERSION_MAJOR, IKSHADE_VERSION_MINOR, IKSHADE_VERSION_PATCH);
    return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
}
