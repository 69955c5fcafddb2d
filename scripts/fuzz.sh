#!/usr/bin/env bash
# Runs every libFuzzer target: first on its kept regression inputs (tests/fuzz/regress/TARGET/, each a
# crash found once and fixed), then for SECONDS from the committed seeds (tests/fuzz/corpus/TARGET/).
# New corpus entries go to a temporary directory, never into the tree. A crash stops with its input
# saved under build-fuzz/crashes/ and the command to reproduce it.
# usage: scripts/fuzz.sh BUILD_DIR [SECONDS [TARGET...]]   (targets: fuzz_NAME, as the Makefile's FUZZ_TARGETS
# lists them; none: every fuzz_* program in BUILD_DIR)
set -uo pipefail
build=$1 seconds=${2:-10}
shift $(($# < 2 ? $# : 2))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for b in "$build"/fuzz_*; do [ -x "$b" ] && targets+=("$(basename "$b")"); done
fi
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no fuzz targets in $build (make test-fuzz builds them)" >&2; exit 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
crashes="$build/crashes"; mkdir -p "$crashes"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
status=0
for target in "${targets[@]}"; do
  t=${target#fuzz_}
  bin="$build/fuzz_$t"
  [ -x "$bin" ] || { echo "fuzz: $bin is missing (make test-fuzz builds it)" >&2; exit 1; }
  reg="$root/tests/fuzz/regress/$t"
  if [ -d "$reg" ] && [ -n "$(ls -A "$reg")" ]; then
    if ! "$bin" "$reg"/* >"$work/$t.reg.log" 2>&1; then
      echo "fuzz $t: a kept regression input crashes again:" >&2; tail -30 "$work/$t.reg.log" >&2; status=1; continue
    fi
  fi
  # a seed directory that is not there (a seed file git ignored, say) is named, not reported as a crash
  if [ -z "$(ls -A "$root/tests/fuzz/corpus/$t" 2>/dev/null)" ]; then
    echo "fuzz $t: FAILED: no seeds in tests/fuzz/corpus/$t" >&2; status=1; continue
  fi
  mkdir -p "$work/$t"
  quiet=(); [ "$t" = cli ] && quiet=(-close_fd_mask=2)
  if "$bin" "${quiet[@]}" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$crashes/$t-" \
       "$work/$t" "$root/tests/fuzz/corpus/$t" >"$work/$t.log" 2>&1; then
    echo "fuzz $t: $(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$work/$t.log" | tail -1)s, no crash"
  else
    echo "fuzz $t: FAILED; input saved in $crashes (reproduce: $bin FILE; once fixed, keep it in $reg/)" >&2
    grep -E 'ERROR|SUMMARY|#[0-9]+ 0x' "$work/$t.log" | head -20 >&2
    status=1
  fi
done
exit $status
