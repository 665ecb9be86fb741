-- The rest of torch7's nn modules: outputs against defining formulas and plain loops,
-- gradients against central differences (double, small sizes), batch and non-batch,
-- printing, type conversion and bad inputs.
require 'nn'
local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local tests = {}

local function maxDiff(a, b) return (a - b):abs():max() end

function tests.tanhshrink_crelu_glu()
   local x = torch.randn(3, 4)
   local y = nn.TanhShrink():forward(x)
   for i = 1, 3 do for j = 1, 4 do check.near(y[i][j], x[i][j] - math.tanh(x[i][j]), 1e-12, 'TanhShrink') end end
   gradcheck.jacobian(nn.TanhShrink(), torch.randn(2, 3), nil, 'TanhShrink')

   local c = nn.CReLU(1)
   local v = torch.randn(4)
   local out = c:forward(v)
   check.eq(out:size(1), 8, 'CReLU doubles the features')
   for i = 1, 4 do
      check.eq(out[i], math.max(v[i], 0), 'CReLU positive half')
      check.eq(out[4 + i], math.max(-v[i], 0), 'CReLU negative half')
   end
   local batch = c:forward(torch.randn(3, 4))
   check.ok(batch:size(1) == 3 and batch:size(2) == 8, 'CReLU batch concatenates along dimension 2')
   gradcheck.jacobian(nn.CReLU(3), torch.randn(2, 3, 2, 2), nil, 'CReLU batch')
   check.eq(tostring(c), 'nn.CReLU(1)')
   check.raises(function() c:forward(torch.randn(2, 3, 4)) end, 'nn.CReLU')

   local g = nn.GatedLinearUnit()
   local a = torch.randn(2, 6)
   local z = g:forward(a)
   for i = 1, 2 do
      for j = 1, 3 do check.near(z[i][j], a[i][j] / (1 + math.exp(-a[i][j + 3])), 1e-12, 'GLU') end
   end
   gradcheck.jacobian(nn.GatedLinearUnit(), torch.randn(2, 6), nil, 'GLU last dim')
   gradcheck.jacobian(nn.GatedLinearUnit(1), torch.randn(4, 3), nil, 'GLU dim 1')
   check.raises(function() g:forward(torch.randn(2, 5)) end, 'even size')
end

function tests.spatial_log_softmax()
   local m = nn.SpatialLogSoftMax()
   local x = torch.randn(2, 3, 2, 2)
   local y = m:forward(x)
   for b = 1, 2 do
      for h = 1, 2 do
         for w = 1, 2 do
            local s = 0
            for c = 1, 3 do s = s + math.exp(x[b][c][h][w]) end
            for c = 1, 3 do check.near(y[b][c][h][w], x[b][c][h][w] - math.log(s), 1e-12, 'SpatialLogSoftMax') end
         end
      end
   end
   gradcheck.jacobian(nn.SpatialLogSoftMax(), torch.randn(3, 2, 3), nil, 'SpatialLogSoftMax 3D')
   gradcheck.jacobian(nn.SpatialLogSoftMax(), torch.randn(2, 3, 2, 2), nil, 'SpatialLogSoftMax 4D')
   check.raises(function() m:forward(torch.randn(3, 4)) end, '3D or 4D')
end

function tests.pixel_shuffle()
   local r = 2
   local m = nn.PixelShuffle(r)
   local x = torch.randn(2, 8, 3, 2)
   local y = m:forward(x)
   check.ok(y:dim() == 4 and y:size(2) == 2 and y:size(3) == 6 and y:size(4) == 4, 'PixelShuffle size')
   for b = 1, 2 do
      for c = 0, 1 do
         for h = 0, 2 do
            for w = 0, 1 do
               for i = 0, r - 1 do
                  for j = 0, r - 1 do
                     check.eq(y[b][c + 1][h * r + i + 1][w * r + j + 1], x[b][c * r * r + i * r + j + 1][h + 1][w + 1],
                              'PixelShuffle element')
                  end
               end
            end
         end
      end
   end
   check.ok(maxDiff(m:forward(x[1]), y[1]) == 0, 'PixelShuffle non-batch')
   gradcheck.jacobian(nn.PixelShuffle(2), torch.randn(4, 2, 3), nil, 'PixelShuffle')
   check.eq(tostring(m), 'nn.PixelShuffle(2)')
   check.raises(function() m:forward(torch.randn(3, 2, 2)) end, 'multiple')
