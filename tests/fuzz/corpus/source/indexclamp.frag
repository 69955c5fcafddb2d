const int N = 2;
#define M (N + 1)
struct S { float v[N]; vec2 w[M * 2]; };
float perm[256];
#define H(i) perm[(i) & 255]
#define AT(v, i) v[i]
#define DECL(n) float n[4]
#define SET(k, x) s.v[k] = x; \
  s.w[k].y = x
void mainImage(out vec4 o, in vec2 f) {
    int k = int(f.x); S s; S ps[2];
    SET(k, 0.5);
    DECL(q);
    o = vec4(H(k) + ps[k].v[k], s.w[-k].y, AT(q, k), 1.0);
}
