#!/usr/bin/env bash
# Probes through the whole edge (docs/performance.md, "Status probes through the edge"): CHECKS checks at a
# 30 s interval on one page, each a GET of a small file from nginx on loopback, probed by the edge's own
# probe worker, which records every verdict durably (LMDB commit, per-day rollup, check summary) and runs
# the verdict hooks (automatic incidents, restart targets). Measures over DURATION seconds, after WARMUP
# seconds: probes/s (nginx's access log counts them), the edge's CPU per probe (user + system of the whole
# process, /proc/<pid>/stat), and checks that every check's verdicts were stored. Not run by the tests.
#
# Builds nothing: expects the edge binary at build/native/edge/edge or $EDGE_BIN (a Release build for
# meaningful figures). Installs nginx-light from Debian when nginx is absent.
#
# Environment:
#   EDGE_BIN   edge binary                          (default build/native/edge/edge)
#   CHECKS     checks at a 30 s interval            (default 1000)
#   WARMUP     seconds before measuring             (default 35: every check has started its grid)
#   DURATION   seconds measured                     (default 120)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT/bench/lib.sh"
EDGE_BIN=${EDGE_BIN:-$ROOT/build/native/edge/edge}
ADMIN_BIN=$(dirname "$EDGE_BIN")/edge-admin
CHECKS=${CHECKS:-1000}
WARMUP=${WARMUP:-35}
DURATION=${DURATION:-120}

die() {
  echo "status_probe_edge: $*" >&2
  exit 1
}

[[ -x $EDGE_BIN ]] || die "edge binary not found at $EDGE_BIN"
if ! command -v nginx >/dev/null && [[ ! -x /usr/sbin/nginx ]]; then
  echo "nginx not found: installing nginx-light from Debian" >&2
  apt-get install -y nginx-light >/dev/null || die "could not install nginx-light"
fi
NGINX_BIN=$(command -v nginx || echo /usr/sbin/nginx)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/status_probe_edge.XXXXXX")
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

# --- nginx: the probed target, one access-log line per probe -------------------------------------------
NGINX_PORT=$(free_port)
mkdir -p "$WORK/www" "$WORK/nginx-tmp"
chmod 0711 "$WORK"
chmod 0755 "$WORK/www"
echo '{"status":"ok"}' >"$WORK/www/health"
chmod 0644 "$WORK/www/health"
cat >"$WORK/nginx.conf" <<CONF
daemon off;
worker_processes 1;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 4096; }
http {
  access_log $WORK/access.log;
  client_body_temp_path $WORK/nginx-tmp/body;
  proxy_temp_path $WORK/nginx-tmp/proxy;
  fastcgi_temp_path $WORK/nginx-tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx-tmp/uwsgi;
  scgi_temp_path $WORK/nginx-tmp/scgi;
  server { listen 127.0.0.1:$NGINX_PORT backlog=4096; root $WORK/www; }
}
CONF
"$NGINX_BIN" -e "$WORK/nginx-error.log" -p "$WORK" -c "$WORK/nginx.conf" &
NGINX_PID=$!
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$NGINX_PORT/health" && break; sleep 0.1; done

# --- edge with one page of CHECKS checks -----------------------------------------------------------------
mkdir -p "$WORK/data"
"$ADMIN_BIN" --data-dir "$WORK/data" --json company create --slug bench --name "Bench Ltd." >/dev/null
TOKEN=$("$ADMIN_BIN" --data-dir "$WORK/data" --json token create --company bench --name bench \
  --permission status.manage | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
# Probing stays off while the checks are made, so the measured edge starts them all on a fresh grid.
start_edge() {  # extra flags...
  rm -f "$WORK/edge.port"
  "$EDGE_BIN" --listen 127.0.0.1:0 --port-file "$WORK/edge.port" --data-dir "$WORK/data" --log-level warn \
    --rate-limit 100000000/1s "$@" >"$WORK/edge.out" 2>>"$WORK/edge.err" &
  EDGE_PID=$!
  for _ in $(seq 200); do [[ -s $WORK/edge.port ]] && break; sleep 0.1; done
  [[ -s $WORK/edge.port ]] || die "the edge did not start"
  EDGE=http://127.0.0.1:$(tr -d '[:space:]' <"$WORK/edge.port")
}
start_edge --status-probe-workers 0
api() {  # method path body
  curl -sf -X "$1" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
    "$EDGE/api/v1/dashboard/companies/bench$2" ${3:+-d "$3"}
}
id_of() { python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])'; }
PAGE=$(api POST /pages '{"name":"Bench","slug":"bench"}' | id_of)
COMPONENT=$(api POST "/pages/$PAGE/components" '{"name":"Fleet"}' | id_of)
for i in $(seq "$CHECKS"); do
  echo "{\"name\":\"c$i\",\"url\":\"http://127.0.0.1:$NGINX_PORT/health?c=$i\",\"intervalSeconds\":30}"
done | while read -r body; do api POST "/pages/$PAGE/components/$COMPONENT/checks" "$body" >/dev/null; done
kill -TERM "$EDGE_PID" && wait "$EDGE_PID" || true
start_edge

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status"; }

echo "$CHECKS checks at 30 s; warm-up ${WARMUP} s, measuring ${DURATION} s; $(nproc) cores"
sleep "$WARMUP"
L0=$(wc -l <"$WORK/access.log")
C0=$(cpu_ticks "$EDGE_PID")
sleep "$DURATION"
L1=$(wc -l <"$WORK/access.log")
C1=$(cpu_ticks "$EDGE_PID")
RSS=$(rss_kib "$EDGE_PID")
PROBES=$((L1 - L0))
# The checks the edge holds (the list is paged: its X-Total-Count counts them all).
STORED=$(curl -s -o /dev/null -D - -H "Authorization: Bearer $TOKEN" \
  "$EDGE/api/v1/dashboard/companies/bench/pages/$PAGE/components/$COMPONENT/checks?limit=1" |
  awk -F': ' 'tolower($1) == "x-total-count" {print $2}' | tr -d '\r')
python3 - "$PROBES" "$DURATION" "$C0" "$C1" "$CLK_TCK" "$RSS" "$STORED" <<'PY'
import sys
probes, duration, c0, c1, tck, rss, stored = (int(x) for x in sys.argv[1:])
cpu_s = (c1 - c0) / tck
print(f"checks stored {stored}; probes {probes} in {duration} s = {probes / duration:.1f}/s; "
      f"edge CPU {cpu_s:.2f} s = {100 * cpu_s / duration:.1f} % of one core, "
      f"{1e6 * cpu_s / max(probes, 1):.0f} us per probe; RSS {rss / 1024:.0f} MiB")
PY
# The verdicts were recorded: the first check's results cover the measured window.
FIRST=$(api GET "/pages/$PAGE/components/$COMPONENT/checks" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
api GET "/pages/$PAGE/components/$COMPONENT/checks/$FIRST/results?limit=200" | python3 -c '
import json, sys
r = json.load(sys.stdin)
items = r if isinstance(r, list) else r.get("items", [])
statuses = sorted({i.get("status") for i in items})
print(f"first check: {len(items)} stored results, statuses {statuses}")'
