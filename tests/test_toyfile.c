/* test_toyfile.c: the toy loader without GL: single files with --channelN, text in memory, the JSON of
 * shadertoy.com in both its vocabularies, directory toys with a manifest, and every failure's code and
 * message (an iks_err) and every warning (one logger message each). Writes its files into a fresh
 * temporary directory. usage: test_toyfile [TESTS_DIR] (unused: every input is made here). */
#include "check.h"
#include "base/userfile.h"
#include "glsl/source.h"
#include "toy/toyfile.h"
#include "media/mediain.h"
#include "ikshade/ikshade.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *str(const char *s) { return s ? s : "(null)"; }

static char dir[256];

static char *path_of(const char *name)
{
    static char paths[16][1024];
    static int k;
    char *p = paths[k++ % 16];
    snprintf(p, sizeof paths[0], "%s/%s", dir, name);
    return p;
}

static const char *write_file(const char *name, const char *text)
{
    char *p = path_of(name);
    FILE *f = fopen(p, "w");
    if (!f) {
        perror(p);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    return p;
}

/* warnings as the logger receives them: the count and the last one */
static int nwarned;
static char warned[1024];
static void keep_warning(void *user, iks_log_level level, const char *msg)
{
    (void)user;
    CHECK(level == IKS_LOG_WARN, "level %d", (int)level);
    nwarned++;
    snprintf(warned, sizeof warned, "%s", msg);
}
static const iks_logger logger = { keep_warning, NULL };

/* a failing load: its code is want and its message contains text */
static void expect(bool ok, iks_err *e, iks_code want, const char *text, const char *what)
{
    CHECK(!ok, "%s: loaded", what);
    CHECK(e->code == want, "%s: code %s, expected %s (%s)", what, cname(e->code), cname(want), iks_err_msg(e));
    CHECK(strstr(iks_err_msg(e), text) != NULL, "%s: message '%s' lacks '%s'", what, iks_err_msg(e), text);
    iks_err_clear(e);
}

static void test_single(void)
{
    iks_toyfile tf;
    iks_err e = IKS_ERR_INIT;
    const char *f = write_file("one.frag", "void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\n");
    const char *ch[4] = { "pic.png,filter=nearest,wrap=repeat", "keyboard", NULL, "cube:sky.png,srgb=1" };
    CHECK(iks_toyfile_load(&tf, f, ch, false, &e, &logger), "%s", iks_err_msg(&e));
    CHECK(e.code == IKS_OK, "no error on success: %s", cname(e.code));
    const iks_pass *im = &tf.desc.pass[IKS_IMAGE_PASS];
    CHECK(!strcmp(str(tf.name), "one.frag"), "name %s", str(tf.name));
    CHECK(!strcmp(str(im->path), f) && im->path != f, "a copy of the path: %s", str(im->path));
    CHECK(!im->text && !tf.desc.es, "read from the file, as GLSL 3.30");
    CHECK(im->in[0].kind == IKS_IN_IMAGE && !strcmp(str(im->in[0].path), "pic.png") &&
              im->in[0].filter == IKS_FILTER_NEAREST && im->in[0].repeat && im->in[0].vflip,
          "channel 0: %d %s", (int)im->in[0].kind, str(im->in[0].path));
    CHECK(im->in[1].kind == IKS_IN_KEYBOARD, "channel 1 %d", (int)im->in[1].kind);
    CHECK(im->in[2].kind == IKS_IN_NONE, "channel 2 %d", (int)im->in[2].kind);
    CHECK(im->in[3].kind == IKS_IN_CUBEMAP && !strcmp(str(im->in[3].path), "sky.png") && im->in[3].srgb &&
              !im->in[3].vflip, "channel 3: %s", str(im->in[3].path));
    for (int p = 0; p < 4; p++) CHECK(!tf.desc.pass[p].path, "no buffer %d", p);
    iks_toyfile_free(&tf);

    const char *bad[4] = { "x.gif", NULL, NULL, NULL };
    expect(iks_toyfile_load(&tf, f, bad, false, &e, &logger), &e, IKS_E_USAGE,
           "channel[0] 'x.gif': expected FILE.png", "a channel of an unknown kind");
    const char *bad2[4] = { NULL, NULL, "pic.png,filter=cubic", NULL };
    expect(iks_toyfile_load(&tf, f, bad2, false, &e, &logger), &e, IKS_E_USAGE,
           "channel[2] 'pic.png,filter=cubic': bad filter 'cubic'", "a bad setting");
    const char *buf[4] = { NULL, "a", NULL, NULL };
    expect(iks_toyfile_load(&tf, f, buf, false, &e, &logger), &e, IKS_E_USAGE,
           "channel[1] 'a': a single file has no buffers", "a buffer for a single file");
    CHECK(tf.nowned == 0 && !tf.owned && !tf.name, "a failed load leaves nothing");

    iks_input in;
    CHECK(!iks_channel_parse("pic.png,nokey", &in, &e) && e.code == IKS_E_USAGE && !in.path &&
              !strcmp(iks_err_msg(&e), "channel 'pic.png,nokey': 'nokey' is not KEY=VALUE"),
          "%s", iks_err_msg(&e));
    iks_err_clear(&e);
    CHECK(iks_channel_parse("dir/a.jpg,vflip=0", &in, &e) && !strcmp(str(in.path), "dir/a.jpg") && !in.vflip,
          "%s", iks_err_msg(&e));
    free((char *)in.path);
    CHECK(iks_channel_parse("black", &in, &e) && in.kind == IKS_IN_IMAGE && !in.path, "black");
    /* a JSON is read here, so one that is not there fails here */
    expect(iks_toyfile_load(&tf, path_of("nosuch.json"), NULL, false, &e, &logger), &e, IKS_E_IO,
           "nosuch.json: No such file", "a missing JSON");
}

static void test_from_text(void)
{
    iks_toyfile tf;
    iks_err e = IKS_ERR_INIT;
    static const char code[] = "void mainImage(out vec4 c, in vec2 f) { c = vec4(0.5); }\n";
    const char *ch[4] = { NULL, "keyboard", NULL, NULL };
    CHECK(iks_toyfile_from_text(&tf, NULL, code, ch, 0, &e, NULL), "%s", iks_err_msg(&e));
    const iks_pass *im = &tf.desc.pass[IKS_IMAGE_PASS];
    CHECK(!strcmp(str(tf.name), "<memory>") && !strcmp(str(im->path), "<memory>"), "names %s %s", str(tf.name),
          str(im->path));
    CHECK(im->text && im->text != code && !strcmp(im->text, code), "the text, copied");
    CHECK(im->in[1].kind == IKS_IN_KEYBOARD, "channel 1");
    iks_toyfile_free(&tf);
    CHECK(iks_toyfile_from_text(&tf, "shaders/live.frag", code, NULL, 0, &e, NULL), "%s", iks_err_msg(&e));
    CHECK(!strcmp(str(tf.name), "live.frag") && !strcmp(str(tf.desc.pass[IKS_IMAGE_PASS].path), "shaders/live.frag"),
          "named: %s", str(tf.name));
    iks_toyfile_free(&tf);
    const char *buf[4] = { "b", NULL, NULL, NULL };
    expect(iks_toyfile_from_text(&tf, NULL, code, buf, 0, &e, NULL), &e, IKS_E_USAGE,
           "channel[0] 'b': a single file has no buffers", "a buffer for text");
    const char *bad[4] = { NULL, NULL, NULL, "" };
    expect(iks_toyfile_from_text(&tf, NULL, code, bad, 0, &e, NULL), &e, IKS_E_USAGE, "channel[3] '': expected", "empty spec");

    /* its name's directory finds relative includes; "<memory>" has none (not the current directory) */
    write_file("inc.glsl", "float helper() { return 1.0; }\n");
    static const char incl[] = "#include \"inc.glsl\"\nvoid mainImage(out vec4 c, in vec2 f) { c = vec4(helper()); }\n";
    iks_source src;
    iks_source_opts o = { .files = iks_disk_files(), .text = incl };
    CHECK(iks_source_load(&src, path_of("named.frag"), &o, &e), "beside its name: %s", iks_err_msg(&e));
    iks_source_free(&src);
    CHECK(!iks_source_load(&src, "<memory>", &o, &e) && e.code == IKS_E_FORMAT &&
              strstr(iks_err_msg(&e), "<memory>:1: cannot include \"inc.glsl\": not found in no directory"),
          "<memory> alone: %s %s", cname(e.code), iks_err_msg(&e));
    iks_err_clear(&e);
    const char *dirs[] = { dir };
    o.include_dirs = dirs;
    o.n_include_dirs = 1;
    CHECK(iks_source_load(&src, "<memory>", &o, &e), "<memory> with -I: %s", iks_err_msg(&e));
    CHECK(src.nfiles == 3 && !strcmp(src.files[1], "<memory>"), "files: %d", src.nfiles);
    iks_source_free(&src);
}

/* one renderpass of the older vocabulary (ctype/src, numeric ids) */
static const char OLDER[] =
    "{\"Shader\": {\"ver\": \"0.1\", \"info\": {\"name\": \"feedback toy\"}, \"renderpass\": [\n"
    " {\"inputs\": [{\"id\": 257, \"src\": \"/media/previz/buffer00.png\", \"ctype\": \"buffer\", \"channel\": 0,\n"
    "   \"sampler\": {\"filter\": \"nearest\", \"wrap\": \"clamp\", \"vflip\": \"true\", \"srgb\": \"false\"}}],\n"
    "  \"outputs\": [{\"id\": 257, \"channel\": 0}], \"code\": \"void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }\",\n"
    "  \"name\": \"Buffer A\", \"type\": \"buffer\"},\n"
    " {\"inputs\": [{\"id\": 257, \"src\": \"/media/previz/buffer00.png\", \"ctype\": \"buffer\", \"channel\": 2,\n"
    "   \"sampler\": {\"filter\": \"mipmap\", \"wrap\": \"repeat\"}},\n"
    "   {\"id\": 33, \"ctype\": \"keyboard\", \"channel\": 3}],\n"
    "  \"outputs\": [{\"id\": 37, \"channel\": 0}], \"code\": \"void mainImage(out vec4 c, in vec2 f) { c = vec4(0.0); }\",\n"
    "  \"name\": \"Image\", \"type\": \"image\"}]}}\n";

/* the newer (type/filepath, the API's string ids, no outer Shader), with Common and a sound pass */
static const char NEWER[] =
    "{\"ver\": \"0.1\", \"renderpass\": [\n"
    " {\"inputs\": [], \"outputs\": [], \"code\": \"vec4 col() { return vec4(1.0); }\", \"name\": \"Common\", \"type\": \"common\"},\n"
    " {\"inputs\": [], \"outputs\": [{\"id\": \"XsXGR8\", \"channel\": 0}], \"code\": \"void mainImage(out vec4 c, in vec2 f) { c = col(); }\",\n"
    "  \"name\": \"Buffer B\", \"type\": \"buffer\"},\n"
    " {\"inputs\": [{\"id\": \"XsXGR8\", \"filepath\": \"/media/previz/buffer01.png\", \"type\": \"buffer\", \"channel\": 1,\n"
    "   \"sampler\": {\"filter\": \"linear\", \"vflip\": true, \"srgb\": false}}],\n"
    "  \"outputs\": [{\"id\": \"4dfGRr\", \"channel\": 0}], \"code\": \"void mainImage(out vec4 c, in vec2 f) { c = col(); }\",\n"
    "  \"name\": \"Image\", \"type\": \"image\"},\n"
    " {\"inputs\": [], \"outputs\": [], \"code\": \"vec2 mainSound(int s, float t) { return vec2(0.0); }\", \"name\": \"Sound\", \"type\": \"sound\"}]}\n";

static void test_json(void)
{
    iks_toyfile tf;
    iks_err e = IKS_ERR_INIT;
    const char *older = write_file("older.json", OLDER);
    nwarned = 0;
    CHECK(iks_toyfile_load(&tf, older, NULL, false, &e, &logger), "older: %s", iks_err_msg(&e));
    CHECK(nwarned == 0, "no warnings: %s", warned);
    CHECK(!strcmp(str(tf.name), "feedback toy"), "info.name: %s", str(tf.name));
    CHECK(tf.desc.es, "the site's GLSL ES");
    CHECK(!strcmp(str(tf.desc.pass[0].path), "older.json[Buffer A]") && tf.desc.pass[0].text &&
              strstr(tf.desc.pass[0].text, "vec4(1.0)"), "Buffer A: %s", str(tf.desc.pass[0].path));
    const iks_input *a0 = &tf.desc.pass[0].in[0];
    CHECK(a0->kind == IKS_IN_BUFFER && a0->buffer == 0 && a0->filter == IKS_FILTER_NEAREST && !a0->repeat, "A reads A");
    const iks_pass *im = &tf.desc.pass[IKS_IMAGE_PASS];
    CHECK(!strcmp(str(im->path), "older.json[Image]"), "Image: %s", str(im->path));
    CHECK(im->in[2].kind == IKS_IN_BUFFER && im->in[2].buffer == 0 && im->in[2].filter == IKS_FILTER_MIPMAP &&
              im->in[2].repeat, "Image reads A on channel 2");
    CHECK(im->in[3].kind == IKS_IN_KEYBOARD, "keyboard");
    CHECK(!tf.desc.pass[1].path && !tf.desc.common_path, "nothing else");
    iks_toyfile_free(&tf);

    nwarned = 0;
    warned[0] = '\0';
    CHECK(iks_toyfile_parse_json(&tf, path_of("newer.json"), NEWER, false, &e, &logger), "newer: %s", iks_err_msg(&e));
    CHECK(nwarned == 0, "the sound pass is taken, with no warning; got %d: '%s'", nwarned, warned);
    CHECK(!strcmp(str(tf.desc.sound.path), "newer.json[Sound]") && strstr(str(tf.desc.sound.text), "mainSound"),
          "the sound pass: %s", str(tf.desc.sound.path));
    CHECK(!strcmp(str(tf.name), path_of("newer.json")), "no info.name: the path names it: %s", str(tf.name));
    CHECK(!strcmp(str(tf.desc.common_path), "newer.json[Common]") && strstr(str(tf.desc.common_text), "col()"),
          "Common: %s", str(tf.desc.common_path));
    CHECK(tf.desc.pass[1].path && !tf.desc.pass[0].path, "the API's id XsXGR8 is Buffer B");
    im = &tf.desc.pass[IKS_IMAGE_PASS];
    CHECK(im->in[1].kind == IKS_IN_BUFFER && im->in[1].buffer == 1 && im->in[1].vflip, "Image reads B");
    iks_toyfile_free(&tf);

    /* malformed: the line of the fault, the file named, one line */
    write_file("trunc.json", "{\"renderpass\": [\n  {\"type\": \"image\",\n   \"code\": \"x\"\n");
    expect(iks_toyfile_load(&tf, path_of("trunc.json"), NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "trunc.json:4: not valid JSON (it ends too soon)", "truncated JSON");
    write_file("bad.json", "{\"renderpass\": [\n  {\"type\": \"image\", code: 1}]}\n");
    expect(iks_toyfile_load(&tf, path_of("bad.json"), NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "bad.json:2: not valid JSON", "a syntax error on line 2");
    expect(iks_toyfile_parse_json(&tf, "x.json", "{\"Shader\": {\"renderpass\": {\"code\": 1}}}", false, &e, &logger),
           &e, IKS_E_FORMAT, "x.json: no \"renderpass\" array", "no renderpass");
    expect(iks_toyfile_parse_json(&tf, "x.json", "{\"renderpass\": [{\"type\": \"image\", \"code\": 42}]}", false, &e,
                                  &logger), &e, IKS_E_FORMAT, "x.json: renderpass[0] (image) has no \"code\" string",
           "code not a string");
    expect(iks_toyfile_parse_json(&tf, "x.json", "{\"renderpass\": [{\"type\": \"hologram\", \"code\": \"\"}]}", false, &e,
                                  &logger), &e, IKS_E_UNSUPPORTED, "renderpass[0] has type 'hologram', which ikshade does not run",
           "an unknown pass type");
    /* Cube A: the site's "cubemap" pass, read by its output id by any pass, itself included */
    CHECK(iks_toyfile_parse_json(&tf, "x.json",
                                 "{\"renderpass\": [{\"type\": \"image\", \"code\": \"i\", \"inputs\": [{\"id\": \"4dX3Rr\", "
                                 "\"type\": \"cubemap\", \"channel\": 2, \"sampler\": {\"filter\": \"nearest\"}}]}, "
                                 "{\"type\": \"cubemap\", \"code\": \"c\", \"outputs\": [{\"id\": \"4dX3Rr\", \"channel\": 0}], "
                                 "\"inputs\": [{\"id\": \"4dX3Rr\", \"type\": \"cubemap\", \"channel\": 0}]}]}",
                                 false, &e, &logger),
          "a cubemap pass: %s", iks_err_msg(&e));
    CHECK(!strcmp(str(tf.desc.pass[IKS_CUBE_PASS].path), "x.json[Cube A]") && !strcmp(str(tf.desc.pass[IKS_CUBE_PASS].text), "c"),
          "Cube A's pass: %s", str(tf.desc.pass[IKS_CUBE_PASS].path));
    CHECK(tf.desc.pass[IKS_IMAGE_PASS].in[2].kind == IKS_IN_CUBE_BUFFER && tf.desc.pass[IKS_IMAGE_PASS].in[2].filter ==
          IKS_FILTER_NEAREST && !tf.desc.pass[IKS_IMAGE_PASS].in[2].path && tf.desc.pass[IKS_CUBE_PASS].in[0].kind ==
          IKS_IN_CUBE_BUFFER, "Cube A read by id, with its sampler");
    iks_toyfile_free(&tf);
    expect(iks_toyfile_parse_json(&tf, "x.json", "{\"renderpass\": []}", false, &e, &logger), &e, IKS_E_FORMAT,
           "x.json: no pass of type \"image\"", "no image");
    FILE *f = fopen(path_of("bin.json"), "wb");
    fwrite("{\"a\0", 1, 4, f);
    fclose(f);
    expect(iks_toyfile_load(&tf, path_of("bin.json"), NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "bin.json: binary file, not JSON", "a binary file");
    const char *ch[4] = { "keyboard", NULL, NULL, NULL };
    expect(iks_toyfile_load(&tf, older, ch, false, &e, &logger), &e, IKS_E_USAGE,
           "channel[0] 'keyboard': a JSON brings its own channels", "--channel with a JSON");

    /* media: missing (an error, or black), found beside the JSON under its path */
    static const char MEDIA[] =
        "{\"renderpass\": [{\"type\": \"image\", \"code\": \"void mainImage(out vec4 c, in vec2 f) {}\", \"inputs\": [\n"
        " {\"id\": 17, \"src\": \"/media/a/0123abcd.png\", \"ctype\": \"texture\", \"channel\": 2}]}]}";
    const char *media = write_file("media.json", MEDIA);
    expect(iks_toyfile_load(&tf, media, NULL, false, &e, &logger), &e, IKS_E_IO,
           "media.json[Image]: iChannel2: texture '/media/a/0123abcd.png' is not on disk beside the JSON", "missing media");
    CHECK(iks_toyfile_load(&tf, media, NULL, true, &e, &logger), "black: %s", iks_err_msg(&e));
    CHECK(tf.desc.pass[IKS_IMAGE_PASS].in[2].kind == IKS_IN_IMAGE && !tf.desc.pass[IKS_IMAGE_PASS].in[2].path,
          "black is an image without a path");
    iks_toyfile_free(&tf);
    mkdir(path_of("media"), 0755);
    mkdir(path_of("media/a"), 0755);
    write_file("media/a/0123abcd.png", "not really a png: the GL side decodes it");
    CHECK(iks_toyfile_load(&tf, media, NULL, false, &e, &logger), "found: %s", iks_err_msg(&e));
    CHECK(!strcmp(str(tf.desc.pass[IKS_IMAGE_PASS].in[2].path), path_of("media/a/0123abcd.png")), "path %s",
          str(tf.desc.pass[IKS_IMAGE_PASS].in[2].path));
    iks_toyfile_free(&tf);

    static const char CAM[] =
        "{\"renderpass\": [{\"type\": \"image\", \"code\": \"\", \"inputs\": [{\"id\": 3, \"ctype\": \"webcam\", "
        "\"channel\": 1, \"filepath\": \"/presets/webcam.png\"}, {\"id\": 4, \"ctype\": \"mic\", \"channel\": 2}]}]}";
    CHECK(iks_toyfile_parse_json(&tf, "v.json", CAM, false, &e, &logger), "%s", iks_err_msg(&e));
    /* live inputs: the kinds, no file (the site's preset picture is not one), the default device */
    CHECK(tf.desc.pass[IKS_IMAGE_PASS].in[1].kind == IKS_IN_WEBCAM && !tf.desc.pass[IKS_IMAGE_PASS].in[1].path &&
          tf.desc.pass[IKS_IMAGE_PASS].in[2].kind == IKS_IN_MIC && !tf.desc.pass[IKS_IMAGE_PASS].in[2].path,
          "a JSON's webcam and mic: kinds %d %d", (int)tf.desc.pass[IKS_IMAGE_PASS].in[1].kind,
          (int)tf.desc.pass[IKS_IMAGE_PASS].in[2].kind);
    iks_toyfile_free(&tf);
    static const char VIDEO[] =
        "{\"renderpass\": [{\"type\": \"image\", \"code\": \"\", \"inputs\": [{\"id\": 3, \"ctype\": \"musicstream\", \"channel\": 1}]}]}";
    expect(iks_toyfile_parse_json(&tf, "v.json", VIDEO, false, &e, &logger), &e, IKS_E_UNSUPPORTED,
           "v.json[Image]: iChannel1: input type 'musicstream' is not supported", "musicstream");
    {
        /* the JSON named once, with its pass: not "v.json: v.json[Image]: ..." */
        static const char WANT[] = "v.json[Image]: iChannel1: input type 'musicstream'";
        bool ok = iks_toyfile_parse_json(&tf, "v.json", VIDEO, false, &e, &logger);
        CHECK(!ok && !strncmp(iks_err_msg(&e), WANT, strlen(WANT)), "the pass named once: '%s'", iks_err_msg(&e));
        iks_err_clear(&e);
    }
    nwarned = 0;
    CHECK(iks_toyfile_parse_json(&tf, "v.json", VIDEO, true, &e, &logger), "%s", iks_err_msg(&e));
    CHECK(nwarned == 1 && strstr(warned, "input type 'musicstream' is not supported; black instead"), "%d '%s'", nwarned,
          warned);
    iks_toyfile_free(&tf);
}

static void test_dir(void)
{
    iks_toyfile tf;
    iks_err e = IKS_ERR_INIT;
    mkdir(path_of("toy"), 0755);
    write_file("toy/common.glsl", "vec4 step1() { return vec4(1.0 / 255.0); }\n");
    write_file("toy/a.glsl", "void mainImage(out vec4 c, in vec2 f) { c = step1(); }\n");
    write_file("toy/image.glsl", "void mainImage(out vec4 c, in vec2 f) { c = step1(); }\n");
    write_file("toy/manifest.txt", "# the wiring\na.iChannel0 = a\n  image.iChannel1=a,filter=nearest\n\n"
                                   "image.iChannel2 = pic.png,filter=nearest   # beside the passes\n"
                                   "image.iChannel3 = /abs/sky.png\n");
    const char *d = path_of("toy");
    CHECK(iks_toyfile_load(&tf, d, NULL, false, &e, &logger), "%s", iks_err_msg(&e));
    CHECK(!strcmp(str(tf.name), "toy"), "name %s", str(tf.name));
    CHECK(!strcmp(str(tf.desc.pass[0].path), path_of("toy/a.glsl")) && !tf.desc.pass[1].path &&
              !strcmp(str(tf.desc.pass[IKS_IMAGE_PASS].path), path_of("toy/image.glsl")), "passes");
    CHECK(!strcmp(str(tf.desc.common_path), path_of("toy/common.glsl")), "common");
    CHECK(tf.nwatch == 1 && !strcmp(tf.watch[0], path_of("toy/manifest.txt")), "the manifest is watched");
    const iks_input *in = tf.desc.pass[IKS_IMAGE_PASS].in;
    CHECK(tf.desc.pass[0].in[0].kind == IKS_IN_BUFFER && tf.desc.pass[0].in[0].buffer == 0, "feedback");
    CHECK(in[1].kind == IKS_IN_BUFFER && in[1].filter == IKS_FILTER_NEAREST, "image reads a");
    CHECK(in[2].kind == IKS_IN_IMAGE && !strcmp(str(in[2].path), path_of("toy/pic.png")), "relative: %s",
          str(in[2].path));
    CHECK(!strcmp(str(in[3].path), "/abs/sky.png"), "absolute: %s", str(in[3].path));
    iks_toyfile_free(&tf);

    const char *ch[4] = { NULL, NULL, "black", NULL };
    expect(iks_toyfile_load(&tf, d, ch, false, &e, &logger), &e, IKS_E_USAGE,
           "channel[2] 'black': a directory toy wires its channels in manifest.txt", "--channel with a directory");
    write_file("toy/manifest.txt", "image.iChannel0 = c\n");
    expect(iks_toyfile_load(&tf, d, NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "manifest.txt:1: image.iChannel0 reads buffer c, but the directory has no c.glsl", "a missing pass");
    write_file("toy/manifest.txt", "\nimage.iChannel7 = a\n");
    expect(iks_toyfile_load(&tf, d, NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "manifest.txt:2: 'image.iChannel7': expected PASS.iChannelN", "a bad channel");
    write_file("toy/manifest.txt", "image.iChannel0 a\n");
    expect(iks_toyfile_load(&tf, d, NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "manifest.txt:1: expected PASS.iChannelN = SPEC", "a malformed line");
    write_file("toy/manifest.txt", "image.iChannel0 =\n");
    expect(iks_toyfile_load(&tf, d, NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "manifest.txt:1: expected PASS.iChannelN = SPEC", "no spec");
    write_file("toy/manifest.txt", "image.iChannel0 = x.gif\n");
    expect(iks_toyfile_load(&tf, d, NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "manifest.txt:1: channel 'x.gif': expected FILE.png", "a bad spec in a file is a format error, not usage");
    mkdir(path_of("empty"), 0755);
    expect(iks_toyfile_load(&tf, path_of("empty"), NULL, false, &e, &logger), &e, IKS_E_FORMAT,
           "empty: a directory toy needs image.glsl", "no image.glsl");

    /* 40 texture lines (the old 48-string table overflowed at 22 and freed what it could not keep),
     * and a spec longer than the old 1023-character limit, kept whole */
    char longname[1600];
    memset(longname, 'n', sizeof longname);
    strcpy(longname + sizeof longname - 5, ".png");
    size_t cap = 64 * 1024, k = 0;
    char *man = malloc(cap);
    for (int i = 0; i < 40; i++) k += (size_t)snprintf(man + k, cap - k, "image.iChannel%d = tex%02d.png,wrap=repeat\n", i % 4, i);
    k += (size_t)snprintf(man + k, cap - k, "a.iChannel1 = %s\n", longname);
    write_file("toy/manifest.txt", man);
    free(man);
    CHECK(iks_toyfile_load(&tf, d, NULL, false, &e, &logger), "40 lines: %s", iks_err_msg(&e));
    for (int c = 0; c < 4; c++) {
        char want[64];
        snprintf(want, sizeof want, "tex%02d.png", 36 + c); /* the last line for each channel wins */
        const char *got = str(tf.desc.pass[IKS_IMAGE_PASS].in[c].path);
        CHECK(strlen(got) > strlen(want) && !strcmp(got + strlen(got) - strlen(want), want) &&
                  tf.desc.pass[IKS_IMAGE_PASS].in[c].repeat, "channel %d: %s, expected .../%s", c, got, want);
    }
    const char *lp = str(tf.desc.pass[0].in[1].path);
    CHECK(strlen(lp) == strlen(d) + 1 + strlen(longname) && !strcmp(lp + strlen(d) + 1, longname),
          "the long name whole: %zu characters", strlen(lp));
    /* every kept string is still readable (ASan would see a freed one) */
    size_t total = 0;
    for (int i = 0; i < tf.nowned; i++) total += strlen(tf.owned[i]);
    CHECK(tf.nowned >= 41 && total > 0, "owned %d", tf.nowned);
    iks_toyfile_free(&tf);
}

/* The two tables of toy/spec.h against what they stand for: the public pass ids (which spec.c writes
 * as numbers, since src/toy does not see the public header), every channel kind a row, and a spec
 * naming each extension of a kind parsed as that kind */
static void test_tables(void)
{
    static const struct { int id; const char *name; } IDS[] = {
        { IKS_PASS_IMAGE, "Image" }, { IKS_PASS_A, "Buffer A" }, { IKS_PASS_B, "Buffer B" },
        { IKS_PASS_C, "Buffer C" }, { IKS_PASS_D, "Buffer D" }, { IKS_PASS_CUBE_A, "Cube A" } };
    for (size_t i = 0; i < sizeof IDS / sizeof IDS[0]; i++) {
        int s = iks_pass_slot_of_id(IDS[i].id);
        CHECK(s >= 0 && !strcmp(iks_pass_kind_at(s)->name, IDS[i].name), "public pass id %d is %s: slot %d (%s)", IDS[i].id,
              IDS[i].name, s, s >= 0 ? iks_pass_kind_at(s)->name : "none");
    }
    CHECK(iks_pass_slot_of_id(-1) < 0 && iks_pass_slot_of_id(IKS_PASS_CUBE_A + 1) < 0, "no slot for other ids");
    CHECK(iks_pass_slot_of_word("image", 5) == IKS_IMAGE_PASS && iks_pass_slot_of_word("sound", 5) == IKS_SOUND_SLOT &&
          iks_pass_slot_of_word("common", 6) < 0 && iks_pass_slot_of_word("imag", 4) < 0, "manifest words");
    for (int k = IKS_IN_BUFFER; k < IKS_IN_KINDS; k++)
        CHECK(iks_channel_kind_of((iks_input_kind)k) != NULL, "channel kind %d has a row", k);
    int rows = 0;
    for (const iks_channel_kind *r; (r = iks_channel_kind_at(rows)); rows++) {
        CHECK(r->info && r->complete, "row %d has its info name and completion", rows);
        CHECK(!r->ctype || iks_channel_kind_of_ctype(r->ctype) == r, "ctype %s finds its row", r->ctype);
    }
    CHECK(rows == IKS_IN_KINDS - 1, "one row a kind: %d rows", rows);
    /* every music and video ending parses as that kind, in either case */
    const char *lists[2] = { IKS_MEDIA_AUDIO_EXTS, IKS_MEDIA_VIDEO_EXTS };
    for (int l = 0; l < 2; l++) {
        char copy[128];
        snprintf(copy, sizeof copy, "%s", lists[l]);
        for (char *save = NULL, *ext = strtok_r(copy, " ", &save); ext; ext = strtok_r(NULL, " ", &save)) {
            char spec[64];
            for (int upper = 0; upper < 2; upper++) {
                snprintf(spec, sizeof spec, "clip.%s", ext);
                for (char *c = spec + 5; upper && *c; c++) *c = (char)(*c - 32 * (*c >= 'a' && *c <= 'z'));
                iks_input in;
                iks_err e = IKS_ERR_INIT;
                bool ok = iks_channel_parse(spec, &in, &e);
                CHECK(ok && in.kind == (l ? IKS_IN_VIDEO : IKS_IN_MUSIC) && in.path && !strcmp(in.path, spec),
                      "%s is %s: %s", spec, l ? "video" : "music", iks_err_msg(&e));
                free((char *)in.path);
                iks_err_clear(&e);
            }
        }
    }
    /* the completion made from the rows: every word and ending once, black too */
    char comp[1024];
    iks_channel_kinds_complete(comp, sizeof comp);
    CHECK(!strcmp(comp, "words:a b c d cube_a keyboard mic webcam black|file:png jpg jpeg bin " IKS_MEDIA_AUDIO_EXTS " "
                        IKS_MEDIA_VIDEO_EXTS), "the channel completion: %s", comp);
    iks_input in;
    iks_err e = IKS_ERR_INIT;
    CHECK(iks_channel_parse("cube:sky.png,filter=mipmap", &in, &e) && in.kind == IKS_IN_CUBEMAP && !in.vflip &&
              in.filter == IKS_FILTER_MIPMAP && !strcmp(in.path, "sky.png"), "a cubemap by its prefix: %s", iks_err_msg(&e));
    free((char *)in.path);
    CHECK(iks_channel_parse("v.bin", &in, &e) && in.kind == IKS_IN_VOLUME && !in.vflip, "a volume by its ending");
    free((char *)in.path);
    CHECK(iks_channel_parse("cube_a", &in, &e) && in.kind == IKS_IN_CUBE_BUFFER && !in.path, "Cube A by its word");
    CHECK(!iks_channel_parse("cube:", &in, &e) && e.code == IKS_E_USAGE && !in.path, "a prefix with no file is refused");
    iks_err_clear(&e);
}

int main(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    snprintf(dir, sizeof dir, "/tmp/ikshade-test-toyfile-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_tables();
    test_single();
    test_from_text();
    test_json();
    test_dir();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
