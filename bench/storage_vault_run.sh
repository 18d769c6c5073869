#!/usr/bin/env bash
# Issue 14's four figures in one run on one machine (docs/performance.md, "Storage, CDN and vault in one
# run"): upload MB/s against dd, CDN variant hits against nginx, variant generation time per megapixel and
# vault fetch requests/s, one after another with the Release build, each printed as its own script prints
# it, between a header naming the machine and its load and a footer with the load again.
#
# Builds the Release tree first (build/bench: edge, edge-admin, cdn_variant_bench) unless NO_BUILD=1.
# Each benchmark keeps its own environment variables (see its header); this script only picks the binary.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RELEASE=$ROOT/build/bench

if [[ ${NO_BUILD:-0} != 1 ]]; then
  echo "== building the Release tree (build/bench)" >&2
  cmake -S "$ROOT" -B "$RELEASE" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
  cmake --build "$RELEASE" --target edge edge-admin cdn_variant_bench >/dev/null
fi
export EDGE_BIN=$RELEASE/edge/edge

machine() {
  echo "$(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//'));" \
    "load average $(cut -d' ' -f1-3 /proc/loadavg); Linux $(uname -r); $(git -C "$ROOT" rev-parse --short HEAD)"
}

echo "== start: $(machine)"
echo
echo "== 1. uploads against dd (bench/storage_upload_load.sh)"
"$ROOT/bench/storage_upload_load.sh"
echo
echo "== 2. CDN variant hits against nginx, one event loop each (bench/cdn_hit_load.sh)"
"$ROOT/bench/cdn_hit_load.sh"
echo
echo "== 2b. the same with two event loops each (EVENT_LOOPS=2: the edge's default on 2 cores)"
EVENT_LOOPS=2 "$ROOT/bench/cdn_hit_load.sh"
echo
echo "== 3. variant generation per megapixel (cdn_variant_bench)"
"$RELEASE/bench/cdn_variant_bench" --runs 3 --sizes 1600x1200,4000x3000
echo
echo "== 4. vault fetch requests/s (bench/vault_fetch.sh)"
"$ROOT/bench/vault_fetch.sh"
echo
echo "== end: $(machine)"
