-- nn's volumetric layers: gradInput and parameter gradients against nn.Jacobian's finite
-- differences (double, small sizes), outputs against plain loops over the defining sums,
-- batch and single-volume inputs, and bad sizes.
require 'nn'
local tests = {}

local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local precision, checkGradients = gradcheck.precision, gradcheck.jacobian
local maxDiff = gradcheck.maxDiff
local reference = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_reference.lua')

-- the batch of one: module on x (C x T x H x W) equals its output on x viewed 1 x C x T x H x W
local function checkBatchOfOne(module, x, msg)
   local single = module:forward(x):clone()
   local batched = module:forward(x:view(1, unpack(x:size():totable())))
   check.ok(maxDiff(batched[1], single) < 1e-12, msg .. ': batch of one differs from the single volume')
end

function tests.batchnormalization()
   local bn = nn.VolumetricBatchNormalization(3)
   checkGradients(bn, torch.Tensor(2, 3, 2, 2, 2), { 'weight', 'bias' }, 'VolumetricBatchNormalization')
   -- training output: each feature normalised over N, T, H, W, then scaled and shifted
   local x = torch.randn(3, 3, 2, 3, 2)
   local y = bn:forward(x)
   for f = 1, 3 do
      local xf = x:select(2, f)
      local mean = xf:mean()
      local var = xf:clone():add(-mean):pow(2):mean()
      local expected = xf:clone():add(-mean):div(math.sqrt(var + bn.eps)):mul(bn.weight[f]):add(bn.bias[f])
      check.ok(maxDiff(y:select(2, f), expected) < 1e-10, 'VolumetricBatchNormalization output')
   end
   check.eq(tostring(bn), 'nn.VolumetricBatchNormalization (5D) (3)')
   check.raises(function() bn:forward(torch.randn(3, 2, 3, 2)) end, '5D', 'a 4D input in training')
   check.raises(function() bn:forward(torch.randn(2, 4, 2, 2, 2)) end, 'expected 3', 'wrong feature count')
   -- evaluation: the running statistics normalise
   bn:evaluate()
   local z = bn:forward(x)
   for f = 1, 3 do
      local expected = x:select(2, f):clone():add(-bn.running_mean[f])
                        :div(math.sqrt(bn.running_var[f] + bn.eps)):mul(bn.weight[f]):add(bn.bias[f])
      check.ok(maxDiff(z:select(2, f), expected) < 1e-10, 'VolumetricBatchNormalization evaluation output')
   end
end

function tests.convolution()
   local conv = nn.VolumetricConvolution(2, 3, 2, 3, 2, 1, 2, 1, 1, 0, 1)
   check.eq(conv.padW, 0)
   check.eq(conv.padH, 1)
   checkGradients(conv, torch.Tensor(2, 4, 3, 5), { 'weight', 'bias' }, 'VolumetricConvolution')
   checkGradients(conv, torch.Tensor(2, 2, 4, 3, 5), { 'weight', 'bias' }, 'VolumetricConvolution batch')
   local x = torch.randn(2, 4, 3, 5)
   local expected = reference.convolution(x, conv.weight, conv.bias, { 1, 1, 2 }, { 1, 1, 0 }, { 1, 1, 1 })
   check.ok(maxDiff(conv:forward(x), expected) < 1e-12, 'VolumetricConvolution output')
   checkBatchOfOne(conv, x, 'VolumetricConvolution')
   -- accGradParameters adds scale times the gradient
   local gradOutput = torch.randn(conv:forward(x):size())
   conv:zeroGradParameters()
   conv:accGradParameters(x, gradOutput, 1)
   local once = conv.gradWeight:clone()
   conv:accGradParameters(x, gradOutput, 0.5)
   check.ok(maxDiff(conv.gradWeight, once * 1.5) < 1e-12, 'accGradParameters scale')

   check.eq(tostring(conv), 'nn.VolumetricConvolution(2 -> 3, 2x3x2, 1,2,1, 1,0,1)')
   check.eq(tostring(nn.VolumetricConvolution(1, 2, 3, 3, 3)), 'nn.VolumetricConvolution(1 -> 2, 3x3x3)')
   local noBias = nn.VolumetricConvolution(2, 2, 2, 2, 2):noBias()
   checkGradients(noBias, torch.Tensor(2, 3, 3, 3), { 'weight' }, 'VolumetricConvolution without bias')
   local unbiased = reference.convolution(x, noBias.weight, nil, { 1, 1, 1 }, { 0, 0, 0 })
   check.ok(maxDiff(noBias:forward(x), unbiased) < 1e-12, 'VolumetricConvolution without bias output')
   check.raises(function() conv:forward(torch.randn(3, 4, 3, 5)) end, nil, 'wrong plane count')
   check.raises(function() conv:forward(torch.randn(2, 4, 3)) end, nil, 'a 3D input')
   -- float
   local f = conv:clone():float()
   check.ok(maxDiff(f:forward(x:float()):double(), expected) < 1e-4, 'VolumetricConvolution float')
