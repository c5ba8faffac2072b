#!/usr/bin/env bash
# A throwaway MariaDB server for the audit tests: the Debian package, run by hand (no systemd) on
# 127.0.0.1 with its own datadir, so it never touches a system server or its config.
#
#   .ci/mariadb.sh [start]   install if needed, initialise, start, create the test user; then print
#                            the settings the tests read as `export` lines on stdout:
#                              eval "$(.ci/mariadb.sh)"
#   .ci/mariadb.sh stop      stop the server (the restart test calls stop, then start)
#   .ci/mariadb.sh restart   stop, then start
#   .ci/mariadb.sh status    exit 0 when it answers
#   .ci/mariadb.sh env       print the export lines only
#
# Idempotent: every step checks first (installed, initialised, running, user present). Needs root
# for apt-get and to start the server as the `mysql` user. Progress goes to stderr; stdout carries
# only the export lines. Settings (env, all optional):
#   ONGRID_TEST_MARIADB_DIR   state dir: datadir, socket, pid file, error log (/tmp/ongrid-mariadb)
#   ONGRID_TEST_MARIADB_PORT  TCP port on 127.0.0.1 (33306, away from a system server's 3306)
# The tests read:
#   ONGRID_TEST_MYSQL_URL     mysql://ongrid_test:ongrid_test@127.0.0.1:PORT/ongrid_test — the user
#                             may create and drop databases named ongrid_test* (one per test)
#   ONGRID_TEST_MYSQL_CTL     this script, for the stop/start of the restart test
set -euo pipefail

STATE=${ONGRID_TEST_MARIADB_DIR:-/tmp/ongrid-mariadb}
PORT=${ONGRID_TEST_MARIADB_PORT:-33306}
DATA=$STATE/data
SOCK=$STATE/mysqld.sock
PIDFILE=$STATE/mariadbd.pid
LOG=$STATE/error.log
DB_USER=ongrid_test
DB_PASS=ongrid_test
DB_NAME=ongrid_test
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
export PATH="$PATH:/usr/sbin:/usr/local/sbin:/sbin"

say() { printf 'mariadb.sh: %s\n' "$*" >&2; }

install() {
  if command -v mariadbd >/dev/null 2>&1 && command -v mariadb-install-db >/dev/null 2>&1; then return; fi
  [ "$(id -u)" = 0 ] || { say "mariadb-server is not installed and this is not root"; exit 1; }
  say "installing mariadb-server (apt-get)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >&2
  apt-get install -y -qq mariadb-server mariadb-client >&2
}

pid() { [ -s "$PIDFILE" ] && cat "$PIDFILE" || true; }
alive() { local p; p=$(pid); [ -n "$p" ] && kill -0 "$p" 2>/dev/null; }
answers() { mariadb-admin --no-defaults --socket="$SOCK" -uroot ping >/dev/null 2>&1; }

init() {
  if [ -d "$DATA/mysql" ]; then return; fi
  say "initialising $DATA"
  mkdir -p "$STATE"
  rm -rf "$DATA"
  mariadb-install-db --no-defaults --user=mysql --datadir="$DATA" \
    --auth-root-authentication-method=socket --skip-test-db >"$STATE/install-db.log" 2>&1 ||
    { cat "$STATE/install-db.log" >&2; exit 1; }
}

start_server() {
  if alive && answers; then return; fi
  if alive; then stop_server; fi
  mkdir -p "$STATE"
  chown mysql:mysql "$STATE"
  chown -R mysql:mysql "$DATA"
  rm -f "$SOCK" "$PIDFILE"
  say "starting mariadbd on 127.0.0.1:$PORT (datadir $DATA, log $LOG)"
  # --no-defaults: none of /etc/mysql's settings; setsid: not in the caller's process group, so a
  # Ctrl-C in the terminal that ran this does not reach the server.
  setsid mariadbd --no-defaults --user=mysql --datadir="$DATA" --socket="$SOCK" --port="$PORT" \
    --bind-address=127.0.0.1 --pid-file="$PIDFILE" --log-error="$LOG" --skip-name-resolve \
    --skip-log-bin --innodb-buffer-pool-size=64M --max-connections=200 </dev/null >/dev/null 2>&1 &
  for _ in $(seq 1 300); do
    if answers; then return; fi
    sleep 0.1
  done
  say "mariadbd did not answer within 30 s; the end of $LOG:"
  tail -n 30 "$LOG" >&2 || true
  exit 1
}

stop_server() {
  local p
  p=$(pid)
  if [ -z "$p" ] || ! kill -0 "$p" 2>/dev/null; then return; fi
  say "stopping mariadbd (pid $p)"
  kill -TERM "$p"
  for _ in $(seq 1 300); do
    kill -0 "$p" 2>/dev/null || { rm -f "$PIDFILE"; return; }
    sleep 0.1
  done
  say "mariadbd did not stop within 30 s; killing it"
  kill -KILL "$p" 2>/dev/null || true
  rm -f "$PIDFILE"
}

setup_user() {
  mariadb --no-defaults --socket="$SOCK" -uroot <<SQL
CREATE DATABASE IF NOT EXISTS \`$DB_NAME\`;
CREATE USER IF NOT EXISTS '$DB_USER'@'%' IDENTIFIED BY '$DB_PASS';
CREATE USER IF NOT EXISTS '$DB_USER'@'localhost' IDENTIFIED BY '$DB_PASS';
GRANT ALL PRIVILEGES ON \`ongrid\\_test%\`.* TO '$DB_USER'@'%';
GRANT ALL PRIVILEGES ON \`ongrid\\_test%\`.* TO '$DB_USER'@'localhost';
FLUSH PRIVILEGES;
SQL
}

print_env() {
  cat <<ENV
export ONGRID_TEST_MYSQL_URL='mysql://$DB_USER:$DB_PASS@127.0.0.1:$PORT/$DB_NAME'
export ONGRID_TEST_MYSQL_CTL='$SELF'
export ONGRID_TEST_MARIADB_DIR='$STATE'
export ONGRID_TEST_MARIADB_PORT='$PORT'
ENV
}

case "${1:-start}" in
  start)
    install
    init
    start_server
    setup_user
    print_env | tee "$STATE/env"
    ;;
  stop) stop_server ;;
  restart)
    stop_server
    start_server
    ;;
  status) alive && answers ;;
  env) print_env ;;
  *)
    say "usage: $0 [start|stop|restart|status|env]"
    exit 2
    ;;
esac
