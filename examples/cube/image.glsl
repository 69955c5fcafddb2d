// Image: a mirror ball in the sky that Cube A keeps, seen from a camera circling it.
void mainImage(out vec4 fragColor, in vec2 fragCoord)
{
    vec2 p = (2.0 * fragCoord - iResolution.xy) / iResolution.y;
    float a = 0.3 * iTime;
    vec3 ro = vec3(3.0 * sin(a), 0.6, 3.0 * cos(a));
    vec3 fw = normalize(-ro), rt = normalize(cross(fw, vec3(0.0, 1.0, 0.0))), up = cross(rt, fw);
    vec3 rd = normalize(p.x * rt + p.y * up + 1.8 * fw);
    // the unit sphere at the origin
    float b = dot(ro, rd), c = dot(ro, ro) - 1.0, h = b * b - c;
    vec3 col = texture(iChannel0, rd).rgb;
    if (h > 0.0) {
        vec3 n = normalize(ro + (-b - sqrt(h)) * rd);
        col = 0.9 * texture(iChannel0, reflect(rd, n)).rgb;
    }
    fragColor = vec4(pow(col, vec3(0.4545)), 1.0);
}
