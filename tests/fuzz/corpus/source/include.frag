#include "a.glsl"
#include "ik.glsl"
uniform vec3 tint = vec3(1.0);
uniform float k[4];
void mainImage(out vec4 c, in vec2 f) { c = vec4(a() * tint, 1.0); }
