void mainImage(out vec4 o, in vec2 f) {
    // texelFetch outside the texture: undefined in GL, zero under WebGL's robust access
    vec4 t = texelFetch(iChannel0, ivec2(f) + ivec2(1000, 1000), 0);
    vec4 u = texelFetch(iChannel0, ivec2(-5, 3), 0);
    o = vec4(t.rgb + 0.25, 1.0) + vec4(u.rgb, 0.0);
}
