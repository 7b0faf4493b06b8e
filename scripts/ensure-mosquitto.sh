#!/usr/bin/env bash
# The MQTT data-source tests (unit and browser) run Debian's mosquitto as a real broker on a
# spare port (tests/support/mosquitto.ts); only the binary is needed, not a running service.
set -euo pipefail
MOSQUITTO="${MOSQUITTO_BIN:-/usr/sbin/mosquitto}"
if [ -x "$MOSQUITTO" ]; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's mosquitto for the MQTT data-source tests…"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mosquitto >/dev/null
  [ -x "$MOSQUITTO" ] && exit 0
fi
cat >&2 <<MSG
mosquitto is missing at $MOSQUITTO and could not be installed here.
Install it with:   sudo apt-get install mosquitto      (Debian/Ubuntu)
or point MOSQUITTO_BIN at a mosquitto binary, then run npm test again.
MSG
exit 1
