-- check_rock.lua TREE FIXTURE — the rock's test (rock.sh) under lua5.4:
-- nccc and its C module nccc.core come from the rock tree TREE, then one
-- call and one callback into FIXTURE through the generated tour and hcb.
-- Prints "lua: nccc from the rock, add 42, fold 6".
local tree, fixture = arg[1], arg[2]
local function from_tree(name, path)
  local file = assert(package.searchpath(name, path))
  assert(file:sub(1, #tree + 1) == tree .. "/", name .. " is " .. file)
end
from_tree("nccc", package.path)
from_tree("nccc.core", package.cpath)
local nccc = require("nccc")
local lib = nccc.open(fixture)
local tour, hcb = require("tour").bind(lib), require("hcb").bind(lib)
local sum = tour.add(40, 2)
local folded = hcb.fold(4, hcb.callback("step_fn", function(acc, i) return acc + i end, "call"))
print(string.format("lua: nccc from the rock, add %d, fold %d", sum, folded))
os.exit(sum == 42 and folded == 6 and 0 or 1)
