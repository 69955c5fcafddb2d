// texture.frag: a single-file toy with two channels from the command line:
//   iChannel0 a texture (examples/media/tiles.png, made by ikshade itself: see examples/media/tiles.frag)
//   iChannel1 the keyboard: hold the left/right arrow keys in the viewer to turn the tiles
void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = (fragCoord - 0.5 * iResolution.xy) / iResolution.y;
    float left = texelFetch(iChannel1, ivec2(37, 0), 0).r, right = texelFetch(iChannel1, ivec2(39, 0), 0).r;
    float a = 0.2 * iTime + 1.5 * (right - left);
    uv = mat2(cos(a), -sin(a), sin(a), cos(a)) * uv;
    vec3 col = texture(iChannel0, uv * 1.5 + 0.5).rgb;
    fragColor = vec4(col * (1.0 - 0.5 * dot(uv, uv)), 1.0);
}
