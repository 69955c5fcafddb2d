#!/usr/bin/env bash
# test_install.sh SRC BUILD "COMMANDS": installing as a user and a packager would.
# - `cmake --install` with DESTDIR: the staged tree holds the program, libraries, headers, pkg-config
#   files, shaders, one man page per command (the commands `ikshade --help` lists, equal to CMake's
#   IKS_COMMANDS) and the bash completion; the Makefile passes DESTDIR and PREFIX on.
# - the .deb (cpack -G DEB, as `make deb`): read back with dpkg-deb (fields, dependencies, files), its
#   dependencies resolved by apt from Debian (apt-get install --simulate ./ikshade_*.deb), installed
#   as root, imported, removed and purged in a copy of this machine leaving nothing behind
#   (install_root.sh: an overlay over /, nothing reaches the real one), then unpacked into a throwaway
#   root (nothing installed on this machine) where, with the source tree's
#   shaders out of sight, `ikshade render -o out/%04d.png --frames 10` from another directory writes 10
#   PNGs, `man` finds and formats every page, and bash completion, loaded the way bash-completion
#   loads it, completes commands, options, values and files.
set -u
src=$(cd "$1" && pwd) build=$(cd "$2" && pwd) commands=$3
. "$src/tests/lib.sh"
png() { python3 "$src/tests/png.py" "$@"; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unset IKSHADE_SHADERS IKSHADE_LIB
bin=$build/ikshade
# the commands and their summaries, from the table `ikshade --help` prints
listed=$("$bin" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z0-9-]*\) .*/\1/p' | tr '\n' ' ' | sed 's/ $//')
check_eq "CMake's IKS_COMMANDS (the man pages made) are the commands ikshade --help lists" "$commands" "$listed"
# A sanitized build's programs run with the sanitizer's options, and without leak checks in the
# tools that only read help (man pages are made from them at build time the same way)
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"

# ---- DESTDIR: a staged install ----
stage=$tmp/stage
check "DESTDIR=... cmake --install --prefix /opt/iks" \
  bash -c 'DESTDIR="$1" cmake --install "$2" --prefix /opt/iks > "$3" 2>&1 || { cat "$3"; exit 1; }' _ "$stage" "$build" "$tmp/install.log"
p=$stage/opt/iks
check "staged: bin/ikshade" test -x "$p/bin/ikshade"
check "staged: libikshade.so.1 and libik.so.0" bash -c 'ls "$1"/lib*/libikshade.so.1 "$1"/lib*/libik.so.0 >/dev/null' _ "$p"
check "staged: headers, pkg-config, shaders" test -f "$p/include/ikshade/ikshade.h" -a -f "$p/share/ikshade/shaders/limb.frag"
check "staged: the bash completion" test -f "$p/share/bash-completion/completions/ikshade"
for c in "" $commands; do
  check "staged: man page ikshade${c:+-$c}.1.gz" test -f "$p/share/man/man1/ikshade${c:+-$c}.1.gz"
done
check_eq "nothing installed outside DESTDIR: the stage holds only opt/" "opt" "$(ls -A "$stage")"
# the Makefile's install passes both on (its recipe, printed by make -n, not run: it would build)
check "make -n install DESTDIR=/d PREFIX=/p runs cmake --install with both" \
  bash -c 'make -s -n -C "$1" install DESTDIR=/d PREFIX=/p BUILD="$2" 2>/dev/null | grep -q "DESTDIR=/d cmake --install $2 --prefix /p"' _ "$src" "$build"

# ---- the .deb ----
check "cpack -G DEB" bash -c 'cd "$1" && cpack -G DEB -B "$2/pkg" --config "$3/CPackConfig.cmake" > "$2/cpack.log" 2>&1 || { cat "$2/cpack.log"; exit 1; }' _ "$tmp" "$tmp" "$build"
deb=$(ls "$tmp"/pkg/ikshade_*.deb 2>/dev/null | head -n 1)
check "a .deb was made ($deb)" test -f "$deb"
[ -f "$deb" ] || { finish; exit 1; }
field() { dpkg-deb -f "$deb" "$1"; }
version=$("$bin" --version | awk '{print $2}')
check_eq "Package" "ikshade" "$(field Package)"
check_eq "Version is ikshade --version's" "$version" "$(field Version)"
check_eq "Architecture is this machine's" "$(dpkg --print-architecture)" "$(field Architecture)"
deps=$(field Depends)
for d in libc6 libcurl4 libasound2 libopenexr-3-1-30 libglfw3 libcjson1 libdeflate0 libpng16-16 libisal2 libegl1 libegl-mesa0 libgl1-mesa-dri; do
  check "Depends names $d (Depends: $deps)" grep -qE "(^|, )$d( |,|$)" <<<"$deps"