end

function tests.constant_collapse_zerograd()
   local c = nn.Constant(torch.Tensor{ 1, 2 }, 1)
   check.ok(maxDiff(c:forward(torch.randn(5)), torch.Tensor{ 1, 2 }) == 0, 'Constant')
   local b = c:forward(torch.randn(3, 5))
   check.ok(b:size(1) == 3 and maxDiff(b[3], torch.Tensor{ 1, 2 }) == 0, 'Constant batch')
   check.eq(c:backward(torch.randn(3, 5), b):abs():sum(), 0, 'Constant has no gradient')
   check.eq(nn.Constant(7):forward(torch.randn(2))[1], 7, 'Constant number')

   local col = nn.Collapse(3)
   local x = torch.randn(2, 3, 4, 5)
   local y = col:forward(x)
   check.ok(y:dim() == 2 and y:size(2) == 60 and y[2][21] == x[2][2][1][1], 'Collapse batch')
   check.eq(col:forward(x[1]):dim(), 1, 'Collapse sample')
   gradcheck.jacobian(nn.Collapse(2), torch.randn(2, 3, 2), nil, 'Collapse')

   local z = nn.ZeroGrad()
   local v = torch.randn(4)
   check.ok(maxDiff(z:forward(v), v) == 0, 'ZeroGrad forward')
   check.eq(z:backward(v, torch.ones(4)):abs():sum(), 0, 'ZeroGrad backward')
end

function tests.convert()
   local m = nn.Convert('bchw', 'bhwc')
   local x = torch.randn(2, 3, 4, 5)
   local y = m:forward(x)
   check.ok(y:size(2) == 4 and y:size(3) == 5 and y:size(4) == 3, 'Convert permute size')
   check.eq(y[2][3][4][1], x[2][1][3][4], 'Convert permute element')
   gradcheck.jacobian(nn.Convert('bchw', 'bwch'), torch.randn(2, 3, 2, 2), nil, 'Convert permute')
   local f = nn.Convert('bchw', 'bf'):forward(x)
   check.ok(maxDiff(f, x:view(2, 60)) == 0, 'Convert bf flattens')
   gradcheck.jacobian(nn.Convert('chw', 'hf'), torch.randn(2, 3, 2), nil, 'Convert hf')
   local t = nn.Convert():float():forward(torch.randn(3))
   check.eq(torch.type(t), 'torch.FloatTensor', 'Convert casts to its type')
   check.raises(function() nn.Convert('bchw', 'bc') end, 'drops')
   check.raises(function() m:forward(torch.randn(2, 3)) end, 'a 4-D input')
end

