#!/usr/bin/env bash
# Installs what is missing, builds the platform (native and wasm) and starts it on 127.0.0.1:8080 with an
# LMDB data directory (./data) holding demo data: a company, its owner and an access token, printed below.
#
#   scripts/start.sh                 # EDGE_LISTEN, EDGE_DATA_DIR and every `edge --help` variable apply
#   scripts/start.sh --log-level debug
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

step "Packages"
ensure_packages
ensure_npm_packages  # mjml-browser, the dashboard's MJML compiler (docs/dashboard.md)
step "Native build"
build_native
step "WebAssembly build"
build_wasm

step "Starting the platform (Ctrl-C stops it)"
cd "$ROOT"
exec "$NATIVE_BUILD/edge/edge" --demo --listen "${EDGE_LISTEN:-127.0.0.1:8080}" --data-dir "${EDGE_DATA_DIR:-$ROOT/data}" \
  --web-root "$ROOT/web" --wasm-root "$WASM_BUILD/wasm" --bindings-root "$ROOT/bindings" \
  --node-modules-root "$ROOT/node_modules" "$@"
