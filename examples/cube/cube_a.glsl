// Cube A: a sky drawn once into the six faces of a cubemap, then kept by feedback: each frame blends
// a little of the new sky into what the faces held, so the moving sun leaves a fading trail.
vec3 sky(vec3 d, float t)
{
    vec3 sun = normalize(vec3(cos(t * 0.5), 0.35, sin(t * 0.5)));
    vec3 col = mix(vec3(0.55, 0.35, 0.25), vec3(0.25, 0.45, 0.85), smoothstep(-0.2, 0.4, d.y));
    col += vec3(1.0, 0.8, 0.5) * pow(max(dot(d, sun), 0.0), 64.0);
    // a checker floor below the horizon, so that the faces' orientation shows
    if (d.y < -0.05) {
        vec2 p = d.xz / -d.y;
        col = mix(col, vec3(0.9) * (0.4 + 0.6 * mod(floor(p.x) + floor(p.y), 2.0)), 0.8);
    }
    return col;
}

void mainCubemap(out vec4 fragColor, in vec2 fragCoord, in vec3 rayOri, in vec3 rayDir)
{
    vec3 old = texture(iChannel0, rayDir).rgb;
    vec3 now = sky(rayDir, iTime);
    fragColor = vec4(iFrame == 0 ? now : mix(old, now, 0.1), 1.0);
}
