#iUniform float level = 0.5 in { 0.0, 1.0 }
#ifdef NOPE
#iUniform float dead = 1.0
#endif
#iUniform color3 tint = color3(1.0, 0.5, 0.0)
void mainImage(out vec4 c, in vec2 f) { c = vec4(tint * level, 1.0); }
