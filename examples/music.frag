// A music-reactive picture: iChannel0 is a music channel (the site's 512x2 texture: row 0 the
// spectrum, 0 to 11 kHz, row 1 the waveform). Bars for the spectrum, a line for the waveform, and a
// ring that swells with the bass.
//   ikshade render examples/sound.frag -o song.wav --seconds 8      (a track made by ikshade itself)
//   ikshade render examples/music.frag --channel0 song.wav -o music.mp4 --seconds 8 --size 640x360

float spectrum(float x) { return texture(iChannel0, vec2(x, 0.25)).x; }
float wave(float x) { return texture(iChannel0, vec2(x, 0.75)).x; }

void mainImage(out vec4 fragColor, in vec2 fragCoord)
{
    vec2 uv = fragCoord / iResolution.xy;
    vec2 p = (2.0 * fragCoord - iResolution.xy) / iResolution.y;
    // the low quarter of the spectrum holds the notes; spread it over the width
    float bins = 64.0;
    float bx = floor(uv.x * bins) / bins;
    float level = spectrum(bx * 0.25 + 0.5 / 512.0);
    vec3 col = vec3(0.02, 0.02, 0.05);
    float bar = step(uv.y, level * 0.8) * step(0.15, fract(uv.x * bins));
    col = mix(col, mix(vec3(0.1, 0.5, 1.0), vec3(1.0, 0.3, 0.2), uv.y / 0.8), bar);
    // the waveform, centred at 0.5 (128/255 is silence)
    float w = wave(uv.x);
    col += vec3(0.9, 0.9, 0.4) * smoothstep(0.006, 0.0, abs(uv.y - (0.5 + (w - 0.5) * 0.6)));
    // the bass: the first bins' average
    float bass = 0.0;
    for (int i = 1; i < 8; i++) bass += spectrum((float(i) + 0.5) / 512.0);
    bass /= 7.0;
    float r = length(p - vec2(0.0, 0.35));
    col += vec3(1.0, 0.4, 0.7) * smoothstep(0.02, 0.0, abs(r - 0.1 - 0.25 * bass)) * (0.3 + bass);
    fragColor = vec4(col, 1.0);
}
