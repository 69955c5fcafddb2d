#!/usr/bin/env bash
# tiers.sh TIER...: `make test`'s tiers (make targets), each run to its end even when one before it
# failed, so that one broken tool (npm's registry behind a proxy, say) cannot hide what the other
# tiers would have found. Each tier's output goes to the terminal as it runs and to LOGS/TIER.log; the
# end names every tier with what failed in it (a ctest tier's failing tests, as scripts/ctest.sh named
# them; another tier's FAIL lines), and the exit status is 1 if any tier failed.
# MAKE is the make to run them with (the Makefile passes its own); TIERS_LOGS where the logs go.
set -uo pipefail
make=${MAKE:-make}
logs=${TIERS_LOGS:-build/logs/tiers}
mkdir -p "$logs"
declare -A rc
for t in "$@"; do
  echo "== make $t"
  $make --no-print-directory "$t" 2>&1 | tee "$logs/$t.log"
  rc[$t]=${PIPESTATUS[0]}
done
failed=0
for t in "$@"; do [ "${rc[$t]}" = 0 ] || failed=$((failed + 1)); done
echo
if [ $failed = 0 ]; then
  echo "make test: all $# tiers passed ($*)"
  exit 0
fi
echo "make test: $failed of $# tiers failed; each tier, and what failed in it:"
for t in "$@"; do
  if [ "${rc[$t]}" = 0 ]; then echo "  $t: passed"; continue; fi
  # the ctest tiers name their failing tests in the ctest.sh line "== NAME: why (its whole output: LOG)";
  # other tiers' FAIL lines ("fuzz X: FAILED", "FAIL: ...") are named as they are
  names=$(sed -n 's/^== \([^ ]*\): .*(its whole output: \(.*\))$/\1/p' "$logs/$t.log" | sort -u | tr '\n' ' ' | sed 's/ $//')
  logfile=$(sed -n 's/^== [^ ]*: .*(its whole output: \(.*\))$/\1/p' "$logs/$t.log" | head -n 1)
  if [ -n "$names" ]; then
    echo "  $t: failed (exit ${rc[$t]}): $names (their output: $logfile)"
  else
    echo "  $t: failed (exit ${rc[$t]}); its FAIL lines (the whole output: $logs/$t.log):"
    grep -E '^FAIL|FAILED|: failed' "$logs/$t.log" | head -n 10 | sed 's/^/    /'
  fi
done
exit 1
