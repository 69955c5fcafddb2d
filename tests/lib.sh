# lib.sh: helpers for the shell tests. Each test sources this, calls `check`, and ends with `finish`.
pass=0 fail=0
check() { # check DESCRIPTION COMMAND...: passes when the command succeeds
  local what=$1; shift
  if "$@"; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $what" >&2; fi
}
# expect_fail DESCRIPTION CODE PATTERN COMMAND...: exits with CODE, one stderr line matching PATTERN
expect_fail() {
  local what=$1 code=$2 pat=$3; shift 3
  local err rc
  err=$("$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -ne "$code" ]; then fail=$((fail+1)); echo "FAIL: $what: exit $rc, want $code; stderr: $err" >&2; return; fi
  if [ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ]; then fail=$((fail+1)); echo "FAIL: $what: want one line, got: $err" >&2; return; fi
  if ! grep -qE -- "$pat" <<<"$err"; then fail=$((fail+1)); echo "FAIL: $what: '$err' does not match '$pat'" >&2; return; fi
  pass=$((pass+1))
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
