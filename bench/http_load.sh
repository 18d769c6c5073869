#!/usr/bin/env bash
# HTTP load: nginx serving a static file vs the edge's /healthz vs the edge's authenticated
# GET /api/companies/demo, measured with wrk at several concurrencies in one run on one machine, then the
# idle-connection probe (IDLE keep-alive sockets held open, latency of new requests meanwhile) against both
# servers. See bench/README.md.
#
# Builds nothing: expects the edge binary at build/native/edge/edge or $EDGE_BIN (build it Release for
# meaningful figures). Starts its own edge (temp data dir, --demo) and nginx (one worker) on free loopback
# ports, stops both on exit, and writes a summary under bench/results/.
#
# Environment:
#   EDGE_BIN       edge binary                          (default build/native/edge/edge)
#   THREADS        wrk threads                          (default 1)
#   CONNS          wrk connections, a list              (default "16 256 1000")
#   IDLE           idle keep-alive connections held     (default 5000)
#   PROBES         new requests timed while they are held (default 200)
#   DURATION       wrk duration per target              (default 10s)
#   WARMUP         wrk warm-up per target, not counted  (default 3s)
#   EDGE_THREADS   edge --threads (default: the edge's own default, 64)
#   NGINX_BIN      nginx binary                         (default: nginx on PATH, else /usr/sbin/nginx)
#   RESULTS_DIR    where the summary goes               (default bench/results)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EDGE_BIN=${EDGE_BIN:-$ROOT/build/native/edge/edge}
THREADS=${THREADS:-1}
CONNS=${CONNS:-16 256 1000}
IDLE=${IDLE:-5000}
PROBES=${PROBES:-200}
DURATION=${DURATION:-10s}
WARMUP=${WARMUP:-3s}
EDGE_THREADS=${EDGE_THREADS:-}
RESULTS_DIR=${RESULTS_DIR:-$ROOT/bench/results}
LUA_SCRIPT=$ROOT/bench/wrk_check.lua
NGINX_BIN=${NGINX_BIN:-$(command -v nginx || echo /usr/sbin/nginx)}

die() {
  echo "http_load: $*" >&2
  exit 1
}

[[ -x $EDGE_BIN ]] || die "edge binary not found at $EDGE_BIN
  build the edge first, or point EDGE_BIN at one; for meaningful figures a Release build, e.g.
    cmake -S $ROOT -B $ROOT/build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
    cmake --build $ROOT/build/bench --target edge
    EDGE_BIN=$ROOT/build/bench/edge/edge $0"
command -v wrk >/dev/null || die "wrk not found (apt-get install wrk)"
[[ -x $NGINX_BIN ]] || die "nginx not found (apt-get install nginx-light)"
command -v curl >/dev/null || die "curl not found (apt-get install curl)"
[[ -f $LUA_SCRIPT ]] || die "missing $LUA_SCRIPT"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/http_load.XXXXXX")
EDGE_PID=""
NGINX_PID=""
WRK_PID=""

cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  for pid in "$WRK_PID" "$EDGE_PID" "$NGINX_PID"; do
    [[ -n $pid ]] && kill -TERM "$pid" 2>/dev/null || true
  done
  for pid in "$WRK_PID" "$EDGE_PID" "$NGINX_PID"; do
    [[ -z $pid ]] && continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  if [[ $rc -ne 0 ]]; then
    echo "http_load: failed (exit $rc); logs:" >&2
    for f in "$WORK/edge.err" "$WORK/nginx-error.log"; do
      [[ -s $f ]] && { echo "--- $f (last 20 lines)" >&2; tail -n 20 "$f" >&2; }
    done
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

wait_http() {  # url: waits up to 20 s for any HTTP answer
  for _ in $(seq 200); do
    curl -s -o /dev/null "$1" && return 0
    sleep 0.1
  done
  return 1
}

# --- edge ---------------------------------------------------------------------------------------------
mkdir -p "$WORK/data"
edge_args=(--listen 127.0.0.1:0 --port-file "$WORK/edge.port" --data-dir "$WORK/data" --demo
  --rate-limit 100000000/1s --log-level warn --max-connections 15000)
