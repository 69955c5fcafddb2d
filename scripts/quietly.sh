#!/usr/bin/env bash
# quietly.sh LOG WHAT CMD...: runs CMD with its output into LOG; prints one line when it succeeds, and
# the whole log (then the line that says it failed) when it does not. For `make run`, whose user wants
# the window, not a compiler's progress.
set -uo pipefail
log=$1 what=$2; shift 2
mkdir -p "$(dirname "$log")"
t0=$SECONDS
if "$@" >"$log" 2>&1; then
  echo "$what: ok in $((SECONDS - t0)) s (log: $log)"
else
  rc=$?
  cat "$log" >&2
  echo "$what: failed (exit $rc); the log above is also in $log" >&2
  exit "$rc"
fi
