#!/usr/bin/env bash
# Storage upload throughput against dd (docs/performance.md, "Storage: uploads and CDN hits"): FILES raw
# uploads of SIZE_MB each (`POST /api/companies/{slug}/buckets/{bucket}/media?filename=...`, the file as an
# application/octet-stream body, streamed by curl) to an edge on loopback, first one after another, then
# PARALLEL at a time; against `dd ... bs=1M conv=fsync` writing the same bytes, the same number of files, the
# same way (one after another, then PARALLEL at a time) into the edge's data directory, so onto the same
# filesystem. An upload is acknowledged only after its bytes are fsync'd and its record committed
# (docs/storage-api.md), so dd with fsync is the floor to compare with. Prints MB/s of each (MB = 10^6 bytes,
# wall time of the whole batch), the edge/dd ratio and the edge's CPU time per MB. Not run by the tests.
#
# Builds nothing: expects the edge binary at build/native/edge/edge or $EDGE_BIN, edge-admin beside it.
#
# Environment:
#   EDGE_BIN   edge binary                                       (default build/native/edge/edge)
#   FILES      files per batch                                   (default 8)
#   SIZE_MB    size of each file in MiB                          (default 64)
#   PARALLEL   uploads (and dd processes) at once, second batch  (default 4)
#   TMPDIR     where the edge's data directory (and dd's files) go: the disk measured (default /tmp)
#   SRC_DIR    where the source file is made                     (default /dev/shm when present, so reading it
#                                                                 costs no disk time on either side)
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source "$ROOT/bench/lib.sh"
EDGE_BIN=${EDGE_BIN:-$ROOT/build/native/edge/edge}
ADMIN_BIN=$(dirname "$EDGE_BIN")/edge-admin
FILES=${FILES:-8}
SIZE_MB=${SIZE_MB:-64}
PARALLEL=${PARALLEL:-4}
if [[ -z ${SRC_DIR:-} ]]; then
  if [[ -d /dev/shm && -w /dev/shm ]]; then SRC_DIR=/dev/shm; else SRC_DIR=${TMPDIR:-/tmp}; fi
fi

die() {
  echo "storage_upload_load: $*" >&2
  exit 1
}

[[ -x $EDGE_BIN ]] || die "edge binary not found at $EDGE_BIN"
[[ -x $ADMIN_BIN ]] || die "edge-admin not found at $ADMIN_BIN"
command -v curl >/dev/null || die "curl not found"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/storage_upload_load.XXXXXX")
SRC=$(mktemp "$SRC_DIR/storage_upload_src.XXXXXX")
EDGE_PID=""
cleanup() {
  local rc=$?
  trap - EXIT
  [[ -n $EDGE_PID ]] && kill -TERM "$EDGE_PID" 2>/dev/null || true
  [[ -n $EDGE_PID ]] && wait "$EDGE_PID" 2>/dev/null || true
  [[ $rc -ne 0 && -s $WORK/edge.err ]] && tail -n 20 "$WORK/edge.err" >&2
  rm -rf "$WORK" "$SRC"
  exit "$rc"
}
trap cleanup EXIT

# --- the source bytes: random, so nothing on the way can compress them -------------------------------------
head -c "$((SIZE_MB * 1048576))" /dev/urandom >"$SRC"
BYTES=$(stat -c %s "$SRC")
TOTAL=$((BYTES * FILES))