end

function tests.dilated_convolution()
   local conv = nn.VolumetricDilatedConvolution(2, 2, 2, 2, 2, 1, 1, 2, 0, 1, 1, 2, 1, 2)
   checkGradients(conv, torch.Tensor(2, 4, 3, 6), { 'weight', 'bias' }, 'VolumetricDilatedConvolution')
   checkGradients(conv, torch.Tensor(2, 2, 4, 3, 6), { 'weight', 'bias' }, 'VolumetricDilatedConvolution batch')
   local x = torch.randn(2, 4, 3, 6)
   local expected = reference.convolution(x, conv.weight, conv.bias, { 1, 2, 1 }, { 0, 1, 1 }, { 2, 2, 1 })
   check.ok(maxDiff(conv:forward(x), expected) < 1e-12, 'VolumetricDilatedConvolution output')
   check.eq(tostring(conv), 'nn.VolumetricDilatedConvolution(2 -> 2, 2x2x2, 1,1,2, 0,1,1, 2,1,2)')
end

function tests.full_convolution()
   -- kT, kW, kH = 2, 3, 2; dT, dW, dH = 2, 1, 2; pads 0, 1, 0; adjT = 1, adjH = 1
   local conv = nn.VolumetricFullConvolution(2, 2, 2, 3, 2, 2, 1, 2, 0, 1, 0, 1, 0, 1)
   checkGradients(conv, torch.Tensor(2, 2, 3, 3), { 'weight', 'bias' }, 'VolumetricFullConvolution')
   checkGradients(conv, torch.Tensor(2, 2, 2, 3, 3), { 'weight', 'bias' }, 'VolumetricFullConvolution batch')
   local x = torch.randn(2, 2, 3, 3)
   local expected = reference.fullConvolution(x, conv.weight, conv.bias, { 2, 2, 1 }, { 0, 0, 1 }, { 1, 1, 0 })
   check.ok(maxDiff(conv:forward(x), expected) < 1e-12, 'VolumetricFullConvolution output')
   checkBatchOfOne(conv, x, 'VolumetricFullConvolution')
   check.eq(tostring(conv), 'nn.VolumetricFullConvolution(2 -> 2, 3x2x2, 1,2,2, 1,0,0, 0,1,1)')
   check.raises(function() nn.VolumetricFullConvolution(1, 1, 2, 2, 2, 1, 1, 1, 0, 0, 0, 1) end, 'adj',
                'adjustment not below the stride')

   -- { input, target }: the adjustments give the target's size; the target's gradient is zero
   local plain = nn.VolumetricFullConvolution(2, 2, 2, 3, 2, 2, 1, 2, 0, 1, 0)
   plain.weight:copy(conv.weight)
   plain.bias:copy(conv.bias)
   local target = torch.Tensor(1, 5, 7, 3)
   local out = plain:forward({ x, target })
   check.ok(maxDiff(out, expected) < 1e-12, 'VolumetricFullConvolution to a target size')
   local gradOutput = torch.randn(out:size())
   local gi = plain:backward({ x, target }, gradOutput)
   check.ok(maxDiff(gi[1], conv:backward(x, gradOutput)) < 1e-12, 'gradient with a target')
   check.eq(gi[2]:abs():sum(), 0, 'the target gets no gradient')
   check.ok(gi[2]:isSameSizeAs(target), 'the target gradient has its size')
