// built-in calls on constant expressions of names: ANGLE (the site's compiler) puts a const's value and a
// macro's tokens in place, folds the arithmetic in float (every division here is by a power of two, so
// exact) and then the call, correctly rounded, as in const_fold.glsl; Mesa evaluates acos and asin with
// its own (less exact) code. 255 = equals the float nearest the true value (computed in Python)
const float PI = acos(-1.0), H = 0.3; // 3.14159274, the float nearest pi
#define PD acos(-1.)
#define A7(x) (x * acos(-0.7))
void mainImage(out vec4 o, in vec2 f) {
    o = vec4(acos(PI / 4.0) == 0.667457163 ? 1.0 : 0.0,
             asin(PD / 8.0) == 0.403564632 ? 1.0 : 0.0,
             acos(-H) == 1.875489 && A7(1.0) == 2.34619379 ? 1.0 : 0.0, 1.0);
}
