#!/usr/bin/env bash
# The scale-out tests (test/scale/) start Debian's redis-server on a loopback port of their own.
# On a fresh machine it is installed here, as scripts/ensure-chromium.sh installs Chromium; the
# tests run this script themselves when redis-server is missing.
set -euo pipefail
command -v redis-server >/dev/null 2>&1 && exit 0
if [ "$(id -u)" -ne 0 ]; then
  echo "statefold tests: Debian's redis-server is missing; install it with: sudo apt-get install redis-server" >&2
  exit 1
fi
echo "statefold tests: installing Debian's redis-server for the scale-out tests" >&2
apt-get update -qq
# Whether the package starts its own service or not, the tests use a server of their own.
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
