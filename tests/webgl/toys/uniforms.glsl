// Every uniform the site sets, one band each (left to right), each shown as a value in 0..1 so that a
// wrong scale, a wrong frame number or a missing uniform changes the band's colour.
void mainImage(out vec4 o, in vec2 f) {
    int band = int(f.x / iResolution.x * 12.0);
    float y = f.y / iResolution.y;
    vec3 c = vec3(0.0);
    if (band == 0) c = vec3(iResolution.x / 1000.0, iResolution.y / 1000.0, iResolution.z);
    else if (band == 1) c = vec3(fract(iTime), fract(iTime / 10.0), y);
    else if (band == 2) c = vec3(iTimeDelta * 30.0, 0.0, 0.0);
    else if (band == 3) c = vec3(float(iFrame % 256) / 255.0, float(iFrame / 256) / 255.0, 0.0);
    else if (band == 4) c = vec3(iFrameRate / 120.0);
    else if (band == 5) c = iMouse.xyz / vec3(iResolution.xy, iResolution.x);
    else if (band == 6) c = vec3(iMouse.w / iResolution.y * 0.5 + 0.5, sign(iMouse.z) * 0.5 + 0.5, 0.0);
    else if (band == 7) c = vec3(iDate.x / 4000.0, iDate.y / 12.0, iDate.z / 31.0);
    else if (band == 8) c = vec3(fract(iDate.w), fract(iDate.w / 100.0), 0.0);
    else if (band == 9) c = vec3(iSampleRate / 100000.0);
    else if (band == 10) c = vec3(iChannelTime[0], iChannelTime[1], iChannelTime[3]) + 0.25;
    else c = vec3(iChannelResolution[0].xy / 1000.0, iChannelResolution[3].z);
    // a smooth function of position too: rasterisation and gl_FragCoord's pixel centres
    c += 0.1 * sin(f.x * 0.05 + f.y * 0.07);
    o = vec4(c, 1.0);
}
