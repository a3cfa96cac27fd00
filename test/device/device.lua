-- device.lua — the Cortex-M3 image from Lua 5.4: the generated modules
-- m.lua, dev.lua and callbacks.lua bound to CLIENT.so, whose nccc_m_open,
-- nccc_dev_open and nccc_callbacks_open bind the device's modules over
-- the link NCCC_DEVICE_LINK names (test/device/device_client.c); m
-- compared call by call with the same module in a library that holds it
-- (LOCAL.so); callbacks from the device to Lua functions in the call,
-- async and notified scopes, an error raised inside one, nesting past
-- the device's limit, and a device reset noticed.
--   NCCC_DEVICE_LINK="exec:bash run_qemu.sh --link IMAGE" \
--   lua5.4 device.lua BINDINGS_DIR CPATH_DIR GEN_DIR LOCAL.so CLIENT.so
-- Prints one line per failure and "N passed, M failed"; exits non-zero
-- on any failure.
local bindings, cpath, gen_dir, local_path, client_path = ...
package.path = bindings .. "/?.lua;" .. gen_dir .. "/?.lua;" .. package.path
if cpath ~= "" then package.cpath = cpath .. "/?.so;" .. package.cpath end

local nccc = require("nccc")
local abi = require("nccc.abi")
local fmt = string.format

local here = nccc.open(local_path)
local there = nccc.open(client_path)
local m_here, m_there = require("m").bind(here), require("m").bind(there)
local dev = require("dev").bind(there)
local cb = require("callbacks").bind(there)

local passed, failed = 0, 0
local function check(name, got, want)
  if got == want or (math.type(got) == "float" and math.type(want) == "float"
                     and nccc.double_bits(got) == nccc.double_bits(want)) then
    passed = passed + 1
  else
    failed = failed + 1
    print(fmt("FAIL %s: %s, expected %s", name, tostring(got), tostring(want)))
  end
end

-- the libm subset: every result as the local call gives it, bit for bit
for _, c in ipairs({{"sqrt", 2.0}, {"pow", 2.0, 10.0}, {"floor", -2.5}, {"fabs", -0.125},
                    {"fmod", 7.5, 2.0}, {"ldexp", 0.75, 4}, {"exp", 0.0}, {"log", 1.0},
                    {"sin", 0.0}, {"cos", 0.0}, {"atan2", 1.0, 1.0}, {"frexp", 48.0},
                    {"modf", -3.25}, {"hypotf", 3.0, 4.0}}) do
  local want = table.pack(m_here[c[1]](table.unpack(c, 2)))
  local got = table.pack(m_there[c[1]](table.unpack(c, 2)))
  for k = 1, want.n do check(fmt("m.%s result %d", c[1], k), got[k], want[k]) end
end

-- structs, [out], errno
check("dev.norm", dev.norm({x = 3.0, y = 4.0}), 5.0)
local mid = dev.midpoint({x = 1.0, y = -2.0}, {x = 4.0, y = 8.0})
check("dev.midpoint x", mid.x, 2.5)
check("dev.midpoint y", mid.y, 3.0)
local sign, parts = dev.split(-2.75)
check("dev.split sign", sign, -1)
check("dev.split integer", parts.x, -2.0)
check("dev.split fraction", parts.y, -0.75)
local r, err = dev.fail(dev.EDOM)
check("dev.fail result", r, -1)
check("dev.fail errno", err, dev.EDOM)

-- callbacks: call scope
local in_use = select(2, there:closure_stats())
check("fold", cb.fold(10, cb.callback("step_fn", function(acc, i) return acc + i end)), 45)
check("sort_digits", cb.sort_digits(31415, cb.callback("cmp_fn", function(a, b) return b - a end)), 54311)
check("call-scoped closures released", select(2, there:closure_stats()), in_use)

-- async: run later by another device call
local seen = {}
local keep = function(v) seen[#seen + 1] = v end
cb.later(7, cb.callback("later_fn", keep, "async"))
cb.later(-3, cb.callback("later_fn", keep, "async"))
check("async not yet run", #seen, 0)
check("run_pending", cb.run_pending(), 2)
check("async values", table.concat(seen, ","), "7,-3")
check("async closures released", select(2, there:closure_stats()), in_use)

-- notified: the device's destroy notify reaches Lua
local watch = cb.callback("watch_fn", function(event) return 10 * event end, "notified")
cb.watch(watch)
check("emit", cb.emit(4), 40)
check("watch live", watch.live, true)
cb.unwatch()
check("destroy notify reached the host", watch.live, false)

-- an error inside the callback reaches the caller; the device goes on
local ok, msg = pcall(cb.fold, 3, cb.callback("step_fn", function(acc, i)
  if i == 1 then error("no step one") end
  return acc + i
end))
check("callback error raised", ok, false)
check("callback error message", tostring(msg):find("no step one", 1, true) ~= nil, true)
check("device goes on", cb.fold(4, cb.callback("step_fn", function(acc, i) return acc + i end)), 6)

-- nesting: a callback that calls the device again, whose callback calls
-- again, ... until the device refuses a level past NCCC_RPC_MAX_DEPTH:
-- that call raises (docs/LUA.md, "Remote modules"), through the
-- callbacks to the outer call
local levels = 0
local function nested(acc, i)
  levels = levels + 1
  return acc + i + cb.fold(1, cb.callback("step_fn", nested))
end
ok, msg = pcall(cb.fold, 1, cb.callback("step_fn", nested))
check("past the depth raised", ok, false)
check("past the depth message", tostring(msg):find("'callbacks.fold': remote call failed: "
  .. "rpc: deeper than NCCC_RPC_MAX_DEPTH (NCCC_ERR_RPC_DEPTH)", 1, true) ~= nil, true)
local depth_status, depth_text = there:last_error()
check("nested levels run", levels, 2)
check("past the depth", depth_status, abi.status.ERR_RPC_DEPTH)
check("past the depth text", depth_text, "rpc: deeper than NCCC_RPC_MAX_DEPTH")
check("nested closures released", select(2, there:closure_stats()), in_use)
check("after the nesting", cb.fold(4, cb.callback("step_fn", function(acc, i) return acc + i end)), 6)

-- TVMPlatformAbort: logged by the device, then the call raises with its
-- text (docs/LUA.md, "Remote modules"), which also stays the last error
ok, msg = pcall(dev.abort, 7)
check("abort raised", ok, false)
check("abort message", tostring(msg):find("'dev.abort': remote call failed: the device aborted "
  .. "during the request: TVMPlatformAbort: code 7 (NCCC_ERR_RPC_RESET)", 1, true) ~= nil, true)
local status, text = there:last_error()
check("abort reported", status, abi.status.ERR_RPC_RESET)
check("abort text", text, "the device aborted during the request: TVMPlatformAbort: code 7")
check("after the abort", m_there.sqrt(16.0), 4.0)

-- a reset is noticed: the call raises, its status the last error
-- (docs/RPC.md, "Calling through a bound module"); the next call opens a
-- new session
ok = pcall(dev.reset)
check("reset raised", ok, false)
check("reset reported", there:last_error(), abi.status.ERR_RPC_RESET)
check("after the reset", m_there.sqrt(81.0), 9.0)

print(fmt("%d passed, %d failed", passed, failed))
os.exit(failed == 0 and 0 or 1)
