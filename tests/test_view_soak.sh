#!/usr/bin/env bash
# 500 reloads in a row under Xvfb: GL objects must not grow at all, resident memory by no more than
# a small stated bound (RSS_BOUND_KB, after the first WARM reloads let the driver's caches settle).
# In a sanitized build AddressSanitizer's quarantine holds freed memory on purpose, so resident memory
# says nothing there; LeakSanitizer's check at exit stands in for the bound.
# usage: test_view_soak.sh IKSHADE [RELOADS [plain|sanitized]]
set -u
. "$(dirname "$0")/lib.sh"
bin=$1 reloads=${2:-500} build=${3:-plain}
WARM=20 RSS_BOUND_KB=8192
if [ -z "${IKS_IN_XVFB:-}" ]; then
  IKS_IN_XVFB=1 xvfb_exec bash "$0" "$@"; exit $?
fi
tmp=$(mktemp -d); vpid=
trap '[ -n "$vpid" ] && kill $vpid 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$tmp"
# every version differs, so each reload is a real compile (no shader cache on disk to hide it)
export MESA_SHADER_CACHE_DISABLE=true
write() { printf 'void mainImage(out vec4 c, in vec2 f) { c = vec4(vec3(%d.0 / 1000.0), 1.0); }\n' "$1" > s.frag.tmp && mv s.frag.tmp s.frag; }
write 0
"$bin" view s.frag --size 320x180 --log --no-hud > v.out 2> v.err & vpid=$!
sleep 1
for i in $(seq 1 "$reloads"); do
  write "$i"
  for _ in $(seq 1000); do [ "$(grep -c ': ok' v.out)" -ge "$i" ] && break; sleep 0.005; done
done
kill $vpid; wait $vpid; rc=$?; vpid=
check "the viewer ran through the soak and stopped on SIGTERM, saying so in its status (143; rc $rc)" [ $rc -eq 143 ]
check "$reloads reloads, each reported" [ "$(grep -c ': ok' v.out)" -eq "$reloads" ]
field() { sed -n "$1p" v.out | grep -oE "$2 [0-9]+" | grep -oE '[0-9]+$'; }
g0=$(field $WARM 'gl objects') g1=$(field "$reloads" 'gl objects')
r0=$(field $WARM 'rss') r1=$(field "$reloads" 'rss')
echo "after reload $WARM: $g0 GL objects, rss $r0 kB; after reload $reloads: $g1 GL objects, rss $r1 kB"
check "the log gives GL objects and rss at both reloads" [ -n "$g0" -a -n "$g1" -a -n "$r0" -a -n "$r1" ]
check "GL objects do not grow" [ "$g0" -eq "$g1" ]
if [ "$build" = plain ]; then
  check "resident memory grows by less than $RSS_BOUND_KB kB" [ $((r1 - r0)) -lt $RSS_BOUND_KB ]
else
  echo "sanitized build: resident memory not bounded here (ASan's quarantine); LeakSanitizer checked the exit"
fi
check "no errors on stderr (the --log line saying what ended the viewer aside)" [ -z "$(grep -v "^view: ended by " v.err)" ]
finish