# --- edge with one company, one private bucket --------------------------------------------------------------
mkdir -p "$WORK/data"
ADMIN=("$ADMIN_BIN" --data-dir "$WORK/data" --json)
"${ADMIN[@]}" company create --slug bench --name "Bench Ltd." >/dev/null
TOKEN=$("${ADMIN[@]}" token create --company bench --name bench --permission storage.view \
  --permission buckets.create --permission media.upload | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
# Room for both batches with margin: the default quota (5 GB) is too small for larger settings.
"${ADMIN[@]}" storage quota --company bench --bytes "$((TOTAL * 3 + 1000000000))" >/dev/null
"$EDGE_BIN" --listen 127.0.0.1:0 --port-file "$WORK/edge.port" --data-dir "$WORK/data" --log-level warn \
  --rate-limit 100000000/1s --status-probe-workers 0 >"$WORK/edge.out" 2>"$WORK/edge.err" &
EDGE_PID=$!
for _ in $(seq 200); do [[ -s $WORK/edge.port ]] && break; sleep 0.1; done
[[ -s $WORK/edge.port ]] || die "the edge did not start"
EDGE=http://127.0.0.1:$(tr -d '[:space:]' <"$WORK/edge.port")
API=$EDGE/api/companies/bench
curl -sf -X POST -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' \
  -d '{"slug":"bench","visibility":"private"}' "$API/buckets" >/dev/null || die "bucket create failed"

now() { date +%s.%N; }

upload_one() {  # name: one raw upload; fails unless 201 with the right size
  local out
  out=$(curl -s -o "$WORK/resp.$1" -w '%{http_code}' -X POST -T "$SRC" -H 'Expect:' \
    -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/octet-stream' \
    "$API/buckets/bench/media?filename=$1.bin&contentType=application/octet-stream&isPublic=false")
  [[ $out == 201 ]] || die "upload $1: HTTP $out $(head -c 300 "$WORK/resp.$1")"
  grep -q "\"size\":$BYTES[,}]" "$WORK/resp.$1" || die "upload $1: size not $BYTES: $(head -c 300 "$WORK/resp.$1")"
}
dd_one() {  # name: the same bytes to a file in the data directory, fsync'd before dd exits
  dd if="$SRC" of="$WORK/data/dd.$1" bs=1M conv=fsync status=none
}

batch() {  # function prefix parallel -> seconds of wall time for FILES calls, at most `parallel` at once
  local fn=$1 prefix=$2 par=$3 t0 t1 i pids=()
  t0=$(now)
  for i in $(seq "$FILES"); do
    "$fn" "$prefix$i" &
    pids+=($!)
    if ((${#pids[@]} >= par)); then
      wait -n || die "$fn failed"
      local alive=()
      for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p"); done
      pids=("${alive[@]}")
    fi
  done
  for p in "${pids[@]}"; do wait "$p" || die "$fn failed"; done
  t1=$(now)
  python3 -c "print($t1 - $t0)"
}
mbps() { python3 -c "print(f'{$TOTAL / $1 / 1e6:.1f}')"; }

# 4 KiB synchronous writes next to the data: what the disk's fsync gives at this moment.
dsync_probe() {
  dd if=/dev/zero of="$WORK/data/probe" bs=4k count=200 oflag=dsync 2>&1 | tail -1 | sed 's/^.*copied, //'
  rm -f "$WORK/data/probe"
}

# A first upload so the bucket, the store's files and the blob folder exist before anything is timed.
upload_one warm
echo "files: $FILES x $BYTES bytes ($SIZE_MB MiB), parallel $PARALLEL; data on $(df --output=source,fstype "$WORK/data" | tail -1)"
echo "source in $SRC_DIR; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "4 KiB dsync probe before: $(dsync_probe)"
printf '%-10s %10s %10s %10s %7s %14s\n' mode edge_s edge_MB/s dd_MB/s ratio edge_cpu_ms/MB
for par in 1 "$PARALLEL"; do
  c0=$(cpu_ticks "$EDGE_PID")
  ES=$(batch upload_one "p$par-" "$par")
  c1=$(cpu_ticks "$EDGE_PID")
  DS=$(batch dd_one "p$par-" "$par")
  rm -f "$WORK"/data/dd.*
  EM=$(mbps "$ES")
  DM=$(mbps "$DS")
  label=$([[ $par == 1 ]] && echo sequential || echo "parallel$par")
  printf '%-10s %10.2f %10s %10s %7s %14s\n' "$label" "$ES" "$EM" "$DM" \
    "$(python3 -c "print(f'{$EM / $DM:.2f}')")" \
    "$(python3 -c "print(f'{($c1 - $c0) / $CLK_TCK * 1e3 / ($TOTAL / 1e6):.2f}')")"
done
echo "4 KiB dsync probe after: $(dsync_probe)"
