-- nn's own test.lua (arg[1]: the folder holding nn/test.lua), run as torch7 runs it:
-- nn.test() over every test the file defines, with one change: a fixed seed (arg[2], else 1).
-- Given none, nn.test seeds with the clock, and its Jacobian checks of the max poolings fail
-- for about 1 seed in 100 whatever the implementation: when two random inputs of one window lie
-- within the check's 1e-6 step, the numerical derivative splits between them
-- (VolumetricFractionalMaxPooling_Ratio failed for seeds 24 and 141 of 1-200, a row of the
-- Jacobian summing to 7.51 where the max feeds 8 windows).
local upstream = assert(arg[1], 'usage: th upstream_nn_test.lua <folder of nn/test.lua> [seed]')
local seed = tonumber(arg[2] or 1)
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
nn.test(nil, seed)
