#!/usr/bin/env bash
# OAuth load: the edge's OAuth provider against panva's oidc-provider (the peer in
# ../shared/bench/oidc-peer beside the repository), same wrk scripts, same settings, one run on one machine. See bench/README.md.
#
# Builds nothing: expects the Release build of the edge and of oauth_mint in build/bench:
#   cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release && cmake --build build/bench
# Steps: openssl speed rsa2048 (the signing bound of the token flows); oauth_mint pre-mints pools into a
# temporary data directory (RS256 key made with openssl there); the edge starts on it with limiters that never
# refuse; the peer's run.sh measures the edge (TARGET=...), then, edge stopped, the peer itself; a table of
# both. Fails when any run had a failed request or an exhausted pool (run.sh exits 1 then).
#
# Environment:
#   EDGE_BIN, MINT_BIN  (default build/bench/edge/edge, build/bench/bench/oauth_mint)
#   PEER_SRC            the peer's sources (default ../shared/bench/oidc-peer beside the repository, read-only)
#   PEER_DIR            its working copy with node_modules (default build/oidc-peer, git-ignored; copied from
#                       PEER_SRC and `npm ci`'d when missing or when PEER_SRC's package-lock.json changed)
#   THREADS CONNS DURATION WARMUP   wrk settings, both targets (default 1, 16, 10s, 3s)
#   EDGE_FLOWS          (default "introspect userinfo refresh code")
#   PEER_FLOWS          (default "introspect userinfo refresh code refresh_norotate")
#   ACCESS_POOL REFRESH_POOL CODE_POOL REFRESH_WARM CODE_WARM   the edge's pools
#                       (default 1000 40000 40000 10000 10000); the peer mints its own (run.sh's defaults,
#                       or PEER_ACCESS_POOL PEER_REFRESH_POOL PEER_CODE_POOL)
#   MINT_THREADS        concurrent oauth_mint callers (default 256: group commit shares the fsyncs)
#   EDGE_THREADS        edge --threads (default: the edge's own, 64)
#   RESULTS_DIR         where the summary goes (default bench/results)
#   SKIP_PEER=1         measure the edge only
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EDGE_BIN=${EDGE_BIN:-$ROOT/build/bench/edge/edge}
MINT_BIN=${MINT_BIN:-$ROOT/build/bench/bench/oauth_mint}
PEER_SRC=${PEER_SRC:-$(cd "$ROOT/.." && pwd)/shared/bench/oidc-peer}
PEER_DIR=${PEER_DIR:-$ROOT/build/oidc-peer}
export THREADS=${THREADS:-1} CONNS=${CONNS:-16} DURATION=${DURATION:-10s} WARMUP=${WARMUP-3s}
EDGE_FLOWS=${EDGE_FLOWS:-introspect userinfo refresh code}
PEER_FLOWS=${PEER_FLOWS:-introspect userinfo refresh code refresh_norotate}
ACCESS_POOL=${ACCESS_POOL:-1000}
REFRESH_POOL=${REFRESH_POOL:-40000}
CODE_POOL=${CODE_POOL:-40000}
REFRESH_WARM=${REFRESH_WARM:-10000}
CODE_WARM=${CODE_WARM:-10000}
MINT_THREADS=${MINT_THREADS:-256}
EDGE_THREADS=${EDGE_THREADS:-}
RESULTS_DIR=${RESULTS_DIR:-$ROOT/bench/results}
SKIP_PEER=${SKIP_PEER:-0}

die() {
  echo "oauth_load: $*" >&2
  exit 1
}

for bin in "$EDGE_BIN" "$MINT_BIN"; do
  [[ -x $bin ]] || die "$bin not found; build the Release tree first:
    cmake -S $ROOT -B $ROOT/build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
    cmake --build $ROOT/build/bench --target edge oauth_mint"
