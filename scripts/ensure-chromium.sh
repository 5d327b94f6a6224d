#!/usr/bin/env bash
# The browser tests drive Debian's Chromium through playwright-core (never a downloaded browser).
# On a fresh machine it is installed here, so `npm test` works as the README says.
set -euo pipefail
command -v chromium >/dev/null 2>&1 && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "statefold tests: Debian's chromium is missing; install it with: sudo apt-get install chromium" >&2
  exit 1
fi
echo "statefold tests: installing Debian's chromium for the browser tests" >&2
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