done
# what the README's commands after installing need: man (a minimal Debian has none), bash-completion
recs=$(field Recommends)
for r in man-db bash-completion python3; do
  check "Recommends names $r (Recommends: $recs)" grep -qE "(^|, )$r( |,|$)" <<<"$recs"
done
# the maintainer scripts that byte-compile and clean the Python package (run by install_root.sh below)
check "the .deb's postinst runs py3compile -p ikshade" bash -c 'dpkg-deb --ctrl-tarfile "$1" | tar -xO ./postinst | grep -q "py3compile -p ikshade"' _ "$deb"
check "the .deb's prerm runs py3clean -p ikshade" bash -c 'dpkg-deb --ctrl-tarfile "$1" | tar -xO ./prerm | grep -q "py3clean -p ikshade"' _ "$deb"
contents=$(dpkg-deb -c "$deb" | awk '{print $6}')
for f in ./usr/bin/ikshade ./usr/share/bash-completion/completions/ikshade ./usr/share/ikshade/shaders/ik.glsl \
         ./usr/include/ikshade/ikshade.h ./usr/share/man/man1/ikshade.1.gz; do
  check "the .deb holds $f" grep -qxF "$f" <<<"$contents"
done
check "the .deb holds nothing outside /usr" bash -c '! grep -v "^\./usr/\|^\./$" <<<"$1"' _ "$contents"
# apt resolves every dependency from the machine's Debian sources (a simulation: nothing changes)
sim=$(apt-get install --simulate --no-install-recommends "$deb" 2>&1); rc=$?
check_eq "apt-get install --simulate ./ikshade_*.deb: exit 0" "0" "$rc$( [ $rc = 0 ] || printf ': %s' "$(tail -n 3 <<<"$sim")")"
check "... and it would install ikshade $version" grep -q "^Inst ikshade (\?$version\| .*$version" <<<"$sim"