function tests.masked_select_zip()
   local m = nn.MaskedSelect()
   local x = torch.randn(3, 4)
   local mask = x:gt(0)
   local y = m:forward({ x, mask })
   local k = 0
   for i = 1, 3 do for j = 1, 4 do if x[i][j] > 0 then k = k + 1; check.eq(y[k], x[i][j], 'MaskedSelect') end end end
   check.eq(y:nElement(), k, 'MaskedSelect count')
   local g = m:backward({ x, mask }, torch.range(1, k))
   k = 0
   for i = 1, 3 do
      for j = 1, 4 do
         if x[i][j] > 0 then k = k + 1; check.eq(g[1][i][j], k) else check.eq(g[1][i][j], 0) end
      end
   end
   check.raises(function() m:forward({ x, torch.ByteTensor(2, 2) }) end, 'mask')

   local a1, a2, b1, b2 = torch.randn(2), torch.randn(2), torch.randn(2), torch.randn(2)
   local z = nn.ZipTable():forward({ { a1, a2 }, { b1, b2 } })
   check.ok(z[1][1] == a1 and z[1][2] == b1 and z[2][1] == a2 and z[2][2] == b2, 'ZipTable')
   gradcheck.directional(nn.ZipTable(), { { a1, a2 }, { b1, b2 } }, 'ZipTable')
   check.raises(function() nn.ZipTable():forward({ { a1, a2 }, { b1 } }) end, 'elements')

   local v = torch.randn(3)
   local o = nn.ZipTableOneToMany():forward({ v, { a1, a2 } })
   check.ok(#o == 2 and o[1][1] == v and o[2][2] == a2, 'ZipTableOneToMany')
   gradcheck.directional(nn.ZipTableOneToMany(), { v, { a1, a2 } }, 'ZipTableOneToMany')
end

function tests.criterion_table_module_criterion()
   local x, t = torch.randn(3), torch.randn(3)
   local ct = nn.CriterionTable(nn.MSECriterion())
   check.near(ct:forward({ x, t }), (x - t):pow(2):mean(), 1e-12, 'CriterionTable output')
   local g = ct:backward({ x, t }, 1)
   check.ok(maxDiff(g[1], (x - t):mul(2 / 3)) < 1e-12, 'CriterionTable gradInput')

   local inputModule, targetModule = nn.Linear(3, 2), nn.Tanh()
   local mc = nn.ModuleCriterion(nn.MSECriterion(), inputModule, targetModule)
   local t2 = torch.randn(2)
   local expected = (inputModule:forward(x) - torch.tanh(t2)):pow(2):mean()
   check.near(mc:forward(x, t2), expected, 1e-12, 'ModuleCriterion output')
   local gi = mc:backward(x, t2)
   -- against central differences of the loss
   for i = 1, 3 do
      local orig = x[i]
      x[i] = orig + 1e-6; local up = mc:forward(x, t2)
      x[i] = orig - 1e-6; local down = mc:forward(x, t2)
      x[i] = orig
      check.near(gi[i], (up - down) / 2e-6, 1e-6, 'ModuleCriterion gradInput')
   end
end

local function criterionGradCheck(crit, input, target, msg)
   local g = crit:forward(input, target) and crit:backward(input, target):clone()
   local flat = input:view(input:nElement())
   for i = 1, flat:nElement() do
      local orig = flat[i]
      flat[i] = orig + 1e-6; local up = crit:forward(input, target)
      flat[i] = orig - 1e-6; local down = crit:forward(input, target)
      flat[i] = orig
      check.near(g:view(-1)[i], (up - down) / 2e-6, 1e-6, msg)
   end
end

function tests.l1cost_weighted_mse()
   local x = torch.randn(2, 3)
   local l1 = nn.L1Cost()
   check.near(l1:forward(x), x:clone():abs():sum(), 1e-12, 'L1Cost')
   check.ok(maxDiff(l1:backward(x), x:clone():sign()) == 0, 'L1Cost gradient')

   local w = torch.rand(3)
   local crit = nn.WeightedMSECriterion(w)
   local t = torch.randn(2, 3)
   local s = 0
   for i = 1, 2 do for j = 1, 3 do s = s + (x[i][j] - t[i][j] * w[j]) ^ 2 end end
   check.near(crit:forward(x, t), s / 6, 1e-12, 'WeightedMSECriterion batch')
   criterionGradCheck(crit, x, t, 'WeightedMSECriterion gradient')
   local v, tv = torch.randn(3), torch.randn(3)
   s = 0
   for j = 1, 3 do s = s + (v[j] - tv[j] * w[j]) ^ 2 end
   check.near(nn.WeightedMSECriterion(w, false):forward(v, tv), s, 1e-12, 'WeightedMSECriterion sum')
   check.raises(function() crit:forward(torch.randn(2, 4), torch.randn(2, 4)) end, 'weight')
end

function tests.spatial_class_nll()
   local crit = nn.SpatialClassNLLCriterion()
   local x = nn.SpatialLogSoftMax():forward(torch.randn(2, 3, 2, 2)):clone()
   local t = torch.LongTensor(2, 2, 2):random(1, 3)
   local s = 0
   for b = 1, 2 do for h = 1, 2 do for w = 1, 2 do s = s - x[b][t[b][h][w]][h][w] end end end
   check.near(crit:forward(x, t), s / 8, 1e-12, 'SpatialClassNLLCriterion')
   criterionGradCheck(crit, x, t, 'SpatialClassNLLCriterion gradient')
   check.near(crit:forward(x[1], t[1]), nn.SpatialClassNLLCriterion():forward(x:narrow(1, 1, 1), t:narrow(1, 1, 1)),
              1e-12, 'SpatialClassNLLCriterion non-batch')
   local weights = torch.Tensor{ 1, 2, 3 }
   local wc = nn.SpatialClassNLLCriterion(weights, false)
   s = 0
   for b = 1, 2 do for h = 1, 2 do for w = 1, 2 do s = s - weights[t[b][h][w]] * x[b][t[b][h][w]][h][w] end end end
   check.near(wc:forward(x, t), s, 1e-12, 'SpatialClassNLLCriterion weights')
   check.raises(function() crit:forward(x, torch.LongTensor(2, 2)) end, 'N x H x W')
end

function tests.spatial_autocrop_mse()
   local crit = nn.SpatialAutoCropMSECriterion()
   local x, t = torch.randn(2, 2, 3, 3), torch.randn(2, 2, 6, 5)
   -- the centre: rows floor(3/2)+1 .. +2, columns floor(2/2)+1 .. +2 (1-based)
   local s = 0
   for b = 1, 2 do
      for c = 1, 2 do
         for h = 1, 3 do for w = 1, 3 do s = s + (x[b][c][h][w] - t[b][c][h + 1][w + 1]) ^ 2 end end
      end
   end
   check.near(crit:forward(x, t), s / x:nElement(), 1e-12, 'SpatialAutoCropMSECriterion')
   criterionGradCheck(crit, x, t, 'SpatialAutoCropMSECriterion gradient')
   check.raises(function() crit:forward(torch.randn(2, 4, 4), torch.randn(2, 3, 3)) end, 'at least as large')
   check.raises(function() crit:forward(torch.randn(2, 4, 4), torch.randn(3, 4, 4)) end, 'differ')
end

function tests.decorators()
   local lin = nn.Linear(3, 2)
   local d = nn.Decorator(lin)
   local x = torch.randn(4, 3)
   check.ok(maxDiff(d:forward(x), lin:forward(x)) == 0, 'Decorator forward')
   gradcheck.jacobian(d, torch.randn(2, 3), nil, 'Decorator')
   local plain = lin:clone()
   d:zeroGradParameters(); plain:zeroGradParameters()
   d:backward(x, torch.ones(4, 2), 0.5); plain:backward(x, torch.ones(4, 2), 0.5)
   check.ok(maxDiff(lin.gradWeight, plain.gradWeight) == 0, 'Decorator accGradParameters with scale')
   check.eq(#d:parameters(), 2, 'Decorator parameters')

   local nan = nn.NaN(nn.Log(), 'mylog')
   check.ok(nan:forward(torch.rand(3) + 0.1), 'NaN passes finite values')
   check.raises(function() nan:forward(torch.Tensor{ -1 }) end, 'NaN found in output of module nn.Log (id mylog)')
   check.raises(function() nan:forward(torch.Tensor{ 0 / 0 }) end, 'NaN found in input')

   local p = nn.Profile(nn.Tanh(), 1000)
   check.ok(maxDiff(p:forward(x), torch.tanh(x)) == 0, 'Profile forward')
   p:backward(x, torch.ones(4, 3))
   check.ok(p.forwardCount == 1 and p.backwardCount == 1, 'Profile counts calls')

   -- DontCast keeps a float module float in a double network
   local inner = nn.Linear(3, 2):float()
   local dc = nn.DontCast(inner, false)
   local net = nn.Sequential():add(dc):add(nn.Tanh()):double()
   check.eq(torch.type(inner.weight), 'torch.FloatTensor', 'DontCast keeps the module type')
   local out = net:forward(x)
   check.eq(torch.type(out), 'torch.DoubleTensor', 'DontCast output type')
   local gi = net:backward(x, torch.ones(4, 2))
   check.eq(torch.type(gi), 'torch.DoubleTensor', 'DontCast gradInput type')
   check.ok(maxDiff(out, torch.tanh(inner:forward(x:float()):double())) < 1e-6, 'DontCast value')
   -- castLayer: after a float pass, :double() retypes the module, and its gradients come in
   -- double (not in the float buffer of the pass before)
   local cast = nn.DontCast(nn.Linear(3, 2):float(), true)
   cast:forward(x); cast:backward(x, torch.ones(4, 2))
   cast:double()
   cast:forward(x); cast:backward(x, torch.ones(4, 2))
   check.eq(torch.type(cast.modules[1].gradWeight), 'torch.DoubleTensor', 'DontCast retyped')
end

function tests.weight_norm()
   local lin = nn.Linear(4, 3)
   local before = lin:forward(torch.randn(2, 4):fill(1)):clone()
   local wn = nn.WeightNorm(lin)
   check.ok(maxDiff(wn:forward(torch.randn(2, 4):fill(1)), before) < 1e-12, 'WeightNorm keeps the function')
   wn.g:mul(2)
   local x = torch.randn(2, 4)
   local y = wn:forward(x)
   for b = 1, 2 do
      for j = 1, 3 do
         local nv, s = 0, 0
         for i = 1, 4 do nv = nv + wn.v[j][i] ^ 2 end
         for i = 1, 4 do s = s + wn.g[j] * wn.v[j][i] / math.sqrt(nv) * x[b][i] end
         check.near(y[b][j], s + lin.bias[j], 1e-12, 'WeightNorm output')
      end
   end
   gradcheck.directional(wn, torch.randn(2, 4), 'WeightNorm Linear', { 'v', 'g', 'bias' })
   local conv = nn.WeightNorm(nn.SpatialConvolution(2, 3, 2, 2))
   gradcheck.directional(conv, torch.randn(2, 3, 3), 'WeightNorm convolution', { 'v', 'g', 'bias' })
   local t = nn.WeightNorm(nn.Linear(3, 2), 2)
   gradcheck.directional(t, torch.randn(2, 3), 'WeightNorm outputDim 2', { 'v', 'g', 'bias' })
   check.eq(#wn:parameters(), 3, 'WeightNorm parameters: v, g, bias')
   check.raises(function() nn.WeightNorm(nn.Tanh()) end, 'weight')
end

function tests.convolution_maps()
   local full = nn.tables.full(2, 3)
   check.eq(full:size(1), 6, 'tables.full')
   check.ok(full[4][1] == 2 and full[4][2] == 2, 'tables.full order: inputs within outputs')
   local one = nn.tables.oneToOne(3)
   check.ok(one[2][1] == 2 and one[2][2] == 2, 'tables.oneToOne')
   local rnd = nn.tables.random(4, 3, 2)
   check.eq(rnd:size(1), 6, 'tables.random size')
   for o = 1, 3 do check.ok(rnd[2 * o - 1][1] ~= rnd[2 * o][1] and rnd[2 * o][2] == o, 'tables.random distinct inputs') end

   local conn = torch.Tensor{ { 1, 1 }, { 2, 1 }, { 2, 2 } }
   local m = nn.SpatialConvolutionMap(conn, 2, 3, 1, 2)
   check.ok(m.nInputPlane == 2 and m.nOutputPlane == 2 and m.weight:size(1) == 3, 'SpatialConvolutionMap sizes')
   local x = torch.randn(2, 5, 4)
   local y = m:forward(x)
   check.ok(y:size(1) == 2 and y:size(2) == 2 and y:size(3) == 3, 'SpatialConvolutionMap output size')
   for o = 1, 2 do
      for r = 1, 2 do
         for c = 1, 3 do
            local s = m.bias[o]
            for k = 1, 3 do
               if conn[k][2] == o then
                  for i = 1, 3 do
                     for j = 1, 2 do s = s + m.weight[k][i][j] * x[conn[k][1]][(r - 1) * 2 + i][c + j - 1] end
                  end
               end
            end
            check.near(y[o][r][c], s, 1e-12, 'SpatialConvolutionMap output')
         end
      end
   end
   gradcheck.jacobian(m, torch.randn(2, 5, 4), { 'weight', 'bias' }, 'SpatialConvolutionMap')
   gradcheck.jacobian(m, torch.randn(2, 2, 5, 4), { 'weight', 'bias' }, 'SpatialConvolutionMap batch')
   check.eq(tostring(m), 'nn.SpatialConvolutionMap(2 -> 2, 2x3, 1,2)')

   local f = nn.SpatialFullConvolutionMap(conn, 2, 2, 2, 1)
   local z = torch.randn(2, 3, 2)
   local fy = f:forward(z)
   check.ok(fy:size(1) == 2 and fy:size(2) == 4 and fy:size(3) == 4, 'SpatialFullConvolutionMap output size')
   -- each input pixel scatters its kernel onto the output
   local ref = torch.zeros(2, 4, 4)
   for o = 1, 2 do ref[o]:fill(f.bias[o]) end
   for k = 1, 3 do
      local i, o = conn[k][1], conn[k][2]
      for r = 1, 3 do
         for c = 1, 2 do
            for a = 1, 2 do
               for b = 1, 2 do
                  ref[o][r + a - 1][(c - 1) * 2 + b] = ref[o][r + a - 1][(c - 1) * 2 + b] + z[i][r][c] * f.weight[k][a][b]
               end
            end
         end
      end
   end
   check.ok(maxDiff(fy, ref) < 1e-12, 'SpatialFullConvolutionMap output')
   gradcheck.jacobian(f, torch.randn(2, 3, 2), { 'weight', 'bias' }, 'SpatialFullConvolutionMap')
   check.raises(function() nn.SpatialConvolutionMap(torch.Tensor(3, 3), 2, 2) end, 'K x 2')
end

function tests.temporal_row_convolution()
   local m = nn.TemporalRowConvolution(3, 2, 2)
   local x = torch.randn(5, 3)
   local y = m:forward(x)
   check.ok(y:size(1) == 2 and y:size(2) == 3, 'TemporalRowConvolution output size')
   for t = 1, 2 do
      for c = 1, 3 do
         local s = m.bias[c]
         for k = 1, 2 do s = s + m.weight[c][1][k] * x[(t - 1) * 2 + k][c] end
         check.near(y[t][c], s, 1e-12, 'TemporalRowConvolution output')
      end
   end
   gradcheck.jacobian(m, torch.randn(5, 3), { 'weight', 'bias' }, 'TemporalRowConvolution')
   gradcheck.jacobian(m, torch.randn(2, 4, 3), { 'weight', 'bias' }, 'TemporalRowConvolution batch')
   local ff = nn.TemporalRowConvolution(3, 2, 1, true)
   ff.weight:copy(m.weight); ff.bias:copy(m.bias)
   local plain = nn.TemporalRowConvolution(3, 2, 1)
   plain.weight:copy(m.weight); plain.bias:copy(m.bias)
   check.ok(maxDiff(ff:forward(x:t():contiguous()):t(), plain:forward(x)) < 1e-12, 'featFirst')
   check.eq(tostring(m), 'nn.TemporalRowConvolution(3, 2, 2)')
   check.raises(function() m:forward(torch.randn(5, 4)) end)
end

function tests.temporal_dynamic_kmax_pooling()
   local m = nn.TemporalDynamicKMaxPooling(2, 0.5)
   local x = torch.randn(6, 2)
   local y = m:forward(x)
   check.eq(y:size(1), 3, 'k = max(minK, ceil(factor n))')
   for c = 1, 2 do
      -- the 3 largest of column c, in time order
      local col = {}
      for t = 1, 6 do col[t] = x[t][c] end
      local sorted = {}
      for t = 1, 6 do sorted[t] = col[t] end
      table.sort(sorted, function(a, b) return a > b end)
      local k = 0
      for t = 1, 6 do
         if col[t] >= sorted[3] then k = k + 1; check.eq(y[k][c], col[t], 'kept in time order') end
      end
   end
   gradcheck.jacobian(m, torch.randn(6, 2), nil, 'TemporalDynamicKMaxPooling')
   gradcheck.jacobian(nn.TemporalDynamicKMaxPooling(2), torch.randn(2, 4, 3), nil, 'TemporalDynamicKMaxPooling batch')
   check.raises(function() nn.TemporalDynamicKMaxPooling(5):forward(torch.randn(3, 2)) end, 'exceeds')
end

return tests
