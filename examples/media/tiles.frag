// tiles.frag: draws examples/media/tiles.png (and examples/dirtoy/tiles.png), the texture the examples
// use, so that no third-party picture is shipped:
//   build/ikshade render examples/media/tiles.frag -o examples/media/tiles.png --size 256x256
void mainImage(out vec4 fragColor, in vec2 fragCoord) {
    vec2 uv = fragCoord / iResolution.xy * 4.0;
    vec2 cell = floor(uv), f = fract(uv) - 0.5;
    float hue = fract(sin(dot(cell, vec2(12.9898, 78.233))) * 43758.5453);
    vec3 tile = 0.55 + 0.4 * cos(6.2831 * (hue + vec3(0.0, 0.33, 0.67)));
    float edge = smoothstep(0.5, 0.45, max(abs(f.x), abs(f.y)));
    fragColor = vec4(tile * edge + 0.1 * (1.0 - edge), 1.0);
}
