#!/usr/bin/env bash
# Cached public snapshot vs nginx (docs/performance.md, "Status: public side"): GET
# /api/v1/status/{slug} of a page with COMPONENTS components (each one check, 90 days of history), answered
# from the 30 s snapshot cache, against nginx serving the same JSON body as a static file, with wrk at
# several concurrencies in one run on one machine. Prints requests/s, the edge/nginx ratio and each server's
# CPU time per request. Not run by the tests.
#
# Builds nothing: expects the edge binary at build/native/edge/edge or $EDGE_BIN (a Release build for
# meaningful figures). Installs nginx-light from Debian when nginx is absent.
#
# Environment:
#   EDGE_BIN     edge binary                (default build/native/edge/edge)
#   COMPONENTS   components of the page     (default 5)
#   THREADS      wrk threads                (default 1)
#   CONNS        wrk connections, a list    (default "16 256")
#   DURATION     wrk duration per target    (default 10s)
#   WARMUP       wrk warm-up per target     (default 3s)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EDGE_BIN=${EDGE_BIN:-$ROOT/build/native/edge/edge}
ADMIN_BIN=$(dirname "$EDGE_BIN")/edge-admin
COMPONENTS=${COMPONENTS:-5}
THREADS=${THREADS:-1}
CONNS=${CONNS:-16 256}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-3s}
LUA_SCRIPT=$ROOT/bench/wrk_check.lua

die() {
  echo "status_snapshot_load: $*" >&2
  exit 1
}

[[ -x $EDGE_BIN ]] || die "edge binary not found at $EDGE_BIN"
command -v wrk >/dev/null || die "wrk not found (apt-get install wrk)"
if ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; then
  echo "nginx not found: installing nginx-light from Debian" >&2
  apt-get install -y nginx-light >/dev/null || die "could not install nginx-light"
fi
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/status_snapshot_load.XXXXXX")
EDGE_PID=""
NGINX_PID=""
cleanup() {
  local rc=$?
  trap - EXIT
  for pid in "$EDGE_PID" "$NGINX_PID"; do [[ -n $pid ]] && kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "$EDGE_PID" "$NGINX_PID"; do [[ -n $pid ]] && wait "$pid" 2>/dev/null || true; done
  [[ $rc -ne 0 && -s $WORK/edge.err ]] && tail -n 20 "$WORK/edge.err" >&2
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# --- edge with one page ---------------------------------------------------------------------------------
mkdir -p "$WORK/data"
"$ADMIN_BIN" --data-dir "$WORK/data" --json company create --slug bench --name "Bench Ltd." >/dev/null
TOKEN=$("$ADMIN_BIN" --data-dir "$WORK/data" --json token create --company bench --name bench \
  --permission status.manage | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
"$EDGE_BIN" --listen 127.0.0.1:0 --port-file "$WORK/edge.port" --data-dir "$WORK/data" --log-level warn \
  --rate-limit 100000000/1s --status-probe-workers 0 >"$WORK/edge.out" 2>"$WORK/edge.err" &
EDGE_PID=$!
for _ in $(seq 200); do [[ -s $WORK/edge.port ]] && break; sleep 0.1; done
EDGE=http://127.0.0.1:$(tr -d '[:space:]' <"$WORK/edge.port")
api() {  # method path body
  curl -sf -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    "$EDGE/api/v1/dashboard/companies/bench$2" ${3:+-d "$3"}
}
PAGE=$(api POST /pages '{"name":"Bench","slug":"bench"}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
api PATCH "/pages/$PAGE" '{"branding":{"displayName":"Bench Cloud","primaryColor":"#0f766e"}}' >/dev/null
for i in $(seq "$COMPONENTS"); do
  C=$(api POST "/pages/$PAGE/components" "{\"name\":\"Component $i\"}" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
  api POST "/pages/$PAGE/components/$C/checks" "{\"name\":\"health\",\"url\":\"https://bench.test/$i\"}" >/dev/null
done

# --- nginx: the same body as a file ---------------------------------------------------------------------
NGINX_PORT=$(free_port)
mkdir -p "$WORK/www" "$WORK/nginx-tmp"
chmod 0711 "$WORK"
chmod 0755 "$WORK/www"
curl -sf "$EDGE/api/v1/status/bench" >"$WORK/www/bench.json" || die "the snapshot did not answer 200"
chmod 0644 "$WORK/www/bench.json"
SIZE=$(wc -c <"$WORK/www/bench.json")
cat >"$WORK/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  client_body_temp_path $WORK/nginx-tmp/body;
  proxy_temp_path $WORK/nginx-tmp/proxy;
  fastcgi_temp_path $WORK/nginx-tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx-tmp/uwsgi;
  scgi_temp_path $WORK/nginx-tmp/scgi;
  types { application/json json; }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/www;
    add_header Access-Control-Allow-Origin *;
    add_header Cache-Control "public, max-age=30";
  }
}
CONF
"$NGINX_BIN" -e "$WORK/nginx-error.log" -p "$WORK" -c "$WORK/nginx.conf" &
NGINX_PID=$!
NGINX=http://127.0.0.1:$NGINX_PORT
for _ in $(seq 100); do curl -sf -o /dev/null "$NGINX/bench.json" && break; sleep 0.1; done

CLK_TCK=$(getconf CLK_TCK)
cpu_ticks() {  # pid: user + system ticks of every thread
  local f
  f=$(sed 's/^.*) //' "/proc/$1/stat")
  set -- $f
  echo $((${12} + ${13}))
}
# nginx's master forks its worker: measure the worker.
NGINX_WORKER=$(pgrep -P "$NGINX_PID" | head -1)

run() {  # name conns url pid -> "rps cpu_us_per_request"
  local out c0 c1 rps requests
  wrk -t"$THREADS" -c"$2" -d"$WARMUP" -s "$LUA_SCRIPT" "$3" >/dev/null
  c0=$(cpu_ticks "$4")
  out=$(wrk -t"$THREADS" -c"$2" -d"$DURATION" -s "$LUA_SCRIPT" "$3")
  c1=$(cpu_ticks "$4")
  line=$(grep BENCH_RESULT <<<"$out")
  [[ $line == *"non200=0 "* ]] || die "$1: answers other than 200: $line"
  rps=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line")
  requests=$(sed -E 's/.* requests=([0-9]+).*/\1/' <<<"$line")
  python3 -c "print(f'{float(\"$rps\"):.0f} {($c1 - $c0) / $CLK_TCK * 1e6 / $requests:.1f}')"
}

echo "snapshot: $SIZE bytes, $COMPONENTS components; wrk -t$THREADS, $DURATION per run; $(nproc) cores"
printf '%-6s %12s %10s %12s %10s %7s\n' conns edge_rps edge_us nginx_rps nginx_us ratio
for c in $CONNS; do
  read -r ERPS EUS <<<"$(run edge "$c" "$EDGE/api/v1/status/bench" "$EDGE_PID")"
  read -r NRPS NUS <<<"$(run nginx "$c" "$NGINX/bench.json" "$NGINX_WORKER")"
  printf '%-6s %12s %10s %12s %10s %7s\n' "$c" "$ERPS" "$EUS" "$NRPS" "$NUS" \
    "$(python3 -c "print(f'{$ERPS / $NRPS:.2f}')")"
done
