-- wrk script for bench/pages.sh: GETs every page URL in turn (plain GET: no If-None-Match, no If-Modified-Since, so
-- every answer is a full 200 with the file). PAGES_FILE lists the request paths, one a line; PAGES_COOKIE, when set,
-- is sent as the Cookie header (the reader's session); PAGES_AUTHORIZATION, when set, as the Authorization header (a
-- reading app's Basic credentials). Each thread starts at its own offset in the list.
-- done() prints one line for the script to parse:
--   RESULT <requests/s> <p50 us> <p99 us> <bytes per response> <non-2xx/3xx> <socket errors> <requests>

local paths = {}
for line in io.lines(os.getenv("PAGES_FILE")) do
  if line ~= "" then paths[#paths + 1] = line end
end
local cookie = os.getenv("PAGES_COOKIE")
local headers = {}
if cookie and cookie ~= "" then headers["Cookie"] = cookie end
local authorization = os.getenv("PAGES_AUTHORIZATION")
if authorization and authorization ~= "" then headers["Authorization"] = authorization end

local requests = {}

local threads = 0
local next_index = 1

function setup(thread)
  threads = threads + 1
  thread:set("start", threads)
end

function init(args)
  -- Pre-formatted once per thread (building requests then costs nothing per call); here, not at load time, because
  -- wrk only sets the Host header in its own init.
  for i, path in ipairs(paths) do
    requests[i] = wrk.format("GET", path, headers)
  end
  next_index = ((start or 1) - 1) * 53 % #requests + 1
end

function request()
  local r = requests[next_index]
  next_index = next_index % #requests + 1
  return r
end

function done(summary, latency, requests_unused)
  local seconds = summary.duration / 1e6
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT %.1f %d %d %.0f %d %d %d\n", summary.requests / seconds,
    latency:percentile(50), latency:percentile(99), summary.bytes / math.max(summary.requests, 1),
    summary.errors.status, errors, summary.requests))
end
