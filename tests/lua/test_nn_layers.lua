-- nn's layers: gradInput and parameter gradients against nn.Jacobian's finite differences
-- (double), outputs against the defining formulas computed element by element, and bad
-- input sizes.
require 'nn'
local tests = {}

local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local precision, checkGradients = gradcheck.precision, gradcheck.jacobian
local reference = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_reference.lua')

-- out[i] == f(in[i]) for every element
local function checkElementwise(module, input, f, tol, msg)
   local out = module:forward(input)
   check.ok(out:isSameSizeAs(input), msg .. ': output has the input\'s size')
   local flatIn = input:contiguous():view(input:nElement())
   local flatOut = out:contiguous():view(out:nElement())
   for i = 1, flatIn:nElement() do
      check.near(flatOut[i], f(flatIn[i]), tol or 1e-12, msg .. ' at ' .. i)
   end
end

function tests.linear()
   local l = nn.Linear(5, 3)
   checkGradients(l, torch.Tensor(4, 5), { 'weight', 'bias' }, 'Linear batch')
   checkGradients(l, torch.Tensor(5), { 'weight', 'bias' }, 'Linear vector')
   checkGradients(nn.Linear(5, 3, false), torch.Tensor(2, 5), { 'weight' }, 'Linear without bias')
   -- y[b][o] = sum_i W[o][i] x[b][i] + bias[o]
   local x = torch.randn(2, 5)
   local y = l:forward(x)
   for b = 1, 2 do
      for o = 1, 3 do
         local s = l.bias[o]
         for i = 1, 5 do s = s + l.weight[o][i] * x[b][i] end
         check.near(y[b][o], s, 1e-12, 'Linear output')
      end
   end
   for k, v in pairs(nn.Jacobian.testAllUpdate(l, torch.randn(3, 5), 'weight', 'gradWeight')) do
      check.ok(v < precision, 'Linear ' .. k .. ': ' .. v)
   end
end

function tests.linear_init_matches_torch7()
   -- mlp.t7 was built right after torch.manualSeed(123) with nn's default initialisation
   local saved = torch.load(FIXTURES .. '/mlp.t7')
   torch.manualSeed(123)
   local first, second = nn.Linear(10, 20), nn.Linear(20, 5)
   check.ok(first.weight:equal(saved.modules[1].weight), 'first weight')
   check.ok(first.bias:equal(saved.modules[1].bias), 'first bias')
   check.ok(second.weight:equal(saved.modules[3].weight), 'second weight')
   check.ok(second.bias:equal(saved.modules[3].bias), 'second bias')
end

function tests.tanh()
   checkGradients(nn.Tanh(), torch.Tensor(3, 4), nil, 'Tanh')
   checkElementwise(nn.Tanh(), torch.randn(3, 4), math.tanh, 1e-12, 'Tanh')
end

function tests.relu_and_threshold()
   checkGradients(nn.ReLU(), torch.Tensor(3, 4), nil, 'ReLU')
   checkElementwise(nn.ReLU(), torch.randn(3, 4), function(x) return x > 0 and x or 0 end, 0, 'ReLU')
   checkElementwise(nn.Threshold(0.5, -2), torch.randn(7),
                    function(x) return x > 0.5 and x or -2 end, 0, 'Threshold')
   checkGradients(nn.Threshold(0.5, -2), torch.Tensor(6), nil, 'Threshold')
   -- in place: the output is the input
   local x = torch.randn(5)
   local expected = x:clone():apply(function(v) return v > 0 and v or 0 end)
   local r = nn.ReLU(true)
   local y = r:forward(x)
   check.ok(x:equal(expected) and y:equal(expected), 'ReLU(true) writes into its input')
   check.raises(function() nn.Threshold(0, 1, true) end, 'in-place')
   check.raises(function() nn.Threshold('a') end, 'numbers expected')
end

function tests.log_soft_max()
   checkGradients(nn.LogSoftMax(), torch.Tensor(3, 5), nil, 'LogSoftMax batch')
   checkGradients(nn.LogSoftMax(), torch.Tensor(5), nil, 'LogSoftMax vector')
   local x = torch.randn(2, 4)
   local y = nn.LogSoftMax():forward(x)
   for b = 1, 2 do
      local sum = 0
      for j = 1, 4 do sum = sum + math.exp(x[b][j]) end
      for j = 1, 4 do check.near(y[b][j], x[b][j] - math.log(sum), 1e-12, 'LogSoftMax') end
   end
