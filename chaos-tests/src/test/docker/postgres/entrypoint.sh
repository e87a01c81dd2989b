#!/bin/sh
# First start: a fresh cluster (superuser berth, trust) that accepts TCP only from BERTH_PG_TRUST_CIDR.
# Durability is traded for speed (fsync off): the drills kill managers, never this database.
set -e
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  initdb --no-sync -D "$PGDATA" -U berth --auth=trust --locale=C -E UTF8 >/tmp/initdb.log 2>&1 || { cat /tmp/initdb.log; exit 1; }
  if [ -n "${BERTH_PG_TRUST_CIDR:-}" ]; then
    echo "host all all $BERTH_PG_TRUST_CIDR trust" >> "$PGDATA/pg_hba.conf"
  fi
fi
exec postgres -D "$PGDATA" -c listen_addresses='*' -c unix_socket_directories=/var/run/postgresql \
  -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100 -c shared_buffers=32MB