done
command -v wrk >/dev/null || die "wrk not found (apt-get install wrk)"
command -v openssl >/dev/null || die "openssl not found"
command -v curl >/dev/null || die "curl not found (apt-get install curl)"
command -v ss >/dev/null || die "ss not found (apt-get install iproute2)"
[[ $SKIP_PEER == 1 ]] || command -v node >/dev/null || die "node not found (the peer runs on node)"
[[ -f $PEER_SRC/run.sh ]] || die "no peer at $PEER_SRC"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/oauth_load.XXXXXX")
EDGE_PID=""

stop_edge() {
  [[ -z $EDGE_PID ]] && return 0
  kill -TERM "$EDGE_PID" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$EDGE_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$EDGE_PID" 2>/dev/null || true
  wait "$EDGE_PID" 2>/dev/null || true
  EDGE_PID=""
}
cleanup() {
  local rc=$?
  trap - EXIT INT TERM
  stop_edge
  if [[ $rc -ne 0 ]]; then
    echo "oauth_load: failed (exit $rc); logs:" >&2
    for f in "$WORK/edge.err" "$WORK/results-edge/peer-server.log" "$WORK/results-peer/peer-server.log"; do
      [[ -s $f ]] && { echo "--- $f (last 20 lines)" >&2; tail -n 20 "$f" >&2; }
    done
  fi
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- the peer's working copy (its node_modules stay out of this repository) ---------------------------------
if [[ $SKIP_PEER != 1 ]]; then
  if [[ ! -d $PEER_DIR/node_modules/oidc-provider ]] ||
    ! cmp -s "$PEER_SRC/package-lock.json" "$PEER_DIR/package-lock.json" ||
    ! diff -rq -x node_modules -x results -x tokens "$PEER_SRC" "$PEER_DIR" >/dev/null 2>&1; then
    echo "== preparing the peer in $PEER_DIR (copy of $PEER_SRC, npm ci)" >&2
    mkdir -p "$PEER_DIR"
    cp -r "$PEER_SRC/." "$PEER_DIR/"
    chmod -R u+w "$PEER_DIR"
    (cd "$PEER_DIR" && npm ci --no-audit --no-fund >/dev/null) || die "npm ci failed in $PEER_DIR"
  fi
fi
# Server CPU per request: run.sh calls `wrk` from PATH; bench/wrk_cpu.sh stands in front of the real one.
export REAL_WRK CPU_LOG=$WORK/cpu.log
REAL_WRK=$(command -v wrk)
mkdir -p "$WORK/bin"
ln -s "$ROOT/bench/wrk_cpu.sh" "$WORK/bin/wrk"
CLK_TCK=$(getconf CLK_TCK)

RUN_SH=$PEER_DIR/run.sh
[[ $SKIP_PEER == 1 && ! -x $RUN_SH ]] && RUN_SH=$PEER_SRC/run.sh  # the wrk scripts need no node_modules
# run.sh writes results/ and tokens/ next to itself unless told otherwise; the read-only source cannot take them.

# --- the signing bound ----------------------------------------------------------------------------------------
echo "== openssl speed -seconds 3 rsa2048 (one process), then -multi $(nproc)" >&2
openssl speed -seconds 3 rsa2048 >"$WORK/speed1.txt" 2>&1 || die "openssl speed failed"
openssl speed -seconds 3 -multi "$(nproc)" rsa2048 >"$WORK/speedN.txt" 2>&1 || die "openssl speed -multi failed"
sign_rate() { awk '$1 == "rsa" && $2 == "2048" { v = $(NF - 1) } END { print v }' "$1"; }
SIGN1=$(sign_rate "$WORK/speed1.txt")
SIGNN=$(sign_rate "$WORK/speedN.txt")
[[ -n $SIGN1 && -n $SIGNN ]] || die "cannot read sign/s from openssl speed"

# --- pools ------------------------------------------------------------------------------------------------------
mkdir -p "$WORK/data" "$WORK/pools"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$WORK/rsa.pem" 2>/dev/null ||
  die "openssl genpkey failed"
echo "== oauth_mint: access $ACCESS_POOL, refresh $REFRESH_POOL (+$REFRESH_WARM warm-up), code $CODE_POOL" \
  "(+$CODE_WARM warm-up), $MINT_THREADS threads" >&2
mint_start=$(date +%s.%N)
"$MINT_BIN" --data-dir "$WORK/data" --out "$WORK/pools" --threads "$MINT_THREADS" --access "$ACCESS_POOL" \
  --refresh "$REFRESH_POOL" --code "$CODE_POOL" --refresh-warm "$REFRESH_WARM" --code-warm "$CODE_WARM" \
  2>&1 | tee "$WORK/mint.log" >&2 || die "oauth_mint failed"
MINT_S=$(awk -v a="$mint_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
MINT_WRITES=$(sed -n 's/^oauth_mint: \([0-9]*\) durable writes.*/\1/p' "$WORK/mint.log")

# The token flows commit durably (fsync) on every grant: what the disk gives at the moment matters.
dsync_probe() {
  local t0 t1
  t0=$(date +%s.%N)
  dd if=/dev/zero of="$WORK/data/dsync.probe" bs=4k count=200 oflag=dsync 2>/dev/null || { echo "-"; return; }
  t1=$(date +%s.%N)
  rm -f "$WORK/data/dsync.probe"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", 200 / (b - a) }'
}
DSYNC_BEFORE=$(dsync_probe)

# --- edge ---------------------------------------------------------------------------------------------------------
edge_args=(--listen 127.0.0.1:0 --port-file "$WORK/edge.port" --data-dir "$WORK/data"
  --rate-limit 100000000/1s --oauth-token-rate-limit 100000000/1s --log-level warn)
[[ -n $EDGE_THREADS ]] && edge_args+=(--threads "$EDGE_THREADS")
OAUTH_RSA_PRIVATE_KEY=$(<"$WORK/rsa.pem") "$EDGE_BIN" "${edge_args[@]}" >"$WORK/edge.out" 2>"$WORK/edge.err" &
EDGE_PID=$!
for _ in $(seq 200); do
  [[ -s $WORK/edge.port ]] && break
  kill -0 "$EDGE_PID" 2>/dev/null || die "edge exited during start-up"
  sleep 0.1
done
[[ -s $WORK/edge.port ]] || die "edge did not write its port file within 20 s"
EDGE=http://127.0.0.1:$(tr -d '[:space:]' <"$WORK/edge.port")
curl -sf "$EDGE/.well-known/jwks.json" | grep -q '"RS256"' || die "edge publishes no RS256 key"

# run_flows name flows results_dir [env...]: run.sh's output to results_dir/run.out; its RESULT lines checked.
run_flows() {
  local name=$1 flows=$2 dir=$3
  shift 3
  mkdir -p "$dir"
  echo "== $name: $flows (wrk -t$THREADS -c$CONNS -d$DURATION, warm-up ${WARMUP:-none})" >&2
  local rc=0
  : >"$CPU_LOG"
  env "$@" PATH="$WORK/bin:$PATH" FLOWS="$flows" RESULTS="$dir" "$RUN_SH" >"$dir/run.out" 2>&1 || rc=$?
  cp "$CPU_LOG" "$dir/cpu.log"
  cat "$dir/run.out" >&2
  ((rc == 0)) || die "$name: run.sh failed (exit $rc): a request failed or a pool ran out"
  awk '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); if (kv[1] == "bad" && kv[2] != 0) bad = 1 } }
       END { exit bad }' "$dir"/summary-*.txt || die "$name: some requests failed"
}

set -a
# shellcheck disable=SC1091
source "$WORK/pools/client.env"
set +a
run_flows edge "$EDGE_FLOWS" "$WORK/results-edge" TARGET="$EDGE" TOKENS_DIR="$WORK/pools"
EDGE_WARNINGS=$(grep -c . "$WORK/edge.err" || true)
stop_edge
DSYNC_AFTER=$(dsync_probe)

if [[ $SKIP_PEER != 1 ]]; then
  peer_env=(TOKENS_DIR="$WORK/peer-tokens" PEER_PORT="${PEER_PORT:-3100}")
  [[ -n ${PEER_ACCESS_POOL:-} ]] && peer_env+=(ACCESS_POOL="$PEER_ACCESS_POOL")
  [[ -n ${PEER_REFRESH_POOL:-} ]] && peer_env+=(REFRESH_POOL="$PEER_REFRESH_POOL")
  [[ -n ${PEER_CODE_POOL:-} ]] && peer_env+=(CODE_POOL="$PEER_CODE_POOL")
  # The peer's own client and paths: run.sh sets them when TARGET is empty.
  run_flows peer "$PEER_FLOWS" "$WORK/results-peer" -u TARGET -u CLIENT_ID -u CLIENT_SECRET -u REDIRECT_URI \
    -u CODE_VERIFIER -u ACCESS_POOL -u REFRESH_POOL -u CODE_POOL "${peer_env[@]}"
fi

# --- report ---------------------------------------------------------------------------------------------------------
field() {  # results_dir flow key
  awk -v flow="$2" -v key="$3" '/^RESULT/ { delete v; for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
    if (v["flow"] == flow) print v[key] }' "$1"/summary-*.txt 2>/dev/null | tail -n 1 || true
}
cpu_us() {  # results_dir flow-position: the server's CPU us per request in that flow's measured run
  awk -v want="$2" -v hz="$CLK_TCK" '{ key = $1 " " $2; if (!(key in seen)) seen[key] = ++n; t[key] = $3; r[key] = $4 }
    END { for (k in seen) if (seen[k] == want && r[k] > 0) printf "%.0f", t[k] / hz * 1e6 / r[k] }' \
    "$1/cpu.log" 2>/dev/null || true
}
flow_position() {  # flows flow: where flow stands in the list (each flow is one script and server pid)
  local i=0 f
  for f in $1; do
    i=$((i + 1))
    [[ $f == "$2" ]] && { echo "$i"; return; }
  done
  echo 0
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "" || b == "" || b == 0) print "-"; else printf "%.2f", a / b }'; }
edge_cache=$(dirname "$(dirname "$EDGE_BIN")")/CMakeCache.txt
build_type=$([[ -f $edge_cache ]] && sed -n 's/^CMAKE_BUILD_TYPE:STRING=//p' "$edge_cache" || echo unknown)
peer_version=$([[ -f $PEER_DIR/node_modules/oidc-provider/package.json ]] &&
  node -p "require('$PEER_DIR/node_modules/oidc-provider/package.json').version" 2>/dev/null || echo "-")