[[ -n $EDGE_THREADS ]] && edge_args+=(--threads "$EDGE_THREADS")
"$EDGE_BIN" "${edge_args[@]}" >"$WORK/edge.out" 2>"$WORK/edge.err" &
EDGE_PID=$!
for _ in $(seq 200); do
  [[ -s $WORK/edge.port ]] && break
  kill -0 "$EDGE_PID" 2>/dev/null || die "edge exited during start-up"
  sleep 0.1
done
[[ -s $WORK/edge.port ]] || die "edge did not write its port file within 20 s"
EDGE_PORT=$(tr -d '[:space:]' <"$WORK/edge.port")
[[ -f $WORK/data/demo-credentials.json ]] || die "edge --demo wrote no demo-credentials.json"
TOKEN=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["accessToken"])' \
  "$WORK/data/demo-credentials.json")
[[ -n $TOKEN ]] || die "no accessToken in demo-credentials.json"
EDGE=http://127.0.0.1:$EDGE_PORT

# --- nginx: one worker, a static JSON file the size of /healthz's body -----------------------------------
NGINX_PORT=$(free_port)
mkdir -p "$WORK/www" "$WORK/nginx-tmp"
# nginx's worker drops root for an unprivileged user: let it traverse the temp dir and read the file only.
chmod 0711 "$WORK"
chmod 0755 "$WORK/www"
HEALTH_BODY=$(curl -sf "$EDGE/healthz") || die "edge /healthz did not answer 200"
printf '%s' "$HEALTH_BODY" >"$WORK/www/healthz.json"
chmod 0644 "$WORK/www/healthz.json"
cat >"$WORK/nginx.conf" <<EOF
daemon off;
worker_processes 1;
worker_rlimit_nofile 20000;
pid $WORK/nginx.pid;
error_log $WORK/nginx-error.log warn;
events { worker_connections 15000; }
http {
  access_log off;
  sendfile on;
  tcp_nodelay on;
  keepalive_requests 1000000;
  keepalive_timeout 75s;
  client_body_temp_path $WORK/nginx-tmp/body;
  proxy_temp_path $WORK/nginx-tmp/proxy;
  fastcgi_temp_path $WORK/nginx-tmp/fastcgi;
  uwsgi_temp_path $WORK/nginx-tmp/uwsgi;
  scgi_temp_path $WORK/nginx-tmp/scgi;
  types { application/json json; }
  server {
    listen 127.0.0.1:$NGINX_PORT;
    root $WORK/www;
  }
}
EOF
"$NGINX_BIN" -e "$WORK/nginx-error.log" -p "$WORK" -c "$WORK/nginx.conf" &
NGINX_PID=$!
NGINX=http://127.0.0.1:$NGINX_PORT
wait_http "$NGINX/healthz.json" || die "nginx did not start on port $NGINX_PORT"

# --- sanity: every target answers 200 before anything is timed -------------------------------------------
check_200() {  # name url [token]
  local code
  if [[ -n ${3:-} ]]; then
    code=$(curl -s -o "$WORK/check.body" -w '%{http_code}' -H "Authorization: Bearer $3" "$2")
  else
    code=$(curl -s -o "$WORK/check.body" -w '%{http_code}' "$2")
  fi
  [[ $code == 200 ]] || die "$1 ($2) answered $code: $(head -c 300 "$WORK/check.body")"
  echo "$(wc -c <"$WORK/check.body")"
}
SIZE_NGINX=$(check_200 "nginx static" "$NGINX/healthz.json")
SIZE_HEALTH=$(check_200 "edge /healthz" "$EDGE/healthz")
SIZE_AUTH=$(check_200 "edge authenticated GET" "$EDGE/api/companies/demo" "$TOKEN")

# --- load ---------------------------------------------------------------------------------------------
# CPU time (user + system, in clock ticks) the given processes have used so far, all their threads included.
# On a shared machine throughput moves with other load; the server's CPU time per request moves much less.
CLK_TCK=$(getconf CLK_TCK)
cpu_ticks() {
  local total=0 pid fields
  for pid in "$@"; do
    fields=$(sed 's/^.*) //' "/proc/$pid/stat") || return 1
    set -- $fields
    total=$((total + ${12} + ${13}))
  done
  echo "$total"
}

