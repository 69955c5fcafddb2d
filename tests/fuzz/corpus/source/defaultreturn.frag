#define V3 vec3
#define H float h(float x)
#define BEGIN vec2 g(vec2 v) {
#define FN(n) float n(float x)
#define F float f2(float x) { \
  if (x > 0.0) return x; \
}
#define END return c; }
#define RET(x) return x
struct S { float a; vec2 b[2]; };
const int N = 2;
S s(S v) { if (v.a > 0.0) return v; }
float[3] a3(float[3] a) { if (a[0] > 0.0) return a; }
float[N] an(float[N] a) { if (a[0] > 0.0) return a; }
V3 f(vec2 p) {
    for (int i = 0; i < 4; i++) {
        if (p.x > 1e9) return vec3(1.0);
    }
}
float f(float x);
float f(float x) { if (x > 1e9) return 1.0; x *= 3.0; }
float none(float x) { x *= 3.0; }
H { if (x > 0.0) return x; }
BEGIN if (v.x > 0.0) return v; }
FN(fn) { RET(x); }
vec3 e(vec3 c) { c *= 2.0; END
float k(float x) {
#if A
  if (x > 0.0) {
#else
  if (x < 0.0) {
#endif
    return 1.0;
  }
}
float m(float x) {
#ifdef B
  x *= 2.0;
#endif
  if (x > 0.0) return x;
}
void mainImage(out vec4 o, in vec2 c) { o = vec4(f(c) + vec3(f(c.x)), 1.0); }
