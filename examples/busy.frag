// busy.frag: a field of moving SDF shapes drawn with iso-lines, in Inigo Quilez's style: frames that
// compress poorly (about 800 KB a 720p PNG at the default level, 680 KB at --png-level 2), the worst
// case for the PNG encoder. For `ikshade bench render examples/busy.frag` and scripts/bench_python.py.
float sdCircle(vec2 p, float r) { return length(p) - r; }

float sdBox(vec2 p, vec2 b)
{
    vec2 d = abs(p) - b;
    return length(max(d, 0.0)) + min(max(d.x, d.y), 0.0);
}

float scene(vec2 p)
{
    float d = 1e9;
    for (int i = 0; i < 8; i++) {
        float fi = float(i);
        vec2 c = vec2(sin(fi * 1.7 + iTime * 0.6), cos(fi * 2.3 + iTime * 0.5)) * vec2(1.5, 0.85);
        float s = (i % 2 == 0) ? sdCircle(p - c, 0.08 + 0.05 * sin(fi)) : sdBox(p - c, vec2(0.07, 0.12));
        d = min(d, s);
    }
    return d;
}

void mainImage(out vec4 fragColor, in vec2 fragCoord)
{
    vec2 p = (2.0 * fragCoord - iResolution.xy) / iResolution.y;
    float d = scene(p);
    // the classic distance-field colouring: inside/outside, a falloff, iso-lines, the zero line
    vec3 col = d > 0.0 ? vec3(0.9, 0.6, 0.3) : vec3(0.65, 0.85, 1.0);
    col *= 1.0 - exp(-6.0 * abs(d));
    col *= 0.8 + 0.2 * cos(150.0 * d);
    col = mix(col, vec3(1.0), 1.0 - smoothstep(0.0, 0.01, abs(d)));
    fragColor = vec4(col, 1.0);
}
