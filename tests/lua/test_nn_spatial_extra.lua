-- nn's further spatial layers: gradInput and parameter gradients against nn.Jacobian's
-- finite differences (double, small sizes), outputs against plain loops or the defining
-- formulas, batch and single-image inputs, and bad sizes.
require 'nn'
local tests = {}

local precision = 1e-5

-- gradInput (and each named parameter's gradient) of module at input against the
-- numerical Jacobian, plus the save/load round trip.
local function checkGradients(module, input, paramNames, msg)
   local err = nn.Jacobian.testJacobian(module, input)
   check.ok(err < precision, string.format('%s: gradInput error %g', msg, err))
   for _, name in ipairs(paramNames or {}) do
      local gradName = 'grad' .. name:sub(1, 1):upper() .. name:sub(2)
      err = nn.Jacobian.testJacobianParameters(module, input, module[name], module[gradName])
      check.ok(err < precision, string.format('%s: %s error %g', msg, gradName, err))
      err = nn.Jacobian.testJacobianUpdateParameters(module, input, module[name])
      check.ok(err < precision, string.format('%s: %s update error %g', msg, name, err))
   end
   local errOut, errBack = nn.Jacobian.testIO(module, input)
   check.eq(errOut, 0, msg .. ': output after save/load')
   check.eq(errBack, 0, msg .. ': gradInput after save/load')
end

local function maxDiff(a, b)
   check.ok(a:isSameSizeAs(b), 'sizes differ: ' .. nn.utils.sizeString(a) .. ' vs ' .. nn.utils.sizeString(b))
   return (a - b):abs():max()
end

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
   -- torch7's two passes of a 1-D kernel each divide it by its sum times nInputPlane: the
   -- outer product of (1 2 1) / 8 with itself
   check.ok(maxDiff(sep:forward(x), divisiveReference(x, gaussian / 64, 1e-4, 1e-4)) < 1e-12, '1-D kernel')
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

return tests
