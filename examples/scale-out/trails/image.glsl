// Image: the trails, tone-mapped
void mainImage(out vec4 col, in vec2 fragCoord)
{
    vec3 c = texelFetch(iChannel0, ivec2(fragCoord), 0).rgb;
    col = vec4(pow(c / (1.0 + c), vec3(0.4545)), 1.0);
}