# The kernel's count of connections dropped because a listen queue was full (system-wide, TcpExt
# ListenOverflows). A dropped handshake is retried by the client after about 1 s, so overflows show up as
# latencies of 1 s and more and as wrk timeouts.
listen_overflows() {
  awk '$1 == "TcpExt:" { if (!n) { for (i = 2; i <= NF; i++) col[$i] = i; n = 1 } else print $col["ListenOverflows"] }' \
    /proc/net/netstat 2>/dev/null || echo 0
}

declare -A RPS P50 P99 RAW CPU_US OVERFLOWS ERRORS IDLE_RESULT
run_wrk() {  # name conns url token pid...: the processes that serve url
  local name=$1 conns=$2 url=$3 token=$4 out line c0 c1 o0 o1 key="$1@$2"
  shift 4
  local pids=("$@")
  echo "== $name: $url (warm-up $WARMUP, then ${DURATION} with -t$THREADS -c$conns)" >&2
  # wrk runs in the background and the script waits for it, so a signal reaches the trap at once.
  BENCH_TOKEN=$token wrk -t"$THREADS" -c"$conns" -d"$WARMUP" -s "$LUA_SCRIPT" "$url" >/dev/null &
  WRK_PID=$!
  wait "$WRK_PID" || die "$name: wrk warm-up failed"
  c0=$(cpu_ticks "${pids[@]}") || die "$name: cannot read the server's CPU time"
  o0=$(listen_overflows)
  BENCH_TOKEN=$token wrk -t"$THREADS" -c"$conns" -d"$DURATION" --latency -s "$LUA_SCRIPT" "$url" \
    >"$WORK/wrk.out" &
  WRK_PID=$!
  wait "$WRK_PID" || die "$name: wrk failed"
  WRK_PID=""
  c1=$(cpu_ticks "${pids[@]}") || die "$name: cannot read the server's CPU time"
  o1=$(listen_overflows)
  OVERFLOWS[$key]=$((o1 - o0))
  RAW[$key]=$(<"$WORK/wrk.out")
  echo "listen queue overflows during the run (system-wide): ${OVERFLOWS[$key]}" >&2
  out=${RAW[$key]}
  echo "$out" >&2
  line=$(grep '^BENCH_RESULT ' <<<"$out") || die "$name: wrk printed no BENCH_RESULT line"
  local -A f
  for kv in ${line#BENCH_RESULT }; do f[${kv%%=*}]=${kv#*=}; done
  ((f[requests] > 0)) || die "$name: no requests completed"
  ((f[non200] == 0)) || die "$name: ${f[non200]} responses were not 200 (first: ${f[first_non200]})"
  # Socket errors and time-outs are reported, not fatal: at high concurrency they are the finding.
  ERRORS[$key]="${f[connect_errors]}/${f[read_errors]}/${f[write_errors]}/${f[timeouts]}"
  RPS[$key]=${f[rps]}
  CPU_US[$key]=$(awk -v t=$((c1 - c0)) -v hz="$CLK_TCK" -v n="${f[requests]}" \
    'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
  P50[$key]=${f[p50_us]}
  P99[$key]=${f[p99_us]}
}

NGINX_WORKERS=($(pgrep -P "$NGINX_PID")) || die "nginx has no worker process"
for c in $CONNS; do
  run_wrk nginx "$c" "$NGINX/healthz.json" "" "$NGINX_PID" "${NGINX_WORKERS[@]}"
  run_wrk healthz "$c" "$EDGE/healthz" "" "$EDGE_PID"
  run_wrk auth "$c" "$EDGE/api/companies/demo" "$TOKEN" "$EDGE_PID"
done

# --- idle connections: IDLE keep-alive sockets held, PROBES new requests timed meanwhile ----------------
idle_probe() {  # name url [token]
  echo "== idle probe: $1, $IDLE idle connections, $PROBES probes" >&2
  IDLE_RESULT[$1]=$(python3 "$ROOT/bench/idle_probe.py" "$2" "$IDLE" "$PROBES" "${3:-}" | grep '^IDLE_RESULT ') ||
    die "$1: the idle probe printed no result"
  echo "${IDLE_RESULT[$1]}" >&2
}
if ((IDLE > 0)); then
  idle_probe nginx "$NGINX/healthz.json"
  idle_probe edge "$EDGE/api/companies/demo" "$TOKEN"
fi

# Edge log lines at warn or above during the run would mean something went wrong (and cost time).
EDGE_WARNINGS=$(grep -c . "$WORK/edge.err" || true)

# --- report -------------------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
ms() { awk -v u="$1" 'BEGIN { printf "%.2f", u / 1000 }'; }
edge_cache=$(dirname "$(dirname "$EDGE_BIN")")/CMakeCache.txt
build_type=$( [[ -f $edge_cache ]] && sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$edge_cache" || echo unknown)

summary() {
  echo "# HTTP load, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "machine:   $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
  echo "kernel:    $(uname -sr)"
  echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) (at the end of the run)"
  echo "wrk:       $(wrk -v 2>&1 | head -n 1 || true)"
  echo "nginx:     $("$NGINX_BIN" -v 2>&1 | head -n 1)"
  echo "g++:       $(g++ --version 2>/dev/null | head -n 1 || echo none)"
  echo "edge:      $EDGE_BIN (CMAKE_BUILD_TYPE=${build_type:-unknown}, --threads ${EDGE_THREADS:-default})"
  echo "wrk args:  -t$THREADS -c{$CONNS} -d$DURATION (warm-up $WARMUP), script bench/wrk_check.lua"
  echo "bodies:    nginx $SIZE_NGINX B, /healthz $SIZE_HEALTH B, /api/companies/demo $SIZE_AUTH B"
  echo "edge log:  $EDGE_WARNINGS line(s) at warn or above"
  echo
  local fmt='%-40s %6s %12s %9s %9s %9s %14s %10s %12s\n'
  printf "$fmt" target conns "requests/s" "p50 ms" "p99 ms" "vs nginx" "server CPU us" "overflows" "errors c/r/w/t"
  local c
  for c in $CONNS; do
    printf "$fmt" "nginx static healthz.json" "$c" "${RPS[nginx@$c]}" "$(ms "${P50[nginx@$c]}")" \
      "$(ms "${P99[nginx@$c]}")" "1.000" "${CPU_US[nginx@$c]}" "${OVERFLOWS[nginx@$c]}" "${ERRORS[nginx@$c]}"
    printf "$fmt" "edge GET /healthz" "$c" "${RPS[healthz@$c]}" "$(ms "${P50[healthz@$c]}")" \
      "$(ms "${P99[healthz@$c]}")" "$(ratio "${RPS[healthz@$c]}" "${RPS[nginx@$c]}")" "${CPU_US[healthz@$c]}" \
      "${OVERFLOWS[healthz@$c]}" "${ERRORS[healthz@$c]}"
    printf "$fmt" "edge GET /api/companies/demo (Bearer)" "$c" "${RPS[auth@$c]}" "$(ms "${P50[auth@$c]}")" \
      "$(ms "${P99[auth@$c]}")" "$(ratio "${RPS[auth@$c]}" "${RPS[nginx@$c]}")" "${CPU_US[auth@$c]}" \
      "${OVERFLOWS[auth@$c]}" "${ERRORS[auth@$c]}"
  done
  echo
  echo "server CPU us: the serving process's user+system CPU time per request during the measured run"
  echo "overflows: connections the kernel dropped at a full listen queue during the run (system-wide);"
  echo "  each costs the client a retransmission after about 1 s"
  echo "errors: wrk's connect/read/write errors and time-outs (2 s)"
  if ((IDLE > 0)); then
    echo
    echo "idle probe ($IDLE keep-alive connections held, $PROBES new requests timed meanwhile, bench/idle_probe.py):"
    echo "  nginx: ${IDLE_RESULT[nginx]#IDLE_RESULT }"
    echo "  edge:  ${IDLE_RESULT[edge]#IDLE_RESULT }"
  fi
}

mkdir -p "$RESULTS_DIR"
STAMP=$(date -u +%Y%m%dT%H%M%SZ)
OUT=$RESULTS_DIR/http-$STAMP.txt
{
  summary
  echo
  for c in $CONNS; do
    for name in nginx healthz auth; do
      echo "--- wrk output: $name, $c connections"
      echo "${RAW[$name@$c]}"
    done
  done
} >"$OUT"
echo
summary
echo
echo "summary written to $OUT"
