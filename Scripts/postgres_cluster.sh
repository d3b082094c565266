#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests, from Debian's postgresql package: no system service.
#   Scripts/postgres_cluster.sh start DIR PORT   initdb (as the postgres user: initdb refuses root) and start
#   Scripts/postgres_cluster.sh stop DIR         stop it (the directory can then be deleted)
# The cluster trusts loopback connections; its URL is postgres://postgres@127.0.0.1:PORT/postgres.
set -euo pipefail
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "postgres_cluster: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; }
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
case "${1:-}" in
start)
  dir=$2 port=$3
  mkdir -p "$dir"
  if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
  as_postgres "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 >/dev/null
  as_postgres "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=on" -w start >/dev/null
  echo "postgres://postgres@127.0.0.1:$port/postgres"
  ;;
stop)
  as_postgres "$bin/pg_ctl" -D "$2/data" -m fast -w stop >/dev/null
  ;;
*)
  echo "usage: $0 start DIR PORT | stop DIR" >&2; exit 2 ;;
esac
