#!/bin/sh
# The compose profile `cluster`: the primary lets the replica stream from it (runs once, when
# the postgres image initialises its data folder).
set -e
echo "host replication ${POSTGRES_USER} all scram-sha-256" >> "$PGDATA/pg_hba.conf"
