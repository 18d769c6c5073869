#!/usr/bin/env bash
# Installs what is missing, builds native and wasm, and runs every test suite:
#   native  ctest: core, store (with the SIGKILL crash test), transport, edge API and executables
#   wasm    ctest: the same core suite compiled with Emscripten, under node
#   node    node:test over the JavaScript bindings of the wasm module
#   oidc    node:test with the openid-client library against a running edge (RS256 and HS256)
#   browser node:test + playwright-core driving Debian's Chromium against a running edge
# Also compiles the Release configuration the benchmarks use. Ends with one line per suite counting test
# cases and a total; exits non-zero when anything failed.
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
step "Release build (compiled only: the configuration bench/ measures)"
build_release || die "Release build failed"

LOGS="$ROOT/build/test-logs"
mkdir -p "$LOGS"
declare -a SUMMARY=()
total_pass=0
total_fail=0

# Counts test cases, not ctest entries: each doctest executable ends with
#   [doctest] test cases: N | P passed | F failed | S skipped
# (skipped cases belong to another ctest entry of the same executable). An entry without that line counts as
# one case; an entry ctest saw fail counts at least one failure even when its doctest line says none (a crash
# after the report, a time-out).
run_ctest() {  # run_ctest <name> <build dir>
  local name="$1" dir="$2" log="$LOGS/$1.log" counts pass fail
  step "Suite: $name"
  ctest --test-dir "$dir" --output-on-failure -V -j2 >"$log" 2>&1
  # The console gets ctest's verdict per entry, doctest's summaries and failures; the full output is in the log.
  grep -E "^ *[0-9]+/[0-9]+ Test +#|tests passed|\[doctest\] (test cases|Status)|ERROR:|FATAL ERROR|\*\*\*" "$log"
  counts=$(awk '
    /^ *[0-9]+\/[0-9]+ Test +#[0-9]+:/ {
      match($0, /#[0-9]+/); id = substr($0, RSTART + 1, RLENGTH - 1)
      verdict[id] = ($0 ~ / Passed /) ? "ok" : "failed"
    }
    /^[0-9]+: \[doctest\] test cases:/ {
      id = $1; sub(/:$/, "", id); seen[id] = 1
      if (match($0, /[0-9]+ passed/)) { p[id] = substr($0, RSTART, RLENGTH) + 0 }
      if (match($0, /[0-9]+ failed/)) { f[id] = substr($0, RSTART, RLENGTH) + 0 }
    }
    END {
      for (id in verdict) {
        if (id in seen) {
          pass += p[id]; fail += f[id]
          if (verdict[id] == "failed" && f[id] == 0) fail += 1
        } else if (verdict[id] == "ok") pass += 1
        else fail += 1
      }
      if (pass + fail == 0) fail = 1   # ctest ran nothing
      print pass + 0, fail + 0
    }' "$log")
  read -r pass fail <<<"$counts"
  record "$name" "$pass" "$fail"
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

step "Summary: test cases per suite (logs in build/test-logs/)"
printf '%s\n' "${SUMMARY[@]}"
echo "Total: $total_pass passed, $total_fail failed"
((total_fail == 0))
