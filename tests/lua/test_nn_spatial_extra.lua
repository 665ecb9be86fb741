-- nn's further spatial layers: gradInput and parameter gradients against nn.Jacobian's
-- finite differences (double, small sizes), outputs against plain loops or the defining
-- formulas, batch and single-image inputs, and bad sizes.
require 'nn'
local tests = {}

local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local precision, checkGradients = gradcheck.precision, gradcheck.jacobian
local maxDiff = gradcheck.maxDiff
local reference = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_reference.lua')

-- module on x (C x H x W) equals its output on x as a batch of one, and each image of a
-- batch is processed as it would be alone
local function checkBatch(module, batch, msg, tol)
   local out = module:forward(batch):clone()
   for n = 1, batch:size(1) do
      local single = module:forward(batch[n]):clone()
      check.ok(maxDiff(out[n], single) < (tol or 1e-12), msg .. ': image ' .. n .. ' of the batch differs')
   end
end

-- the element of image x (C x H x W) at (c, h, w), zero outside
local function at(x, c, h, w)
   if h < 1 or w < 1 or h > x:size(2) or w > x:size(3) then return 0 end
   return x[c][h][w]
end

function tests.softmax()
   local sm = nn.SpatialSoftMax()
   checkGradients(sm, torch.Tensor(3, 2, 3), nil, 'SpatialSoftMax')
   checkGradients(sm, torch.Tensor(2, 3, 2, 2), nil, 'SpatialSoftMax batch')
   local x = torch.randn(3, 2, 4)
   local y = sm:forward(x)
   for h = 1, 2 do
      for w = 1, 4 do
         local z = 0
         for c = 1, 3 do z = z + math.exp(x[c][h][w]) end
         for c = 1, 3 do check.near(y[c][h][w], math.exp(x[c][h][w]) / z, 1e-12, 'SpatialSoftMax output') end
      end
   end
   checkBatch(sm, torch.randn(2, 3, 2, 2), 'SpatialSoftMax')
   check.raises(function() sm:forward(torch.randn(3, 4)) end, '3D or 4D', 'a 2D input')
end

function tests.crossmap_lrn()
   local lrn = nn.SpatialCrossMapLRN(3, 0.5, 0.75, 2)
   checkGradients(lrn, torch.Tensor(5, 2, 3), nil, 'SpatialCrossMapLRN')
   checkGradients(lrn, torch.Tensor(2, 4, 2, 2), nil, 'SpatialCrossMapLRN batch')
   checkGradients(nn.SpatialCrossMapLRN(5, 1, 0.5), torch.Tensor(3, 2, 2), nil, 'SpatialCrossMapLRN window past the planes')
   check.eq(lrn.size, 3)
   local d = nn.SpatialCrossMapLRN(5)
   check.eq(d.alpha, 0.0001)
   check.eq(d.beta, 0.75)
   check.eq(d.k, 1)
   -- y[c] = x[c] (k + alpha/size sum_{|c'-c| <= 1} x[c']^2)^-beta
   local x = torch.randn(5, 2, 3)
   local y = lrn:forward(x)
   for c = 1, 5 do
      for h = 1, 2 do
         for w = 1, 3 do
            local s = 0
            for c2 = math.max(1, c - 1), math.min(5, c + 1) do s = s + x[c2][h][w] ^ 2 end
            check.near(y[c][h][w], x[c][h][w] * (2 + 0.5 / 3 * s) ^ -0.75, 1e-12, 'SpatialCrossMapLRN output')
         end
      end
   end
   checkBatch(lrn, torch.randn(2, 5, 2, 3), 'SpatialCrossMapLRN')
   check.eq(tostring(lrn), 'nn.SpatialCrossMapLRN')
   check.raises(function() lrn:forward(torch.randn(3, 4)) end, '3D or 4D', 'a 2D input')
   lrn:forward(x)
   check.raises(function() lrn:backward(x, torch.randn(5, 2, 2)) end, 'gradOutput', 'wrong gradOutput size')
end

