#include "cycle.glsl"
void mainImage(out vec4 c, in vec2 f) { c = vec4(1.0); }