summary() {
  echo "# OAuth load, edge vs oidc-provider, $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo
  echo "machine:   $(nproc) CPUs, $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)"
  echo "kernel:    $(uname -sr)"
  echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) (at the end of the run)"
  echo "wrk:       $(wrk -v 2>&1 | head -n 1 | cut -d' ' -f1-2 || true), -t$THREADS -c$CONNS -d$DURATION," \
    "warm-up ${WARMUP:-none}, scripts $PEER_SRC/lua"
  echo "edge:      $EDGE_BIN (CMAKE_BUILD_TYPE=${build_type:-unknown}, --threads ${EDGE_THREADS:-default}," \
    "RS256 id_tokens), $EDGE_WARNINGS edge log line(s) at warn or above"
  echo "peer:      oidc-provider $peer_version on node $(node --version 2>/dev/null || echo -), one process"
  echo "openssl:   $(openssl version | cut -d' ' -f1-2): rsa2048 sign/s $SIGN1 (one process)," \
    "$SIGNN ($(nproc) processes, -multi)"
  echo "disk:      4 KiB dd oflag=dsync next to the edge's data: $DSYNC_BEFORE writes/s before the edge's run," \
    "$DSYNC_AFTER after"
  echo "pools:     edge access $ACCESS_POOL, refresh $REFRESH_POOL (+$REFRESH_WARM), code $CODE_POOL" \
    "(+$CODE_WARM); minted in $MINT_S s ($MINT_WRITES durable writes, $MINT_THREADS threads)"
  echo
  local fmt='%-17s %11s %11s %9s %16s %16s %11s %11s\n'
  printf "$fmt" flow "edge ok_rps" "peer ok_rps" "edge/peer" "edge p50/p99 ms" "peer p50/p99 ms" "edge CPU us" \
    "peer CPU us"
  local flow e p ec pc
  for flow in introspect userinfo refresh code refresh_norotate; do
    e=$(field "$WORK/results-edge" "$flow" ok_rps)
    p=$(field "$WORK/results-peer" "$flow" ok_rps)
    [[ -z $e && -z $p ]] && continue
    ec=$(cpu_us "$WORK/results-edge" "$(flow_position "$EDGE_FLOWS" "$flow")")
    pc=$(cpu_us "$WORK/results-peer" "$(flow_position "$PEER_FLOWS" "$flow")")
    printf "$fmt" "$flow" "${e:--}" "${p:--}" "$(ratio "$e" "$p")" \
      "$(field "$WORK/results-edge" "$flow" p50_ms)/$(field "$WORK/results-edge" "$flow" p99_ms)" \
      "$(field "$WORK/results-peer" "$flow" p50_ms)/$(field "$WORK/results-peer" "$flow" p99_ms)" \
      "${ec:--}" "${pc:--}"
  done
  echo
  echo "CPU us: the serving process's user+system CPU time per request (all threads) in the measured run"
  echo "id_tokens in token responses: edge refresh $(field "$WORK/results-edge" refresh id_token_in) of" \
    "$(field "$WORK/results-edge" refresh ok), code $(field "$WORK/results-edge" code id_token_in) of" \
    "$(field "$WORK/results-edge" code ok); peer refresh $(field "$WORK/results-peer" refresh id_token_in) of" \
    "$(field "$WORK/results-peer" refresh ok), code $(field "$WORK/results-peer" code id_token_in) of" \
    "$(field "$WORK/results-peer" code ok)"
  echo
  local code_rps
  code_rps=$(field "$WORK/results-edge" code ok_rps)
  echo "aims: introspect and userinfo >= 5x the peer; code exchange >= 80 % of the RSA-2048 signing rate"
  echo "  introspect edge/peer: $(ratio "$(field "$WORK/results-edge" introspect ok_rps)" \
    "$(field "$WORK/results-peer" introspect ok_rps)")  userinfo edge/peer: $(ratio \
    "$(field "$WORK/results-edge" userinfo ok_rps)" "$(field "$WORK/results-peer" userinfo ok_rps)")"
  if [[ -n $code_rps ]]; then
    echo "  code ok_rps $code_rps vs rsa2048 sign/s $SIGN1 (one process): $(ratio "$code_rps" "$SIGN1")" \
      "(aim 0.80, i.e. $(awk -v s="$SIGN1" 'BEGIN { printf "%.0f", 0.8 * s }')/s)"
    echo "  code ok_rps $code_rps vs rsa2048 sign/s $SIGNN ($(nproc) processes): $(ratio "$code_rps" "$SIGNN")" \
      "(aim 0.80, i.e. $(awk -v s="$SIGNN" 'BEGIN { printf "%.0f", 0.8 * s }')/s)"
  fi
}

mkdir -p "$RESULTS_DIR"
OUT=$RESULTS_DIR/oauth-$(date -u +%Y%m%dT%H%M%SZ).txt
{
  summary
  echo
  echo "--- oauth_mint"
  cat "$WORK/mint.log"
  echo "--- openssl speed rsa2048 (one process)"
  tail -n 2 "$WORK/speed1.txt"
  echo "--- openssl speed -multi $(nproc) rsa2048"
  tail -n 2 "$WORK/speedN.txt"
  for side in edge peer; do
    [[ -d $WORK/results-$side ]] || continue
    echo "--- run.sh against the $side"
    cat "$WORK/results-$side/run.out"
    for f in "$WORK/results-$side"/*.txt; do
      [[ $f == */summary-* ]] && continue
      echo "--- wrk output, $side: $(basename "$f" .txt)"
      cat "$f"
    done
  done
} >"$OUT"
echo
summary
echo
echo "summary written to $OUT"
