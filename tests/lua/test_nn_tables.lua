-- nn's table modules and the containers MapTable, Bottle, DepthConcat: outputs against
-- the defining formulas element by element, gradients against central differences of
-- <output, gradOutput> (a random direction) for every tensor of a table input, 1-based
-- dimensions and indices, batches, and bad inputs.
require 'nn'
local tests = {}

local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local checkGradients = gradcheck.directional

local maxDiff = gradcheck.maxDiff

-- every element of out equals f(i1, i2, ...) of the inputs' elements at the same place
local function checkPointwise(out, inputs, f, msg)
   local flat = out:contiguous():view(out:nElement())
   local ins = {}
   for k, t in ipairs(inputs) do ins[k] = t:contiguous():view(t:nElement()) end
   for i = 1, flat:nElement() do
      local args = {}
      for k = 1, #ins do args[k] = ins[k][i] end
      check.near(flat[i], f(unpack(args)), 1e-12, msg .. ' at ' .. i)
   end
end

function tests.cadd_csub_cmul_cdiv()
   local a, b, c = torch.randn(3, 4), torch.randn(3, 4), torch.randn(3, 4)
   checkPointwise(nn.CAddTable():forward({ a, b, c }), { a, b, c }, function(x, y, z) return x + y + z end, 'CAddTable')
   checkPointwise(nn.CSubTable():forward({ a, b }), { a, b }, function(x, y) return x - y end, 'CSubTable')
   checkPointwise(nn.CMulTable():forward({ a, b, c }), { a, b, c }, function(x, y, z) return x * y * z end, 'CMulTable')
   checkPointwise(nn.CDivTable():forward({ a, b }), { a, b }, function(x, y) return x / y end, 'CDivTable')
   checkGradients(nn.CAddTable(), { a, b, c }, 'CAddTable')
   checkGradients(nn.CSubTable(), { a, b }, 'CSubTable')
   checkGradients(nn.CMulTable(), { a, b, c }, 'CMulTable')
   checkGradients(nn.CMulTable(), { a, torch.zeros(3, 4) }, 'CMulTable with a zero input')
   checkGradients(nn.CDivTable(), { a, b:abs():add(0.5) }, 'CDivTable')
   -- in place: the output is the first input, the gradients are gradOutput
   local x, y = a:clone(), b:clone()
   local m = nn.CAddTable(true)
   local out = m:forward({ x, y })
   check.ok(torch.pointer(out:storage()) == torch.pointer(x:storage()) and maxDiff(x, a + b) == 0, 'in place')
   local go = torch.randn(3, 4)
   local g = m:backward({ x, y }, go)
   check.ok(g[1]:equal(go) and g[2]:equal(go) and #g == 2)
   check.raises(function() nn.CAddTable():forward({ a, torch.randn(4, 3) }) end, 'input 2 has size 4x3')
   check.raises(function() nn.CSubTable():forward({ a, b, c }) end, 'two tensors')
   check.raises(function() nn.CDivTable():forward({ a, torch.randn(3) }) end, 'input 2 has size 3')
end

function tests.cmax_cmin()
   local a, b, c = torch.randn(2, 5), torch.randn(2, 5), torch.randn(2, 5)
   checkPointwise(nn.CMaxTable():forward({ a, b, c }), { a, b, c }, math.max, 'CMaxTable')
   checkPointwise(nn.CMinTable():forward({ a, b, c }), { a, b, c }, math.min, 'CMinTable')
   checkGradients(nn.CMaxTable(), { a, b, c }, 'CMaxTable')
   checkGradients(nn.CMinTable(), { a, b, c }, 'CMinTable')
   -- the gradient of a tie goes to the first input holding the maximum
   local m = nn.CMaxTable()
   local x, y = torch.Tensor({ 1, 5, 2 }), torch.Tensor({ 1, 3, 4 })
   m:forward({ x, y })
   local g = m:backward({ x, y }, torch.Tensor({ 10, 20, 30 }))
   check.tensor(g[1], { 10, 20, 0 })
   check.tensor(g[2], { 0, 0, 30 })
end

function tests.join_table()
   local a, b = torch.randn(2, 3), torch.randn(2, 5)
   local out = nn.JoinTable(2):forward({ a, b })
   check.tensor(out:narrow(2, 1, 3), a:totable())
   check.tensor(out:narrow(2, 4, 5), b:totable())
   check.ok(nn.JoinTable(-1):forward({ a, b }):equal(out), 'negative dimension counts from the last')
   -- nInputDims: with one more dimension than nInputDims the first is the batch
   local m = nn.JoinTable(1, 1)
   check.eq(m:forward({ torch.randn(3), torch.randn(4) }):size(1), 7)
   local batched = m:forward({ torch.randn(2, 3), torch.randn(2, 4) })
   check.eq(batched:size(1), 2); check.eq(batched:size(2), 7)
   checkGradients(nn.JoinTable(1), { torch.randn(2, 3), torch.randn(4, 3) }, 'JoinTable(1)')
   checkGradients(nn.JoinTable(1, 1), { torch.randn(2, 3), torch.randn(2, 1) }, 'JoinTable(1, 1) batch')
   check.raises(function() nn.JoinTable(1):forward({ a, b }) end, 'input 2 has size 2x5')
   check.raises(function() nn.JoinTable(3):forward({ a, b }) end, 'dimension 3 out of range')
   check.raises(function() nn.JoinTable() end, 'dimension expected')
end

function tests.split_table()
   local x = torch.randn(3, 4)
   local out = nn.SplitTable(2):forward(x)
   check.eq(#out, 4)
   for j = 1, 4 do
      for i = 1, 3 do check.eq(out[j][i], x[i][j]) end
   end
   check.eq(#nn.SplitTable(-1):forward(x), 4)
   check.eq(#nn.SplitTable(1, 1):forward(x), 4, 'a batch of vectors splits along dimension 2')
   check.eq(#nn.SplitTable(1, 2):forward(x), 3)
   checkGradients(nn.SplitTable(1), torch.randn(3, 2), 'SplitTable')
   -- Split then Join along dimension 1 lays the rows end to end
   local y = torch.randn(3, 2)
   local m = nn.Sequential():add(nn.SplitTable(1)):add(nn.JoinTable(1))
   check.ok(m:forward(y):equal(y:view(6)))
   check.raises(function() nn.SplitTable(3):forward(x) end, 'out of range')
end

function tests.select_table()
   local a, b, c = torch.randn(2), torch.randn(3), { torch.randn(4), torch.randn(1) }
   local input = { a, b, c }
   check.ok(nn.SelectTable(2):forward(input) == b)
   check.ok(nn.SelectTable(-1):forward(input) == c, '-1 is the last element')
   check.ok(nn.SelectTable(-3):forward(input) == a)
   local m = nn.SelectTable(3)
   m:forward(input)
   local go = { torch.randn(4), torch.randn(1) }
   local g = m:backward(input, go)
   check.ok(g[1]:equal(torch.zeros(2)) and g[2]:equal(torch.zeros(3)), 'zeros for the others')
   check.ok(g[3][1]:equal(go[1]) and g[3][2]:equal(go[2]))
   checkGradients(nn.SelectTable(-2), input, 'SelectTable(-2)')
   check.raises(function() nn.SelectTable(4):forward(input) end, 'index 4 out of range')
   check.raises(function() nn.SelectTable(-4):forward(input) end, 'out of range')
   check.eq(tostring(nn.SelectTable(-1)), 'nn.SelectTable(-1)')
end

function tests.narrow_table()
   local t = { torch.randn(2), torch.randn(3), torch.randn(4), torch.randn(5) }
   local out = nn.NarrowTable(2, 2):forward(t)
   check.ok(#out == 2 and out[1] == t[2] and out[2] == t[3])
   local all = nn.NarrowTable(2, -1):forward(t)
   check.ok(#all == 3 and all[3] == t[4], 'length -1 runs to the last element')
   check.ok(#nn.NarrowTable(3):forward(t) == 1)
   checkGradients(nn.NarrowTable(2, 2), t, 'NarrowTable')
   check.raises(function() nn.NarrowTable(4, 2):forward(t) end, 'out of range')
end

function tests.flatten_table()
   local a, b, c, d = torch.randn(2), torch.randn(3), torch.randn(1), torch.randn(2, 2)
   local input = { a, { b, { c } }, d }
   local out = nn.FlattenTable():forward(input)
   check.ok(#out == 4 and out[1] == a and out[2] == b and out[3] == c and out[4] == d)
   local m = nn.FlattenTable()
   m:forward(input)
   local go = { torch.randn(2), torch.randn(3), torch.randn(1), torch.randn(2, 2) }
   local g = m:backward(input, go)
   check.ok(g[1] == go[1] and g[2][1] == go[2] and g[2][2][1] == go[3] and g[3] == go[4], 'nesting restored')
   checkGradients(nn.FlattenTable(), input, 'FlattenTable')
   check.raises(function() nn.FlattenTable():forward({ a, 3 }) end, 'tensors or tables')
end

function tests.mixture_table()
   -- table of experts, batch: out[b] = sum_i g[b][i] e_i[b]
   local B, n = 3, 4
   local gater = torch.rand(B, n)
   local experts = {}
   for i = 1, n do experts[i] = torch.randn(B, 5) end
   local out = nn.MixtureTable():forward({ gater, experts })
   for b = 1, B do
      for j = 1, 5 do
         local s = 0
         for i = 1, n do s = s + gater[b][i] * experts[i][b][j] end
         check.near(out[b][j], s, 1e-12, 'MixtureTable table')
      end
   end
   checkGradients(nn.MixtureTable(), { gater, experts }, 'MixtureTable table')
   -- tensor of experts along dimension 2: [B, n, 5]
   local stacked = torch.randn(B, n, 5)
   out = nn.MixtureTable():forward({ gater, stacked })
   for b = 1, B do
      for j = 1, 5 do
         local s = 0
         for i = 1, n do s = s + gater[b][i] * stacked[b][i][j] end
         check.near(out[b][j], s, 1e-12, 'MixtureTable tensor')
      end
   end
   checkGradients(nn.MixtureTable(), { gater, stacked }, 'MixtureTable tensor')
   checkGradients(nn.MixtureTable(3), { gater, torch.randn(B, 2, n) }, 'MixtureTable(3)')
   -- without a batch
   local g1 = torch.rand(n)
   out = nn.MixtureTable():forward({ g1, stacked[1] })
   check.near(out[2], g1:dot(stacked[1]:select(2, 2)), 1e-12, 'MixtureTable vector')
   checkGradients(nn.MixtureTable(), { g1, stacked[1] }, 'MixtureTable vector')
   checkGradients(nn.MixtureTable(), { g1, { torch.randn(3), torch.randn(3), torch.randn(3), torch.randn(3) } },
                  'MixtureTable vector, table')
   check.raises(function() nn.MixtureTable():forward({ gater, { experts[1] } }) end, 'one gater output per expert')
   check.raises(function() nn.MixtureTable():forward({ gater, torch.randn(B, n + 1, 5) }) end, 'do not match')
end

function tests.dot_cosine_pairwise()
   local a, b = torch.randn(3, 5), torch.randn(3, 5)
   local dot = nn.DotProduct():forward({ a, b })
   local cos = nn.CosineDistance():forward({ a, b })
   local dist1 = nn.PairwiseDistance(1):forward({ a, b })
   local dist2 = nn.PairwiseDistance(2):forward({ a, b })
   local dist3 = nn.PairwiseDistance(3):forward({ a, b })
   for i = 1, 3 do
      local s, na, nb, l1, l2, l3 = 0, 0, 0, 0, 0, 0
      for j = 1, 5 do
         local x, y = a[i][j], b[i][j]
         s, na, nb = s + x * y, na + x * x, nb + y * y
         l1, l2, l3 = l1 + math.abs(x - y), l2 + (x - y) ^ 2, l3 + math.abs(x - y) ^ 3
      end
      check.near(dot[i], s, 1e-12, 'DotProduct')
      check.near(cos[i], s / math.sqrt((na + 1e-12) * (nb + 1e-12)), 1e-12, 'CosineDistance')
      check.near(dist1[i], l1, 1e-12, 'PairwiseDistance(1)')
      check.near(dist2[i], math.sqrt(l2), 1e-12, 'PairwiseDistance(2)')
      check.near(dist3[i], l3 ^ (1 / 3), 1e-12, 'PairwiseDistance(3)')
   end
   for _, m in ipairs({ nn.DotProduct(), nn.CosineDistance(), nn.PairwiseDistance(1), nn.PairwiseDistance(2),
                        nn.PairwiseDistance(3) }) do
      checkGradients(m, { a, b }, torch.type(m) .. ' batch')
      local out = m:forward({ a[1], b[1] })
      check.ok(out:dim() == 1 and out:size(1) == 1, torch.type(m) .. ': a vector pair gives one value')
      checkGradients(m, { a[2]:clone(), b[2]:clone() }, torch.type(m) .. ' vector')
      check.raises(function() m:forward({ a, torch.randn(3, 4) }) end, 'of one size')
   end
   check.raises(function() nn.PairwiseDistance() end, 'positive norm')
end

function tests.map_table()
   local lin = nn.Linear(4, 2)
   local m = nn.MapTable(lin)
   local input = { torch.randn(3, 4), torch.randn(1, 4), torch.randn(4) }
   local out = m:forward(input)
   check.eq(#out, 3)
   for i = 1, 3 do check.eq(maxDiff(out[i], lin:clone():forward(input[i])), 0, 'each element through the module') end
   check.eq(#m.modules, 3)
   check.ok(torch.pointer(m.modules[3].weight:storage()) == torch.pointer(lin.weight:storage()), 'clones share weight')
   -- the shared gradient sums every element's gradient
   m:zeroGradParameters()
   local go = { torch.randn(3, 2), torch.randn(1, 2), torch.randn(2) }
   local g = m:backward(input, go)
   local expected = go[1]:t() * input[1] + go[2]:t() * input[2] + go[3]:view(2, 1) * input[3]:view(1, 4)
   check.ok(maxDiff(lin.gradWeight, expected) < 1e-12, 'gradWeight accumulated over the elements')
   check.ok(maxDiff(g[1], go[1] * lin.weight) < 1e-12)
   local params = m:parameters()
   check.eq(#params, 2, 'parameters are the shared module\'s')
   checkGradients(nn.MapTable(nn.Tanh()), { torch.randn(2), torch.randn(3, 2) }, 'MapTable(Tanh)')
   m:resize(1)
   check.eq(#m.modules, 1)
   check.ok(tostring(m):find('nn.MapTable {', 1, true) and tostring(m):find('nn.Linear(4 -> 2)', 1, true))
   local ok, err = pcall(function() m:forward({ torch.randn(4), torch.randn(5) }) end)
   check.ok(not ok and err:find('In 2 module of nn.MapTable', 1, true), tostring(err))
end

function tests.bottle()
   local lin = nn.Linear(4, 3)
   local m = nn.Bottle(lin)
   local x = torch.randn(2, 5, 4)
   local out = m:forward(x)
   check.eq(out:dim(), 3); check.eq(out:size(1), 2); check.eq(out:size(2), 5); check.eq(out:size(3), 3)
   for i = 1, 2 do
      check.ok(maxDiff(out[i], lin:clone():forward(x[i])) < 1e-12, 'slice ' .. i)
   end
   check.ok(maxDiff(m:forward(x[1]), lin:forward(x[1])) == 0, 'no folding at nInputDim dimensions')
   local err = nn.Jacobian.testJacobian(m, torch.randn(2, 3, 4))
   check.ok(err < 1e-5, 'Bottle gradInput ' .. err)
   err = nn.Jacobian.testJacobianParameters(m, torch.randn(3, 2, 4), lin.weight, lin.gradWeight)
   check.ok(err < 1e-5, 'Bottle gradWeight ' .. err)
   -- a module that drops a dimension: [N, 4] -> [N]
   local score = nn.Sequential():add(nn.Linear(4, 1)):add(nn.SplitTable(2)):add(nn.JoinTable(1))
   local dropping = nn.Bottle(score, 2, 1)
   local z = torch.randn(2, 3, 4)
   local scores = dropping:forward(z)
   check.eq(scores:dim(), 2); check.eq(scores:size(1), 2); check.eq(scores:size(2), 3)
   check.near(scores[2][3], score.modules[1].weight[1]:dot(z[2][3]) + score.modules[1].bias[1], 1e-12)
   check.ok(nn.Jacobian.testJacobian(dropping, z) < 1e-5, 'Bottle(2, 1) gradInput')
   check.raises(function() nn.Bottle(nn.Linear(4, 3), 2, 1):forward(z) end, 'gave a 2D output, 1D expected')
   check.raises(function() nn.Bottle(nn.Linear(4, 3), 3):forward(torch.randn(2, 4)) end, 'at least 3 dimensions')
end

function tests.depth_concat()
   local e = nn.DepthConcat(1)
   e:add(nn.Linear(3, 4)):add(nn.Linear(3, 2))
   local y = torch.randn(3)
   local o = e:forward(y)
   check.eq(o:size(1), 6)
   check.ok(maxDiff(o:narrow(1, 5, 2), e.modules[2].output) == 0)
   check.raises(function() nn.DepthConcat(2):add(nn.Linear(3, 4)):forward(y) end, 'out of range')
   -- 2D outputs of different widths: [2, 5] and [2, 3] over dimension 1 gives [4, 5] with
   -- the second centred (one zero column each side)
   local f = nn.DepthConcat(1)
   f:add(nn.Sequential():add(nn.Linear(3, 5))):add(nn.Sequential():add(nn.Linear(3, 3)))
   local xb = torch.randn(2, 3)
   local ob = f:forward(xb)
   check.eq(ob:size(1), 4); check.eq(ob:size(2), 5)
   check.ok(maxDiff(ob:narrow(1, 1, 2), f.modules[1].output) == 0)
   check.ok(maxDiff(ob:narrow(1, 3, 2):narrow(2, 2, 3), f.modules[2].output) == 0)
   check.eq(ob:narrow(1, 3, 2):select(2, 1):abs():sum() + ob:narrow(1, 3, 2):select(2, 5):abs():sum(), 0)
   local err = nn.Jacobian.testJacobian(f, xb)
   check.ok(err < 1e-5, 'DepthConcat gradInput ' .. err)
   err = nn.Jacobian.testJacobianParameters(f, xb, f.modules[2].modules[1].weight, f.modules[2].modules[1].gradWeight)
   check.ok(err < 1e-5, 'DepthConcat gradWeight ' .. err)
   check.ok(tostring(f):find('nn.DepthConcat {', 1, true) and tostring(f):find('`-> (2)', 1, true))
   check.ok(torch.isTypeOf(f, 'nn.Concat'), 'a Concat, as in torch7')
   -- backward (Concat's) takes the same windows as updateGradInput and accGradParameters
   local go = torch.randn(4, 5)
   f:zeroGradParameters()
   local g = f:backward(xb, go):clone()
   local w2 = f.modules[2].modules[1]
   local expected = go:narrow(1, 3, 2):narrow(2, 2, 3)
   check.ok(maxDiff(w2.gradWeight, expected:t() * xb) < 1e-12, 'branch 2 gets its centred window')
   check.ok(maxDiff(g, go:narrow(1, 1, 2) * f.modules[1].modules[1].weight + expected * w2.weight) < 1e-12)
end

return tests
