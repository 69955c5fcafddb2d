// keyboard.frag: a keyboard toy (--channel0 keyboard). The arrow keys move a dot; Space (toggled)
// changes its colour. The keyboard texture is 256x3: row 0 held, row 1 pressed this frame, row 2
// toggled, indexed by JavaScript keyCode (37-40 the arrows, 32 Space).
float key(int code, int row) { return texelFetch(iChannel0, ivec2(code, row), 0).r; }
void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = (fragCoord - 0.5 * iResolution.xy) / iResolution.y;
    vec2 at = 0.25 * vec2(key(39, 0) - key(37, 0), key(38, 0) - key(40, 0));
    vec3 ink = key(32, 2) > 0.5 ? vec3(0.2, 0.8, 1.0) : vec3(1.0, 0.6, 0.2);
    float d = smoothstep(0.06, 0.05, length(uv - at));
    fragColor = vec4(mix(vec3(0.08), ink, d), 1.0);
}