end

function tests.float_modules_run_float_kernels()
   local l = nn.Linear(4, 2):float()
   local x = torch.randn(3, 4)
   local y = l:forward(x:float())
   check.eq(torch.type(y), 'torch.FloatTensor')
   local yd = l:clone():double():forward(x)
   check.ok((y:double() - yd):abs():max() < 1e-5)
end

function tests.bad_sizes_raise_and_change_nothing()
   local l = nn.Linear(4, 3)
   local x = torch.randn(2, 4)
   l:forward(x)
   local output, weight = l.output:clone(), l.weight:clone()
   local ok, err = pcall(function() l:forward(torch.randn(2, 6)) end)
   check.ok(not ok and err:find('Linear', 1, true) and err:find('[2, 6]', 1, true), tostring(err))
   check.raises(function() l:forward(torch.randn(2, 2, 4)) end, 'Linear')
   check.raises(function() l:backward(x, torch.randn(2, 4)) end, 'gradOutput')
   check.ok(l.output:equal(output) and l.weight:equal(weight), 'nothing changed')
   check.raises(function() nn.Tanh():backward(torch.randn(3), torch.randn(4)) end, 'Tanh')
   check.raises(function() nn.LogSoftMax():forward(torch.randn(2, 2, 2, 2, 2)) end, 'LogSoftMax')
end

function tests.kernel_table()
   -- nn.THNN.<Type> and tensor.THNN are the THNN kernels of the tensor's type
   check.ok(torch.randn(2).THNN == nn.THNN.Double)
   check.ok(torch.FloatTensor(2).THNN == nn.THNN.Float)
   local x, y = torch.randn(6), torch.Tensor()
   nn.THNN.Double.Tanh_updateOutput(x, y)
   check.near(y[3], math.tanh(x[3]), 1e-15)
   check.raises(function() nn.THNN.Double.Tanh_updateOutput(x, 3) end, 'argument 2: torch.DoubleTensor expected')
   check.raises(function() nn.THNN.Double.Threshold_updateOutput(x, y, 0, 0, 'yes') end, 'boolean expected')
   -- nil (NULL) only where THNN documents the argument as optional
   check.raises(function() nn.THNN.Double.Tanh_updateOutput(x, nil) end, 'argument 2: torch.DoubleTensor expected, got nil')
   local w = torch.randn(2, 6)
   nn.THNN.Double.Linear_updateOutput(x, y, w, nil, torch.Tensor())
   check.near(y[2], w[2]:dot(x), 1e-12, 'no bias')
end

-- element-wise modules: the defining formula at every element, and the gradient by
-- finite differences. Inputs avoid the kinks (|x| >= 0.1 away from them) where a
-- central difference straddles two pieces.
local function awayFromKinks(n, kinks)
   local x = torch.rand(n):mul(4):add(-2)
   return x:apply(function(v)
      for _, k in ipairs(kinks) do
         if math.abs(v - k) < 0.1 then return k + 0.2 end
      end
      return v
   end)
end

local function sigmoid(x) return 1 / (1 + math.exp(-x)) end

