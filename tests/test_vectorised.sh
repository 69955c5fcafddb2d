#!/usr/bin/env bash
# The batch solver's loop must vectorise in every variant (the speed goal rests on it): compile ik.c
# with the library's flags and read the compiler's own report for the loop in batch_loop().
set -u
cc=$1 src=$2
inc=${3:-$(dirname "$src")/../../include} # the public headers (ikshade/ik.h)
report=$("$cc" -std=c11 -O3 -fno-math-errno -fno-trapping-math -ffp-contract=off -fopt-info-vec-all \
         -I"$inc" -c "$src" -o /dev/null 2>&1)
start=$(grep -n '^batch_loop(' "$src" | cut -d: -f1)
[ -n "$start" ] || { echo "FAIL: no batch_loop in $src"; exit 1; }
line=$(awk -v s="$start" 'NR > s && /for \(size_t i = 0; i < n; i\+\+\)/ { print NR; exit }' "$src")
at=$(grep -E "ik\.c:$line:[0-9]+: " <<<"$report")
ok=$(grep -c "optimized: loop vectorized" <<<"$at")
bad=$(grep -c "couldn't vectorize loop" <<<"$at")
echo "loop at ik.c:$line: vectorised $ok times (4 variants x 2 clones), not vectorised $bad times"
grep "optimized: loop vectorized" <<<"$at" | sort | uniq -c
if [ "$bad" -ne 0 ] || [ "$ok" -lt 4 ]; then
  echo "FAIL: the batch loop did not vectorise everywhere:"; grep -E "missed" <<<"$at" | sort -u | head; exit 1
fi
echo "1 passed, 0 failed"
