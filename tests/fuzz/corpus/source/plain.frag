void mainImage(out vec4 c, in vec2 f) {
  c = vec4(f / iResolution.xy, 0.5 + 0.5 * sin(iTime), 1.0);
}