local elementwise = {
   { 'Sigmoid', function() return nn.Sigmoid() end, sigmoid },
   { 'HardTanh', function() return nn.HardTanh() end, function(x) return math.max(-1, math.min(1, x)) end, { -1, 1 } },
   { 'HardTanh(-0.5, 2)', function() return nn.HardTanh(-0.5, 2) end,
     function(x) return math.max(-0.5, math.min(2, x)) end, { -0.5, 2 } },
   { 'Clamp', function() return nn.Clamp(-0.3, 0.7) end, function(x) return math.max(-0.3, math.min(0.7, x)) end,
     { -0.3, 0.7 } },
   { 'ReLU6', function() return nn.ReLU6() end, function(x) return math.max(0, math.min(6, x)) end, { 0 } },
   { 'LeakyReLU', function() return nn.LeakyReLU(0.1) end, function(x) return x > 0 and x or 0.1 * x end, { 0 } },
   { 'ELU', function() return nn.ELU(0.7) end, function(x) return x > 0 and x or 0.7 * (math.exp(x) - 1) end, { 0 } },
   { 'HardShrink', function() return nn.HardShrink(0.4) end, function(x) return math.abs(x) > 0.4 and x or 0 end,
     { -0.4, 0.4 } },
   { 'SoftShrink', function() return nn.SoftShrink(0.4) end,
     function(x) return x > 0.4 and x - 0.4 or (x < -0.4 and x + 0.4 or 0) end, { -0.4, 0.4 } },
   { 'SoftPlus', function() return nn.SoftPlus(2) end, function(x) return math.log(1 + math.exp(2 * x)) / 2 end },
   { 'SoftSign', function() return nn.SoftSign() end, function(x) return x / (1 + math.abs(x)) end },
   { 'LogSigmoid', function() return nn.LogSigmoid() end, function(x) return math.log(sigmoid(x)) end },
   { 'Square', function() return nn.Square() end, function(x) return x * x end },
   { 'Abs', function() return nn.Abs() end, math.abs, { 0 } },
   { 'Exp', function() return nn.Exp() end, math.exp },
   { 'Power', function() return nn.Power(3) end, function(x) return x ^ 3 end },
   { 'MulConstant', function() return nn.MulConstant(-2.5) end, function(x) return -2.5 * x end },
   { 'AddConstant', function() return nn.AddConstant(1.5) end, function(x) return x + 1.5 end },
   { 'Threshold', function() return nn.Threshold(0.3, -1) end, function(x) return x > 0.3 and x or -1 end, { 0.3 } },
}

function tests.elementwise_activations()
   for _, case in ipairs(elementwise) do
      local name, make, f, kinks = case[1], case[2], case[3], case[4] or {}
      local x = awayFromKinks(12, kinks):view(3, 4)
      checkElementwise(make(), x, f, 1e-12, name)
      local module = make()
      -- testJacobian draws its own input: keep it away from the kinks by drawing it here
      local input = awayFromKinks(10, kinks)
      local fprop = nn.Jacobian.forward(module, input, input)
      local bprop = nn.Jacobian.backward(module, input)
      local err = (fprop - bprop):abs():max()
      check.ok(err < precision, string.format('%s: gradInput error %g', name, err))
   end
end

function tests.positive_domain_activations()
   -- Sqrt and Log on positive inputs
   checkElementwise(nn.Sqrt(), torch.rand(8):add(0.5), math.sqrt, 1e-12, 'Sqrt')
   checkElementwise(nn.Log(), torch.rand(8):add(0.5), math.log, 1e-12, 'Log')
   for name, module in pairs({ Sqrt = nn.Sqrt(), Log = nn.Log() }) do
      local err = nn.Jacobian.testJacobian(module, torch.Tensor(6), 0.5, 2)
      check.ok(err < precision, name .. ': gradInput error ' .. err)
   end
end

function tests.soft_max_and_soft_min()
   local x = torch.randn(3, 5)
   local sm, smin = nn.SoftMax():forward(x), nn.SoftMin():forward(x)
   for b = 1, 3 do
      local sum, sumMin = 0, 0
      for j = 1, 5 do
         sum = sum + math.exp(x[b][j])
         sumMin = sumMin + math.exp(-x[b][j])
      end
      for j = 1, 5 do
         check.near(sm[b][j], math.exp(x[b][j]) / sum, 1e-12, 'SoftMax')
         check.near(smin[b][j], math.exp(-x[b][j]) / sumMin, 1e-12, 'SoftMin')
      end
   end
   checkGradients(nn.SoftMax(), torch.Tensor(3, 5), nil, 'SoftMax')
   checkGradients(nn.SoftMin(), torch.Tensor(3, 5), nil, 'SoftMin')
   -- a 4-D batch: over the planes of each sample
   checkGradients(nn.SoftMax(), torch.Tensor(2, 3, 2, 2), nil, 'SoftMax 4-D')
end

