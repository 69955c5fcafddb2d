// common.glsl: put before every pass. A ripple source that wanders.
vec2 source(float t, vec2 res) { return res * (0.5 + 0.3 * vec2(sin(t * 0.7), cos(t * 0.9))); }
