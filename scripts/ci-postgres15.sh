#!/usr/bin/env bash
# A throwaway cluster of Debian's PostgreSQL 15, for running the test suite against the older
# server versions that installations share with the legacy program (the embedded one is newer).
#
#   scripts/ci-postgres15.sh start DIR   initialise a cluster in the empty directory DIR, start it
#                                        on a free port on 127.0.0.1 and print its TEST_DATABASE_URL
#   scripts/ci-postgres15.sh stop DIR    stop it (if running) and remove DIR
#
# Needs the postgresql-15 package (.ci/run installs it). As root, the server runs as the
# `postgres` OS user, created when missing; otherwise as the calling user. PG15_SERVER_OPTIONS
# adds server settings (`-c wal_level=logical` for the replication tests' publisher).
set -euo pipefail

bin=${PG15_BIN:-/usr/lib/postgresql/15/bin}
command=${1:-}
dir=${2:-}
[ -n "$dir" ] || { echo "usage: $0 start|stop DIR" >&2; exit 2; }

as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$command" in
  start)
    [ -x "$bin/initdb" ] || { echo "$bin/initdb not found: apt-get install postgresql-15" >&2; exit 1; }
    if [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
      useradd --system --no-create-home --shell /usr/sbin/nologin postgres
    fi
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres: "$dir"; fi
    chmod 700 "$dir"
    password=$(node -e "process.stdout.write(require('node:crypto').randomBytes(18).toString('hex'))")
    port=$(node -e "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); })")
    as_owner sh -c "umask 077 && printf '%s\n' '$password' > '$dir/password'"
    as_owner "$bin/initdb" --pgdata="$dir/data" --username=postgres --pwfile="$dir/password" --auth=scram-sha-256 \
      --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 || { cat "$dir/initdb.log" >&2; exit 1; }
    # TCP on 127.0.0.1 only, no Unix socket; as many connections as the embedded test server
    # allows. fsync off: the cluster is thrown away after the run and never outlives a crash.
    as_owner "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --timeout=60 \
      -o "-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200 -c fsync=off ${PG15_SERVER_OPTIONS:-}" \
      start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres://postgres:$password@127.0.0.1:$port/postgres"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ]; then
      as_owner "$bin/pg_ctl" --pgdata="$dir/data" --mode=fast --wait stop >/dev/null || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
