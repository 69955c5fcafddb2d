#version 330 core
out vec4 o;
/* a comment with uniform float x; */
// uniform int y;
void main() { o = vec4(1.0); }
