void mainImage(out vec4 o, in vec2 f) {
    float z = f.x - f.x;              // 0, not a constant the compiler folds
    float a = 1.0 / z;                // +inf
    float b = z / z;                  // NaN
    float c = -1.0 / z;               // -inf
    o = vec4(clamp(a, 0.0, 1.0), isnan(b) ? 1.0 : 0.25, c < 0.0 ? 1.0 : 0.0, 1.0);
    if (f.y > iResolution.y * 0.5) o = vec4(b, a * 0.0, sqrt(-1.0 + z), 1.0);   // NaN written to a pixel
}
