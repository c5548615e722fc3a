#!/usr/bin/env bash
# Starts the local PostgreSQL and Redis that the scale-out tests use, when they are installed
# and not already answering. Trust auth for local TCP connections as user postgres is assumed
# (the Debian default for the development machines); see docs/scaling.md for other set-ups.
set -euo pipefail

pg_ready() { pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; }
redis_ready() { redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null | grep -q PONG; }

start_postgres() {
  pg_ready && return 0
  local version
  version="$(ls /etc/postgresql | sort -n | tail -1)"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  # A fresh install asks for a password on TCP; the tests connect as postgres with trust.
  local hba="/etc/postgresql/$version/main/pg_hba.conf"
  if ! grep -q '^host all all 127.0.0.1/32 trust' "$hba"; then
    sed -i '1i host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\nhost replication all 127.0.0.1/32 trust' "$hba"
    pg_ctlcluster --skip-systemctl-redirect "$version" main reload || true
  fi
  for _ in $(seq 1 30); do pg_ready && return 0; sleep 1; done
  echo "PostgreSQL did not start on 127.0.0.1:5432" >&2
  return 1
}

start_redis() {
  redis_ready && return 0
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  for _ in $(seq 1 30); do redis_ready && return 0; sleep 1; done
  echo "Redis did not start on 127.0.0.1:6379" >&2
  return 1
}

case "${1:-start}" in
  start) start_postgres; start_redis ;;
  *) echo "usage: scripts/services.sh start" >&2; exit 2 ;;
esac