-- the local mean of torch7's definition: window sums of kernel over all planes, divided by
-- the same sums over an image of ones (zero padding)
local function localSums(x, K, h, w, f)
   local kH, kW = K:size(1), K:size(2)
   local s = 0
   for c = 1, x:size(1) do
      for a = 1, kH do
         for b = 1, kW do
            local hh, ww = h + a - 1 - math.floor(kH / 2), w + b - 1 - math.floor(kW / 2)
            if hh >= 1 and ww >= 1 and hh <= x:size(2) and ww <= x:size(3) then
               s = s + K[a][b] * f(x[c][hh][ww])
            end
         end
      end
   end
   return s
end

local function subtractiveReference(x, K)
   local y = x:clone()
   for h = 1, x:size(2) do
      for w = 1, x:size(3) do
         local mean = localSums(x, K, h, w, function(v) return v end) /
                      localSums(x, K, h, w, function() return 1 end)
         for c = 1, x:size(1) do y[c][h][w] = x[c][h][w] - mean end
      end
   end
   return y
end

-- Kn: the kernel as the module normalises it (a 2-D kernel to sum 1 / nPlanes)
local function divisiveReference(x, Kn, threshold, thresval)
   local y = x:clone()
   for h = 1, x:size(2) do
      for w = 1, x:size(3) do
         local std = math.sqrt(localSums(x, Kn, h, w, function(v) return v * v end)) /
                     localSums(x, Kn, h, w, function() return 1 end)
         if not (std > threshold) then std = thresval end
         for c = 1, x:size(1) do y[c][h][w] = x[c][h][w] / std end
      end
   end
   return y
end

local gaussian = torch.Tensor({ { 1, 2, 1 }, { 2, 4, 2 }, { 1, 2, 1 } })

function tests.subtractive_normalization()
   local m = nn.SpatialSubtractiveNormalization(2, gaussian)
   checkGradients(m, torch.Tensor(2, 4, 5), nil, 'SpatialSubtractiveNormalization')
   checkGradients(m, torch.Tensor(2, 2, 3, 4), nil, 'SpatialSubtractiveNormalization batch')
   local x = torch.randn(2, 4, 5)
   check.ok(maxDiff(m:forward(x), subtractiveReference(x, gaussian)) < 1e-12, 'SpatialSubtractiveNormalization output')
   checkBatch(m, torch.randn(3, 2, 4, 5), 'SpatialSubtractiveNormalization', 1e-12)
   -- a 1-D kernel acts as its outer product
   local k1 = torch.Tensor({ 1, 2, 1 })
   local sep = nn.SpatialSubtractiveNormalization(2, k1)
   check.ok(maxDiff(sep:forward(x), subtractiveReference(x, gaussian)) < 1e-12, '1-D kernel')
   checkGradients(sep, torch.Tensor(2, 3, 3), nil, 'SpatialSubtractiveNormalization 1-D kernel')
   check.eq(k1[2], 2, 'the given kernel is not changed')
   -- the default kernel: 9x9 ones, normalised
   local default = nn.SpatialSubtractiveNormalization()
   check.near(default.kernel:sum(), 1, 1e-12, 'default kernel sum')
   check.eq(default.kernel:size(1), 9)
   check.raises(function() m:forward(torch.randn(3, 4, 5)) end, '2xHxW', 'wrong plane count')
   check.raises(function() nn.SpatialSubtractiveNormalization(1, torch.ones(4, 3)) end, 'odd', 'even kernel')
   check.raises(function() nn.SpatialSubtractiveNormalization(1, torch.ones(3, 3, 3)) end, '2D or 1D', '3D kernel')
   -- float
   local f = m:clone():float()
   check.ok(maxDiff(f:forward(x:float()):double(), m:forward(x)) < 1e-5, 'SpatialSubtractiveNormalization float')
end