# ---- installed, imported as root, removed and purged: in a copy of this machine (install_root.sh) ----
if [ "$(id -u)" = 0 ]; then asroot=(unshare -m --propagation private)
elif sudo -n true 2>/dev/null; then asroot=(sudo -n unshare -m --propagation private)
else asroot=(); fi
if [ ${#asroot[@]} -eq 0 ]; then
  fail=$((fail + 1)); echo "FAIL: installing the .deb as root needs root or passwordless sudo (install_root.sh not run)" >&2
else
  pre=
  readelf -d "$build/libikshade.so" | grep -q 'NEEDED.*libasan' && pre=$(cc -print-file-name=libasan.so)
  "${asroot[@]}" bash "$src/tests/install_root.sh" "$src" "$deb" "$pre" > "$tmp/asroot.log" 2>&1
  grep '^FAIL' "$tmp/asroot.log" >&2
  counts=$(tail -n 1 "$tmp/asroot.log")
  if [[ $counts =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
    pass=$((pass + BASH_REMATCH[1])) fail=$((fail + BASH_REMATCH[2]))
  else
    fail=$((fail + 1)); echo "FAIL: install_root.sh did not finish: $(tail -n 3 "$tmp/asroot.log" | tr '\n' ' ')" >&2
  fi
fi

# ---- unpacked into a throwaway root ----
root=$tmp/root
check "dpkg-deb -x into a throwaway root" dpkg-deb -x "$deb" "$root"
R=$root/usr
mkdir -p "$tmp/empty" "$tmp/elsewhere"
# the source tree's shaders hidden (a private mount namespace) so only the package's can be used
if [ "$(id -u)" = 0 ]; then ns=(unshare -m); else ns=(unshare -r -m); fi
if "${ns[@]}" true 2>/dev/null; then
  hidden() { "${ns[@]}" bash -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' _ "$tmp/empty" "$src/shaders" "$@"; }
else
  echo "note: no mount namespace here (unshare); the source tree's shaders stay visible" >&2
  hidden() { "$@"; }
fi
check "from another directory: ikshade render -o out/%04d.png --frames 10 (the package's program)" \
  hidden bash -c 'cd "$1" && PATH="$2/bin:$PATH" ikshade render -o out/%04d.png --frames 10 --quiet' _ "$tmp/elsewhere" "$R"
check_eq "... 10 frames" "10" "$(ls "$tmp/elsewhere/out" 2>/dev/null | grep -c '^[0-9]\{4\}\.png$')"
check_eq "... frame 9: a 1280x720 RGB PNG" "1280 720 3" "$(png info "$tmp/elsewhere/out/0009.png" 2>&1)"
# the demos by name, from any directory: `ikshade demos` lists what the package holds, and each
# command's --help examples run as printed (import's need the site and a key, a bare `ikshade devices`
# a sound server to ask; view's run under Xvfb for 5 frames, a missing capture device is a line)
demos=$(hidden bash -c 'cd "$1" && PATH="$2/bin:$PATH" ikshade demos --paths' _ "$tmp/elsewhere" "$R" 2>&1)
for d in limb creature feedback dirtoy cube trails busy sound; do
  check "ikshade demos --paths: $d is in the package ($(grep "^$d " <<<"$demos"))" grep -qE "^$d +$R/share/ikshade/" <<<"$demos"
done
mkdir -p "$tmp/ex"
for c in $commands; do
  [ "$c" = import ] && continue
  "$bin" "$c" --help | sed -n '/^examples\{0,1\}:$/,/^$/p' | sed -n 's/^  \([a-z].*\)/\1/p; /^      /p' |
    sed -e ':a' -e '/\\$/N; s/\\\n *//; ta' | sed 's/  *#.*$//' > "$tmp/ex/$c.txt"
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    [ "$line" = "ikshade devices" ] && continue
    run=$(sed 's/^ikshade view\b/ikshade view --frames 5/' <<<"$line")
    case $line in "ikshade view"*) x=xvfb_exec ;; *) x= ;; esac
    rm -rf "$tmp/ex/dir" && mkdir "$tmp/ex/dir"
    hidden bash -c 'cd "$1" && export PATH="$2/bin:$PATH" && '"$(declare -f xvfb_exec)"' && '"$x"' bash -c "$3"' \
      _ "$tmp/ex/dir" "$R" "$run" > "$tmp/ex/out" 2>&1 </dev/null
    rc=$?
    check "ikshade $c --help's example, from an empty directory: $line (exit $rc: $(tail -n 2 "$tmp/ex/out" | tr '\n' ' '))" [ $rc -eq 0 ]
  done < "$tmp/ex/$c.txt"
done
check_eq "the examples of render, view, solve and demos were found" "4" \
  "$(for c in render view solve demos; do [ -s "$tmp/ex/$c.txt" ] && echo "$c"; done | wc -l)"
# the Python package the .deb ships, used from the unpacked root: a snapshot of the default toy
check "the .deb holds the Python package with its generated layout" \
  grep -qxF ./usr/lib/python3/dist-packages/ikshade/_layout.py <<<"$contents"
pre=
readelf -d "$build/libikshade.so" | grep -q 'NEEDED.*libasan' && pre=$(cc -print-file-name=libasan.so)
pyout=$(hidden bash -c 'cd "$1" && LD_PRELOAD="$3" PYTHONPATH="$2/lib/python3/dist-packages" IKSHADE_LIB="$2/lib/libikshade.so.1" /usr/bin/python3 -c "
import ikshade
a = ikshade.Toy(\"\", size=(64, 36)).snapshot(time=1.5)
print(ikshade.__file__.startswith(\"$2/\"), a.shape)"' _ "$tmp/elsewhere" "$R" "$pre" 2>&1 |
  grep -v "^==[0-9]*==WARNING: ASan doesn't fully support makecontext")
check_eq "python3 -c 'import ikshade' from the package's files: the limb demo, (36, 64, 4)" "True (36, 64, 4)" "$pyout"
lib=$(ldd "$R/bin/ikshade" | sed -n 's/.*libikshade.so.1 => \([^ ]*\) .*/\1/p')
check_eq "... the package's program loads the package's library (through its RUNPATH)" \
  "$R/lib/libikshade.so.1" "$( [ -n "$lib" ] && readlink -m "$lib" | sed 's/\.1\.[0-9.]*$/.1/')"

# ---- man: every page found through MANPATH and formatted; each says what its --help says ----
export MANPATH=$R/share/man MANWIDTH=200
for c in "" $commands; do
  page=ikshade${c:+-$c}
  check "man -w $page finds the package's page" bash -c '[ "$(man -w "$1")" = "$2" ]' _ "$page" "$R/share/man/man1/$page.1.gz"
done
for c in $commands; do
  text=$(man -P cat "ikshade-$c" 2>/dev/null)
  summary=$("$bin" --help | sed -n "s/^  $c  *//p")
  check "man ikshade-$c: NAME is the summary --help gives ('$summary')" grep -qF "ikshade-$c - $summary" <<<"$text"
  for o in $("$bin" "$c" --help | sed -n 's/^  \(--[a-z][-a-z0-9]*\).*/\1/p'); do
    check "man ikshade-$c documents $o" grep -qe "$o" <<<"$text"
  done
done
# the help's examples are the page's EXAMPLES, one command a line (not run together into a paragraph)
for c in render view demos; do
  want=$("$bin" "$c" --help | sed -n '/^examples\{0,1\}:$/,/^$/p' | grep -c "^  ikshade $c")
  got=$(man -P cat "ikshade-$c" 2>/dev/null | sed -n '/^EXAMPLES/,/^SEE ALSO/p' | grep -c "^ *ikshade $c\b")
  check_eq "man ikshade-$c: EXAMPLES has its $want examples on lines of their own" "$want" "$got"
done
text=$(man -P cat ikshade 2>/dev/null)
# each command with its summary on its own line, the summaries in one column (as --help sets them)
for c in $commands; do
  summary=$("$bin" --help | sed -n "s/^  $c  *//p")
  check "man ikshade lists $c with its summary beside it" grep -qE "^ +$c +$(sed 's/[][().*^$|+?{}\\]/\\&/g' <<<"$summary")$" <<<"$text"
done
check_eq "man ikshade: the command summaries start in one column" "1" \
  "$(for c in $commands; do grep -E "^ +$c  " <<<"$text" | awk '{ match($0, /^ +[a-z][a-z0-9-]* +/); print RLENGTH }'; done | sort -u | wc -l)"
unset MANPATH MANWIDTH

# ---- bash completion, loaded on demand as bash-completion does (from XDG_DATA_DIRS) ----
if [ ! -f /usr/share/bash-completion/bash_completion ]; then
  fail=$((fail + 1)); echo "FAIL: bash-completion is not installed (apt-get install bash-completion)" >&2
else
  mkdir -p "$tmp/files/sub" && touch "$tmp/files/toy.json" "$tmp/files/a.frag" "$tmp/files/notes.txt"
  comp() { # WORDS...: what Tab offers after them (the last word is the one completed), one line
    (cd "$tmp/files" && PATH="$R/bin:$PATH" XDG_DATA_DIRS="$R/share" bash --norc --noprofile -c '
      . /usr/share/bash-completion/bash_completion
      __load_completion ikshade || { echo "no completion loaded"; exit 1; }
      COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
      $(complete -p ikshade | sed "s/.*-F \([^ ]*\) .*/\1/") ikshade "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
      printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' _ "$@")
  }
  spec=$(cd "$tmp" && PATH="$R/bin:$PATH" XDG_DATA_DIRS="$R/share" bash --norc --noprofile -i -c \
    '. /usr/share/bash-completion/bash_completion; __load_completion ikshade; complete -p ikshade' 2>/dev/null)
  check_eq "bash -i: complete -p ikshade (loaded from the package)" "complete -F _ikshade ikshade" "$spec"
  check_eq "ikshade <Tab>: the commands" "bench check completion demos devices help import info render solve view " "$(comp ikshade '' | sed 's/--[a-z]* //g')"
  check_eq "ikshade re<Tab>" "render " "$(comp ikshade re)"
  # render's own help says which of its options start with --s (--set, --size, --ssaa, --seconds, ...)
  want_s=$(PATH="$R/bin:$PATH" ikshade render --help | grep -oE -- '(^| )--s[a-z-]+' | tr -d ' ' | sort -u | tr '\n' ' ')
  check "render's help names --set, --size and --ssaa ($want_s)" grep -q -- "--set --size --ssaa" <<<"$(tr ' ' '\n' <<<"$want_s" | grep -E -- '--(set|size|ssaa)$' | tr '\n' ' ')"
  check_eq "ikshade render --s<Tab>: render's options, as its help lists them" "$want_s" "$(comp ikshade render --s)"
  check_eq "ikshade import --<Tab>" "--base-url --help --key --output --quiet --timeout " "$(comp ikshade import --)"
  check_eq "ikshade render --glsl <Tab>" "330 auto es " "$(comp ikshade render --glsl '')"
  check_eq "ikshade bench <Tab>: its subcommands" "embed gpu render solver " "$(comp ikshade bench '')"
  check_eq "ikshade render <Tab>: shaders, JSONs, directories and the demos" "a.frag busy creature cube dirtoy feedback limb sound sub toy.json trails " "$(comp ikshade render '')"
  check_eq "ikshade view cr<Tab>: a demo" "creature " "$(comp ikshade view cr)"
  check_eq "ikshade render -o <Tab>: any file" "a.frag notes.txt sub toy.json " "$(comp ikshade render -o '')"
fi
finish