end

function tests.max_pooling()
   local pool = nn.VolumetricMaxPooling(2, 2, 2, 1, 2, 1)
   checkGradients(pool, torch.Tensor(2, 3, 4, 5), nil, 'VolumetricMaxPooling')
   checkGradients(pool, torch.Tensor(2, 2, 3, 4, 5), nil, 'VolumetricMaxPooling batch')
   local x = torch.randn(2, 3, 4, 5)
   local expected, expectedIdx = reference.volumetricMaxPool(x, { 2, 2, 2 }, { 1, 1, 2 })
   check.ok(maxDiff(pool:forward(x), expected) == 0, 'VolumetricMaxPooling output')
   check.eq(torch.typename(pool.indices), 'torch.LongTensor')
   check.eq((pool.indices - expectedIdx):abs():sum(), 0, 'VolumetricMaxPooling indices (1-based)')
   checkBatchOfOne(pool, x, 'VolumetricMaxPooling')
   check.eq(tostring(pool), 'nn.VolumetricMaxPooling(2x2x2, 1,2,1)')
   check.eq(tostring(nn.VolumetricMaxPooling(2, 2, 2, 2, 2, 2, 1, 1, 1)),
            'nn.VolumetricMaxPooling(2x2x2, 2,2,2, 1,1,1)')

   -- ceil mode: 5 with k = 2, d = 2 gives 3 instead of 2
   local ceil = nn.VolumetricMaxPooling(2, 2, 2):ceil()
   check.eq(ceil:forward(torch.randn(1, 5, 5, 5)):size(2), 3, 'ceil mode size')
   check.eq(ceil:floor():forward(torch.randn(1, 5, 5, 5)):size(2), 2, 'floor mode size')
   checkGradients(nn.VolumetricMaxPooling(2, 2, 2, 2, 2, 2, 1, 1, 0):ceil(), torch.Tensor(1, 3, 3, 4), nil,
                  'VolumetricMaxPooling padded, ceil')
   -- float keeps long indices
   local f = pool:clone():float()
   check.ok(maxDiff(f:forward(x:float()):double(), expected) < 1e-6, 'VolumetricMaxPooling float')
   check.eq(torch.typename(f.indices), 'torch.LongTensor')
   check.raises(function() pool:forward(torch.randn(2, 1, 4, 5)) end, nil, 'input smaller than the kernel')
   check.raises(function() pool:backward(x, torch.randn(2, 2, 2, 2)) end, nil, 'wrong gradOutput size')
end

function tests.average_pooling()
   local pool = nn.VolumetricAveragePooling(2, 3, 2, 1, 2, 1)
   checkGradients(pool, torch.Tensor(2, 3, 4, 5), nil, 'VolumetricAveragePooling')
   checkGradients(pool, torch.Tensor(2, 2, 3, 4, 5), nil, 'VolumetricAveragePooling batch')
   local x = torch.randn(2, 3, 4, 5)
   local y = pool:forward(x)
   check.eq(nn.utils.sizeString(y), '2x2x3x2')
   for c = 1, 2 do
      for t = 1, 2 do
         for h = 1, 3 do
            for w = 1, 2 do
               local mean = x[c]:narrow(1, t, 2):narrow(2, h, 2):narrow(3, (w - 1) * 2 + 1, 3):mean()
               check.near(y[c][t][h][w], mean, 1e-12, 'VolumetricAveragePooling output')
            end
         end
      end
   end
   check.eq(tostring(pool), 'nn.VolumetricAveragePooling(2x3x2, 1,2,1)')
   -- padding, counted in the divisor or not
   local padded = nn.VolumetricAveragePooling(2, 2, 2, 2, 2, 2, 1, 1, 1)
   checkGradients(padded, torch.Tensor(1, 3, 3, 3), nil, 'VolumetricAveragePooling padded')
   local ones = torch.ones(1, 3, 3, 3)
   check.near(padded:forward(ones)[1][1][1][1], 1 / 8, 1e-12, 'the corner window counts its padding')
   padded:setCountExcludePad()
   check.near(padded:forward(ones)[1][1][1][1], 1, 1e-12, 'the corner window without its padding')
   checkGradients(padded, torch.Tensor(1, 3, 3, 3), nil, 'VolumetricAveragePooling padding excluded')
   check.raises(function() pool:forward(torch.randn(4, 5)) end, nil, 'a 2D input')
