#!/usr/bin/env python3
"""ppsize_cpp.py: the macro measure (src/glsl/ppsize.c) against an independent preprocessor, GCC's cpp,
on random macro programs: object- and function-like macros calling each other, bare function-like
names, unbalanced parentheses in bodies (calls the text after a macro closes), #undef and
redefinitions. The measure must never count fewer tokens than cpp puts out: a count below it is a
macro bomb let through. Programs cpp refuses or that expand past a budget are skipped; those the measure
refuses (constructs it cannot bound: see ppsize.c's refuse()) are counted, and must stay a minority.

  ppsize_cpp.py TEST_PPSIZE [PROGRAMS] [SEED]
"""
import random, re, subprocess, sys

TOKEN = re.compile(r'[A-Za-z_][A-Za-z0-9_]*|[0-9]+|\S')  # as ppsize counts: one token per operator character
OBJ = ['A', 'B', 'C', 'D']
FUN = {'F': 1, 'G': 2, 'H': 1, 'K': 2}


def body(rng, params, depth=0):
    out = []
    for _ in range(rng.randint(0, 6)):
        r = rng.random()
        if r < 0.25:
            out.append(rng.choice(OBJ))
        elif r < 0.5 and params:
            out.append(rng.choice(params))
        elif r < 0.8:
            f = rng.choice(list(FUN))
            if rng.random() < 0.15:
                out.append(f)  # a bare name: a call only if what follows opens one
            else:
                args = [' '.join(body(rng, params, depth + 1)) if depth < 2 else rng.choice(['1', 'x1'])
                        for _ in range(FUN[f])]
                out.append(f + '(' + ', '.join(args) + ')')
        else:
            out.append(rng.choice(['+', '1', '(', ')', 'z']) if rng.random() < 0.1 else rng.choice(['+', '1', 'z']))
    return out


def program(rng):
    lines = []
    for _ in range(rng.randint(1, 10)):
        if rng.random() < 0.5:
            lines.append('#define %s %s' % (rng.choice(OBJ), ' '.join(body(rng, []))))
        else:
            f = rng.choice(list(FUN))
            ps = ['a', 'b'][:FUN[f]]
            lines.append('#define %s(%s) %s' % (f, ', '.join(ps), ' '.join(body(rng, ps))))
        if rng.random() < 0.2:
            lines.append('#undef %s' % rng.choice(OBJ + list(FUN)))
    lines.append(' '.join(body(rng, []) + body(rng, [])))
    return '\n'.join(lines) + '\n'


def main():
    prog = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 200
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    under = compared = refused = 0
    for i in range(n):
        text = program(random.Random(seed * 1000003 + i))
        try:  # some programs double at every level: cpp gets 1 GB and 5 s, then the program is skipped
            r = subprocess.run(['bash', '-c', 'ulimit -v 1000000; exec cpp -P -undef -nostdinc -w'], input=text,
                               capture_output=True, text=True, timeout=5)
        except subprocess.TimeoutExpired:
            continue
        if r.returncode != 0:
            continue
        real = len(TOKEN.findall(r.stdout))
        m = subprocess.run([prog, '--count'], input=text, capture_output=True, text=True, timeout=60)
        if m.returncode != 0:
            print(f'FAIL: the measure exited {m.returncode} on program {i}:\n{text}{m.stderr[-2000:]}')
            return 1
        got = float(m.stdout)
        compared += 1
        if got >= 1e29:  # refused (or too long to measure): safe, but no comparison
            refused += 1
            continue
        if got < real:
            under += 1
            if under <= 3:
                print(f'FAIL: program {i} measured as {got:.17g} tokens, cpp puts out {real}:\n{text}')
    print(f'{compared} programs compared with cpp (of {n}), {refused} of them refused as unmeasurable, '
          f'{under} counted below it')
    if compared - refused < n // 2:
        print('FAIL: fewer than half the programs were measured and compared')
        return 1
    return 1 if under else 0


sys.exit(main())
