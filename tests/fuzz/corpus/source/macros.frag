#define S(a,b,t) smoothstep(a,b,t)
#define R(a) mat2(cos(a),-sin(a),sin(a),cos(a))
#define A B
#define B A
#undef A
#define F(x, y) x y x \
  y
void mainImage(out vec4 c, in vec2 f) { c = vec4(S(0.,1.,F((1,2),3))); }
