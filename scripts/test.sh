#!/usr/bin/env bash
# Installs what is missing, builds native and wasm, and runs every test suite:
#   native  ctest: core, store (with the SIGKILL crash test), edge API and executables
#   wasm    ctest: the same core suite compiled with Emscripten, under node
#   node    node:test over the JavaScript bindings of the wasm module
#   oidc    node:test with the openid-client library against a running edge (RS256 and HS256)
#   browser node:test + playwright-core driving Debian's Chromium against a running edge
# Ends with one line per suite and a total; exits non-zero when anything failed.
set -uo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$ROOT"

step "Packages"
ensure_packages || exit 1
ensure_npm_packages || exit 1
step "Native build"
build_native || die "native build failed"
step "WebAssembly build"
build_wasm || die "wasm build failed"

LOGS="$ROOT/build/test-logs"
mkdir -p "$LOGS"
declare -a SUMMARY=()
total_pass=0
total_fail=0

# Counts from ctest's "N% tests passed, F tests failed out of T".
run_ctest() {  # run_ctest <name> <build dir>
  local name="$1" dir="$2" log="$LOGS/$1.log"
  step "Suite: $name"
  ctest --test-dir "$dir" --output-on-failure -j2 2>&1 | tee "$log"
  local line failed total
  line=$(grep -E "tests passed, [0-9]+ tests? failed out of [0-9]+" "$log" | tail -1)
  if [[ -z "$line" ]]; then
    failed=1 total=1
  else
    failed=$(sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/' <<<"$line")
    total=$(sed -E 's/.* out of ([0-9]+).*/\1/' <<<"$line")
  fi
  record "$name" $((total - failed)) "$failed"
}

# Counts from node's test runner ("# pass N", "# fail N").
run_node() {  # run_node <name> <folder>
  local name="$1" dir="$2" log="$LOGS/$1.log"
  step "Suite: $name"
  node --test "$dir" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]} pass fail
  pass=$(grep -E "^# pass [0-9]+" "$log" | tail -1 | awk '{print $3}')
  fail=$(grep -E "^# fail [0-9]+" "$log" | tail -1 | awk '{print $3}')
  [[ -n "$pass" ]] || pass=0
  [[ -n "$fail" ]] || fail=1
  if ((status != 0 && fail == 0)); then fail=1; fi
  record "$name" "$pass" "$fail"
}

record() {
  SUMMARY+=("$(printf '  %-8s %4d passed, %d failed' "$1" "$2" "$3")")
  total_pass=$((total_pass + $2))
  total_fail=$((total_fail + $3))
}

run_ctest native "$NATIVE_BUILD"
run_ctest wasm "$WASM_BUILD"
run_node node tests/node/
run_node oidc tests/oidc/
run_node browser tests/browser/

step "Summary (logs in build/test-logs/)"
printf '%s\n' "${SUMMARY[@]}"
echo "Total: $total_pass passed, $total_fail failed"
((total_fail == 0))