function tests.divisive_normalization()
   local m = nn.SpatialDivisiveNormalization(2, gaussian)
   check.eq(m.threshold, 1e-4)
   check.eq(m.thresval, 1e-4)
   checkGradients(m, torch.Tensor(2, 4, 5), nil, 'SpatialDivisiveNormalization')
   checkGradients(m, torch.Tensor(2, 2, 3, 4), nil, 'SpatialDivisiveNormalization batch')
   local x = torch.randn(2, 4, 5)
   check.ok(maxDiff(m:forward(x), divisiveReference(x, gaussian / 32, 1e-4, 1e-4)) < 1e-12,
            'SpatialDivisiveNormalization output')
   checkBatch(m, torch.randn(3, 2, 4, 5), 'SpatialDivisiveNormalization', 1e-12)
   -- the threshold: a large one replaces every std by thresval
   local t = nn.SpatialDivisiveNormalization(2, gaussian, 100, 4)
   check.ok(maxDiff(t:forward(x), x / 4) < 1e-12, 'threshold and thresval')
   checkGradients(t, torch.Tensor(2, 3, 3), nil, 'SpatialDivisiveNormalization thresholded')
   local sep = nn.SpatialDivisiveNormalization(2, torch.Tensor({ 1, 2, 1 }))
   -- torch7 divides a 1-D kernel by its sum times sqrt(nInputPlane) for the standard deviation
   -- (not nInputPlane as for the mean): its two passes are the outer product of (1 2 1) / (4
   -- sqrt(2)) with itself, the 2-D kernel's normalisation
   check.ok(maxDiff(sep:forward(x), divisiveReference(x, gaussian / 32, 1e-4, 1e-4)) < 1e-12, '1-D kernel')
   check.raises(function() m:forward(torch.randn(2, 4)) end, 'tensor expected', 'a 2D input')
end

function tests.contrastive_normalization()
   local m = nn.SpatialContrastiveNormalization(2, gaussian, 1e-3)
   check.eq(m.thresval, 1e-3)
   checkGradients(m, torch.Tensor(2, 4, 4), nil, 'SpatialContrastiveNormalization')
   checkGradients(m, torch.Tensor(2, 2, 3, 3), nil, 'SpatialContrastiveNormalization batch')
   local x = torch.randn(2, 4, 5)
   local expected = divisiveReference(subtractiveReference(x, gaussian), gaussian / 32, 1e-3, 1e-3)
   check.ok(maxDiff(m:forward(x), expected) < 1e-12, 'SpatialContrastiveNormalization output')
   checkBatch(m, torch.randn(2, 2, 4, 5), 'SpatialContrastiveNormalization', 1e-12)
end

function tests.max_unpooling()
   local pool = nn.SpatialMaxPooling(2, 2)
   local unpool = nn.SpatialMaxUnpooling(pool)
   check.raises(function() unpool:forward(torch.randn(1, 2, 2)) end, 'forward', 'before the pooling ran')
   local x = torch.randn(2, 5, 4)
   local pooled = pool:forward(x)
   local y = unpool:forward(pooled)
   check.eq(nn.utils.sizeString(y), '2x5x4', 'the pooling input size')
   -- every maximum back at its 1-based flat offset h*W + w, zeros elsewhere
   local expected = torch.zeros(2, 5, 4)
   for c = 1, 2 do
      for h = 1, 2 do
         for w = 1, 2 do
            local best, bh, bw = -math.huge
            for a = 1, 2 do
               for b = 1, 2 do
                  local v = x[c][(h - 1) * 2 + a][(w - 1) * 2 + b]
                  if v > best then best, bh, bw = v, (h - 1) * 2 + a, (w - 1) * 2 + b end
               end
            end
            check.eq(pool.indices[c][h][w], (bh - 1) * 4 + bw, 'SpatialMaxPooling index')
            expected[c][bh][bw] = best
         end
      end
   end
   check.eq(maxDiff(y, expected), 0, 'SpatialMaxUnpooling output')
   checkGradients(unpool, pooled:clone(), nil, 'SpatialMaxUnpooling')
   pool:forward(torch.randn(3, 2, 4, 6))
   checkGradients(unpool, pool.output:clone(), nil, 'SpatialMaxUnpooling batch')
   check.eq(tostring(unpool), 'nn.SpatialMaxUnpooling associated to nn.SpatialMaxPooling(2x2, 2,2)')
   check.raises(function() nn.SpatialMaxUnpooling(nn.SpatialMaxPooling(2, 2, 1, 1)) end, 'stride')
   check.raises(function() nn.SpatialMaxUnpooling(nn.Identity()) end, 'SpatialMaxPooling')
   check.raises(function() unpool:forward(torch.randn(3, 3, 2, 3)) end, nil, 'input unlike the indices')
end

