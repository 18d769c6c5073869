#!/usr/bin/env bash
# wrk with the server's CPU time: runs $REAL_WRK with the given arguments and appends one line to $CPU_LOG,
#   <script> <pid> <cpu ticks> <requests>
# where pid is the process listening on the target URL's port, cpu ticks its user+system time (all threads,
# /proc/<pid>/stat) used during the run, and requests ok+bad from the script's RESULT line (the oidc-peer
# scripts print one). bench/oauth_load.sh puts it in front of the real wrk as `wrk` on PATH, because the
# peer's run.sh calls wrk itself (warm-up runs included: the last line per script and pid is the measured run).
set -uo pipefail
: "${REAL_WRK:?}" "${CPU_LOG:?}"
# Only load runs (with a script) are logged: run.sh also calls `wrk --version`.
[[ " $* " == *" -s "* ]] || exec "$REAL_WRK" "$@"
url=${!#}
port=${url##*:}
port=${port%%/*}
script=- prev=
for a in "$@"; do
  [[ $prev == -s ]] && script=$(basename "$a" .lua)
  prev=$a
done
pid=$(ss -Hltnp "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2)
ticks() {
  local f
  [[ -n $pid ]] && f=$(sed 's/^.*) //' "/proc/$pid/stat" 2>/dev/null) || { echo 0; return; }
  awk '{ print $12 + $13 }' <<<"$f"
}
t0=$(ticks)
out=$("$REAL_WRK" "$@")
rc=$?
t1=$(ticks)
printf '%s\n' "$out"
n=$(awk '/^RESULT/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } print v["ok"] + v["bad"] }' \
  <<<"$out")
echo "$script ${pid:--} $((t1 - t0)) ${n:-0}" >>"$CPU_LOG"
exit "$rc"
