#!/usr/bin/env bash
# Starts a private PostgreSQL for the tests (start) or stops it (stop). PostgreSQL refuses to run as root, so
# it runs as the `postgres` user, on a private data directory and port. Prints the URL on start.
set -euo pipefail
PGPORT="${PLUMBLINE_PG_PORT:-54329}"
PGDATA_DIR="${PLUMBLINE_PG_DIR:-/tmp/plumbline-pg}"

pg_bin() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  ls /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -n 1
}

case "${1:-start}" in
  start)
    if [ -z "$(pg_bin pg_ctl)" ]; then
      apt-get update -qq
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    fi
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    PG_CTL="$(pg_bin pg_ctl)"; INITDB="$(pg_bin initdb)"
    rm -rf "$PGDATA_DIR" && mkdir -p "$PGDATA_DIR" && chown postgres "$PGDATA_DIR"
    runuser -u postgres -- "$INITDB" -D "$PGDATA_DIR" -U postgres --auth=trust >/dev/null
    runuser -u postgres -- "$PG_CTL" -D "$PGDATA_DIR" -l "$PGDATA_DIR/log" -w \
      -o "-p $PGPORT -k $PGDATA_DIR -c listen_addresses=127.0.0.1" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$PGPORT/postgres"
    ;;
  stop)
    PG_CTL="$(pg_bin pg_ctl)"
    [ -d "$PGDATA_DIR" ] && runuser -u postgres -- "$PG_CTL" -D "$PGDATA_DIR" -m fast -w stop >/dev/null || true
    ;;
esac
