#!/usr/bin/env bash
# install_root.sh SRC DEB [PRELOAD]: the .deb installed, used and removed as root would, in a throwaway copy of
# this machine: an overlay over / whose changes go to a tmpfs, in a private mount namespace (run under
# `unshare -m`; nothing reaches the real /). dpkg -i, root's `import ikshade` (which would write
# bytecode where dpkg cannot see it, but for postinst's py3compile and prerm's py3clean), then
# apt-get remove and apt-get purge: after each, none of the package's paths, no __pycache__/, and
# `import ikshade` a ModuleNotFoundError (not an empty namespace package); after purge, dpkg has no
# record of it and the copy holds no file whose name says ikshade. PRELOAD: the ASan runtime, which a
# sanitized build's library needs first in Python's process (without leak checks: Python's own).
set -u
src=$1 deb=$2 preload=${3:-}
. "$src/tests/lib.sh"
t=$(mktemp -d)
mount -t tmpfs tmpfs "$t" && mkdir -p "$t/upper" "$t/work" "$t/root" &&
  mount -t overlay overlay -o "lowerdir=/,upperdir=$t/upper,workdir=$t/work" "$t/root" &&
  mount -t proc proc "$t/root/proc" && mount --rbind /dev "$t/root/dev" && mount -t tmpfs tmpfs "$t/root/tmp" ||
  { echo "FAIL: no overlay of / to install into (mount: tmpfs, overlay); nothing was installed" >&2; exit 1; }
cp "$deb" "$t/root/tmp/ikshade.deb"
in_root() { chroot "$t/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
py=/usr/lib/python3/dist-packages/ikshade
check_eq "the copy of / has no ikshade installed to begin with" "" "$(in_root dpkg-query -W -f='${db:Status-Status}' ikshade 2>/dev/null)"
out=$(in_root dpkg -i /tmp/ikshade.deb 2>&1); rc=$?
check_eq "dpkg -i ikshade_*.deb as root: exit 0 ($(tail -n 2 <<<"$out" | tr '\n' ' '))" 0 "$rc"
files=$(in_root dpkg -L ikshade | grep -v '^/\.$')
check "... its files are there (/usr/bin/ikshade, $py/__init__.py)" bash -c '[ -x "$1/usr/bin/ikshade" ] && [ -f "$1'"$py"'/__init__.py" ]' _ "$t/root"
# postinst compiled every module, so that the bytecode is Debian's to remove
for m in $(cd "$t/root$py" && ls *.py); do
  check "postinst byte-compiled $m (py3compile)" bash -c 'ls "$1"/__pycache__/"${2%.py}".cpython-*.pyc >/dev/null 2>&1' _ "$t/root$py" "$m"
done
uses() { # what root's python3 makes of the package, from another directory: the README's line
  in_root sh -c 'cd /tmp && ${1:+env LD_PRELOAD="$1" ASAN_OPTIONS=detect_leaks=0} python3 -c "
import ikshade
print(ikshade.__file__, ikshade.Toy(\"creature\").snapshot().shape)" 2>&1 | grep -v "WARNING: ASan doesn.t fully support makecontext" | tail -n 1' _ "$preload"
}
check_eq "as root, the README's python3 -c 'import ikshade; ikshade.Toy(\"creature\").snapshot()': the package's, (360, 640, 4)" \
  "$py/__init__.py (360, 640, 4)" "$(uses)"
# the pyc of a Python newer than the default, as root's import under it would leave (py3clean takes
# every version's)
touch "$t/root$py/__pycache__/__init__.cpython-399.pyc"
gone() { # PHASE: none of the package's paths left, nor its bytecode, and the import fails as for none
  local left
  # (directories the package shares, /usr/bin and the like, stay; its own have ikshade in their path)
  left=$(while IFS= read -r f; do
           [ -e "$t/root$f" ] && { [ ! -d "$t/root$f" ] || [[ $f == *ikshade* ]]; } && echo "$f"; done <<<"$files")
  check_eq "after $1: none of the package's files left" "" "$left"
  check "after $1: no $py (no __pycache__/ left in it)" test ! -e "$t/root$py"
  check_eq "after $1: import ikshade is a ModuleNotFoundError, not an empty namespace" \
    "ModuleNotFoundError: No module named 'ikshade'" "$(uses)"
}
out=$(in_root apt-get remove -y ikshade 2>&1); rc=$?
check_eq "apt-get remove ikshade: exit 0 ($(grep -i 'warning\|error' <<<"$out" | head -n 2 | tr '\n' ' '))" 0 "$rc"
check_eq "... and dpkg said nothing of a directory it could not remove" "" "$(tr '\r' '\n' <<<"$out" | grep "not empty so not removed")"
gone "apt-get remove"
# again, and purged
in_root dpkg -i /tmp/ikshade.deb > /dev/null 2>&1
check_eq "reinstalled and imported as root" "$py/__init__.py (360, 640, 4)" "$(uses)"
out=$(in_root apt-get purge -y ikshade 2>&1); rc=$?
check_eq "apt-get purge ikshade: exit 0" 0 "$rc"
check_eq "... and dpkg said nothing of a directory it could not remove" "" "$(tr '\r' '\n' <<<"$out" | grep "not empty so not removed")"
gone "apt-get purge"
check_eq "after purge dpkg has no record of ikshade" "" "$(in_root dpkg-query -W -f='${db:Status-Status}' ikshade 2>/dev/null)"
check_eq "after purge no file or directory of the copy's changes is named for ikshade" "" \
  "$(cd "$t/upper" && find . -name '*ikshade*' | head -n 5)"
finish
