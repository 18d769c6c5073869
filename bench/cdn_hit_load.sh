#!/usr/bin/env bash
# CDN variant hits against nginx (docs/performance.md, "Storage: uploads and CDN hits"; issue 14's aim: at
# least 0.8 of nginx's requests/s): a public JPEG (made with vips, WIDTHxHEIGHT, quality 90) in a public
# bucket, its `small` variant made once by `GET /f/<id>/small` with `Accept: image/webp`, then wrk against
# that URL (every request a hit of the variant cache: a file response) and against nginx (one worker)
# serving the exact same bytes as a static file with the same Cache-Control and Vary headers. wrk sends
# `Accept: image/webp` to both and counts answers other than 200 (bench/wrk_check.lua). Prints requests/s,
# each server's CPU time per request and the edge/nginx ratio. Not run by the tests.
#
# Builds nothing: expects the edge binary at build/native/edge/edge or $EDGE_BIN, edge-admin beside it.
# Needs vips (libvips-tools), wrk, curl, python3; installs nginx-light from Debian when nginx is absent.
#
# Environment:
#   EDGE_BIN   edge binary                (default build/native/edge/edge)
#   QUALITY    the named variant          (default small)
#   WIDTH      source width               (default 1600)
#   HEIGHT     source height              (default 1200)
#   THREADS    wrk threads                (default 1)
#   CONNS      wrk connections, a list    (default "16 256")
#   DURATION   wrk duration per target    (default 10s)
#   WARMUP     wrk warm-up per target     (default 3s)
#   EVENT_LOOPS event loops of each server: the edge's --io-threads and nginx's worker_processes (default 1:
#              one each, the like-for-like comparison; the other core runs wrk)
#   EDGE_FLAGS more edge options (default none)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT/bench/lib.sh"
EDGE_BIN=${EDGE_BIN:-$ROOT/build/native/edge/edge}
ADMIN_BIN=$(dirname "$EDGE_BIN")/edge-admin
QUALITY=${QUALITY:-small}
WIDTH=${WIDTH:-1600}
HEIGHT=${HEIGHT:-1200}
THREADS=${THREADS:-1}
CONNS=${CONNS:-16 256}
DURATION=${DURATION:-10s}
EVENT_LOOPS=${EVENT_LOOPS:-1}
WARMUP=${WARMUP:-3s}
LUA_SCRIPT=$ROOT/bench/wrk_check.lua

die() {
  echo "cdn_hit_load: $*" >&2
  exit 1
}

[[ -x $EDGE_BIN ]] || die "edge binary not found at $EDGE_BIN"
[[ -x $ADMIN_BIN ]] || die "edge-admin not found at $ADMIN_BIN"
command -v wrk >/dev/null || die "wrk not found (apt-get install wrk)"
command -v vips >/dev/null || die "vips not found (apt-get install libvips-tools)"
if ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; then
  echo "nginx not found: installing nginx-light from Debian" >&2
  apt-get install -y nginx-light >/dev/null || die "could not install nginx-light"
fi
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/cdn_hit_load.XXXXXX")
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

# --- a photo-like JPEG ------------------------------------------------------------------------------------
vips gaussnoise "$WORK/n.v" "$WIDTH" "$HEIGHT" --mean 128 --sigma 40
vips colourspace "$WORK/n.v" "$WORK/s.v" srgb
vips copy "$WORK/s.v" "$WORK/photo.jpg[Q=90]"
rm -f "$WORK/n.v" "$WORK/s.v"

# --- edge with a public bucket holding the photo ------------------------------------------------------------
mkdir -p "$WORK/data"
ADMIN=("$ADMIN_BIN" --data-dir "$WORK/data" --json)
"${ADMIN[@]}" company create --slug bench --name "Bench Ltd." >/dev/null
TOKEN=$("${ADMIN[@]}" token create --company bench --name bench --permission storage.view \
  --permission buckets.create --permission media.upload | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
"$EDGE_BIN" --listen 127.0.0.1:0 --port-file "$WORK/edge.port" --data-dir "$WORK/data" --log-level warn \
  --rate-limit 100000000/1s --status-probe-workers 0 --io-threads "$EVENT_LOOPS" ${EDGE_FLAGS:-} >"$WORK/edge.out" 2>"$WORK/edge.err" &
EDGE_PID=$!
for _ in $(seq 200); do [[ -s $WORK/edge.port ]] && break; sleep 0.1; done
[[ -s $WORK/edge.port ]] || die "the edge did not start"
EDGE=http://127.0.0.1:$(tr -d '[:space:]' <"$WORK/edge.port")
API=$EDGE/api/companies/bench
curl -sf -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"slug":"photos","visibility":"public"}' "$API/buckets" >/dev/null || die "bucket create failed"
ID=$(curl -sf -X POST --data-binary "@$WORK/photo.jpg" -H "Authorization: Bearer $TOKEN" \
  -H 'Content-Type: application/octet-stream' \
  "$API/buckets/photos/media?filename=photo.jpg&contentType=image/jpeg&isPublic=true" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])') || die "upload failed"
URL_PATH=/f/$ID/$QUALITY

# The first request makes the variant; its exact body becomes nginx's file.
mkdir -p "$WORK/www" "$WORK/nginx-tmp"
chmod 0711 "$WORK"
chmod 0755 "$WORK/www"
T0=$(date +%s.%N)
curl -sf -D "$WORK/variant.headers" -H 'Accept: image/webp' -o "$WORK/www/variant.webp" "$EDGE$URL_PATH" ||
  die "the first request for the variant did not answer 200"
