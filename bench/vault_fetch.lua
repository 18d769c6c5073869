-- wrk script for bench/vault_fetch.sh: POST /api/env-vault/fetch (or GET with VAULT_METHOD=GET for /public)
-- with `Authorization: Bearer <BENCH_TOKEN>`. Counts answers other than 200 (a fast 401/429 must not look
-- like throughput) and prints the line the shell script parses:
--   BENCH_RESULT requests=<n> rps=<x> non200=<n> p50_ms=<x> p99_ms=<x> errors=<n>

wrk.method = os.getenv("VAULT_METHOD") or "POST"
wrk.headers["Authorization"] = "Bearer " .. (os.getenv("BENCH_TOKEN") or "")
if wrk.method == "POST" then
  wrk.headers["Content-Type"] = "application/json"
  wrk.body = "{}"
end

local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) non200 = 0 end
function response(status, headers, body)
  if status ~= 200 then non200 = non200 + 1 end
end

function done(summary, latency, requests)
  local bad = 0
  for _, t in ipairs(threads) do bad = bad + t:get("non200") end
  local e = summary.errors
  io.write(string.format("BENCH_RESULT requests=%d rps=%.1f non200=%d p50_ms=%.2f p99_ms=%.2f errors=%d\n",
    summary.requests, summary.requests / (summary.duration / 1e6), bad,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.connect + e.read + e.write + e.timeout))
end