-- adaptive windows: rows [floor((i-1) H / oH) + 1, ceil(i H / oH)]
local function adaptiveReference(x, oW, oH, reduce)
   local C, H, W = x:size(1), x:size(2), x:size(3)
   local out = torch.Tensor(C, oH, oW)
   for c = 1, C do
      for i = 1, oH do
         for j = 1, oW do
            local h0, h1 = math.floor((i - 1) * H / oH) + 1, math.ceil(i * H / oH)
            local w0, w1 = math.floor((j - 1) * W / oW) + 1, math.ceil(j * W / oW)
            out[c][i][j] = reduce(x[c]:narrow(1, h0, h1 - h0 + 1):narrow(2, w0, w1 - w0 + 1))
         end
      end
   end
   return out
end

function tests.adaptive_pooling()
   local x = torch.randn(2, 5, 7)
   local mp = nn.SpatialAdaptiveMaxPooling(3, 2)
   check.eq(mp.W, 3)
   check.eq(mp.H, 2)
   check.eq(maxDiff(mp:forward(x), adaptiveReference(x, 3, 2, function(t) return t:max() end)), 0,
            'SpatialAdaptiveMaxPooling output')
   check.eq(torch.typename(mp.indices), 'torch.LongTensor')
   checkGradients(mp, torch.Tensor(2, 5, 7), nil, 'SpatialAdaptiveMaxPooling')
   checkGradients(mp, torch.Tensor(2, 2, 4, 4), nil, 'SpatialAdaptiveMaxPooling batch')
   checkBatch(mp, torch.randn(2, 2, 5, 7), 'SpatialAdaptiveMaxPooling')
   local ap = nn.SpatialAdaptiveAveragePooling(3, 2)
   check.ok(maxDiff(ap:forward(x), adaptiveReference(x, 3, 2, function(t) return t:mean() end)) < 1e-12,
            'SpatialAdaptiveAveragePooling output')
   checkGradients(ap, torch.Tensor(2, 5, 7), nil, 'SpatialAdaptiveAveragePooling')
   checkGradients(ap, torch.Tensor(2, 2, 4, 4), nil, 'SpatialAdaptiveAveragePooling batch')
   checkBatch(ap, torch.randn(2, 2, 5, 7), 'SpatialAdaptiveAveragePooling', 1e-12)
   check.raises(function() ap:forward(torch.randn(5)) end, nil, 'a 1D input')
   local f = mp:clone():float()
   check.ok(maxDiff(f:forward(x:float()):double(), mp:forward(x)) < 1e-6, 'float')
   check.eq(torch.typename(f.indices), 'torch.LongTensor')
end

function tests.fractional_max_pooling()
   local fmp = nn.SpatialFractionalMaxPooling(2, 2, 3, 4)
   local x = torch.randn(2, 7, 6)
   local y = fmp:forward(x)
   check.eq(nn.utils.sizeString(y), '2x4x3')
   check.eq(nn.utils.sizeString(fmp.randomSamples), '1x2x2')
   -- each output is the maximum of a 2x2 window at its index (a 1-based flat offset), and
   -- the windows of the last row and column end at the image's edge
   for c = 1, 2 do
      for i = 1, 4 do
         for j = 1, 3 do
            local idx = fmp.indices[c][i][j]
            local h, w = math.floor((idx - 1) / 6) + 1, (idx - 1) % 6 + 1
            check.eq(y[c][i][j], x[c][h][w], 'the value at the index')
         end
      end
      check.eq(y[c][4][3], x[c]:narrow(1, 6, 2):narrow(2, 5, 2):max(), 'the last window')
   end
   fmp:fixPoolingRegions()
   checkGradients(fmp, torch.Tensor(2, 7, 6), nil, 'SpatialFractionalMaxPooling')
   checkGradients(fmp, torch.Tensor(2, 2, 7, 6), nil, 'SpatialFractionalMaxPooling batch')
   -- fixed regions: the same output twice; new ones otherwise (almost surely)
   local a = fmp:forward(x):clone()
   check.eq(maxDiff(fmp:forward(x), a), 0, 'fixed pooling regions')
   fmp:fixPoolingRegions(false)
   local samples = fmp.randomSamples:clone()
   fmp:forward(x)
   check.ok(maxDiff(fmp.randomSamples, samples) > 0, 'new pooling regions at each forward')
   local ratio = nn.SpatialFractionalMaxPooling(2, 2, 0.5, 0.7)
   check.eq(nn.utils.sizeString(ratio:forward(torch.randn(3, 10, 8))), '3x7x4', 'ratio sizes')
   check.eq(tostring(fmp), 'nn.SpatialFractionalMaxPooling(3,4,2,2)')
   check.eq(tostring(ratio), 'nn.SpatialFractionalMaxPooling(0.5,0.7,2,2)')
   check.raises(function() nn.SpatialFractionalMaxPooling(1, 2, 3, 3) end, 'poolSizeW')
   check.raises(function() fmp:forward(torch.randn(6, 6)) end, '3D or 4D', 'a 2D input')
   check.raises(function() ratio:forward(torch.randn(1, 3, 1)) end, 'too small', 'ratio too small')
