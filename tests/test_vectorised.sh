#!/usr/bin/env bash
# The batch solvers' loops must vectorise in every variant (the speed goal rests on it): compile ik.c
# with the library's flags and read the compiler's own report for the loops in batch_loop() (2D: 4
# variants) and batch3_loop() (3D: 8 variants), each in an AVX2 and a default clone.
set -u
cc=$1 src=$2
inc=${3:-$(dirname "$src")/../../include} # the public headers (ikshade/ik.h)
report=$("$cc" -std=c11 -O3 -fno-math-errno -fno-trapping-math -ffp-contract=off -fopt-info-vec-all \
         -I"$inc" -c "$src" -o /dev/null 2>&1)
clones=2
grep -q 'target_clones("avx2", "default")' "$src" || clones=1
pass=0 fail=0
# loop FUNCTION VARIANTS: the first `for (size_t i = 0; i < n; i++)` after FUNCTION's definition
loop() {
  local fn=$1 variants=$2 start line at ok bad
  start=$(grep -n "^$fn(" "$src" | cut -d: -f1)
  if [ -z "$start" ]; then echo "FAIL: no $fn in $src"; fail=$((fail + 1)); return; fi
  line=$(awk -v s="$start" 'NR > s && /for \(size_t i = 0; i < n; i\+\+\)/ { print NR; exit }' "$src")
  at=$(grep -E "ik\.c:$line:[0-9]+: " <<<"$report")
  ok=$(grep -c "optimized: loop vectorized" <<<"$at")
  bad=$(grep -c "couldn't vectorize loop" <<<"$at")
  echo "$fn: loop at ik.c:$line: vectorised $ok times ($variants variants x $clones clones, with epilogues), not vectorised $bad times"
  grep "optimized: loop vectorized" <<<"$at" | sort | uniq -c
  # each clone of each variant: its main loop (32-byte vectors in the AVX2 clone, 16 in the default)
  local v32 v16
  v32=$(grep -c "using 32 byte vectors" <<<"$at")
  v16=$(grep -c "using 16 byte vectors" <<<"$at")
  if [ "$bad" -ne 0 ] || [ "$ok" -lt $((variants * clones)) ] || { [ "$clones" -eq 2 ] && [ "$v32" -lt "$variants" ]; } ||
     [ "$v16" -lt "$variants" ]; then
    echo "FAIL: $fn's loop did not vectorise everywhere:"; grep -E "missed" <<<"$at" | sort -u | head
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
}
loop batch_loop 4
loop batch3_loop 8
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
