-- nn's own test.lua (arg[1]: the folder holding nn/test.lua), run as torch7 runs it:
-- nn.test() over every test the file defines, but those listed here, which cannot pass for
-- a reason outside this project; each is printed as "not run: <test>: <why>" for the count.
local upstream = assert(arg[1], 'usage: th upstream_nn_test.lua <folder of nn/test.lua>')
local outside = {
   DontCast = "the test calls Moses 1.x's _.map(t, function(k, v)); Debian's lua-moses is 2.1, "
      .. 'whose map passes (v, k)',
}
require 'nn'
local run = torch.Tester.run
function torch.Tester:run(names)
   for i = #self.tests, 1, -1 do
      local why = outside[self.tests[i].name]
      if why then
         print('not run: ' .. self.tests[i].name .. ': ' .. why)
         table.remove(self.tests, i)
      end
   end
   return run(self, names)
end
dofile(upstream .. '/nn/test.lua')
nn.test()
