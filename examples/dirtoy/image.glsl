// image.glsl: Buffer A's heights as light on a surface, over the tiles texture (see manifest.txt).
void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = fragCoord / iResolution.xy;
    vec2 e = 1.0 / iResolution.xy;
    float hx = texture(iChannel0, uv + vec2(e.x, 0.0)).r - texture(iChannel0, uv - vec2(e.x, 0.0)).r;
    float hy = texture(iChannel0, uv + vec2(0.0, e.y)).r - texture(iChannel0, uv - vec2(0.0, e.y)).r;
    vec3 base = texture(iChannel1, uv * 2.0 + 0.05 * vec2(hx, hy)).rgb;
    fragColor = vec4(base * (0.8 + 0.6 * (hx + hy)), 1.0);
}