function tests.prelu()
   local shared = nn.PReLU()
   checkGradients(shared, torch.Tensor(3, 4), { 'weight' }, 'PReLU shared')
   local perPlane = nn.PReLU(3)
   perPlane.weight:copy(torch.Tensor({ 0.1, 0.2, 0.3 }))
   local x = torch.randn(2, 3, 2, 2)
   local y = perPlane:forward(x)
   for b = 1, 2 do
      for c = 1, 3 do
         for i = 1, 2 do
            for j = 1, 2 do
               local v = x[b][c][i][j]
               check.near(y[b][c][i][j], v > 0 and v or perPlane.weight[c] * v, 1e-12, 'PReLU per plane')
            end
         end
      end
   end
   checkGradients(nn.PReLU(3), torch.Tensor(2, 3, 2, 2), { 'weight' }, 'PReLU per plane')
end

function tests.rrelu()
   local r = nn.RReLU(0.1, 0.3)
   local x = torch.randn(200)
   local y = r:forward(x)
   for i = 1, 200 do
      if x[i] > 0 then
         check.eq(y[i], x[i])
      else
         local slope = y[i] / x[i]
         check.ok(slope >= 0.1 and slope <= 0.3, 'slope in [lower, upper]')
         check.near(r.noise[i], slope, 1e-12, 'noise holds the slope')
      end
   end
   -- the backward multiplies by the same slopes
   local gradOutput = torch.randn(200)
   local gradInput = r:backward(x, gradOutput)
   check.ok((gradInput - r.noise:clone():cmul(gradOutput)):abs():max() < 1e-12)
   r:evaluate()
   checkElementwise(r, x, function(v) return v > 0 and v or 0.2 * v end, 1e-12, 'RReLU evaluate')
   check.eq(tostring(r), 'nn.RReLU (l:0.100000, u:0.300000)')
end

function tests.dropout()
   local d = nn.Dropout(0.4)
   local x = torch.Tensor(1000):fill(1)
   local y = d:forward(x)
   local kept = 0
   for i = 1, 1000 do
      check.ok(y[i] == 0 or math.abs(y[i] - 1 / 0.6) < 1e-12, 'dropped or scaled by 1 / (1 - p)')
      if y[i] ~= 0 then kept = kept + 1 end
   end
   check.ok(kept > 500 and kept < 700, 'about 60% kept: ' .. kept)
   local gradInput = d:backward(x, torch.Tensor(1000):fill(2))
   check.ok(gradInput:equal(y * 2), 'gradient through the same mask')
   d:evaluate()
   check.ok(d:forward(x):equal(x), 'identity in evaluation')
   local v1 = nn.Dropout(0.4, true)
   v1:evaluate()
   check.ok((v1:forward(x) - 0.6):abs():max() < 1e-12, 'v1 scales in evaluation')
   check.raises(function() nn.Dropout(1) end, 'illegal percentage')
   check.eq(tostring(d), 'nn.Dropout(0.400000)')
end

function tests.in_place_constants_restore_the_input()
   local x = torch.randn(5)
   local before = x:clone()
   local m = nn.MulConstant(3, true)
   local y = m:forward(x)
   check.ok((y - before * 3):abs():max() < 1e-12)
   local g = m:backward(x, torch.Tensor(5):fill(1))
   check.ok((x - before):abs():max() < 1e-12, 'input restored')
   check.ok((g - 3):abs():max() < 1e-12)
   local a = nn.AddConstant(2, true)
   a:forward(x)
   a:backward(x, torch.Tensor(5):fill(1))
   check.ok((x - before):abs():max() < 1e-12, 'input restored')
end

function tests.identity_view_reshape()
   local x = torch.randn(2, 3, 4)
   check.ok(nn.Identity():forward(x) == x)
   checkGradients(nn.Identity(), torch.Tensor(3, 2), nil, 'Identity')
   local v = nn.View(12)
   local y = v:forward(x)
   check.eq(y:dim(), 2); check.eq(y:size(1), 2); check.eq(y:size(2), 12)
   check.eq(torch.pointer(y:storage()), torch.pointer(x:storage()), 'a view, not a copy')
   check.eq(y[2][5], x[2][2][1])
   check.eq(v:forward(torch.randn(12)):dim(), 1, 'one sample')
   local inferred = nn.View(-1, 4):forward(x)
   check.eq(inferred:size(1), 6); check.eq(inferred:size(2), 4)
   local batched = nn.View(4):setNumInputDims(1):forward(torch.randn(3, 4))
   check.eq(batched:size(1), 3)
   checkGradients(nn.View(6), torch.Tensor(2, 2, 3), nil, 'View')
   check.eq(tostring(nn.View(2, 6)), 'nn.View(2x6)')
   check.raises(function() nn.View(5):forward(torch.randn(2, 3)) end, 'do not match')
   local r = nn.Reshape(3, 4)
   check.eq(r:forward(torch.randn(12)):dim(), 2)
   check.eq(r:forward(torch.randn(5, 12)):dim(), 3, 'batch kept')
   check.eq(r:forward(torch.randn(5, 12):t():t()):size(1), 5)
   checkGradients(nn.Reshape(6), torch.Tensor(2, 2, 3), nil, 'Reshape')
   -- a non-contiguous input is copied
   local t = torch.randn(4, 3):t()
   check.ok(nn.Reshape(12):forward(t):equal(t:contiguous():view(12)))
