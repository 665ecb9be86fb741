-- nn's own test.lua (arg[1]: the folder holding nn/test.lua), run as torch7 runs it:
-- nn.test() over every test the file defines.
local upstream = assert(arg[1], 'usage: th upstream_nn_test.lua <folder of nn/test.lua>')
-- nn's test file was written against Moses 1.x, whose map calls f(key, value) (nntest.DontCast
-- relies on it); Debian's lua-moses is 2.x, whose map calls f(value, key). The rest of what
-- the file uses is the same in both, so it gets Debian's Moses with 1.x's map.
package.preload.moses = function()
   local moses = dofile(assert(package.searchpath('moses', package.path), 'lua-moses is not installed'))
   local function map(t, f, ...)
      local extra = { n = select('#', ...), ... }
      return moses.map(t, function(v, k) return f(k, v, unpack(extra, 1, extra.n)) end)
   end
   return setmetatable({ map = map, collect = map }, { __index = moses })
end
require 'nn'
dofile(upstream .. '/nn/test.lua')
nn.test()
