#!/usr/bin/env bash
# Installs (if needed) and starts Debian's PostgreSQL for the multi-instance tests, then
# prints the DATABASE_URL to use. Idempotent: safe to run when the server already runs.
set -euo pipefail

if ! command -v pg_ctlcluster >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi

version=$(ls /usr/lib/postgresql | sort -n | tail -n 1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -q "^${version} main$"; then
  pg_createcluster "$version" main >/dev/null
fi
if ! pg_lsclusters -h | awk '$1=="'"$version"'" && $2=="main" {print $4}' | grep -q online; then
  pg_ctlcluster "$version" main start
fi

port=$(pg_lsclusters -h | awk '$1=="'"$version"'" && $2=="main" {print $3}')
for _ in $(seq 1 30); do
  if su postgres -c "psql -p $port -tAc 'select 1'" >/dev/null 2>&1; then break; fi
  sleep 1
done

su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -q" >/dev/null <<SQL
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'evidence') THEN
    CREATE ROLE evidence LOGIN PASSWORD 'evidence';
  END IF;
END \$\$;
SQL
if ! su postgres -c "psql -p $port -tAc \"select 1 from pg_database where datname='evidence_test'\"" | grep -q 1; then
  su postgres -c "createdb -p $port -O evidence evidence_test"
fi

echo "postgres://evidence:evidence@127.0.0.1:${port}/evidence_test"
