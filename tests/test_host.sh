#!/usr/bin/env bash
# test_host.sh TEST_HOST: the host contract's test (test_host.c) under a fresh Xvfb, since the host is a
# program with its own GLFW window and GLX context.
set -u
. "$(dirname "$0")/lib.sh"
if ! command -v Xvfb >/dev/null; then echo "Xvfb is not installed (scripts/deps.sh installs xvfb)" >&2; exit 1; fi
xvfb_exec "$1"
