#!/usr/bin/env bash
# gen-man.sh IKSHADE OUTDIR VERSION: the man pages, made by help2man from the text `--help` prints (the
# command table in src/cli/main.c and each command's help), so the pages cannot say other than the
# program: ikshade.1 from `ikshade --help`, and ikshade-CMD.1 from `ikshade CMD --help` for every
# command that `ikshade --help` lists. Writes gzipped pages, each through a temporary and a rename.
set -euo pipefail
bin=$1 out=$2 version=$3
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# the commands and their one-line summaries, from the same table the help prints
mapfile -t rows < <("$bin" --help | sed -n '/^commands:/,/^$/{/^  [a-z]/p}')
[ ${#rows[@]} -gt 0 ] || { echo "gen-man.sh: '$bin --help' lists no commands" >&2; exit 1; }
names=(ikshade)
width=0
for r in "${rows[@]}"; do read -r c _ <<<"$r"; names+=("ikshade-$c"); [ ${#c} -gt $width ] && width=${#c}; done
page() { # NAME DESCRIPTION ARGS...: one page from `$bin ARGS... --help`
  local name=$1 desc=$2; shift 2
  # help2man takes the synopsis from a line beginning "Usage:"; ours say "usage:", as git's do
  # The help's "examples:" block becomes the page's EXAMPLES section, one command a line, indented
  # and not filled (help2man would run them together into one paragraph)
  printf '#!/bin/sh\n[ "$1" = --version ] && { echo "%s %s"; exit 0; }\n"%s" %s "$@" | sed "1s/^usage:/Usage:/; /^examples\\{0,1\\}:\$/,/^\$/d"\n' \
    "$name" "$version" "$bin" "$*" > "$tmp/$name"
  chmod +x "$tmp/$name"
  local ex
  ex=$("$bin" "$@" --help | sed -n '/^examples\{0,1\}:$/,/^$/{/^examples\{0,1\}:$/d;/^$/d;s/^  //;p}')
  { if [ -n "$ex" ]; then
      printf '[EXAMPLES]\n.nf\n.RS 2\n'
      sed 's/\\/\\e/g; s/^[.'"'"']/\\\&&/' <<<"$ex"
      printf '.RE\n.fi\n'
    fi
    echo '[SEE ALSO]'
    local first=1 n
    for n in "${names[@]}"; do
      [ "$n" = "$name" ] && continue
      [ $first = 1 ] || echo ','
      printf '.BR %s (1)' "$n"; first=0
    done
    echo; } > "$tmp/$name.h2m"
  help2man --no-info --no-discard-stderr --section=1 --source="ikshade $version" --manual="ikshade manual" \
    --name="$desc" --include="$tmp/$name.h2m" --output="$tmp/$name.1" "$tmp/$name"
  # the wrapper's temporary path is not the program's name
  sed -i "s|$tmp/||g" "$tmp/$name.1"
  # the command list as --help sets it, each summary beside its name, without a blank line between
  # rows: .TP's default indent is narrower than the longest name, which would push that one summary
  # to a line of its own; the lines after the list (ikshade help ...) keep help2man's layout
  sed -i '/^\.SS "commands:"$/,/^\.S[SH]/{
/^\.SS "commands:"$/a .PD 0
/^\.TP$/{N;s/^\.TP\n\([a-z][a-z0-9-]*\)$/.TP '"$((width + 2))"'\n\1/;s/^\.TP\nikshade /.PD\n.TP\nikshade /}
}' "$tmp/$name.1"
  gzip -9n < "$tmp/$name.1" > "$out/.$name.1.gz.tmp"
  mv -f "$out/.$name.1.gz.tmp" "$out/$name.1.gz"
}
page ikshade "a Shadertoy-style GLSL runner built around analytic two-bone IK"
for r in "${rows[@]}"; do
  read -r c summary <<<"$r"
  page "ikshade-$c" "$summary" "$c"
done
