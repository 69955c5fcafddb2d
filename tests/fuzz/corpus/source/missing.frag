#include "missing.glsl"
