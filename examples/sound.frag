// A sound shader with a picture: mainSound plays a little arpeggio (a bell-like tone per note, left and
// right slightly apart), mainImage shows which note is playing. `render -o song.wav` writes the sound,
// `render -o clip.mp4` a video with it as the audio track.
const float BPS = 4.0; // notes a second

float note_of(float t)
{
    // A minor: A C E A, then down
    int i = int(mod(floor(t * BPS), 8.0));
    int steps[8] = int[8](0, 3, 7, 12, 15, 12, 7, 3);
    return 220.0 * pow(2.0, float(steps[i]) / 12.0);
}

vec2 mainSound(int samp, float time)
{
    float f = note_of(time);
    float t = fract(time * BPS) / BPS;             // seconds since this note began
    float env = exp(-6.0 * t) * smoothstep(0.0, 0.005, t);
    float l = sin(6.2831853 * f * t) + 0.3 * sin(6.2831853 * 2.0 * f * t);
    float r = sin(6.2831853 * f * 1.003 * t) + 0.3 * sin(6.2831853 * 2.0 * f * 1.003 * t);
    return 0.35 * env * vec2(l, r);
}

void mainImage(out vec4 fragColor, in vec2 fragCoord)
{
    vec2 uv = fragCoord / iResolution.xy;
    float f = note_of(iTime);
    float level = log2(f / 220.0);                   // 0 .. 1.25 octaves
    float t = fract(iTime * BPS);
    float bar = step(uv.y, 0.1 + 0.6 * level) * step(abs(uv.x - 0.5), 0.1 * exp(-4.0 * t) + 0.02);
    vec3 col = mix(vec3(0.08, 0.09, 0.12), vec3(0.95, 0.6, 0.25), bar);
    fragColor = vec4(col, 1.0);
}
