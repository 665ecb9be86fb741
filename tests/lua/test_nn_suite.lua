-- What nn's own test file (torch/nn test.lua) showed missing or different from torch7: the
-- modules OneHot, WhiteNoise, UpSampling, FeatureLPPooling and VolumetricFractionalMaxPooling
-- against plain loops and finite differences, and torch7's behaviour of AddConstant,
-- BatchNormalization, ConcatTable, FlattenTable, CrossEntropyCriterion, containers' errors,
-- the full convolutions' dual input and nn.utils.addSingletonDimension; with the torch
-- helpers they need (permute, split, repeatTensor, t[mask], __eq by C object).
require 'nn'
local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local maxDiff = gradcheck.maxDiff
local tests = {}

local function sizes(t) return table.concat(t:size():totable(), 'x') end

function tests.torch_shape_helpers()
   local x = torch.range(1, 6):view(2, 3)
   -- repeatTensor tiles: element (i, j) of the result is x[(i-1) % 2 + 1][(j-1) % 3 + 1]
   local r = x:repeatTensor(2, 2)
   check.eq(sizes(r), '4x6')
   for i = 1, 4 do
      for j = 1, 6 do check.eq(r[i][j], x[(i - 1) % 2 + 1][(j - 1) % 3 + 1], 'repeatTensor element') end
   end
   check.eq(sizes(torch.repeatTensor(torch.Tensor{ 1, 2 }, 3, 1, 2)), '3x1x4', 'leading dimensions added')
   local into = torch.Tensor()
   check.ok(torch.repeatTensor(into, x, 1, 2) == into and sizes(into) == '2x6', 'result given')
   -- permute: p[i][j][k] = y[k][i][j] for permute(2, 3, 1)
   local y = torch.randn(2, 3, 4)
   local p = y:permute(2, 3, 1)
   check.eq(sizes(p), '3x4x2')
   for i = 1, 3 do for j = 1, 4 do for k = 1, 2 do check.eq(p[i][j][k], y[k][i][j]) end end end
   check.raises(function() y:permute(1, 1, 2) end, 'permute')
   -- split: views of 2 rows, the last shorter
   local parts = torch.range(1, 5):split(2)
   check.eq(#parts, 3)
   check.tensor(parts[3], { 5 })
   parts[1][1] = 9
   check.eq(parts[1][1], 9, 'split gives views')
   check.eq(sizes(torch.view(x, 3, 2)), '3x2')
   check.eq(sizes(torch.expand(torch.Tensor(3, 1), 3, 4)), '3x4')
   -- torch7's squeeze leaves a one-element vector as its number
   check.eq(type(torch.Tensor{ 7 }:squeeze()), 'number')
   check.eq(torch.Tensor{ 7 }:squeeze(), 7)
   check.eq(torch.type(torch.Tensor(1, 1, 2):squeeze()), 'torch.DoubleTensor')
end

function tests.torch_identity_and_masks()
   local x = torch.Tensor(3)
   check.ok(x:storage() == x:storage(), 'two handles on one storage are equal')
   check.ok(x:storage() ~= torch.Tensor(3):storage(), 'different storages differ')
   check.ok(x:view(3) ~= x, 'a view is another tensor')
   local v = torch.Tensor{ 1, -2, 3, -4 }
   check.tensor(v[v:lt(0)], { -2, -4 }, 0, 't[mask]')
   check.tensor(v[torch.LongTensor{ 4, 1 }], { -4, 1 }, 0, 't[indices]')
   v[v:lt(0)] = 0
   check.tensor(v, { 1, 0, 3, 0 }, 0, 't[mask] = number')
end

function tests.one_hot()
   local m = nn.OneHot(4)
   local idx = torch.LongTensor{ { 2, 4 }, { 1, 1 }, { 3, 2 } }
   local out = m:forward(idx)
   check.eq(sizes(out), '3x2x4')
   for i = 1, 3 do
      for j = 1, 2 do
         for k = 1, 4 do check.eq(out[i][j][k], k == idx[i][j] and 1 or 0, 'one-hot entry') end
      end
   end
   check.tensor(m:forward(3), { 0, 0, 1, 0 }, 0, 'a number index')
   check.eq(sizes(m:backward(idx:double(), out)), '3x2', 'gradInput like the indices')
   check.raises(function() m:forward(torch.LongTensor{ 5 }) end, 'indices must be in 1..4')
end

function tests.white_noise()
   torch.manualSeed(5)
   local m = nn.WhiteNoise(0.5, 2)
   local x = torch.zeros(20000)
   local out = m:forward(x)
   check.near(out:mean(), 0.5, 0.05, 'noise mean')
   check.near(out:std(), 2, 0.05, 'noise std')
   check.ok(maxDiff(m:backward(x, torch.ones(20000)), torch.ones(20000)) == 0, 'gradient passes through')
   m:evaluate()
   check.tensor(m:forward(torch.Tensor{ 1, 2 }), { 1.5, 2.5 }, 0, 'evaluation adds the mean')
   check.raises(function() m:backward(torch.Tensor{ 1 }, torch.Tensor{ 1 }) end, 'training only')
end

function tests.up_sampling()
   -- nearest: out[n][c][y][x] = in[n][c][ceil(y / s)][ceil(x / s)]
   local x = torch.randn(2, 3, 2, 3)
   local out = nn.UpSampling(2):forward(x)
   check.eq(sizes(out), '2x3x4x6')
   for n = 1, 2 do for c = 1, 3 do for yy = 1, 4 do for xx = 1, 6 do
      check.eq(out[n][c][yy][xx], x[n][c][math.ceil(yy / 2)][math.ceil(xx / 2)])
   end end end end
   -- linear with aligned corners: corners kept, the middle of two samples their mean
   local lin = nn.UpSampling(3, 'linear'):forward(torch.Tensor{ 0, 3 }:view(1, 1, 1, 2))
   check.eq(sizes(lin), '1x1x3x6')
   check.near(lin[1][1][1][1], 0) check.near(lin[1][1][1][6], 3) check.near(lin[1][1][2][2], 0.6)
   check.eq(sizes(nn.UpSampling({ oheight = 5, owidth = 7 }, 'bilinear'):forward(x)), '2x3x5x7')
   check.eq(sizes(nn.UpSampling(2):forward(torch.randn(1, 2, 2, 3, 2))), '1x2x4x6x4', 'volumes')
   for _, mode in ipairs({ 'nearest', 'linear' }) do
      gradcheck.jacobian(nn.UpSampling(2, mode), torch.randn(1, 2, 2, 3), nil, 'UpSampling 4D ' .. mode)
      gradcheck.jacobian(nn.UpSampling(2, mode), torch.randn(1, 1, 2, 2, 3), nil, 'UpSampling 5D ' .. mode)
   end
   check.raises(function() nn.UpSampling({ oheight = 2, owidth = 2 }) end, 'scale factor')
   check.raises(function() nn.UpSampling(2):forward(torch.randn(2, 3)) end, '4D')
end

function tests.feature_lp_pooling()
   -- out[b][k][r] = (sum_i x[b][(k-1)*stride + i][r]^p)^(1/p), no absolute value
   for _, p in ipairs({ 1, 2, 4 }) do
      local m = nn.FeatureLPPooling(3, 2, p, true)
      local x = torch.rand(2, 9, 2) + 0.1
      local out = m:forward(x)
      check.eq(sizes(out), '2x4x2')
      for b = 1, 2 do for k = 1, 4 do for r = 1, 2 do
         local s = 0
         for i = 1, 3 do s = s + x[b][(k - 1) * 2 + i][r] ^ p end
         check.near(out[b][k][r], s ^ (1 / p), 1e-12, 'Lp value')
      end end end
      gradcheck.jacobian(m, x, nil, 'FeatureLPPooling p=' .. p)
      gradcheck.jacobian(nn.FeatureLPPooling(2, 1, p), torch.rand(5, 3) + 0.1, nil, 'FeatureLPPooling unbatched')
   end
   check.near(nn.FeatureLPPooling(2, 1, 1):forward(torch.Tensor{ -1, -2 })[1], -3, 0, 'p = 1 sums signed values')
   check.raises(function() nn.FeatureLPPooling(2, 1):forward(torch.randn(1)) end, 'fewer than the width')
end

function tests.volumetric_fractional_max_pooling()
   -- windows placed by the samples as SpatialFractionalMaxPooling's: start of window i is
   -- floor((i-1 + u) a) - floor(u a), a = (in - pool) / (out - 1), the last in - pool
   local function starts(u, inSize, outSize, pool)
      local a = (inSize - pool) / (outSize - 1)
      local s = {}
      for i = 1, outSize - 1 do s[i] = math.floor((i - 1 + u) * a) - math.floor(u * a) end
      s[outSize] = inSize - pool
      return s
   end
   local m = nn.VolumetricFractionalMaxPooling(2, 3, 2, 3, 2, 2):fixPoolingRegions()
   local x = torch.randn(2, 6, 7, 5)   -- C x H x W x T
   local out = m:forward(x)
   check.eq(sizes(out), '2x2x2x3')
   for c = 1, 2 do
      local u = m.randomSamples[1][c]
      local sT, sW, sH = starts(u[1], 5, 3, 2), starts(u[2], 7, 2, 3), starts(u[3], 6, 2, 2)
      for h = 1, 2 do for w = 1, 2 do for t = 1, 3 do
         local best = -math.huge
         for hh = sH[h] + 1, sH[h] + 2 do for ww = sW[w] + 1, sW[w] + 3 do for tt = sT[t] + 1, sT[t] + 2 do
            best = math.max(best, x[c][hh][ww][tt])
         end end end
         check.eq(out[c][h][w][t], best, 'window max')
      end end end
   end
   gradcheck.jacobian(m, torch.randn(2, 2, 6, 7, 5), nil, 'VolumetricFractionalMaxPooling batch')
   local byRatio = nn.VolumetricFractionalMaxPooling(2, 2, 2, 0.5, 0.5, 0.5)
   check.eq(sizes(byRatio:forward(torch.randn(1, 8, 6, 7))), '1x4x3x3', 'floor(in * ratio)')
end

function tests.add_constant_tensor()
   local c = torch.Tensor{ 1, 2, 3 }
   check.tensor(nn.AddConstant(c):forward(torch.Tensor{ 1, 1, 1 }), { 2, 3, 4 })
   check.tensor(nn.AddConstant(c):forward(torch.ones(2, 3)), { { 2, 3, 4 }, { 2, 3, 4 } }, 0, 'each row')
   local x = torch.ones(2, 3)
   local inplace = nn.AddConstant(c, true)
   inplace:forward(x)
   inplace:backward(x, torch.ones(2, 3))
   check.ok(maxDiff(x, torch.ones(2, 3)) == 0, 'in place: the input is restored')
   check.raises(function() nn.AddConstant(c):forward(torch.ones(2, 4)) end, 'does not match')
end

function tests.batch_normalization_batch_of_one()
   -- a batch of one in training is normalised by the running statistics, which stay put
   local bn = nn.BatchNormalization(3)
   bn.running_mean:copy(torch.Tensor{ 1, 2, 3 })
   bn.running_var:copy(torch.Tensor{ 4, 4, 1 })
   local x = torch.Tensor{ { 3, 2, 4 } }
   local out = bn:forward(x)
   for j = 1, 3 do
      local expected = (x[1][j] - bn.running_mean[j]) / math.sqrt(bn.running_var[j] + bn.eps) * bn.weight[j] + bn.bias[j]
      check.near(out[1][j], expected, 1e-12, 'normalised by the running statistics')
   end
   check.tensor(bn.running_mean, { 1, 2, 3 }, 0, 'running mean unchanged')
   gradcheck.jacobian(bn, torch.randn(1, 3), { 'weight', 'bias' }, 'BatchNormalization batch of one')
end

function tests.concat_and_flatten_tables()
   local ct = nn.ConcatTable():add(nn.Identity()):add(nn.Identity())
   local x, y = { torch.randn(5), torch.randn(5) }, { torch.randn(5) }
   ct:forward(x)
   check.eq(#ct:backward(x, { x, x }), 2)
   ct:forward(y)
   local g = ct:backward(y, { y, y })
   check.eq(#g, 1, 'gradInput follows a shorter input')
   check.ok(maxDiff(g[1], y[1] * 2) == 0)

   local ft = nn.FlattenTable()
   local input = { torch.randn(2), { torch.randn(3), { torch.randn(1) } } }
   local out = ft:forward(input)
   check.ok(#out == 3 and out[1] == input[1] and out[2] == input[2][1] and out[3] == input[2][2][1], 'flat order')
   local map, table1 = ft.input_map, ft.output
   ft:forward(input)
   check.ok(ft.input_map == map and ft.output == table1, 'same structure: tables kept')
   input[2][3] = torch.randn(4)
   ft:forward(input)
   check.ok(ft.input_map ~= map and #ft.output == 4, 'changed structure: rebuilt')
   local gi = ft:backward(input, ft.output)
   check.ok(gi[2][3] == input[2][3] and gi[2][2][1] == input[2][2][1], 'gradInput nested like the input')
end

function tests.cross_entropy_size_average()
   local x, t = torch.randn(4, 5), torch.LongTensor{ 1, 2, 3, 4 }
   local ref = nn.ClassNLLCriterion()
   ref.sizeAverage = false
   local total = ref:forward(nn.LogSoftMax():forward(x), t)
   local c = nn.CrossEntropyCriterion()
   c.nll.sizeAverage = false   -- set on the inner criterion, as older code did
   check.near(c:forward(x, t), total, 1e-12, 'inner setting kept')
   check.eq(c.nll.sizeAverage, false)
   c = nn.CrossEntropyCriterion()
   c.sizeAverage = false       -- set on the outer one
   check.near(c:forward(x, t), total, 1e-12, 'outer setting propagated')
   check.eq(c.nll.sizeAverage, false)
end

function tests.container_errors_and_singleton_dimensions()
   local model = nn.Sequential():add(nn.Identity()):add(nn.Concat(1):add(nn.Parallel(1, 1):add(nn.Linear(1, 1))))
   local ok, err = pcall(function() model:forward(torch.randn(1, 2, 2)) end)
   check.ok(not ok, 'forward fails')
   check.ok(err:find('In 2 module of nn.Sequential:\nIn 1 module of nn.Concat:\nIn 1 module of nn.Parallel:\n', 1, true),
            err)
   check.ok(err:find('size mismatch', 1, true), err)

   local t = torch.randn(3, 4):t()
   local s = nn.utils.addSingletonDimension(t, 2)
   check.eq(sizes(s), '4x1x3')
   check.ok(maxDiff(s:select(2, 1), t) == 0, 'same values')
   check.ok(s:storage() == t:storage(), 'a view')
   local r = torch.Tensor()
   check.ok(nn.utils.addSingletonDimension(r, t, 3) == r and sizes(r) == '4x3x1', 'result given')
   check.raises(function() nn.utils.addSingletonDimension(t, 4) end, 'out of range')
end

function tests.full_convolution_dual_input()
   local m = nn.SpatialFullConvolution(2, 3, 3, 3, 2, 2)
   local x, target = torch.randn(2, 3, 3), torch.zeros(8, 8)
   local out = m:forward({ x, target })
   check.eq(sizes(out), '3x8x8', 'output takes the target size')
   local g = m:backward({ x, target }, torch.randn(3, 8, 8))
   check.eq(sizes(g[2]), '8x8')
   check.eq(g[2]:storage():size(), 1, 'gradInput[2] is one zero expanded')
   check.eq(g[2]:sum(), 0)
end

function tests.convolution_local_weight_by_position()
   -- a weight of any sizes with oH*oW x nOutputPlane x nInputPlane*kH*kW elements in order
   -- is read as that (torch7's view): tiling a SpatialConvolution's kernel everywhere
   -- gives the SpatialConvolution
   local from, to, kW, kH = 2, 3, 2, 3
   local m = nn.SpatialConvolutionLocal(from, to, 5, 6, kW, kH)
   local conv = nn.SpatialConvolution(from, to, kW, kH)
   torch.repeatTensor(m.bias, conv.bias:view(to, 1, 1), 1, m.oH, m.oW)
   torch.repeatTensor(m.weight, conv.weight:view(1, 1, from, to, kW, kH), m.oW, m.oH, 1, 1, 1, 1)
   local x = torch.randn(2, from, 6, 5)
   check.ok(maxDiff(m:forward(x), conv:forward(x)) < 1e-12, 'as the shared-weight convolution')
end

-- nn's test draws a random connection table, which may name fewer input planes than the input
-- has (torch7 reads only the planes the table names): the map convolution against xcorr2 sums
-- per connection, batched, with the gradient's sizes.
function tests.convolution_map_with_planes_the_table_leaves_out()
   for trial = 1, 20 do
      torch.manualSeed(trial)
      local from = 4
      local t = nn.tables.random(from, 2, 1)
      local m = nn.SpatialConvolutionMap(t, 3, 2)
      local x = torch.randn(3, from, 7, 6)
      local y = m:forward(x)
      local want = torch.Tensor(y:size()):zero()
      for b = 1, 3 do
         for o = 1, m.nOutputPlane do want[b][o]:fill(m.bias[o]) end
         for k = 1, t:size(1) do want[b][t[k][2]]:add(torch.xcorr2(x[b][t[k][1]], m.weight[k])) end
      end
      check.ok(maxDiff(y, want) < 1e-10, 'forward, table ' .. trial)
      check.ok(m:backward(x, torch.randn(y:size())):isSameSizeAs(x), 'gradInput sizes, table ' .. trial)
   end
end

return tests
