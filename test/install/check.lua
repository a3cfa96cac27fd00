-- check.lua NAME LIBRARY — the install test under lua5.4 and luajit:
-- require "nccc" and the generated greet.lua from the installed prefix's
-- paths, bind the library nccc_add_bindings(... SHARED) made (bind runs
-- its nccc_greet_open), one call and one callback. Prints "NAME: 42 10".
local nccc = require("nccc")
local name, path = arg[1], arg[2]
local greet = require("greet").bind(nccc.open(path))
local sum = greet.add(40, 2)
local step = greet.callback("step_fn", function(acc, i) return acc + i end, "call")
local folded = greet.fold(4, step)
print(string.format("%s: %d %d", name, tonumber(sum), tonumber(folded)))
os.exit(tonumber(sum) == 42 and tonumber(folded) == 10 and 0 or 1)
