// The keyboard channel with no key down (offline): every row reads 0, and its size is 256x3.
void mainImage(out vec4 o, in vec2 f) {
    vec2 uv = f / iResolution.xy;
    float k = texture(iChannel0, vec2(uv.x, 0.25)).x + texelFetch(iChannel0, ivec2(65, 2), 0).x;
    o = vec4(k, iChannelResolution[0].x / 512.0, iChannelResolution[0].y / 6.0, 1.0) + 0.2 * sin(uv.xyxy * 9.0);
}
