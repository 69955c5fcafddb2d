// limb.frag: Inigo Quilez's two-bone IK picture, alive. The fixed origin; the circle of radius r1
// around it and of radius r2 around the target; the reachable ring between |r1-r2| and r1+r2; the two
// bones as anti-aliased capsules; the joint; the target; the other solution as a ghost.
// The target follows the mouse while the button is held, otherwise a path that leaves the reachable
// ring on both sides, so clamping (or --set stretch=1, or --set soften=0.2) can be seen.
// Palette: Okabe-Ito, safe for colour-blind eyes. Sizes are in scene units, so it is crisp at any
// resolution.
#include "ik.glsl"

// Parameters: sliders in the viewer (P), --set NAME=V anywhere; the VS Code Shader Toy extension reads
// the same lines.
#iUniform float r1 = 0.55 in { 0.05, 1.0 } step 0.01    // upper bone
#iUniform float r2 = 0.38 in { 0.05, 1.0 } step 0.01    // lower bone
#iUniform float bend = 1.0 in { -1.0, 1.0 } step 2.0    // +1 or -1: which of the two solutions
#iUniform int stretch = 0 in { 0, 1 }                   // 1: the article's stretching out of reach
#iUniform float soften = 0.0 in { 0.0, 0.5 } step 0.01  // soft-IK zone, a fraction of r1 + r2
#iUniform int ghost = 1 in { 0, 1 }                     // 1: draw the other solution faintly

#define BONE_WIDTH 0.028
#define JOINT_RADIUS 0.042
#define LINE_WIDTH 0.004

const vec3 BG     = vec3(0.075, 0.078, 0.094);
const vec3 GRID   = vec3(0.110, 0.114, 0.133);
const vec3 RING   = vec3(0.094, 0.129, 0.149);
const vec3 BLUE   = vec3(0.0, 114.0, 178.0) / 255.0;   // upper bone
const vec3 SKY    = vec3(86.0, 180.0, 233.0) / 255.0;  // lower bone
const vec3 ORANGE = vec3(230.0, 159.0, 0.0) / 255.0;   // joint
const vec3 VERM   = vec3(213.0, 94.0, 0.0) / 255.0;    // target, reached
const vec3 YELLOW = vec3(240.0, 228.0, 66.0) / 255.0;  // target, out of reach
const vec3 GREEN  = vec3(0.0, 158.0, 115.0) / 255.0;   // circle r1
const vec3 PURPLE = vec3(204.0, 121.0, 167.0) / 255.0; // circle r2
const vec3 WHITE  = vec3(0.92);
const vec3 GHOST  = vec3(0.36, 0.38, 0.42);

float sdSegment(vec2 p, vec2 a, vec2 b)
{
    vec2 pa = p - a, ba = b - a;
    float h = clamp(dot(pa, ba) / max(dot(ba, ba), 1e-12), 0.0, 1.0);
    return length(pa - ba * h);
}

float sdCircle(vec2 p, vec2 c, float r) { return length(p - c) - r; }

// coverage of a shape with signed distance d, anti-aliased over one pixel of size px
float fill(float d, float px) { return clamp(0.5 - d / px, 0.0, 1.0); }

vec2 toScene(vec2 fragCoord) { return (2.0 * fragCoord - iResolution.xy) / iResolution.y; }

// the target: the mouse while held, else a path through, beyond and inside the reachable ring
vec2 target()
{
    if (iMouse.z > 0.0) return toScene(iMouse.xy);
    float t = iTime;
    float rad = 0.5 + 0.42 * sin(0.83 * t) + 0.07 * sin(2.3 * t + 1.0);
    float ang = 0.55 * t + 0.45 * sin(0.5 * t);
    return abs(rad) * vec2(cos(ang), sin(ang));
}

void mainImage(out vec4 fragColor, in vec2 fragCoord)
{
    float px = 2.0 / iResolution.y;
    vec2 q = toScene(fragCoord);
    vec2 p = target();

    vec2 x, end;
    int st = ikSolve2(p, r1, r2, bend, stretch != 0, soften, x, end);
    vec2 xg, endg;
    ikSolve2(p, r1, r2, -bend, stretch != 0, soften, xg, endg);

    // background and a faint grid every 0.25 units
    vec3 col = BG;
    vec2 g = abs(fract(q * 4.0 + 0.5) - 0.5) / 4.0;
    col = mix(col, GRID, fill(min(g.x, g.y) - 0.5 * LINE_WIDTH, px));

    // where the target can be reached
    float lr = length(q);
    float ringd = max(abs(r1 - r2) - lr, lr - (r1 + r2));
    col = mix(col, RING, fill(ringd, px));

    // the two circles whose crossing is the joint
    col = mix(col, GREEN, 0.8 * fill(abs(sdCircle(q, vec2(0.0), r1)) - LINE_WIDTH, px));
    col = mix(col, PURPLE, 0.8 * fill(abs(sdCircle(q, p, r2)) - LINE_WIDTH, px));

    // the other solution, faint
    if (ghost != 0 && st == IK_REACHED) {
        float dg = min(sdSegment(q, vec2(0.0), xg), sdSegment(q, xg, endg)) - 0.6 * BONE_WIDTH;
        col = mix(col, GHOST, 0.55 * fill(dg, px));
    }

    // the bones, the joint, the origin
    col = mix(col, BLUE, fill(sdSegment(q, vec2(0.0), x) - BONE_WIDTH, px));
    col = mix(col, SKY, fill(sdSegment(q, x, end) - BONE_WIDTH, px));
    col = mix(col, ORANGE, fill(sdCircle(q, x, JOINT_RADIUS), px));
    col = mix(col, WHITE, fill(sdCircle(q, vec2(0.0), JOINT_RADIUS * 0.8), px));

    // the target: a ring, vermillion when reached, yellow when out of reach
    vec3 tc = st == IK_REACHED ? VERM : YELLOW;
    col = mix(col, tc, fill(abs(sdCircle(q, p, 0.045)) - 1.6 * LINE_WIDTH, px));
    col = mix(col, tc, fill(sdCircle(q, p, 0.012), px));

    fragColor = vec4(col, 1.0);
}
