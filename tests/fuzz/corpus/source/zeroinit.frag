#define V3 vec3
struct S { float a; vec2 b[2]; mat3 m; };
S gs; float g, h = 1.0, k[3];
const int N = 4;
void helper(in float x, out vec3 c, out float arr[2]) { c.x += x; }
void mainImage(out vec4 o, in vec2 f) {
    V3 p; float z[N]; float[3] y; S s;
    for (int i = 0; i < 2; i++) { float t; t += 0.25; }
    o = vec4(p + s.b[0].xxx, 1.0);
}