T1=$(date +%s.%N)
chmod 0644 "$WORK/www/variant.webp"
header() { grep -i "^$1:" "$WORK/variant.headers" | head -1 | sed -E 's/^[^:]*: *//' | tr -d '\r'; }
CTYPE=$(header Content-Type)
[[ $CTYPE == image/webp ]] || die "the variant is $CTYPE, not image/webp"
CACHE_CONTROL=$(header Cache-Control)
VARY=$(header Vary)
SIZE=$(stat -c %s "$WORK/www/variant.webp")
# The second answer must be the same bytes (a hit, not a re-encode).
curl -sf -H 'Accept: image/webp' "$EDGE$URL_PATH" | cmp -s - "$WORK/www/variant.webp" ||
  die "a second request answered other bytes"

# --- nginx: the same bytes as a file, the same caching headers -------------------------------------------------
NGINX_PORT=$(free_port)
cat >"$WORK/nginx.conf" <<CONF
daemon off;
worker_processes $EVENT_LOOPS;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  client_body_temp_path $WORK/nginx-tmp/body;
  proxy_temp_path $WORK/nginx-tmp/proxy;
  fastcgi_temp_path $WORK/nginx-tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx-tmp/uwsgi;
  scgi_temp_path $WORK/nginx-tmp/scgi;
  types { image/webp webp; }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/www;
    add_header Cache-Control "$CACHE_CONTROL";
    add_header Vary "$VARY";
  }
}
CONF
"$NGINX_BIN" -e "$WORK/nginx-error.log" -p "$WORK" -c "$WORK/nginx.conf" &
NGINX_PID=$!
NGINX=http://127.0.0.1:$NGINX_PORT
for _ in $(seq 100); do curl -sf -o /dev/null "$NGINX/variant.webp" && break; sleep 0.1; done
curl -sf "$NGINX/variant.webp" | cmp -s - "$WORK/www/variant.webp" || die "nginx did not serve the variant"

# nginx's master forks its workers: measure them.
for _ in $(seq 50); do [[ $(pgrep -c -P "$NGINX_PID") -ge $EVENT_LOOPS ]] && break; sleep 0.1; done
NGINX_WORKERS=$(pgrep -P "$NGINX_PID" | tr '\n' ' ')

cpu_ticks_sum() {  # pids... -> their CPU ticks together
  local pid total=0
  for pid in "$@"; do total=$((total + $(cpu_ticks "$pid"))); done
  echo "$total"
}

run() {  # name conns url "pids" -> "rps cpu_us_per_request p50_ms p99_ms"
  local out c0 c1 line rps requests p50 p99
  wrk -t"$THREADS" -c"$2" -d"$WARMUP" -H 'Accept: image/webp' -s "$LUA_SCRIPT" "$3" >/dev/null
  c0=$(cpu_ticks_sum $4)
  out=$(wrk -t"$THREADS" -c"$2" -d"$DURATION" -H 'Accept: image/webp' -s "$LUA_SCRIPT" "$3")
  c1=$(cpu_ticks_sum $4)
  line=$(grep BENCH_RESULT <<<"$out")
  [[ $line == *"non200=0 "* ]] || die "$1: answers other than 200: $line"
  [[ $line == *"connect_errors=0 read_errors=0 write_errors=0 timeouts=0 "* ]] || die "$1: socket errors: $line"
  rps=$(sed -E 's/.* rps=([0-9.]+).*/\1/' <<<"$line")
  requests=$(sed -E 's/.* requests=([0-9]+).*/\1/' <<<"$line")
  p50=$(sed -E 's/.* p50_us=([0-9]+).*/\1/' <<<"$line")
  p99=$(sed -E 's/.* p99_us=([0-9]+).*/\1/' <<<"$line")
  python3 -c "print(f'{float(\"$rps\"):.0f} {($c1 - $c0) / $CLK_TCK * 1e6 / $requests:.1f} {$p50 / 1e3:.2f} {$p99 / 1e3:.2f}')"
}

echo "source ${WIDTH}x$HEIGHT JPEG $(stat -c %s "$WORK/photo.jpg") bytes; variant $QUALITY: $SIZE bytes $CTYPE," \
  "made in $(python3 -c "print(f'{($T1 - $T0) * 1e3:.0f}')") ms"
echo "Cache-Control: $CACHE_CONTROL; Vary: $VARY; $EVENT_LOOPS event loop(s) each; wrk -t$THREADS, $DURATION per run after $WARMUP; $(nproc) cores;" \
  "load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-6s %10s %9s %8s %8s %10s %9s %8s %8s %7s\n' conns edge_rps edge_us e_p50ms e_p99ms nginx_rps nginx_us \
  n_p50ms n_p99ms ratio
for c in $CONNS; do
  read -r ERPS EUS EP50 EP99 <<<"$(run edge "$c" "$EDGE$URL_PATH" "$EDGE_PID")"
  read -r NRPS NUS NP50 NP99 <<<"$(run nginx "$c" "$NGINX/variant.webp" "$NGINX_WORKERS")"
  printf '%-6s %10s %9s %8s %8s %10s %9s %8s %8s %7s\n' "$c" "$ERPS" "$EUS" "$EP50" "$EP99" "$NRPS" "$NUS" \
    "$NP50" "$NP99" "$(python3 -c "print(f'{$ERPS / $NRPS:.2f}')")"
done
