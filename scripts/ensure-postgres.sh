#!/usr/bin/env bash
# The PostgreSQL store's tests and benchmarks (issue 17) start a throwaway server of their own
# (tests/support/postgres.ts: initdb in a temporary folder, a spare port); only Debian's server
# binaries are needed, not a running service.
set -euo pipefail
have_binaries() {
  local bin
  if [ -n "${PG_BIN:-}" ]; then
    [ -x "$PG_BIN/initdb" ] && [ -x "$PG_BIN/pg_ctl" ] && [ -x "$PG_BIN/postgres" ]
    return
  fi
  for bin in /usr/lib/postgresql/*/bin; do
    [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] && [ -x "$bin/postgres" ] && return 0
  done
  return 1
}
if have_binaries; then exit 0; fi
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "Installing Debian's postgresql for the PostgreSQL store tests…"
  # The package starts a cluster of its own as a service; the tests never use it.
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  have_binaries && exit 0
fi
cat >&2 <<MSG
PostgreSQL's server binaries (initdb, pg_ctl, postgres) are missing in /usr/lib/postgresql/*/bin
and could not be installed here.
Install them with:   sudo apt-get install postgresql      (Debian/Ubuntu)
or point PG_BIN at a folder holding them, then run npm test again.
MSG
exit 1