end

function tests.max_unpooling()
   local pool = nn.VolumetricMaxPooling(2, 2, 2)
   local unpool = nn.VolumetricMaxUnpooling(pool)
   check.raises(function() unpool:forward(torch.randn(1, 1, 1, 1)) end, 'forward', 'before the pooling ran')
   local x = torch.randn(2, 4, 5, 4)
   local pooled = pool:forward(x)
   local y = unpool:forward(pooled)
   check.eq(nn.utils.sizeString(y), '2x4x5x4', 'the pooling input size')
   -- every maximum back in place, zeros elsewhere
   local expected = torch.zeros(2, 4, 5, 4)
   local flat = expected:view(2, 80)
   for c = 1, 2 do
      for t = 1, 2 do
         for h = 1, 2 do
            for w = 1, 2 do flat[c][pool.indices[c][t][h][w]] = pooled[c][t][h][w] end
         end
      end
   end
   check.eq(maxDiff(y, expected), 0, 'VolumetricMaxUnpooling output')
   checkGradients(unpool, pooled:clone(), nil, 'VolumetricMaxUnpooling')
   pool:forward(torch.randn(2, 2, 4, 4, 4))
   checkGradients(unpool, pool.output:clone(), nil, 'VolumetricMaxUnpooling batch')
   check.eq(tostring(unpool), 'nn.VolumetricMaxUnpooling associated to nn.VolumetricMaxPooling(2x2x2, 2,2,2)')
   check.raises(function() nn.VolumetricMaxUnpooling(nn.VolumetricMaxPooling(2, 2, 2, 1, 1, 1)) end, 'stride')
   check.raises(function() nn.VolumetricMaxUnpooling(nn.Identity()) end, 'VolumetricMaxPooling')
   check.raises(function() unpool:forward(torch.randn(2, 3, 2, 2, 2)) end, nil, 'input unlike the indices')
end

function tests.replication_padding()
   local pad = nn.VolumetricReplicationPadding(1, 2, 0, 1, 2, 1)
   checkGradients(pad, torch.Tensor(2, 2, 3, 2), nil, 'VolumetricReplicationPadding')
   checkGradients(pad, torch.Tensor(2, 1, 2, 3, 2), nil, 'VolumetricReplicationPadding batch')
   local x = torch.randn(2, 2, 3, 2)
   local y = pad:forward(x)
   check.eq(nn.utils.sizeString(y), '2x5x4x5')
   local function clamp(i, n) return math.max(1, math.min(n, i)) end
   for c = 1, 2 do
      for t = 1, 5 do
         for h = 1, 4 do
            for w = 1, 5 do
               check.eq(y[c][t][h][w], x[c][clamp(t - 2, 2)][clamp(h, 3)][clamp(w - 1, 2)], 'replicated value')
            end
         end
      end
   end
   checkBatchOfOne(pad, x, 'VolumetricReplicationPadding')
   local same = nn.VolumetricReplicationPadding(1)
   check.eq(same.pback, 1)
   check.eq(tostring(same), 'nn.VolumetricReplicationPadding(left=1, right=1, top=1, bottom=1, front=1, back=1)')
   check.raises(function() pad:forward(torch.randn(3, 3)) end, '4D or 5D', 'a 2D input')
end

return tests
