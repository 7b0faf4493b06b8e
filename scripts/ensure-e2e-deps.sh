#!/usr/bin/env bash
# Everything the browser tests need from Debian: Chromium (scripts/ensure-chromium.sh), for
# the VNC view's tests a real VNC server: Xvfb (xvfb), x11vnc and xsetroot (x11-xserver-utils),
# and for the HTTPS deployment test a TLS-terminating reverse proxy: nginx, with openssl for its
# throwaway certificate; for the MQTT data source a real broker: mosquitto (ensure-mosquitto.sh).
set -euo pipefail
bash "$(dirname "$0")/ensure-chromium.sh"
bash "$(dirname "$0")/ensure-mosquitto.sh"
missing=()
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v x11vnc >/dev/null || missing+=(x11vnc)
command -v xsetroot >/dev/null || missing+=(x11-xserver-utils)
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null || missing+=(openssl)
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing ${missing[*]} for the VNC view's and the HTTPS proxy's browser tests…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  command -v Xvfb >/dev/null && command -v x11vnc >/dev/null && command -v xsetroot >/dev/null &&
    { command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; } && command -v openssl >/dev/null && exit 0
fi
cat >&2 <<MSG
The browser tests need ${missing[*]}, which could not be installed here.
Install them with:   sudo apt-get install xvfb x11vnc x11-xserver-utils nginx openssl      (Debian/Ubuntu)
then run npm test again.
MSG
exit 1
