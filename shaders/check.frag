// check.frag: the readback probe of `ikshade check`. One IK case per pixel: iChannel0 holds
// (px, py, r1, r2) as RGBA32F; the output is (x, y, status, 0) into an RGBA32F target, or with
// uEffector the effector's (end.x, end.y, status, 0).
// The solver comes from #include "ik.glsl", which `--solver FILE` replaces.
#include "ik.glsl"

uniform float uBend;    // +1 or -1
uniform int uStretch;   // 0 or 1
uniform float uSoften;  // 0..1
uniform int uEffector;  // 0: the joint, 1: the effector

void mainImage(out vec4 fragColor, in vec2 fragCoord)
{
    vec4 c = texelFetch(iChannel0, ivec2(fragCoord), 0);
    vec2 x, end;
    int st = ikSolve2(c.xy, c.z, c.w, uBend, uStretch != 0, uSoften, x, end);
    fragColor = vec4(uEffector != 0 ? end : x, float(st), 0.0);
}
