#!/usr/bin/env bash
# Env vault fetch throughput (docs/env-vault.md, docs/performance.md "Env vault"): requests/s of
# POST /api/env-vault/fetch (20 sealed variables opened per request, and an audit entry written durably per
# request) and of GET /api/env-vault/public, with wrk at a few concurrencies, against an edge started here.
#
# Builds nothing: expects build/native/edge/edge and edge-admin beside it, or $EDGE_BIN (a Release build for
# meaningful figures). Starts its own edge on a free loopback port with a temporary data directory.
#
# Environment: EDGE_BIN, CONNS (default "16 64"), DURATION (default 10s), THREADS (wrk threads, default 2).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
EDGE_BIN=${EDGE_BIN:-$ROOT/build/native/edge/edge}
ADMIN_BIN=${ADMIN_BIN:-$(dirname "$EDGE_BIN")/edge-admin}
CONNS=${CONNS:-16 64}
DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
LUA=$ROOT/bench/vault_fetch.lua

die() { echo "vault_fetch: $*" >&2; exit 1; }
[[ -x $EDGE_BIN ]] || die "edge binary not found at $EDGE_BIN"
[[ -x $ADMIN_BIN ]] || die "edge-admin not found at $ADMIN_BIN"
command -v wrk >/dev/null || die "wrk not found (apt-get install wrk)"
command -v curl >/dev/null || die "curl not found"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/vault_fetch.XXXXXX")
EDGE_PID=""
cleanup() {
  local rc=$?
  [[ -n $EDGE_PID ]] && kill -TERM "$EDGE_PID" 2>/dev/null && wait "$EDGE_PID" 2>/dev/null || true
  [[ $rc -ne 0 && -s $WORK/edge.err ]] && tail -n 20 "$WORK/edge.err" >&2
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT

DATA=$WORK/data
"$ADMIN_BIN" --data-dir "$DATA" company create --slug bench --name Bench >/dev/null
MANAGE=$("$ADMIN_BIN" --data-dir "$DATA" token create --company bench --name bench --permission env-vault.manage |
  grep -o 'stk_[0-9a-f]*' | head -n 1)
[[ -n $MANAGE ]] || die "edge-admin printed no access token"
"$EDGE_BIN" --listen 127.0.0.1:0 --port-file "$WORK/edge.port" --data-dir "$DATA" --rate-limit 100000000/1s \
  --log-level warn >"$WORK/edge.out" 2>"$WORK/edge.err" &
EDGE_PID=$!
for _ in $(seq 200); do [[ -s $WORK/edge.port ]] && break; sleep 0.1; done
[[ -s $WORK/edge.port ]] || die "edge did not start"
EDGE=http://127.0.0.1:$(tr -d '[:space:]' <"$WORK/edge.port")

json() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d['data']$1)"; }
PROJECT=$(curl -sf -H "Authorization: Bearer $MANAGE" -H 'Content-Type: application/json' \
  -d '{"name":"bench"}' "$EDGE/api/companies/bench/env-vault/projects" | json "['id']")
ENV_TOKEN=$(curl -sf -H "Authorization: Bearer $MANAGE" -H 'Content-Type: application/json' \
  -d '{"name":"bench","environment":"production"}' \
  "$EDGE/api/companies/bench/env-vault/projects/$PROJECT/tokens" | json "['token']")
BODY=$(python3 -c 'import json; print(json.dumps({"variables": {f"VAR_{i:02d}": {"value": "x" * 40, "public": i < 5} for i in range(20)}}))')
curl -sf -H "Authorization: Bearer $ENV_TOKEN" -H 'Content-Type: application/json' -d "$BODY" \
  "$EDGE/api/env-vault/push" >/dev/null || die "push failed"

echo "machine: $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "edge: $EDGE_BIN"
for target in fetch public; do
  for c in $CONNS; do
    method=POST
    [[ $target == public ]] && method=GET
    line=$(VAULT_METHOD=$method BENCH_TOKEN=$ENV_TOKEN wrk -t "$THREADS" -c "$c" -d "$DURATION" -s "$LUA" \
      "$EDGE/api/env-vault/$target" | grep '^BENCH_RESULT' || true)
    echo "$target c=$c ${line#BENCH_RESULT }"
  done
done
