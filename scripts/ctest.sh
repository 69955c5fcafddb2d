#!/usr/bin/env bash
# ctest.sh BUILD NAME [CTEST ARGS...]: runs a build's tests for `make test` and `make check`, on every
# core, each with /dev/null as its standard input (a test that runs ffmpeg or a viewer under `timeout`
# from a terminal would otherwise be stopped by SIGTTOU and wait for ever). Prints one line per test as
# ctest does; the whole output of every test goes to BUILD/logs/NAME.xml (JUnit) and NAME.log, and each
# failing test is named at the end with its FAIL lines and the last IKS_TEST_TAIL (40) lines of its
# output.
set -uo pipefail
build=$1 name=$2; shift 2
logs=$build/logs
mkdir -p "$logs"
junit=$(cd "$logs" && pwd)/$name.xml
# what a -LE leaves out is said, in one line, before the run: a suite run without some tests must not
# read as the whole suite (two -LE are one: ctest would keep the last)
names() { ctest --test-dir "$build" -N "$@" | sed -n 's/^ *Test *#[0-9]*: //p' | sort; }
keep=() le=
while [ $# -gt 0 ]; do
  if [ "$1" = -LE ] && [ $# -ge 2 ]; then le=${le:+$le|}$2; shift 2; else keep+=("$1"); shift; fi
done
if [ -n "$le" ]; then
  out=$(comm -23 <(names "${keep[@]}") <(names "${keep[@]}" -LE "$le") | tr '\n' ' ' | sed 's/ $//')
  echo "$name: left out $(wc -w <<<"$out") test(s) labelled '$le'${out:+: $out}"
  set -- "${keep[@]}" -LE "$le"
else
  set -- "${keep[@]}"
fi
rm -f "$junit"
ctest --test-dir "$build" -j "${JOBS:-$(nproc 2>/dev/null || echo 2)}" --output-junit "$junit" \
  --test-output-size-passed 65536 --test-output-size-failed 8388608 "$@" </dev/null
rc=$?
# the JUnit file holds every test's output: written out as BUILD/logs/NAME.log, and the failures shown
python3 - "$junit" "$logs/$name.log" "${IKS_TEST_TAIL:-40}" "$rc" <<'PY' >&2
import sys, xml.etree.ElementTree as ET
junit, logname, ntail, rc = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
try:
    root = ET.parse(junit).getroot()
except (OSError, ET.ParseError) as e:
    if rc:
        print(f"(no test report: {e})")
    sys.exit(0)
with open(logname, 'w') as log:
    for tc in root.iter('testcase'):
        st = tc.get('status', '')
        out = (tc.findtext('system-out') or '').rstrip().split('\n')
        log.write(f"==== {tc.get('name')}: {st} ({tc.get('time', '?')} s)\n" + '\n'.join(out) + '\n\n')
        fl = tc.find('failure')
        if fl is None and st in ('run', 'notrun', 'disabled'):
            continue
        tail = out[-ntail:]
        # a test's FAIL lines may come long before its end: they first, then its last lines
        fails = [l for l in out[:-len(tail)] if l.startswith('FAIL')][:40]
        why = fl.get('message', '') if fl is not None else st
        print(f"\n== {tc.get('name')}: {why or 'failed'} (its whole output: {logname})")
        for line in fails + (['...'] if fails else []) + tail:
            print('   ' + line)
PY
exit $rc
