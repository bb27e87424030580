#!/bin/sh
# The browser of the dashboard tests: Debian's chromium, driven by Playwright's Python package
# (Playwright's own browser download is not used).  Installs it with apt-get when it is missing.
set -eu
BROWSER="${JUDGE_CHROMIUM:-/usr/bin/chromium}"
if [ -x "$BROWSER" ]; then
    echo "chromium: $BROWSER"
    exit 0
fi
if [ "$(id -u)" != "0" ]; then
    SUDO=sudo
else
    SUDO=
fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
echo "chromium: $(command -v chromium)"
