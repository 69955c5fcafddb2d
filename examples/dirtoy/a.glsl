// a.glsl (Buffer A): a wave equation. iChannel0 is Buffer A itself (last frame): r = height now,
// g = height a frame ago. The manifest wires it.
void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    ivec2 p = ivec2(fragCoord);
    vec2 now = texelFetch(iChannel0, p, 0).rg;
    float n = texelFetch(iChannel0, p + ivec2(1, 0), 0).r + texelFetch(iChannel0, p - ivec2(1, 0), 0).r +
              texelFetch(iChannel0, p + ivec2(0, 1), 0).r + texelFetch(iChannel0, p - ivec2(0, 1), 0).r;
    float h = (0.5 * n - now.g) * 0.985;
    if (length(fragCoord - source(iTime, iResolution.xy)) < 3.0) h = 1.0;
    fragColor = vec4(h, now.r, 0.0, 1.0);
}
