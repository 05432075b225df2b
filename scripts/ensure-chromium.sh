#!/usr/bin/env bash
# Browser tests drive Debian's Chromium; install it when it is missing and we are allowed to.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 || [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "Installing Debian's chromium for the browser tests..."
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
else
  echo "Chromium is missing: install Debian's 'chromium' package (or set CHROMIUM_PATH) to run the browser tests." >&2
  exit 1
fi
