-- wrk script for bench/reader-db.sh: requests as many signed-in users, each request with the next user's session.
-- READER_DB_SESSIONS: one session a line, "mc_session=...<TAB>CSRF token". READER_DB_MODE:
--   progress  PUT /api/progress/<series> {"chapter", "page"} with the session's X-CSRF-Token (a reader turning a page);
--             READER_DB_TARGETS lists "<series> <chapter> <pages>" a line, taken in turn, the page going round 1..pages
--   series    GET of each path of READER_DB_TARGETS in turn (the library grid's /api/series pages)
-- done() prints one line for the script to parse:
--   RESULT <requests/s> <p50 us> <p99 us> <bytes per response> <non-2xx/3xx> <socket errors> <requests>

local mode = os.getenv("READER_DB_MODE")
local sessions = {}
for line in io.lines(os.getenv("READER_DB_SESSIONS")) do
  local cookie, csrf = line:match("^([^\t]+)\t(.+)$")
  if cookie then sessions[#sessions + 1] = { cookie = cookie, csrf = csrf } end
end
local targets = {}
for line in io.lines(os.getenv("READER_DB_TARGETS")) do
  if line ~= "" then targets[#targets + 1] = line end
end

local threads = 0
local requests = {}
local next_index = 1

function setup(thread)
  threads = threads + 1
  thread:set("start", threads)
end

-- One pre-formatted request per (target, page) in turn, each with the next session: building requests then costs
-- nothing per call. Here, not at load time, because wrk sets the Host header in its own init.
function init(args)
  local s = 0
  local function next_session()
    s = s % #sessions + 1
    return sessions[s]
  end
  for _, target in ipairs(targets) do
    if mode == "progress" then
      local series, chapter, pages = target:match("^(%S+) (%S+) (%d+)$")
      for page = 1, tonumber(pages) do
        local session = next_session()
        requests[#requests + 1] = wrk.format("PUT", "/api/progress/" .. series, {
          ["Cookie"] = session.cookie, ["X-CSRF-Token"] = session.csrf, ["Content-Type"] = "application/json"
        }, string.format('{"chapter":"%s","page":%d}', chapter, page))
      end
    else
      requests[#requests + 1] = wrk.format("GET", target, { ["Cookie"] = next_session().cookie })
    end
  end
  next_index = ((start or 1) - 1) * 97 % #requests + 1
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
