#define D2R(a) a*(3.14/180.)
#define G(x) -D2R(x)
void mainImage(out vec4 o, in vec2 f) { float x = -D2R(-90.0)+G(1.); o = vec4(x); }
