#!/usr/bin/env bash
# Everything the browser tests need from Debian: Chromium (scripts/ensure-chromium.sh) and, for
# the VNC view's tests, a real VNC server: Xvfb (xvfb), x11vnc and xsetroot (x11-xserver-utils).
set -euo pipefail
bash "$(dirname "$0")/ensure-chromium.sh"
missing=()
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v x11vnc >/dev/null || missing+=(x11vnc)
command -v xsetroot >/dev/null || missing+=(x11-xserver-utils)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing ${missing[*]} for the VNC view's browser tests…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  command -v Xvfb >/dev/null && command -v x11vnc >/dev/null && command -v xsetroot >/dev/null && exit 0
fi
cat >&2 <<MSG
The VNC view's browser tests need ${missing[*]}, which could not be installed here.
Install them with:   sudo apt-get install xvfb x11vnc x11-xserver-utils      (Debian/Ubuntu)
then run npm test again.
MSG
exit 1
