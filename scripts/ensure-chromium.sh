#!/usr/bin/env bash
# Browser tests use Debian's Chromium (Playwright's own download cannot work offline).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium for the browser tests…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  [ -x "$CHROMIUM" ] && exit 0
fi
cat >&2 <<MSG
Chromium is missing at $CHROMIUM and could not be installed here.
Install it with:   sudo apt-get install chromium      (Debian/Ubuntu)
or point CHROMIUM_PATH at a Chromium/Chrome binary, then run npm test again.
MSG
exit 1
