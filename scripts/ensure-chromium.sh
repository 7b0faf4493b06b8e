#!/usr/bin/env bash
# Browser tests use Debian's Chromium (Playwright's own download cannot work offline), in its
# headless build, chromium-headless-shell: the same engine without the desktop browser around it,
# as Playwright's own headless runs use — it costs the test suite about 30 % less CPU and wall
# time than the full `chromium` on this machine size (issue 25; measured in bench/RESULTS.md).
set -euo pipefail
CHROMIUM="${CHROMIUM_PATH:-/usr/bin/chromium-headless-shell}"
if [ -x "$CHROMIUM" ]; then exit 0; fi
if [ -z "${CHROMIUM_PATH:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's chromium-headless-shell for the browser tests…"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium-headless-shell >/dev/null; } || true
  [ -x "$CHROMIUM" ] && exit 0
fi
# Without it (no root, no apt), the full chromium works too, only slower (playwright.config.ts falls back to it).
if [ -z "${CHROMIUM_PATH:-}" ] && [ -x /usr/bin/chromium ]; then
  echo "chromium-headless-shell is missing: the browser tests use /usr/bin/chromium (about 30 % slower)." >&2
  exit 0
fi
cat >&2 <<MSG
Chromium is missing at $CHROMIUM and could not be installed here.
Install it with:   sudo apt-get install chromium-headless-shell      (Debian/Ubuntu)
or point CHROMIUM_PATH at a Chromium/Chrome binary, then run npm test again.
MSG
exit 1
