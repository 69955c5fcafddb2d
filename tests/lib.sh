# lib.sh: helpers for the shell tests. Each test sources this, calls `check`, and ends with `finish`.
# No test reads the terminal: a program run under `timeout` (its own process group, in the background)
# that touches a terminal on its standard input, as ffmpeg does, is stopped by SIGTTOU and never ends.
exec </dev/null
pass=0 fail=0
# check DESCRIPTION COMMAND...: passes when the command succeeds. A failure prints the command with its
# arguments expanded, so `check "size" [ "$(png info a.png)" = "160 90 3" ]` shows what was got
# (left) against what was expected (right).
check() {
  local what=$1; shift
  if "$@"; then pass=$((pass+1)); else
    fail=$((fail+1))
    if [ "$1" = "[" ] || [ "$1" = test ]; then echo "FAIL: $what: got/expected: ${*:2}" >&2
    else
      echo "FAIL: $what: this failed: $(printf '%q ' "$@")" >&2
      # a grep on a file: show the start of what it searched
      if [ "$1" = grep ] && [ -f "${!#}" ]; then echo "  ${!#} holds:" >&2; head -n 5 "${!#}" | sed 's/^/    /' >&2; fi
    fi
    # so that `check ... || explain` can add what the failure needs to be understood
    return 1
  fi
}
# check_eq DESCRIPTION EXPECTED GOT: passes when the two strings are equal; prints both when not
check_eq() {
  if [ "$2" = "$3" ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL: $1: expected '$2', got '$3'" >&2; return 1; fi
}
# px_near GOT EXPECTED: whether rendered pixels ("R G B", as png.py pixel prints them; several may be
# joined by newlines or by words such as " / ") are equal within 1 in each channel; a word that is not a number must
# be equal. A shader's float becomes 8 bits by rounding v * 255, and GL leaves a tie to the driver:
# 0.5 -> 127.5 is 128 on llvmpipe and 127 on NVIDIA. Tests compare with this where v * 255 is not a whole
# number; where it is by construction (a count k/255, a texel's byte passed through, 0 or 1) and where
# two files come from the same driver they stay exact, and within 1 is no looser than GL allows.
px_near() {
  local -a got want
  read -ra got -d '' <<<"$1"
  read -ra want -d '' <<<"$2"
  [ "${#got[@]}" -eq "${#want[@]}" ] && [ "${#want[@]}" -gt 0 ] || return 1
  local i d
  for i in "${!want[@]}"; do
    if [[ ${got[i]} =~ ^[0-9]+$ && ${want[i]} =~ ^[0-9]+$ ]]; then
      d=$((10#${got[i]} - 10#${want[i]}))
      [ "${d#-}" -le 1 ] || return 1
    elif [ "${got[i]}" != "${want[i]}" ]; then return 1
    fi
  done
}
# check_px DESCRIPTION EXPECTED GOT: check_eq for rendered pixels, within 1 per channel (px_near)
check_px() {
  if px_near "$3" "$2"; then pass=$((pass+1)); else
    fail=$((fail+1)); echo "FAIL: $1: expected '$2' (each channel within 1), got '$3'" >&2; return 1
  fi
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
rows=0
# bad CODE PATTERN CMD...: one row of a bad-input matrix, run in the empty directory $w under a time limit
# of $TIMEOUT s (both set by the caller): the exit code, exactly one stderr line matching PATTERN, no
# signal, no hang, nothing left in $w. stdin is empty unless the command pipes its own.
bad() {
  local code=$1 pat=$2; shift 2
  rows=$((rows + 1))
  local err rc left
  err=$(cd "$w" && timeout -s KILL "$TIMEOUT" "$@" 2>&1 >/dev/null </dev/null); rc=$?
  left=$(ls -A "$w")
  if [ $rc -eq 137 ]; then fail=$((fail + 1)); echo "FAIL: [$*]: hung (killed after ${TIMEOUT}s)" >&2
  elif [ $rc -gt 128 ]; then fail=$((fail + 1)); echo "FAIL: [$*]: died of signal $((rc - 128))" >&2
  elif [ $rc -ne "$code" ]; then fail=$((fail + 1)); echo "FAIL: [$*]: exit $rc, want $code: $err" >&2
  elif [ "$(printf '%s\n' "$err" | grep -c .)" -ne 1 ]; then fail=$((fail + 1)); echo "FAIL: [$*]: want one line, got: $err" >&2
  elif ! grep -qE -- "$pat" <<<"$err"; then fail=$((fail + 1)); echo "FAIL: [$*]: '$err' does not match '$pat'" >&2
  elif [ -n "$left" ]; then fail=$((fail + 1)); echo "FAIL: [$*]: left files behind: $left" >&2
  else pass=$((pass + 1))
  fi
  rm -rf "${w:?}"/* "$w"/.[!.]* 2>/dev/null
}
finish() { echo "$pass passed, $fail failed"; [ "$fail" -eq 0 ]; }
# xvfb_exec CMD...: runs CMD with DISPLAY set to a fresh Xvfb (1280x1024x24) that picks its own free
# display number (-displayfd), so parallel test runs never race for one as `xvfb-run -a` can.
xvfb_exec() {
  local fifo dir pid disp rc
  dir=$(mktemp -d); fifo=$dir/fd
  mkfifo "$fifo"
  # -noreset: by default the server resets when its last client leaves, and a client connecting
  # during that reset (the next viewer, under load) is refused
  Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset 3>"$fifo" >/dev/null 2>&1 & pid=$!
  read -r -t 20 disp <"$fifo"
  rm -rf "$dir"
  if [ -z "$disp" ]; then kill "$pid" 2>/dev/null; echo "xvfb_exec: Xvfb did not start" >&2; return 1; fi
  DISPLAY=":$disp" "$@"; rc=$?
  kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  return $rc
}
