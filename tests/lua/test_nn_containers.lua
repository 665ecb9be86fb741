-- Concat, ConcatTable, Parallel and ParallelTable: how they route inputs and gradients,
-- checked against the same modules run one by one and against finite differences.
require 'nn'
local tests = {}

local function maxDiff(a, b) return (a - b):abs():max() end

function tests.concat()
   local c = nn.Concat(2):add(nn.Linear(3, 2)):add(nn.Linear(3, 4)):add(nn.Tanh())
   local x = torch.randn(5, 3)
   local y = c:forward(x)
   check.eq(y:size(2), 2 + 4 + 3)
   check.eq(maxDiff(y:narrow(2, 1, 2), c:get(1):forward(x)), 0)
   check.eq(maxDiff(y:narrow(2, 3, 4), c:get(2):forward(x)), 0)
   check.eq(maxDiff(y:narrow(2, 7, 3), torch.tanh(x)), 0)
   local gradOutput = torch.randn(5, 9)
   c:zeroGradParameters()
   local gradInput = c:backward(x, gradOutput)
   local expected = c:get(1):updateGradInput(x, gradOutput:narrow(2, 1, 2)):clone()
   expected:add(c:get(2):updateGradInput(x, gradOutput:narrow(2, 3, 4)))
   expected:add(c:get(3):updateGradInput(x, gradOutput:narrow(2, 7, 3)))
   check.ok(maxDiff(gradInput, expected) < 1e-12, 'sum of the branches\' gradInputs')
   check.ok(maxDiff(c:get(2).gradWeight, gradOutput:narrow(2, 3, 4):t() * x) < 1e-12, 'branch gradWeight')
   check.ok(nn.Jacobian.testJacobian(c, torch.Tensor(2, 3)) < 1e-5)
   local params = c:parameters()
   check.eq(#params, 4)
end

function tests.concat_table()
   local c = nn.ConcatTable():add(nn.Linear(3, 2)):add(nn.Identity())
   local x = torch.randn(4, 3)
   local out = c:forward(x)
   check.eq(#out, 2)
   check.ok(out[2] == x)
   local g1, g2 = torch.randn(4, 2), torch.randn(4, 3)
   local gradInput = c:backward(x, { g1, g2 })
   local expected = g1 * c:get(1).weight + g2
   check.ok(maxDiff(gradInput, expected) < 1e-12)
   -- with a table input the gradInputs are tables summed element by element
   local t = nn.ConcatTable():add(nn.ParallelTable():add(nn.Tanh()):add(nn.Identity()))
                             :add(nn.ParallelTable():add(nn.Identity()):add(nn.Identity()))
   local a, b = torch.randn(3), torch.randn(3)
   t:forward({ a, b })
   local ones = torch.Tensor(3):fill(1)
   local gi = t:backward({ a, b }, { { ones, ones }, { ones, ones } })
   local dtanh = torch.tanh(a):cmul(torch.tanh(a)):mul(-1):add(1)
   check.ok(maxDiff(gi[1], dtanh + 1) < 1e-12)
   check.ok(maxDiff(gi[2], ones * 2) < 1e-12)
end

function tests.parallel()
   local p = nn.Parallel(1, 1):add(nn.Linear(4, 2)):add(nn.Linear(4, 3))
   local x = torch.randn(2, 4)
   local y = p:forward(x)
   check.eq(y:nElement(), 5)
   check.ok(maxDiff(y:narrow(1, 1, 2), p:get(1):forward(x[1])) < 1e-12)
   check.ok(maxDiff(y:narrow(1, 3, 3), p:get(2):forward(x[2])) < 1e-12)
   check.ok(nn.Jacobian.testJacobian(p, torch.Tensor(2, 4)) < 1e-5)
   local err = nn.Jacobian.testJacobianParameters(p, torch.Tensor(2, 4), p:get(2).weight, p:get(2).gradWeight)
   check.ok(err < 1e-5, 'branch weight ' .. err)
   check.raises(function() p:forward(torch.randn(3, 4)) end, '3 slices')
   -- more modules than slices: the extra ones are left out, as in torch7
   local one = p:forward(torch.randn(1, 4))
   check.eq(one:nElement(), 2, 'one slice, one module used')
   check.ok(maxDiff(p:backward(x:narrow(1, 1, 1), torch.ones(2)), p:get(1):backward(x[1], torch.ones(2)):view(1, 4)) < 1e-12)
end

function tests.parallel_table()
   local p = nn.ParallelTable():add(nn.Linear(3, 2)):add(nn.Tanh())
   local a, b = torch.randn(3), torch.randn(4)
   local out = p:forward({ a, b })
   check.ok(maxDiff(out[1], p:get(1).weight * a + p:get(1).bias) < 1e-12)
   check.ok(maxDiff(out[2], torch.tanh(b)) < 1e-12)
   local g = p:backward({ a, b }, { torch.Tensor(2):fill(1), torch.Tensor(4):fill(1) })
   check.ok(maxDiff(g[1], p:get(1).weight:t() * torch.Tensor(2):fill(1)) < 1e-12)
   check.eq(#g, 2)
end

function tests.branch_printing_like_torch7()
   local c = nn.ConcatTable():add(nn.Linear(2, 3)):add(nn.Sequential():add(nn.Tanh()))
   check.eq(tostring(c), 'nn.ConcatTable {\n' ..
                         '  input\n' ..
                         '    |`-> (1): nn.Linear(2 -> 3)\n' ..
                         '     `-> (2): nn.Sequential {\n' ..
                         '           [input -> (1) -> output]\n' ..
                         '           (1): nn.Tanh\n' ..
                         '         }\n' ..
                         '     ... -> output\n' ..
                         '}')
end

function tests.errors_name_the_branch()
   local c = nn.Concat(2):add(nn.Linear(3, 2)):add(nn.Linear(4, 2))
   local ok, err = pcall(function() c:forward(torch.randn(2, 3)) end)
   check.ok(not ok and err:find('In 2 module of nn.Concat:', 1, true), tostring(err))
end

function tests.containers_convert_type_and_clear_state()
   local m = nn.Sequential():add(nn.ConcatTable():add(nn.Linear(2, 2)):add(nn.Linear(2, 2))):add(nn.ParallelTable()
      :add(nn.Tanh()):add(nn.Sigmoid()))
   m:float()
   local out = m:forward(torch.FloatTensor(3, 2):normal())
   check.eq(torch.type(out[1]), 'torch.FloatTensor')
   m:clearState()
   check.eq(#m:get(1).output, 0)
   check.eq(m:get(1):get(1).output:nElement(), 0)
end

return tests