end

function tests.lp_pooling()
   local lp = nn.SpatialLPPooling(2, 2, 2, 2)
   local x = torch.rand(2, 4, 4):add(0.1)
   local y = lp:forward(x)
   for c = 1, 2 do
      for i = 1, 2 do
         for j = 1, 2 do
            local s = x[c]:narrow(1, 2 * i - 1, 2):narrow(2, 2 * j - 1, 2):clone():pow(2):sum()
            check.near(y[c][i][j], math.sqrt(s), 1e-12, 'SpatialLPPooling p = 2')
         end
      end
   end
   local lp3 = nn.SpatialLPPooling(2, 3, 2, 1, 1, 1)
   local y3 = lp3:forward(x)
   check.eq(nn.utils.sizeString(y3), '2x4x3')
   local s = x[2][3]:narrow(1, 2, 2):clone():pow(3):sum()
   check.near(y3[2][3][2], s ^ (1 / 3), 1e-12, 'SpatialLPPooling p = 3')
   check.eq(#lp:parameters(), 0, 'no parameters')
   -- positive inputs keep the powers differentiable
   for _, m in ipairs({ lp, lp3 }) do
      local input = torch.Tensor(2, 2, 4, 4)
      local fprop = nn.Jacobian.forward(m, input:uniform(0.5, 2))
      check.ok(maxDiff(fprop, nn.Jacobian.backward(m, input)) < precision, 'SpatialLPPooling gradient')
   end
end

function tests.convolution_local()
   local m = nn.SpatialConvolutionLocal(2, 3, 5, 4, 3, 2, 2, 1, 1, 0)
   check.eq(m.oW, 3)
   check.eq(m.oH, 3)
   check.eq(nn.utils.sizeString(m.weight), '3x3x3x2x2x3')
   check.eq(nn.utils.sizeString(m.bias), '3x3x3')
   checkGradients(m, torch.Tensor(2, 4, 5), { 'weight', 'bias' }, 'SpatialConvolutionLocal')
   checkGradients(m, torch.Tensor(2, 2, 4, 5), { 'weight', 'bias' }, 'SpatialConvolutionLocal batch')
   -- out[o][i][j] = bias[o][i][j] + sum W[i][j][o][c][a][b] x[c][(i-1)dH - padH + a][(j-1)dW - padW + b]
   local x = torch.randn(2, 4, 5)
   local y = m:forward(x)
   for o = 1, 3 do
      for i = 1, 3 do
         for j = 1, 3 do
            local s = m.bias[o][i][j]
            for c = 1, 2 do
               for a = 1, 2 do
                  for b = 1, 3 do
                     s = s + m.weight[i][j][o][c][a][b] * at(x, c, i - 1 + a, (j - 1) * 2 - 1 + b)
                  end
               end
            end
            check.near(y[o][i][j], s, 1e-12, 'SpatialConvolutionLocal output')
         end
      end
   end
   checkBatch(m, torch.randn(2, 2, 4, 5), 'SpatialConvolutionLocal', 1e-12)
   check.eq(tostring(m), 'nn.SpatialConvolutionLocal(2 -> 3, 5x4, 3x2, 2,1, 1,0)')
   check.raises(function() m:forward(torch.randn(2, 5, 5)) end, 'inconsistent', 'wrong image size')
   check.raises(function() nn.SpatialConvolutionLocal(1, 1, 2, 2, 3, 3) end, 'less than 1', 'kernel too large')
end

function tests.full_convolution()
   local m = nn.SpatialFullConvolution(2, 3, 3, 2, 2, 1, 1, 0, 1, 0)
   checkGradients(m, torch.Tensor(2, 3, 3), { 'weight', 'bias' }, 'SpatialFullConvolution')
   checkGradients(m, torch.Tensor(2, 2, 3, 3), { 'weight', 'bias' }, 'SpatialFullConvolution batch')
   local x = torch.randn(2, 3, 3)
   local expected = reference.fullConvolution(x, m.weight, m.bias, { 1, 2 }, { 0, 1 }, { 0, 1 })
   check.ok(maxDiff(m:forward(x), expected) < 1e-12, 'SpatialFullConvolution output')
   checkBatch(m, torch.randn(2, 2, 3, 3), 'SpatialFullConvolution', 1e-12)
   check.eq(tostring(m), 'nn.SpatialFullConvolution(2 -> 3, 3x2, 2,1, 1,0, 1,0)')
   check.raises(function() nn.SpatialFullConvolution(1, 1, 2, 2, 1, 1, 0, 0, 1, 0) end, 'adj')
   local noBias = nn.SpatialFullConvolution(2, 2, 2, 2):noBias()
   checkGradients(noBias, torch.Tensor(2, 2, 3), { 'weight' }, 'SpatialFullConvolution without bias')
   check.eq(tostring(noBias), 'nn.SpatialFullConvolution(2 -> 2, 2x2) without bias')
   -- { input, target } picks the adjustments from the target's size
   local plain = nn.SpatialFullConvolution(2, 3, 3, 2, 2, 1, 1, 0)
   plain.weight:copy(m.weight)
   plain.bias:copy(m.bias)
   local target = torch.Tensor(3, expected:size(2), expected:size(3))
   check.ok(maxDiff(plain:forward({ x, target }), expected) < 1e-12, 'SpatialFullConvolution to a target size')
   local gradOutput = torch.randn(expected:size())
   local gi = plain:backward({ x, target }, gradOutput)
   check.ok(maxDiff(gi[1], m:backward(x, gradOutput)) < 1e-12, 'gradient with a target')
   check.eq(gi[2]:abs():sum(), 0, 'the target gets no gradient')
   check.raises(function() m:forward(torch.randn(3, 3, 3)) end, nil, 'wrong plane count')
end

function tests.dilated_convolution()
   local m = nn.SpatialDilatedConvolution(2, 3, 2, 3, 1, 2, 1, 0, 2, 1)
   checkGradients(m, torch.Tensor(2, 5, 4), { 'weight', 'bias' }, 'SpatialDilatedConvolution')
   checkGradients(m, torch.Tensor(2, 2, 5, 4), { 'weight', 'bias' }, 'SpatialDilatedConvolution batch')
   local x = torch.randn(2, 5, 4)
   check.ok(maxDiff(m:forward(x), reference.convolution(x, m.weight, m.bias, { 2, 1 }, { 0, 1 }, { 1, 2 })) < 1e-12,
            'SpatialDilatedConvolution output')
   checkBatch(m, torch.randn(2, 2, 5, 4), 'SpatialDilatedConvolution', 1e-12)
   check.eq(tostring(m), 'nn.SpatialDilatedConvolution(2 -> 3, 2x3, 1,2, 1,0, 2,1)')
   check.ok(torch.isTypeOf(m, 'nn.SpatialConvolution'), 'a SpatialConvolution')
   check.raises(function() m:forward(torch.randn(2, 1, 1)) end, nil, 'input smaller than the kernel')
end

function tests.dilated_max_pooling()
   local m = nn.SpatialDilatedMaxPooling(2, 2, 1, 2, 1, 0, 2, 1)
   checkGradients(m, torch.Tensor(2, 5, 5), nil, 'SpatialDilatedMaxPooling')
   checkGradients(m, torch.Tensor(2, 2, 5, 5), nil, 'SpatialDilatedMaxPooling batch')
   -- out[c][i][j] = max over a, b of x[c][(i-1)dH + (a-1) dilH + 1][(j-1)dW - padW + (b-1) dilW + 1]
   local x = torch.randn(2, 5, 5)
   local y = m:forward(x)
   check.eq(nn.utils.sizeString(y), '2x2x5')
   for c = 1, 2 do
      for i = 1, 2 do
         for j = 1, 5 do
            local best = -math.huge
            for a = 1, 2 do
               for b = 1, 2 do
                  local h, w = (i - 1) * 2 + a, (j - 2) + (b - 1) * 2 + 1
                  if w >= 1 and w <= 5 then best = math.max(best, x[c][h][w]) end
               end
            end
            check.eq(y[c][i][j], best, 'SpatialDilatedMaxPooling output')
         end
      end
   end
   check.eq(tostring(m), 'nn.SpatialDilatedMaxPooling(2x2, 1,2, 1,0, 2,1)')
   check.ok(torch.isTypeOf(m, 'nn.SpatialMaxPooling'), 'a SpatialMaxPooling')
   checkGradients(nn.SpatialDilatedMaxPooling(2, 2, 2, 2, 0, 0, 2, 2):ceil(), torch.Tensor(1, 6, 6), nil,
                  'SpatialDilatedMaxPooling ceil')
end

function tests.subsampling()
   local m = nn.SpatialSubSampling(2, 3, 2, 2, 1)
   checkGradients(m, torch.Tensor(2, 4, 7), { 'weight', 'bias' }, 'SpatialSubSampling')
   checkGradients(m, torch.Tensor(2, 2, 4, 7), { 'weight', 'bias' }, 'SpatialSubSampling batch')
   local x = torch.randn(2, 4, 7)
   local y = m:forward(x)
   check.eq(nn.utils.sizeString(y), '2x3x3')
   for c = 1, 2 do
      for i = 1, 3 do
         for j = 1, 3 do
            local s = x[c]:narrow(1, i, 2):narrow(2, (j - 1) * 2 + 1, 3):sum()
            check.near(y[c][i][j], m.bias[c] + m.weight[c] * s, 1e-12, 'SpatialSubSampling output')
         end
      end
   end
   checkBatch(m, torch.randn(2, 2, 4, 7), 'SpatialSubSampling', 1e-12)
   check.raises(function() m:forward(torch.randn(3, 4, 7)) end, nil, 'wrong plane count')
end

function tests.upsampling_nearest()
   local m = nn.SpatialUpSamplingNearest(3)
   checkGradients(m, torch.Tensor(2, 2, 3), nil, 'SpatialUpSamplingNearest')
   checkGradients(m, torch.Tensor(2, 1, 2, 2), nil, 'SpatialUpSamplingNearest batch')
   local x = torch.randn(2, 2, 3)
   local y = m:forward(x)
   check.eq(nn.utils.sizeString(y), '2x6x9')
   for c = 1, 2 do
      for h = 1, 6 do
         for w = 1, 9 do check.eq(y[c][h][w], x[c][math.ceil(h / 3)][math.ceil(w / 3)], 'nearest value') end
      end
   end
   checkBatch(m, torch.randn(2, 2, 2, 3), 'SpatialUpSamplingNearest')
   check.raises(function() nn.SpatialUpSamplingNearest(1.5) end, 'integer')
   check.raises(function() nn.SpatialUpSamplingNearest(0) end, 'at least 1')
   check.raises(function() m:forward(torch.randn(3)) end, '3D or 4D', 'a 1D input')
end

function tests.upsampling_bilinear()
   local m = nn.SpatialUpSamplingBilinear(2)
   checkGradients(m, torch.Tensor(2, 2, 3), nil, 'SpatialUpSamplingBilinear')
   checkGradients(m, torch.Tensor(2, 1, 3, 2), nil, 'SpatialUpSamplingBilinear batch')
   -- corners aligned: output (y, x) samples input ((y-1) (H-1)/(oH-1) + 1, ...)
   local x = torch.randn(2, 3, 4)
   local sized = nn.SpatialUpSamplingBilinear({ oheight = 5, owidth = 7 })
   local y = sized:forward(x)
   check.eq(nn.utils.sizeString(y), '2x5x7')
   for c = 1, 2 do
      for i = 1, 5 do
         for j = 1, 7 do
            local r, q = (i - 1) * 2 / 4 + 1, (j - 1) * 3 / 6 + 1
            local r0, q0 = math.min(math.floor(r), 2), math.min(math.floor(q), 3)
            local fr, fq = r - r0, q - q0
            local v = (1 - fr) * ((1 - fq) * x[c][r0][q0] + fq * x[c][r0][q0 + 1]) +
                      fr * ((1 - fq) * x[c][r0 + 1][q0] + fq * x[c][r0 + 1][q0 + 1])
            check.near(y[c][i][j], v, 1e-12, 'bilinear value')
         end
      end
   end
   check.eq(nn.utils.sizeString(m:forward(x)), '2x6x8', 'scale 2')
   checkGradients(sized, torch.Tensor(1, 3, 4), nil, 'SpatialUpSamplingBilinear to a size')
   checkBatch(sized, torch.randn(2, 2, 3, 4), 'SpatialUpSamplingBilinear', 1e-12)
   check.eq(tostring(m), 'nn.SpatialUpSamplingBilinear(2)')
   check.eq(tostring(sized), 'nn.SpatialUpSamplingBilinear(5, 7)')
   check.raises(function() nn.SpatialUpSamplingBilinear(2.5) end, 'integer')
   check.raises(function() m:forward(torch.randn(4, 4)) end, '3D or 4D', 'a 2D input')
   check.raises(function() m:backward(x, torch.randn(2, 6, 7)) end, 'gradOutput', 'wrong gradOutput size')
end

-- padded[c][h][w] = x[c][source(h - pad_t, H)][source(w - pad_l, W)] for the three paddings
local function checkPadding(module, source, zeroOutside, msg)
   local x = torch.randn(2, 4, 5)
   local y = module:forward(x)
   local H = 4 + module.pad_t + module.pad_b
   local W = 5 + module.pad_l + module.pad_r
   check.eq(nn.utils.sizeString(y), '2x' .. H .. 'x' .. W, msg .. ' size')
   for c = 1, 2 do
      for h = 1, H do
         for w = 1, W do
            local sh, sw = h - module.pad_t, w - module.pad_l
            local inside = sh >= 1 and sh <= 4 and sw >= 1 and sw <= 5
            local expected = (zeroOutside and not inside) and 0 or x[c][source(sh, 4)][source(sw, 5)]
            check.eq(y[c][h][w], expected, msg .. ' value')
         end
      end
   end
   checkGradients(module, torch.Tensor(2, 4, 5), nil, msg)
   checkGradients(module, torch.Tensor(2, 1, 4, 5), nil, msg .. ' batch')
   checkBatch(module, torch.randn(2, 2, 4, 5), msg)
   check.raises(function() module:forward(torch.randn(4, 5)) end, '3D or 4D', msg .. ': a 2D input')
end

function tests.zero_padding()
   local same = function(i) return i end
   checkPadding(nn.SpatialZeroPadding(1, 2, 0, 3), same, true, 'SpatialZeroPadding')
   checkPadding(nn.SpatialZeroPadding(-1, 2, 1, -2), same, true, 'SpatialZeroPadding cropping')
   local m = nn.SpatialZeroPadding(2)
   check.eq(m.pad_b, 2)
   check.eq(tostring(nn.SpatialZeroPadding(1, 2, 3, 4)), 'nn.SpatialZeroPadding(l=1, r=2, t=3, b=4)')
   check.raises(function() nn.SpatialZeroPadding(0, 0, -2, -2):forward(torch.randn(1, 4, 4)) end, 'too small')
   check.raises(function() m:backward(torch.randn(1, 2, 2), torch.randn(1, 5, 6)) end, 'gradOutput')
end

function tests.reflection_padding()
   local function reflect(i, n)
      if i < 1 then return 2 - i end
      if i > n then return 2 * n - i end
      return i
   end
   checkPadding(nn.SpatialReflectionPadding(1, 2, 3, 0), reflect, false, 'SpatialReflectionPadding')
   check.eq(tostring(nn.SpatialReflectionPadding(1)), 'nn.SpatialReflectionPadding(l=1, r=1, t=1, b=1)')
   check.raises(function() nn.SpatialReflectionPadding(4, 4, 0, 0):forward(torch.randn(1, 3, 3)) end, nil,
                'a pad as large as the input')
end

function tests.replication_padding()
   local function clamp(i, n) return math.max(1, math.min(n, i)) end
   checkPadding(nn.SpatialReplicationPadding(2, 0, 1, 3), clamp, false, 'SpatialReplicationPadding')
   check.eq(tostring(nn.SpatialReplicationPadding(1, 0, 2, 3)), 'nn.SpatialReplicationPadding(l=1, r=0, t=2, b=3)')
end

return tests
