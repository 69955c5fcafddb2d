// Buffer A: light trails. Three points circle the screen; each frame the buffer keeps 97% of what it
// held (read from itself, iChannel0) and adds the points' glow, so every frame depends on all before it.
void mainImage(out vec4 col, in vec2 fragCoord)
{
    vec2 uv = (2.0 * fragCoord - iResolution.xy) / iResolution.y;
    vec3 acc = texelFetch(iChannel0, ivec2(fragCoord), 0).rgb * 0.97;
    for (int i = 0; i < 3; i++) {
        float t = iTime * (0.7 + 0.3 * float(i)) + 2.094 * float(i);
        vec2 p = vec2(cos(t), sin(1.3 * t)) * vec2(1.2, 0.7);
        vec3 tint = 0.5 + 0.5 * cos(6.2831 * (float(i) / 3.0 + vec3(0.0, 0.33, 0.67)));
        acc += tint * 0.004 / (0.002 + dot(uv - p, uv - p));
    }
    col = vec4(acc, 1.0);
}
