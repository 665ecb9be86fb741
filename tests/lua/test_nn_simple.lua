-- nn's simple layers: outputs against the defining formulas written as plain loops,
-- gradInput and parameter gradients against nn.Jacobian (double), 1-based dimensions and
-- indices, batch and non-batch inputs, type conversion and bad inputs.
require 'nn'
local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local tests = {}

local maxDiff = gradcheck.maxDiff

function tests.linear_weight_norm()
   local m = nn.LinearWeightNorm(4, 3)
   local x = torch.randn(2, 4)
   local y = m:forward(x)
   -- w_j = g_j v_j / |v_j|
   for b = 1, 2 do
      for j = 1, 3 do
         local vv, s = 0, 0
         for i = 1, 4 do vv = vv + m.v[j][i] ^ 2 end
         for i = 1, 4 do s = s + m.g[j][1] * m.v[j][i] / math.sqrt(vv) * x[b][i] end
         check.near(y[b][j], s + m.bias[j], 1e-12, 'LinearWeightNorm output')
      end
   end
   gradcheck.jacobian(m, torch.randn(3, 4), { 'v', 'g', 'bias' }, 'LinearWeightNorm batch')
   gradcheck.jacobian(m, torch.randn(4), { 'v', 'g' }, 'LinearWeightNorm vector')
   gradcheck.jacobian(nn.LinearWeightNorm(3, 2, false), torch.randn(2, 3), { 'v', 'g' }, 'without bias')
   local params = m:parameters()
   check.ok(#params == 3 and params[1] == m.v and params[2] == m.g)
   -- to and from nn.Linear compute the same function
   local lin = m:toLinear()
   check.ok(maxDiff(lin:forward(x), m:forward(x)) < 1e-12, 'toLinear')
   local back = nn.LinearWeightNorm.fromLinear(lin)
   check.ok(maxDiff(back:forward(x), lin:forward(x)) < 1e-12, 'fromLinear')
   check.eq(tostring(nn.LinearWeightNorm(4, 3, false)), 'nn.LinearWeightNorm(4 -> 3) without bias')
end

function tests.bilinear()
   local m = nn.Bilinear(3, 4, 2)
   local a, b = torch.randn(5, 3), torch.randn(5, 4)
   local y = m:forward({ a, b })
   for s = 1, 5 do
      for k = 1, 2 do
         local v = m.bias[k]
         for i = 1, 3 do for j = 1, 4 do v = v + a[s][i] * m.weight[k][i][j] * b[s][j] end end
         check.near(y[s][k], v, 1e-12, 'Bilinear output')
      end
   end
   gradcheck.directional(m, { a, b }, 'Bilinear', { 'weight', 'bias' })
   gradcheck.directional(nn.Bilinear(2, 3, 2, false), { torch.randn(2), torch.randn(3) }, 'Bilinear vectors', { 'weight' })
   check.eq(tostring(m), 'nn.Bilinear(3x4 -> 2)')
   check.raises(function() m:forward({ a, torch.randn(5, 3) }) end, 'Bilinear')
   check.raises(function() m:forward(a) end, 'table {input1, input2}')
end

function tests.add_cadd_mul_cmul()
   local add = nn.Add(4)
   local x = torch.randn(3, 4)
   check.ok(maxDiff(add:forward(x), x + add.bias:view(1, 4):expand(3, 4)) == 0, 'Add batch')
   check.ok(maxDiff(add:forward(x[1]), x[1] + add.bias) == 0, 'Add vector')
   gradcheck.jacobian(add, torch.randn(3, 4), { 'bias' }, 'Add batch')
   gradcheck.jacobian(add, torch.randn(4), { 'bias' }, 'Add vector')
   local scalar = nn.Add(4, true)
   check.eq(scalar.bias:nElement(), 1)
   check.ok(maxDiff(scalar:forward(x), x + scalar.bias[1]) == 0, 'Add scalar')
   gradcheck.jacobian(scalar, torch.randn(2, 4), { 'bias' }, 'Add scalar')

   local cadd = nn.CAdd(3, 1)
   local y = torch.randn(3, 5)
   check.ok(maxDiff(cadd:forward(y), y + cadd.bias:expand(3, 5)) == 0, 'CAdd spreads its size-1 dimension')
   gradcheck.jacobian(cadd, torch.randn(3, 5), { 'bias' }, 'CAdd expanded')
   gradcheck.jacobian(nn.CAdd(2, 3), torch.randn(4, 2, 3), { 'bias' }, 'CAdd batch')
   gradcheck.jacobian(nn.CAdd(6), torch.randn(2, 3), { 'bias' }, 'CAdd same number of elements')

   local mul = nn.Mul()
   check.ok(maxDiff(mul:forward(y), y * mul.weight[1]) == 0, 'Mul')
   gradcheck.jacobian(mul, torch.randn(2, 3), { 'weight' }, 'Mul')

   local cmul = nn.CMul(torch.LongStorage({ 1, 5 }))
   check.ok(maxDiff(cmul:forward(y), y:clone():cmul(cmul.weight:expand(3, 5))) == 0, 'CMul spreads')
   gradcheck.jacobian(cmul, torch.randn(3, 5), { 'weight' }, 'CMul expanded')
   gradcheck.jacobian(nn.CMul(2, 3), torch.randn(4, 2, 3), { 'weight' }, 'CMul batch')
   gradcheck.jacobian(nn.CMul(2, 3), torch.randn(2, 3), { 'weight' }, 'CMul one sample')
   check.eq(tostring(nn.CMul(2, 3)), 'nn.CMul(2x3)')
   check.raises(function() nn.CMul(2, 3):forward(torch.randn(4, 5)) end, 'does not fit')
   check.raises(function() nn.CAdd(3):forward(torch.randn(4, 5)) end, 'does not fit')
   -- accGradParameters scales
   local c = nn.CMul(3)
   local inp, go = torch.randn(2, 3), torch.randn(2, 3)
   c:zeroGradParameters(); c:forward(inp); c:backward(inp, go, 0.5)
   check.ok(maxDiff(c.gradWeight, inp:clone():cmul(go):sum(1):view(3) * 0.5) < 1e-12, 'CMul scale')
end

function tests.euclidean_weighted_euclidean_cosine()
   local e = nn.Euclidean(4, 3)
   local x = torch.randn(2, 4)
   local y = e:forward(x)
   local we = nn.WeightedEuclidean(4, 3)
   we.diagCov:uniform(0.5, 2)
   local wy = we:forward(x)
   local c = nn.Cosine(4, 3)
   local cy = c:forward(x)
   for b = 1, 2 do
      local xx = 0
      for i = 1, 4 do xx = xx + x[b][i] ^ 2 end
      for j = 1, 3 do
         local d, wd, dot, ww = 0, 0, 0, 0
         for i = 1, 4 do
            d = d + (x[b][i] - e.weight[i][j]) ^ 2
            wd = wd + (we.diagCov[i][j] * (x[b][i] - we.weight[i][j])) ^ 2
            dot, ww = dot + c.weight[j][i] * x[b][i], ww + c.weight[j][i] ^ 2
         end
         check.near(y[b][j], math.sqrt(d), 1e-12, 'Euclidean')
         check.near(wy[b][j], math.sqrt(wd), 1e-12, 'WeightedEuclidean')
         check.near(cy[b][j], dot / ((math.sqrt(ww) + 1e-12) * (math.sqrt(xx) + 1e-12)), 1e-12, 'Cosine')
      end
   end
   gradcheck.jacobian(e, torch.randn(3, 4), { 'weight' }, 'Euclidean batch')
   gradcheck.jacobian(e, torch.randn(4), { 'weight' }, 'Euclidean vector')
   gradcheck.jacobian(we, torch.randn(3, 4), { 'weight', 'diagCov' }, 'WeightedEuclidean batch')
   gradcheck.jacobian(we, torch.randn(4), { 'weight', 'diagCov' }, 'WeightedEuclidean vector')
   gradcheck.jacobian(c, torch.randn(3, 4), { 'weight' }, 'Cosine batch')
   gradcheck.jacobian(c, torch.randn(4), { 'weight' }, 'Cosine vector')
   check.eq(e:forward(x[1]):dim(), 1)
   -- a zero distance has a zero gradient, not a NaN
   local at = e.weight:select(2, 2):clone()
   e:forward(at)
   local g = e:backward(at, torch.ones(3))
   check.ok(g[1] == g[1] and g[4] == g[4], 'no NaN at zero distance')
   for _, m in ipairs({ e, we, c }) do
      check.raises(function() m:forward(torch.randn(2, 5)) end, 'a vector of 4 elements')
   end
end

function tests.lookup_table()
   local lt = nn.LookupTable(10, 3)
   local ids = torch.LongTensor({ 3, 1, 3, 10 })
   local out = lt:forward(ids)
   check.eq(out:size(1), 4); check.eq(out:size(2), 3)
   for k = 1, 4 do check.ok(out[k]:equal(lt.weight[ids[k]]), 'row of id ' .. ids[k]) end
   local batch = torch.LongTensor({ { 1, 2 }, { 10, 2 }, { 5, 5 } })
   local bout = lt:forward(batch)
   check.eq(bout:dim(), 3); check.eq(bout:size(1), 3); check.eq(bout:size(2), 2)
   check.ok(bout[2][1]:equal(lt.weight[10]))
   check.ok(lt:forward(torch.Tensor({ 2, 7 }))[2]:equal(lt.weight[7]), 'ids in a DoubleTensor')
   -- gradWeight: each id's row gets the sum of its gradOutput rows
   local go = torch.randn(4, 3)
   lt:zeroGradParameters()
   lt:forward(ids)
   lt:backward(ids, go, 2)
   check.ok(maxDiff(lt.gradWeight[3], (go[1] + go[3]) * 2) < 1e-12)
   check.ok(maxDiff(lt.gradWeight[10], go[4] * 2) < 1e-12)
   check.eq(lt.gradWeight[2]:abs():sum(), 0)
   check.ok(lt.gradInput:isSameSizeAs(ids) and lt.gradInput:sum() == 0, 'ids have a zero gradient')
   -- against finite differences in the weight (ids fixed)
   local fresh = nn.LookupTable(6, 2)
   local input = torch.LongTensor({ { 1, 6 }, { 6, 3 } })
   local analytic = nn.Jacobian.backward(fresh, input, fresh.weight, fresh.gradWeight)
   local numeric = nn.Jacobian.forward(fresh, input, fresh.weight)
   check.ok(maxDiff(analytic, numeric) < 1e-5, 'LookupTable gradWeight')
   -- paddingValue: that id's row gets no gradient
   local padded = nn.LookupTable(5, 2, 2)
   padded:zeroGradParameters()
   local pin = torch.LongTensor({ 2, 3, 2 })
   padded:forward(pin)
   padded:backward(pin, torch.ones(3, 2))
   check.eq(padded.gradWeight[2]:abs():sum(), 0)
   check.eq(padded.gradWeight[3]:sum(), 2)
   -- scaleGradByFreq: divided by the number of occurrences
   local freq = nn.LookupTable(5, 2):scaleGradByFreq()
   freq:zeroGradParameters()
   freq:forward(pin)
   freq:backward(pin, torch.ones(3, 2))
   check.near(freq.gradWeight[2][1], 1, 1e-12)
   -- maxNorm: rows looked up are rescaled to norm at most maxNorm
   local capped = nn.LookupTable(4, 3, 0, 1)
   capped.weight:fill(2)
   capped:forward(torch.LongTensor({ 1, 3 }))
   check.near(math.sqrt(capped.weight[1]:dot(capped.weight[1])), 1, 1e-6)
   check.near(math.sqrt(capped.weight[3]:dot(capped.weight[3])), 1, 1e-6)
   check.eq(capped.weight[2][1], 2, 'rows not looked up stay')
   -- float
   local f = nn.LookupTable(4, 2):float()
   check.eq(torch.type(f:forward(torch.LongTensor({ 1, 4 }))), 'torch.FloatTensor')
   check.eq(torch.type(f._input), 'torch.LongTensor')
   check.raises(function() lt:forward(torch.LongTensor({ 0, 2 })) end, 'id 0 out of range')
   check.raises(function() lt:forward(torch.LongTensor({ 11 })) end, 'id 11 out of range')
   check.raises(function() lt:forward(torch.LongTensor(2, 2, 2):fill(1)) end, 'vector or matrix')
end

function tests.select_narrow_index()
   local x = torch.randn(3, 4, 5)
   check.ok(nn.Select(2, 3):forward(x):equal(x:select(2, 3)))
   check.ok(nn.Select(-1, -2):forward(x):equal(x:select(3, 4)), 'negative dimension and index')
   gradcheck.jacobian(nn.Select(2, -1), torch.randn(2, 3), nil, 'Select')
   check.raises(function() nn.Select(2, 5):forward(x) end, 'index 5 out of range')
   check.raises(function() nn.Select(4, 1):forward(x) end, 'dimension 4 out of range')

   check.ok(nn.Narrow(2, 2, 3):forward(x):equal(x:narrow(2, 2, 3)))
   check.ok(nn.Narrow(3, 2, -1):forward(x):equal(x:narrow(3, 2, 4)), 'length -1 runs to the end')
   -- torch7's negative offset: the first size - length elements (nn's test.lua, Narrow #5)
   check.ok(nn.Narrow(-1, -2, 2):forward(x):equal(x:narrow(3, 1, 3)), 'negative dimension and offset')
   local g = torch.randn(3, 4, 3)
   local expected = torch.zeros(3, 4, 5)
   expected:narrow(3, 1, 3):copy(g)
   check.ok(nn.Narrow(3, -1, 2):backward(x, g):equal(expected), 'negative offset gradInput')
   gradcheck.jacobian(nn.Narrow(1, 2, 2), torch.randn(4, 3), nil, 'Narrow')
   check.raises(function() nn.Narrow(2, 3, 3):forward(x) end, 'out of range')

   local ids = torch.LongTensor({ 3, 1, 3 })
   local m = nn.Index(1)
   local src = torch.randn(4, 2)
   local out = m:forward({ src, ids })
   for k = 1, 3 do check.ok(out[k]:equal(src[ids[k]])) end
   gradcheck.directional(m, { src, ids }, 'Index')
   local g = m:backward({ src, ids }, torch.ones(3, 2))
   check.tensor(g[1], { { 1, 1 }, { 0, 0 }, { 2, 2 }, { 0, 0 } })
   check.raises(function() m:forward({ src, torch.Tensor({ 1 }) }) end, 'LongTensor of ids')
end

function tests.squeeze_unsqueeze_transpose_replicate()
   local x = torch.randn(3, 1, 4, 1)
   local s = nn.Squeeze():forward(x)
   check.eq(s:dim(), 2); check.eq(s:size(2), 4)
   check.eq(nn.Squeeze(4):forward(x):dim(), 3)
   -- a batch of one keeps its batch dimension
   local one = nn.Squeeze(nil, 2):forward(torch.randn(1, 1, 5))
   check.eq(one:dim(), 2); check.eq(one:size(1), 1)
   check.eq(nn.Squeeze(1, 2):forward(torch.randn(4, 1, 5)):dim(), 2, 'dim skips the batch dimension')
   gradcheck.jacobian(nn.Squeeze(), torch.randn(2, 1, 3), nil, 'Squeeze')

   local u = nn.Unsqueeze(2):forward(torch.randn(3, 4))
   check.eq(u:dim(), 3); check.eq(u:size(2), 1); check.eq(u:size(3), 4)
   check.eq(nn.Unsqueeze(3):forward(torch.randn(3, 4)):size(3), 1, 'after the last dimension')
   check.eq(nn.Unsqueeze(1, 1):forward(torch.randn(2, 5)):size(2), 1, 'batch: skips dimension 1')
   -- numInputDims defaults to the first input's dimensions; later inputs with more have
   -- leading batch dimensions (torch7)
   local sticky = nn.Unsqueeze(2)
   sticky:forward(torch.randn(3, 2))
   check.eq(table.concat(sticky:forward(torch.randn(4, 5, 3, 2)):size():totable(), 'x'), '4x5x3x1x2', 'two batch dimensions')
   gradcheck.jacobian(nn.Unsqueeze(1), torch.randn(2, 3), nil, 'Unsqueeze')
   check.raises(function() nn.Unsqueeze(4):forward(torch.randn(3, 4)) end, 'position 4 out of range')

   local y = torch.randn(2, 3, 4)
   local t = nn.Transpose({ 1, 3 }, { 1, 2 }):forward(y)
   -- the first swap gives [4, 3, 2], the second [3, 4, 2]: t[j][k][i] = y[i][j][k]
   check.eq(t:size(1), 3); check.eq(t:size(2), 4); check.eq(t:size(3), 2)
   check.eq(t[2][3][1], y[1][2][3])
   gradcheck.jacobian(nn.Transpose({ 1, 3 }, { 1, 2 }), torch.randn(2, 3, 4), nil, 'Transpose')
   local batched = nn.Transpose({ 1, 2 }):setNumInputDims(2):forward(y)
   check.eq(batched:size(1), 2); check.eq(batched:size(2), 4)

   local r = nn.Replicate(3, 2):forward(torch.Tensor({ { 1, 2 }, { 3, 4 } }))
   check.eq(r:size(2), 3)
   check.eq(r[2][3][1], 3)
   check.eq(nn.Replicate(3):forward(torch.randn(5)):size(1), 3)
   check.eq(nn.Replicate(3, 1, 1):forward(torch.randn(2, 5)):size(2), 3, 'batch: dim skips dimension 1')
   gradcheck.jacobian(nn.Replicate(3, 2), torch.randn(2, 4), nil, 'Replicate')
   check.raises(function() nn.Replicate(2, 4):forward(torch.randn(3, 4)) end, 'not enough input dimensions')
end

function tests.padding()
   local x = torch.Tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
   check.tensor(nn.Padding(2, -1, nil, 9):forward(x), { { 9, 1, 2, 3 }, { 9, 4, 5, 6 } })
   check.tensor(nn.Padding(2, 2):forward(x), { { 1, 2, 3, 0, 0 }, { 4, 5, 6, 0, 0 } })
   check.tensor(nn.Padding(2, -1, nil, 0, 2):forward(x), { { 1, 0, 2, 3 }, { 4, 0, 5, 6 } })
   check.tensor(nn.Padding(1, 1, 1, 7):forward(x), { { 1, 2, 3, 7 }, { 4, 5, 6, 7 } }, 0, 'batch: nInputDim 1')
   gradcheck.jacobian(nn.Padding(1, -2, nil, 0, 2), torch.randn(3, 2), nil, 'Padding')
   gradcheck.jacobian(nn.Padding(2, 1), torch.randn(3, 2), nil, 'Padding after')
   check.raises(function() nn.Padding(3, 1):forward(x) end, 'dimension 3 out of range')
end

function tests.copy_contiguous()
   local x = torch.randn(2, 3)
   local c = nn.Copy('torch.DoubleTensor', 'torch.FloatTensor')
   local y = c:forward(x)
   check.eq(torch.type(y), 'torch.FloatTensor')
   check.ok(maxDiff(y:double(), x) < 1e-6)
   check.eq(torch.type(c:backward(x, y)), 'torch.DoubleTensor')
   local same = nn.Copy()
   check.ok(torch.pointer(same:forward(x):storage()) == torch.pointer(x:storage()), 'one type: a view')
   check.ok(torch.pointer(nn.Copy(nil, nil, true):forward(x):storage()) ~= torch.pointer(x:storage()), 'forceCopy')
   local kept = nn.Copy('torch.DoubleTensor', 'torch.FloatTensor', false, true):float()
   check.eq(torch.type(kept.gradInput), 'torch.DoubleTensor', 'dontCast')

   local t = x:t()
   local out = nn.Contiguous():forward(t)
   check.ok(out:isContiguous() and out:equal(t))
   check.ok(torch.pointer(nn.Contiguous():forward(x):storage()) == torch.pointer(x:storage()))
end

function tests.sum_mean_max_min()
   local x = torch.randn(3, 4)
   local sum, mean, max, min = nn.Sum(2):forward(x), nn.Mean(2):forward(x), nn.Max(2):forward(x), nn.Min(2):forward(x)
   check.eq(sum:dim(), 1)
   for i = 1, 3 do
      local s, hi, lo = 0, -math.huge, math.huge
      for j = 1, 4 do s, hi, lo = s + x[i][j], math.max(hi, x[i][j]), math.min(lo, x[i][j]) end
      check.near(sum[i], s, 1e-12, 'Sum')
      check.near(mean[i], s / 4, 1e-12, 'Mean')
      check.eq(max[i], hi, 'Max')
      check.eq(min[i], lo, 'Min')
   end
   check.ok(nn.Sum(-1):forward(x):equal(sum), 'negative dimension')
   check.ok(nn.Sum(1, 1):forward(x):equal(sum), 'nInputDims: a batch skips dimension 1')
   check.eq(nn.Sum(1):forward(x):size(1), 4)
   check.eq(nn.Sum(2, nil, false, false):forward(x):dim(), 2, 'squeeze = false keeps the dimension')
   check.eq(nn.Sum(1):forward(torch.randn(5)):size(1), 1)
   for _, m in ipairs({ nn.Sum(2), nn.Mean(1), nn.Max(2), nn.Min(1), nn.Max(-1), nn.Sum(1, 1, true) }) do
      gradcheck.jacobian(m, torch.randn(3, 4), nil, torch.type(m))
   end
   gradcheck.jacobian(nn.Max(1), torch.randn(5), nil, 'Max vector')
   gradcheck.jacobian(nn.Mean(2), torch.randn(2, 3, 2), nil, 'Mean 3D')
   local m = nn.Max(2):float()
   check.eq(torch.type(m:forward(x:float())), 'torch.FloatTensor')
   check.eq(torch.type(m._indices), 'torch.LongTensor')
   check.raises(function() nn.Sum(3):forward(x) end, 'dimension 3 out of range')
   check.raises(function() nn.Max(3):forward(x) end, 'dimension 3 out of range')
end

function tests.normalize()
   local x = torch.randn(3, 5)
   for _, p in ipairs({ 1, 1.5, 2, 3, math.huge }) do
      local m = nn.Normalize(p)
      local y = m:forward(x)
      for i = 1, 3 do
         local n = 0
         for j = 1, 5 do
            if p == math.huge then n = math.max(n, math.abs(x[i][j])) else n = n + math.abs(x[i][j]) ^ p end
         end
         n = p == math.huge and n + 1e-10 or (n + 1e-10) ^ (1 / p)
         for j = 1, 5 do check.near(y[i][j], x[i][j] / n, 1e-12, 'Normalize(' .. p .. ')') end
      end
      gradcheck.jacobian(m, torch.randn(3, 5), nil, 'Normalize(' .. p .. ') batch')
      gradcheck.jacobian(m, torch.randn(4), nil, 'Normalize(' .. p .. ') vector')
   end
   check.eq(tostring(nn.Normalize(2)), 'nn.Normalize(2)')
   check.raises(function() nn.Normalize(2):forward(torch.randn(2, 2, 2)) end, 'a vector or a batch')
end

function tests.mm_mv()
   local a, b = torch.randn(3, 4), torch.randn(4, 2)
   check.ok(maxDiff(nn.MM():forward({ a, b }), a * b) < 1e-12)
   check.ok(maxDiff(nn.MM(true, false):forward({ a:t():clone(), b }), a * b) < 1e-12, 'transA')
   check.ok(maxDiff(nn.MM(false, true):forward({ a, b:t():clone() }), a * b) < 1e-12, 'transB')
   local ba, bb = torch.randn(2, 3, 4), torch.randn(2, 4, 5)
   local out = nn.MM():forward({ ba, bb })
   check.ok(maxDiff(out[2], ba[2] * bb[2]) < 1e-12, 'batch')
   gradcheck.directional(nn.MM(), { a, b }, 'MM')
   gradcheck.directional(nn.MM(true, true), { torch.randn(4, 3), torch.randn(2, 4) }, 'MM(true, true)')
   gradcheck.directional(nn.MM(false, true), { ba, torch.randn(2, 5, 4) }, 'MM batch transB')
   check.raises(function() nn.MM():forward({ a, a }) end, 'do not match')

   local v = torch.randn(4)
   check.ok(maxDiff(nn.MV():forward({ a, v }), a * v) < 1e-12)
   check.ok(maxDiff(nn.MV(true):forward({ a:t():clone(), v }), a * v) < 1e-12, 'trans')
   local bv = torch.randn(2, 4)
   check.ok(maxDiff(nn.MV():forward({ ba, bv })[2], ba[2] * bv[2]) < 1e-12, 'batch')
   gradcheck.directional(nn.MV(), { a, v }, 'MV')
   gradcheck.directional(nn.MV(true), { torch.randn(2, 4, 3), torch.randn(2, 4) }, 'MV batch trans')
   check.raises(function() nn.MV():forward({ a, torch.randn(3) }) end, 'sizes do not match')
end

function tests.gradient_reversal_l1_penalty()
   local x = torch.randn(3, 2)
   local gr = nn.GradientReversal(0.5)
   check.ok(gr:forward(x):equal(x))
   local go = torch.randn(3, 2)
   check.ok(maxDiff(gr:backward(x, go), go * -0.5) == 0)
   gr:setLambda(2)
   check.ok(maxDiff(gr:backward(x, go), go * -2) == 0)

   local l1 = nn.L1Penalty(0.1, true)
   check.ok(l1:forward(x):equal(x))
   check.near(l1.loss, 0.1 * x:clone():abs():sum() / 6, 1e-12)
   check.ok(maxDiff(l1:backward(x, go), go + x:clone():sign() * (0.1 / 6)) < 1e-15)
   check.ok(maxDiff(nn.L1Penalty(1, false, false):backward(x, go), x:clone():sign()) == 0, 'no provideOutput')
   -- clearState must not empty the caller's tensor (the output is a view of it)
   l1:clearState()
   check.eq(x:nElement(), 6)
end

function tests.spatial_volumetric_dropout()
   torch.manualSeed(1)
   local m = nn.SpatialDropout(0.5)
   local x = torch.rand(2, 20, 3, 3):add(1)
   local y = m:forward(x)
   -- every plane is kept whole or dropped whole
   local dropped = 0
   for b = 1, 2 do
      for c = 1, 20 do
         local plane, kept = y[b][c], x[b][c]
         if plane:abs():sum() == 0 then dropped = dropped + 1 else check.ok(plane:equal(kept), 'kept plane unchanged') end
      end
   end
   check.ok(dropped > 5 and dropped < 35, 'about half the planes dropped: ' .. dropped)
   local g = m:backward(x, torch.ones(2, 20, 3, 3))
   check.ok(maxDiff(g, y:clone():sign()) == 0, 'the gradient follows the mask')
   m:evaluate()
   check.ok(maxDiff(m:forward(x), x * 0.5) == 0, 'evaluation scales by 1 - p')
   check.raises(function() m:backward(x, x) end, 'only defined while training')
   local v = nn.VolumetricDropout(0.3)
   local vy = v:forward(torch.ones(4, 2, 2, 2))
   for c = 1, 4 do
      local s = vy[c]:sum()
      check.ok(s == 0 or s == 8, 'volume kept or dropped whole')
   end
   check.raises(function() nn.SpatialDropout():forward(torch.randn(3, 3)) end, '3D input')
   check.raises(function() nn.VolumetricDropout():forward(torch.randn(3, 3, 3)) end, '4D input')
   check.eq(tostring(nn.SpatialDropout(0.25)), 'nn.SpatialDropout(0.250000)')
end

function tests.temporal()
   local conv = nn.TemporalConvolution(3, 2, 3, 2)
   local x = torch.randn(7, 3)
   local y = conv:forward(x)
   check.eq(y:size(1), 3); check.eq(y:size(2), 2)
   -- y[t][o] = bias[o] + sum over k, f of weight[o][(k - 1) * 3 + f] x[(t - 1) * 2 + k][f]
   for t = 1, 3 do
      for o = 1, 2 do
         local s = conv.bias[o]
         for k = 1, 3 do for f = 1, 3 do s = s + conv.weight[o][(k - 1) * 3 + f] * x[(t - 1) * 2 + k][f] end end
         check.near(y[t][o], s, 1e-12, 'TemporalConvolution')
      end
   end
   gradcheck.jacobian(conv, torch.randn(7, 3), { 'weight', 'bias' }, 'TemporalConvolution')
   gradcheck.jacobian(conv, torch.randn(2, 5, 3), { 'weight', 'bias' }, 'TemporalConvolution batch')
   check.raises(function() conv:forward(torch.randn(7, 4)) end, 'TemporalConvolution')

   local pool = nn.TemporalMaxPooling(2)
   local p = pool:forward(x)
   check.eq(p:size(1), 3)
   for t = 1, 3 do
      for f = 1, 3 do check.eq(p[t][f], math.max(x[2 * t - 1][f], x[2 * t][f])) end
   end
   gradcheck.jacobian(nn.TemporalMaxPooling(3, 1), torch.randn(6, 2), nil, 'TemporalMaxPooling')
   gradcheck.jacobian(nn.TemporalMaxPooling(2), torch.randn(2, 6, 2), nil, 'TemporalMaxPooling batch')

   local sub = nn.TemporalSubSampling(3, 2, 1)
   local z = sub:forward(x)
   check.eq(z:size(1), 6)
   check.near(z[4][2], sub.weight[2] * (x[4][2] + x[5][2]) + sub.bias[2], 1e-12, 'TemporalSubSampling')
   gradcheck.jacobian(sub, torch.randn(5, 3), { 'weight', 'bias' }, 'TemporalSubSampling')
   check.eq(tostring(conv), 'nn.TemporalConvolution(3 -> 2, 3, 2)')
end

function tests.maxout()
   -- a Sequential of Linear, View and Max, as torch7's
   local m = nn.Maxout(4, 3, 2)
   local x = torch.randn(5, 4)
   local out = m:forward(x)
   local lin = m.modules[1].output
   for b = 1, 5 do
      for j = 1, 3 do check.eq(out[b][j], math.max(lin[b][j], lin[b][3 + j])) end
   end
   gradcheck.jacobian(m, torch.randn(3, 4), nil, 'Maxout batch')
   gradcheck.jacobian(m, torch.randn(4), nil, 'Maxout vector')
   local withTanh = nn.Maxout(4, 3, 2, nn.Tanh())
   check.eq(#withTanh.modules, 4)
   check.ok(withTanh:forward(x):abs():max() <= 1, 'preprocess between the view and the max')
end

function tests.type_conversion_of_buffers()
   for _, m in ipairs({ nn.Euclidean(3, 2), nn.Cosine(3, 2), nn.Normalize(2), nn.CMul(3), nn.LinearWeightNorm(3, 2),
                        nn.TemporalMaxPooling(1), nn.WeightedEuclidean(3, 2) }) do
      local x = torch.randn(2, 3)
      local y = m:forward(x):clone()
      m:backward(x, y)
      m:float()
      local yf = m:forward(x:float())
      check.eq(torch.type(yf), 'torch.FloatTensor', torch.type(m))
      check.ok(maxDiff(yf:double(), y) < 1e-4, torch.type(m) .. ' float output')
      check.eq(torch.type(m:backward(x:float(), yf)), 'torch.FloatTensor')
   end
end

return tests
