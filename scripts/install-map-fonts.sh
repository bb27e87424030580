#!/usr/bin/env bash
# The font the map pictures are drawn with (app/maps/png.py loads it explicitly):
# Debian's fonts-dejavu-core. Idempotent; run as root (or through sudo) on a fresh machine.
set -euo pipefail
if [ -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq fonts-dejavu-core >/dev/null
