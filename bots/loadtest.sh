#!/usr/bin/env bash
# The load test of the match server on this machine: the release server on a fresh PostgreSQL
# database, driven by `loadgen` over loopback, at each socket count; then the bare WebSocket echo
# ceiling at the same counts; then the server's memory per idle socket. Every run stops by itself.
#
#   TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres bots/loadtest.sh
#
# Settings (environment): SOCKETS ("100 1000 5000"), DURATION (20s), IDLE_SOCKETS ("5000"),
# RATE (messages per socket per second, 25; 0 for none), MODES ("play echo idle"),
# DATABASE (postgres, or sqlite for an SQLite file).
set -euo pipefail
cd "$(dirname "$0")/.."

SOCKETS=${SOCKETS:-"100 1000 5000"}
DURATION=${DURATION:-20s}
IDLE_SOCKETS=${IDLE_SOCKETS:-5000}
RATE=${RATE:-25}
MODES=${MODES:-"play echo idle"}
DATABASE=${DATABASE:-postgres}
if [ "$DATABASE" = postgres ] && [ -z "${TEST_POSTGRES_URL:-}" ]; then
  echo "set TEST_POSTGRES_URL to an admin URL of a PostgreSQL server (eval \"\$(scripts/postgres)\")" >&2
  exit 2
fi

cargo build --release -q -p server -p bots
SERVER=target/release/server
LOADGEN=target/release/loadgen
ulimit -n "$(ulimit -Hn)"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
cpu_seconds() { awk -v t="$(getconf CLK_TCK)" '{printf "%.2f", ($14 + $15) / t}' "/proc/$1/stat"; }

SERVER_PID=
DB=
stop_server() {
  if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
  SERVER_PID=
  if [ -n "$DB" ] && [ "$DATABASE" = postgres ]; then
    psql "$TEST_POSTGRES_URL" -qc "DROP DATABASE IF EXISTS $DB" >/dev/null 2>&1 || true
  fi
  DB=
}
trap stop_server EXIT

# Starts the server on a fresh database; sets SERVER_PID and URL.
start_server() {
  DB="loadtest_$(date +%s)_$RANDOM"
  local url
  if [ "$DATABASE" = postgres ]; then
    psql "$TEST_POSTGRES_URL" -qc "CREATE DATABASE $DB" >/dev/null
    url="${TEST_POSTGRES_URL%/*}/$DB"
  else
    url="sqlite://${TMPDIR:-/tmp}/$DB.db"
  fi
  local port
  port=$(free_port)
  "$SERVER" --database-url "$url" --bind "127.0.0.1:$port" --log warn &
  SERVER_PID=$!
  URL="http://127.0.0.1:$port"
  for _ in $(seq 1 100); do
    if curl -fs "$URL/api/health" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "the server did not start" >&2
  exit 1
}

for mode in $MODES; do
  case $mode in
    play)
      for n in $SOCKETS; do
        echo "== play, $n sockets, $DATABASE"
        start_server
        before=$(cpu_seconds "$SERVER_PID")
        "$LOADGEN" play --url "$URL" --sockets "$n" --duration "$DURATION" --rate "$RATE"
        echo "server cpu:   $(echo "$(cpu_seconds "$SERVER_PID") - $before" | bc) s"
        stop_server
      done
      ;;
    echo)
      port=$(free_port)
      "$LOADGEN" echo-server --bind "127.0.0.1:$port" --for 1h >/dev/null &
      ECHO_PID=$!
      sleep 0.5
      for n in $SOCKETS; do
        echo "== echo, $n sockets"
        "$LOADGEN" echo --url "ws://127.0.0.1:$port" --sockets "$n" --duration "$DURATION"
      done
      kill "$ECHO_PID"
      wait "$ECHO_PID" 2>/dev/null || true
      ;;
    idle)
      for n in $IDLE_SOCKETS; do
        echo "== idle, $n sockets, $DATABASE"
        start_server
        "$LOADGEN" idle --url "$URL" --sockets "$n" --hold 10s --server-pid "$SERVER_PID"
        stop_server
      done
      ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
  esac
done
