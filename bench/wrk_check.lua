-- wrk script for bench/http_load.sh: used for every target, so each pays the same Lua cost per response.
--
--   BENCH_TOKEN  when set and non-empty, sent as `Authorization: Bearer <BENCH_TOKEN>`.
--
-- Counts responses whose status is not 200, so a server answering 401/404/429/500 quickly cannot look fast,
-- and prints one machine-readable line the shell script parses:
--   BENCH_RESULT requests=<n> duration_us=<n> rps=<x> non200=<n> connect_errors=<n> read_errors=<n>
--                write_errors=<n> timeouts=<n> first_non200=<status or ->

local token = os.getenv("BENCH_TOKEN")
if token ~= nil and token ~= "" then
  wrk.headers["Authorization"] = "Bearer " .. token
end

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  non200 = 0
  first_non200 = "-"
end

function response(status, headers, body)
  if status ~= 200 then
    if non200 == 0 then
      first_non200 = tostring(status)
    end
    non200 = non200 + 1
  end
end

function done(summary, latency, requests)
  local bad, first = 0, "-"
  for _, t in ipairs(threads) do
    bad = bad + t:get("non200")
    local f = t:get("first_non200")
    if first == "-" and f ~= nil and f ~= "-" then
      first = f
    end
  end
  local e = summary.errors
  local rps = 0
  if summary.duration > 0 then
    rps = summary.requests / (summary.duration / 1e6)
  end
  io.write(string.format(
    "BENCH_RESULT requests=%d duration_us=%d rps=%.1f non200=%d connect_errors=%d read_errors=%d " ..
      "write_errors=%d timeouts=%d first_non200=%s p50_us=%d p99_us=%d\n",
    summary.requests, summary.duration, rps, bad, e.connect, e.read, e.write, e.timeout, first,
    latency:percentile(50), latency:percentile(99)))
end
