#!/usr/bin/env bash
# What the judge needs from Debian: the one list, used on the host (`make system-deps`) and in
# the image (the Dockerfile runs it in both of its stages).  Idempotent: only what is missing is
# installed (as root, or through sudo); nothing at all when everything is there.
#
#   bash scripts/system-deps.sh [runtime|build|all]      install (default: all)
#   bash scripts/system-deps.sh --list [runtime|build|all]   print the packages, one a line
#
#   runtime  the fonts the map pictures are drawn with (app/maps/png.py loads DejaVu Sans,
#            its bold from fonts-dejavu-core and its oblique, for sea names, from fonts-dejavu-extra)
#   build    a C compiler and the Python headers: mypyc compiles the engine
#            (tools/build_engine.py); python3-dev only when the Python that builds has no headers
#            of its own (the python:3.11 images have theirs)
set -euo pipefail

RUNTIME=(fonts-dejavu-core fonts-dejavu-extra)
BUILD=(gcc libc6-dev)

python_has_headers() {
    "${PYTHON:-python3}" - <<'EOF' 2>/dev/null
import os, sys, sysconfig
sys.exit(0 if os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")) else 1)
EOF
}

packages() {
    case "$1" in
        runtime) printf '%s\n' "${RUNTIME[@]}" ;;
        build)
            printf '%s\n' "${BUILD[@]}"
            python_has_headers || echo python3-dev ;;
        all) packages runtime; packages build ;;
        *) echo "usage: $0 [--list] [runtime|build|all]" >&2; exit 2 ;;
    esac
}

installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"
}

if [ "${1:-}" = "--list" ]; then
    packages "${2:-all}"
    exit 0
fi

wanted=$(packages "${1:-all}")
missing=()
for package in $wanted; do
    installed "$package" || missing+=("$package")
done
if [ "${#missing[@]}" -eq 0 ]; then
    exit 0
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
echo "system-deps: installing ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