end

function tests.spatial_convolution()
   local conv = nn.SpatialConvolution(2, 3, 3, 2, 2, 1, 1, 0)
   local x = torch.randn(2, 2, 5, 6)
   local y = conv:forward(x)
   for b = 1, 2 do
      local expected = reference.convolution(x[b], conv.weight, conv.bias, { 1, 2 }, { 0, 1 })
      check.ok(y[b]:isSameSizeAs(expected))
      check.ok((y[b] - expected):abs():max() < 1e-12, 'convolution by definition')
   end
   checkGradients(nn.SpatialConvolution(2, 2, 3, 3, 1, 1, 1, 1), torch.Tensor(2, 2, 4, 4), { 'weight', 'bias' },
                  'SpatialConvolution')
   checkGradients(nn.SpatialConvolution(2, 2, 2, 2, 2, 2), torch.Tensor(2, 4, 4), { 'weight' },
                  'SpatialConvolution one sample')
   local mm = nn.SpatialConvolutionMM(2, 3, 3, 3)
   check.eq(mm.weight:dim(), 2); check.eq(mm.weight:size(2), 18)
   checkGradients(mm, torch.Tensor(1, 2, 4, 4), { 'weight', 'bias' }, 'SpatialConvolutionMM')
   check.eq(tostring(nn.SpatialConvolution(3, 8, 3, 3)), 'nn.SpatialConvolution(3 -> 8, 3x3)')
   check.eq(tostring(nn.SpatialConvolution(3, 8, 3, 3, 2, 2, 1, 1):noBias()),
            'nn.SpatialConvolution(3 -> 8, 3x3, 2,2, 1,1) without bias')
   check.raises(function() conv:forward(torch.randn(2, 4, 5, 6)) end, 'SpatialConvolutionMM')
end

function tests.spatial_max_pooling()
   local pool = nn.SpatialMaxPooling(2, 2, 2, 2)
   local x = torch.randn(2, 3, 4, 6)
   local y = pool:forward(x)
   check.eq(y:size(3), 2); check.eq(y:size(4), 3)
   for b = 1, 2 do
      for c = 1, 3 do
         for i = 1, 2 do
            for j = 1, 3 do
               local best, at = -math.huge, 0
               for u = 1, 2 do
                  for v = 1, 2 do
                     local r, s = 2 * i - 2 + u, 2 * j - 2 + v
                     if x[b][c][r][s] > best then best, at = x[b][c][r][s], (r - 1) * 6 + s end
                  end
               end
               check.eq(y[b][c][i][j], best, 'maximum')
               check.eq(pool.indices[b][c][i][j], at, '1-based index inside the plane')
            end
         end
      end
   end
   checkGradients(nn.SpatialMaxPooling(2, 2, 2, 2), torch.Tensor(2, 2, 4, 4), nil, 'SpatialMaxPooling')
   -- ceil mode: a 5x5 plane pooled 2x2 by 2 gives 3x3 instead of 2x2
   check.eq(nn.SpatialMaxPooling(2, 2, 2, 2):forward(torch.randn(1, 5, 5)):size(2), 2)
   check.eq(nn.SpatialMaxPooling(2, 2, 2, 2):ceil():forward(torch.randn(1, 5, 5)):size(2), 3)
   checkGradients(nn.SpatialMaxPooling(3, 3, 2, 2, 1, 1):ceil(), torch.Tensor(2, 5, 5), nil,
                  'SpatialMaxPooling padded, ceil')
   check.eq(tostring(nn.SpatialMaxPooling(2, 2, 2, 2)), 'nn.SpatialMaxPooling(2x2, 2,2)')
   -- float modules keep long indices
   local f = nn.SpatialMaxPooling(2, 2):float()
   f:forward(torch.FloatTensor(1, 4, 4):normal())
   check.eq(torch.type(f.indices), 'torch.LongTensor')
