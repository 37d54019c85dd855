-- wrk script for JSON-RPC over HTTP POST /rpc (bench/lib/wrk.ts runs it).
-- BENCH_BODIES: a file of request bodies, one per line, sent in turn by every connection.
-- BENCH_COUNT_ERRORS=1: count answers carrying a JSON-RPC "error" (costs wrk a body scan, so
-- only the postTransaction runs ask for it). done() prints one line: BENCH {json}.
local bodies = {}
for line in io.lines(os.getenv("BENCH_BODIES")) do
  if #line > 0 then bodies[#bodies + 1] = line end
end

wrk.method = "POST"
wrk.path = "/rpc"
wrk.headers["Content-Type"] = "application/json"

if #bodies == 1 then
  -- One body: wrk reuses one pre-formatted request, the cheapest path for the load generator.
  wrk.body = bodies[1]
else
  local i = 0
  request = function()
    i = i % #bodies + 1
    return wrk.format(nil, nil, nil, bodies[i])
  end
end

rpc_errors = 0
if os.getenv("BENCH_COUNT_ERRORS") == "1" then
  response = function(status, headers, body)
    if string.find(body, '"error"', 1, true) then rpc_errors = rpc_errors + 1 end
  end
end

local threads = {}
function setup(thread)
  table.insert(threads, thread)
end

function done(summary, latency, requests)
  local errors = 0
  for _, thread in ipairs(threads) do errors = errors + (thread:get("rpc_errors") or 0) end
  local e = summary.errors
  io.write(string.format(
    'BENCH {"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"socketErrors":%d,"non2xx":%d,"rpcErrors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout, e.status, errors))
end
