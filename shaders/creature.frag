// creature.frag: a four-legged creature walking over rolling ground, every leg a two-bone chain solved
// by ik.glsl, as in the closing example of Inigo Quilez's article. Each foot is planted on the ground
// for part of its cycle while the body moves on, then swings forward along an arc to its next foothold;
// the IK turns "hip here, foot there" into a knee. Drag the mouse left/right to change the walking speed.
// Uniforms (--set): speed, stride, r1, r2 (bone lengths), soften (soft IK, see ik.glsl).
#include "ik.glsl"

#iUniform float speed = 0.45 in { 0.0, 1.5 } step 0.01   // scene units per second
#iUniform float stride = 0.42 in { 0.1, 0.8 } step 0.01  // distance between footholds
#iUniform float r1 = 0.27 in { 0.1, 0.5 } step 0.01      // thigh
#iUniform float r2 = 0.25 in { 0.1, 0.5 } step 0.01      // shin
#iUniform float soften = 0.08 in { 0.0, 0.5 } step 0.01  // keeps the knees from snapping straight

#define DUTY 0.62         // fraction of a step cycle the foot is planted
#define LIFT 0.09         // height of a swinging foot
#define LEG_WIDTH 0.022
#define BODY_HEIGHT 0.44  // hips above the ground

const vec3 SKY_TOP = vec3(0.10, 0.14, 0.22);
const vec3 SKY_LOW = vec3(0.36, 0.42, 0.52);
const vec3 HILLS   = vec3(0.20, 0.24, 0.30);
const vec3 GROUND  = vec3(0.23, 0.20, 0.17);
const vec3 GRASS   = vec3(0.0, 158.0, 115.0) / 255.0;
const vec3 BODY    = vec3(230.0, 159.0, 0.0) / 255.0;
const vec3 NEAR    = vec3(0.0, 114.0, 178.0) / 255.0;
const vec3 FAR     = vec3(0.05, 0.26, 0.38);
const vec3 KNEE    = vec3(86.0, 180.0, 233.0) / 255.0;

float sdSegment(vec2 p, vec2 a, vec2 b)
{
    vec2 pa = p - a, ba = b - a;
    float h = clamp(dot(pa, ba) / max(dot(ba, ba), 1e-12), 0.0, 1.0);
    return length(pa - ba * h);
}

// an ellipse's distance, approximated (exact enough for shading a body)
float sdEllipse(vec2 p, vec2 c, vec2 r)
{
    vec2 q = (p - c) / r;
    float k = length(q);
    return (k - 1.0) * min(r.x, r.y);
}

float fill(float d, float px) { return clamp(0.5 - d / px, 0.0, 1.0); }

float groundY(float x) { return -0.55 + 0.06 * sin(1.1 * x) + 0.025 * sin(2.9 * x + 1.3); }

float walkSpeed() { return iMouse.z > 0.0 ? speed * 2.0 * iMouse.x / iResolution.x : speed; }

float bodyX() { return walkSpeed() * iTime; }

// hips follow the ground, averaged over the body's length, with a small bob twice per stride
float bodyY(float bx)
{
    float g = 0.5 * (groundY(bx - 0.3) + groundY(bx + 0.3));
    float bob = 0.012 * cos(4.0 * 3.14159265 * bx / stride);
    return g + BODY_HEIGHT + bob;
}

// Foot of a leg whose hip sits hx ahead of the body's centre, with cycle offset off. In stance the
// foot stays at the foothold of its step k; in swing it travels to the next one along an arc.
vec2 foot(float hx, float off)
{
    float u = bodyX() / stride + off;
    float k = floor(u);
    float c = u - k;
    float plant = (k - off + 0.5 * DUTY) * stride + hx;  // foothold of step k, in world x
    float x = plant;
    float lift = 0.0;
    if (c >= DUTY) {
        float s = (c - DUTY) / (1.0 - DUTY);
        x = plant + stride * smoothstep(0.0, 1.0, s);
        lift = LIFT * sin(3.14159265 * s);
    }
    return vec2(x, groundY(x) + lift);
}

// distance to one leg (thigh and shin as tapered capsules); knee returned for shading
float leg(vec2 q, vec2 hip, vec2 ft, float bend, out vec2 knee)
{
    vec2 x, end;
    ikSolve2(ft - hip, r1, r2, bend, false, soften, x, end);
    knee = hip + x;
    float a = sdSegment(q, hip, knee) - LEG_WIDTH * 1.25;
    float b = sdSegment(q, knee, hip + end) - LEG_WIDTH;
    return min(a, b);
}

void mainImage(out vec4 fragColor, in vec2 fragCoord)
{
    float px = 2.0 / iResolution.y;
    vec2 s = (2.0 * fragCoord - iResolution.xy) / iResolution.y;
    float bx = bodyX();
    vec2 q = vec2(s.x + bx, s.y);  // world coordinates; the camera follows the body
    float by = bodyY(bx);
    // the body leans with the slope under it
    float slope = (groundY(bx + 0.3) - groundY(bx - 0.3)) / 0.6;

    // sky, far hills with parallax, ground
    vec3 col = mix(SKY_LOW, SKY_TOP, clamp(s.y * 0.8 + 0.4, 0.0, 1.0));
    float hx = s.x + 0.3 * bx;
    float hills = -0.15 + 0.12 * sin(1.7 * hx) + 0.07 * sin(3.3 * hx + 2.0);
    col = mix(col, HILLS, fill(q.y - hills, px));
    float gy = groundY(q.x);
    col = mix(col, GROUND, fill(q.y - gy, px));
    col = mix(col, GRASS, fill(abs(q.y - gy + 0.01) - 0.012, px));

    // legs: hips at the front and back of the body; the far pair half a cycle behind and darker
    vec2 hipF = vec2(bx + 0.26, by + 0.26 * slope);
    vec2 hipB = vec2(bx - 0.26, by - 0.26 * slope);
    vec2 knee;
    float dFar = min(leg(q, hipF, foot(0.26, 0.5), 1.0, knee),
                     leg(q, hipB, foot(-0.26, 0.0), -1.0, knee));
    col = mix(col, FAR, fill(dFar, px));

    // body and head
    vec2 c = vec2(bx, by + 0.05);
    float dBody = sdEllipse(q, c, vec2(0.38, 0.13));
    vec2 head = vec2(bx + 0.42, by + 0.17 + 0.5 * 0.42 * slope);
    dBody = min(dBody, sdEllipse(q, head, vec2(0.11, 0.085)));
    dBody = min(dBody, sdSegment(q, c + vec2(0.25, 0.05), head) - 0.05);
    dBody = min(dBody, sdSegment(q, c - vec2(0.36, -0.02), c - vec2(0.52, -0.14)) - 0.018);  // tail
    float shade = 0.85 + 0.15 * clamp((q.y - c.y) / 0.13, -1.0, 1.0);
    col = mix(col, BODY * shade, fill(dBody, px));
    col = mix(col, vec3(0.05), fill(length(q - head - vec2(0.04, 0.02)) - 0.016, px));  // eye

    // near legs in front of the body, with their knees marked
    vec2 kf, kb;
    float dNear = min(leg(q, hipF, foot(0.26, 0.0), 1.0, kf),
                      leg(q, hipB, foot(-0.26, 0.5), -1.0, kb));
    col = mix(col, NEAR, fill(dNear, px));
    float dKnee = min(length(q - kf), length(q - kb)) - 0.03;
    col = mix(col, KNEE, fill(dKnee, px));

    fragColor = vec4(col, 1.0);
}