end

function tests.spatial_average_pooling()
   local pool = nn.SpatialAveragePooling(2, 3, 1, 2)
   local x = torch.randn(2, 5, 5)
   local y = pool:forward(x)
   check.eq(y:size(2), 2); check.eq(y:size(3), 4)
   for c = 1, 2 do
      for i = 1, 2 do
         for j = 1, 4 do
            local s = 0
            for u = 1, 3 do
               for v = 1, 2 do s = s + x[c][2 * i - 2 + u][j - 1 + v] end
            end
            check.near(y[c][i][j], s / 6, 1e-12, 'mean of the window')
         end
      end
   end
   checkGradients(nn.SpatialAveragePooling(2, 2, 2, 2), torch.Tensor(2, 2, 4, 4), nil, 'SpatialAveragePooling')
   checkGradients(nn.SpatialAveragePooling(3, 3, 2, 2, 1, 1):setCountExcludePad(), torch.Tensor(1, 5, 5), nil,
                  'SpatialAveragePooling excluding padding')
   -- count_include_pad: a corner window of a padded 3x3 average holds 4 inputs of 9 places
   local ones = torch.Tensor(1, 4, 4):fill(1)
   check.near(nn.SpatialAveragePooling(3, 3, 1, 1, 1, 1):forward(ones)[1][1][1], 4 / 9, 1e-12)
   check.near(nn.SpatialAveragePooling(3, 3, 1, 1, 1, 1):setCountExcludePad():forward(ones)[1][1][1], 1, 1e-12)
end

function tests.batch_normalization()
   local bn = nn.BatchNormalization(3)
   local x = torch.randn(6, 3)
   local y = bn:forward(x)
   for c = 1, 3 do
      local mean, var = 0, 0
      for b = 1, 6 do mean = mean + x[b][c] end
      mean = mean / 6
      for b = 1, 6 do var = var + (x[b][c] - mean) ^ 2 end
      for b = 1, 6 do
         local expected = (x[b][c] - mean) / math.sqrt(var / 6 + 1e-5) * bn.weight[c] + bn.bias[c]
         check.near(y[b][c], expected, 1e-10, 'normalised with the batch statistics')
      end
      check.near(bn.running_mean[c], 0.1 * mean, 1e-12, 'running_mean')
      check.near(bn.running_var[c], 0.9 + 0.1 * var / 5, 1e-12, 'running_var (unbiased)')
   end
   checkGradients(nn.BatchNormalization(3), torch.Tensor(4, 3), { 'weight', 'bias' }, 'BatchNormalization')
   checkGradients(nn.SpatialBatchNormalization(2), torch.Tensor(3, 2, 2, 2), { 'weight', 'bias' },
                  'SpatialBatchNormalization')
   checkGradients(nn.BatchNormalization(3, 1e-5, 0.1, false), torch.Tensor(4, 3), nil, 'BatchNormalization no affine')
   -- evaluation: the running statistics, and one sample without batch dimension
   bn:evaluate()
   local sample = torch.randn(3)
   local out = bn:forward(sample)
   for c = 1, 3 do
      local expected = (sample[c] - bn.running_mean[c]) / math.sqrt(bn.running_var[c] + 1e-5) * bn.weight[c] +
                       bn.bias[c]
      check.near(out:view(3)[c], expected, 1e-10, 'evaluation')
   end
   local e = nn.BatchNormalization(3)
   e:evaluate()
   checkGradients(e, torch.Tensor(4, 3), { 'weight', 'bias' }, 'BatchNormalization evaluate')
   check.raises(function() nn.BatchNormalization(3):forward(torch.randn(3)) end, 'mini-batch')
   check.raises(function() nn.BatchNormalization(3):forward(torch.randn(2, 4)) end, 'got 4-feature tensor')
   check.eq(tostring(nn.SpatialBatchNormalization(8)), 'nn.SpatialBatchNormalization (4D) (8)')
end

return tests
