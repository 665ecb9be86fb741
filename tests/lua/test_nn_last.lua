-- nn's dilated volumetric max pooling, depthwise convolution and sparse linear layers:
-- gradients against nn.Jacobian's finite differences (double, small sizes), outputs against
-- plain loops over the defining formulas, batch and single-sample inputs, and bad inputs.
require 'nn'
local gradcheck = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_gradcheck.lua')
local reference = dofile((debug.getinfo(1, 'S').source:match('^@(.*/)') or '') .. 'nn_reference.lua')
local tests = {}

local precision = gradcheck.precision

-- gradcheck.jacobian, plus each named parameter's accUpdateGradParameters step against
-- nn.Jacobian's finite differences
local function checkGradients(module, input, paramNames, msg)
   gradcheck.jacobian(module, input, paramNames, msg)
   for _, name in ipairs(paramNames or {}) do
      local err = nn.Jacobian.testJacobianUpdateParameters(module, input, module[name])
      check.ok(err < precision, string.format('%s: %s update error %g', msg, name, err))
   end
end

local maxDiff = gradcheck.maxDiff


function tests.volumetricDilatedMaxPooling()
   -- kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH; reference args in (T, H, W) order
   local pool = nn.VolumetricDilatedMaxPooling(2, 2, 3, 1, 2, 1, 1, 0, 1, 2, 1, 2)
   check.eq(tostring(pool), 'nn.VolumetricDilatedMaxPooling(2x2x3, 1,2,1, 1,0,1, 2,1,2)', 'tostring')
   local x = torch.randn(2, 5, 6, 5)
   local ref, refIdx = reference.volumetricMaxPool(x, { 2, 3, 2 }, { 1, 1, 2 }, { 1, 1, 0 }, { 2, 2, 1 })
   check.ok(maxDiff(pool:forward(x), ref) == 0, 'VolumetricDilatedMaxPooling output')
   check.ok(maxDiff(pool.indices:double(), refIdx:double()) == 0, 'VolumetricDilatedMaxPooling indices')
   check.eq(pool.itime * 100 + pool.iheight * 10 + pool.iwidth, 565, 'input sizes kept for unpooling')
   local batch = torch.randn(3, 2, 5, 6, 5)
   local out = pool:forward(batch)
   for n = 1, 3 do
      local r = reference.volumetricMaxPool(batch[n], { 2, 3, 2 }, { 1, 1, 2 }, { 1, 1, 0 }, { 2, 2, 1 })
      check.ok(maxDiff(out[n], r) == 0, 'VolumetricDilatedMaxPooling batch sample ' .. n)
   end
   checkGradients(pool, torch.randn(2, 4, 5, 4), nil, 'VolumetricDilatedMaxPooling')
   checkGradients(pool, torch.randn(2, 2, 4, 5, 4), nil, 'VolumetricDilatedMaxPooling batch')
   -- the default dilation is plain max pooling
   local plain = nn.VolumetricMaxPooling(2, 2, 2):forward(x)
   check.ok(maxDiff(nn.VolumetricDilatedMaxPooling(2, 2, 2):forward(x), plain) == 0, 'dilation 1 is max pooling')
   -- a dilated window larger than the input
   check.raises(function() nn.VolumetricDilatedMaxPooling(3, 3, 3, 1, 1, 1, 0, 0, 0, 3, 3, 3):forward(x) end,
                nil, 'window larger than the input')
end

-- out[(i-1)*nOut + o][h][w] = bias[o][i] + sum_{a,b} weight[o][i][a][b] x[i][(h-1)dH-padH+a][...]
local function depthwiseReference(x, weight, bias, dW, dH, padW, padH)
   local nOut, nIn, kH, kW = unpack(weight:size():totable())
   local H, W = x:size(2), x:size(3)
   local oH = math.floor((H + 2 * padH - kH) / dH) + 1
   local oW = math.floor((W + 2 * padW - kW) / dW) + 1
   local out = torch.Tensor(nIn * nOut, oH, oW)
   for i = 1, nIn do
      for o = 1, nOut do
         for h = 1, oH do
            for w = 1, oW do
               local s = bias and bias[o][i] or 0
               for a = 1, kH do
                  for b = 1, kW do
                     local ih, iw = (h - 1) * dH - padH + a, (w - 1) * dW - padW + b
                     if ih >= 1 and ih <= H and iw >= 1 and iw <= W then
                        s = s + weight[o][i][a][b] * x[i][ih][iw]
                     end
                  end
               end
               out[(i - 1) * nOut + o][h][w] = s
            end
         end
      end
   end
   return out
end

function tests.spatialDepthWiseConvolution()
   local conv = nn.SpatialDepthWiseConvolution(3, 2, 3, 2, 2, 1, 1, 0)
   check.eq(tostring(conv), 'nn.SpatialDepthWiseConvolution(3 -> 2, 3x2, 2,1, 1,0)', 'tostring')
   check.eq(nn.utils.sizeString(conv.weight), '2x3x2x3', 'weight nOutputPlane x nInputPlane x kH x kW')
   check.eq(nn.utils.sizeString(conv.bias), '2x3', 'bias nOutputPlane x nInputPlane')
   local x = torch.randn(3, 5, 6)
   local ref = depthwiseReference(x, conv.weight, conv.bias, 2, 1, 1, 0)
   check.ok(maxDiff(conv:forward(x), ref) < 1e-12, 'SpatialDepthWiseConvolution output')
   local batch = torch.randn(2, 3, 5, 6)
   local out = conv:forward(batch)
   for n = 1, 2 do
      local r = depthwiseReference(batch[n], conv.weight, conv.bias, 2, 1, 1, 0)
      check.ok(maxDiff(out[n], r) < 1e-12, 'SpatialDepthWiseConvolution batch sample ' .. n)
   end
   checkGradients(conv, torch.randn(3, 4, 5), { 'weight', 'bias' }, 'SpatialDepthWiseConvolution')
   checkGradients(conv, torch.randn(2, 3, 4, 5), { 'weight', 'bias' }, 'SpatialDepthWiseConvolution batch')
   local noBias = nn.SpatialDepthWiseConvolution(2, 2, 2, 2):noBias()
   check.eq(tostring(noBias), 'nn.SpatialDepthWiseConvolution(2 -> 2, 2x2) without bias', 'tostring without bias')
   local y = torch.randn(2, 4, 4)
   check.ok(maxDiff(noBias:forward(y), depthwiseReference(y, noBias.weight, nil, 1, 1, 0, 0)) < 1e-12,
            'SpatialDepthWiseConvolution without bias')
   checkGradients(noBias, torch.randn(2, 3, 4), { 'weight' }, 'SpatialDepthWiseConvolution without bias')
   local before = x:clone()
   check.raises(function() nn.SpatialDepthWiseConvolution(4, 2, 3, 3):forward(x) end, 'input planes',
                'wrong number of input planes')
   check.ok(maxDiff(x, before) == 0, 'input unchanged by the failed call')
end

-- sparse rows (index, value) of a dense vector's non-zeros, and the dense vector of such rows
local function denseOf(rows, size)
   local x = torch.zeros(size)
   for i = 1, rows:size(1) do x[rows[i][1]] = x[rows[i][1]] + rows[i][2] end
   return x
end

local function randomSparse(inputSize, nnz)
   local rows = torch.Tensor(nnz, 2)
   local perm = torch.randperm(inputSize)
   for i = 1, nnz do rows[i][1], rows[i][2] = perm[i], torch.normal(0, 1) end
   return rows
end

function tests.sparseLinear()
   local inputSize, outputSize = 7, 4
   local lin = nn.SparseLinear(inputSize, outputSize)
   check.eq(tostring(lin), 'nn.SparseLinear(7 -> 4)', 'tostring')
   check.eq(nn.utils.sizeString(lin.weight), '4x7', 'weight outputSize x inputSize')
   lin.bias:normal()
   -- one sample: output = weight x + bias, x the dense form of the rows
   local x = randomSparse(inputSize, 3)
   local expected = torch.mv(lin.weight, denseOf(x, inputSize)):add(lin.bias)
   check.ok(maxDiff(lin:forward(x), expected) < 1e-12, 'SparseLinear one sample')
   -- a table batch and the legacy nBatch x nnz x 2 batch, as dense products
   local batch = { randomSparse(inputSize, 2), randomSparse(inputSize, 5), randomSparse(inputSize, 1) }
   local dense = torch.Tensor(3, inputSize)
   for i = 1, 3 do dense[i]:copy(denseOf(batch[i], inputSize)) end
   local denseOut = torch.mm(dense, lin.weight:t()):add(torch.ger(torch.ones(3), lin.bias))
   check.ok(maxDiff(lin:forward(batch), denseOut) < 1e-12, 'SparseLinear table batch')
   local legacy = torch.Tensor(2, 3, 2)
   legacy[1]:copy(randomSparse(inputSize, 3))
   legacy[2]:copy(randomSparse(inputSize, 3))
   local legacyDense = torch.Tensor(2, inputSize)
   for i = 1, 2 do legacyDense[i]:copy(denseOf(legacy[i], inputSize)) end
   local legacyOut = torch.mm(legacyDense, lin.weight:t()):add(torch.ger(torch.ones(2), lin.bias))
   check.ok(maxDiff(lin:forward(legacy), legacyOut) < 1e-12, 'SparseLinear legacy batch')
   -- parameter gradients against finite differences, each input form
   for _, case in ipairs({ { x, 'one sample' }, { batch, 'table batch' }, { legacy, 'legacy batch' } }) do
      for _, name in ipairs({ 'weight', 'bias' }) do
         local gradName = 'grad' .. name:sub(1, 1):upper() .. name:sub(2)
         -- (testJacobianParameters would randomise the input's indices)
         local err = (nn.Jacobian.backward(lin, case[1], lin[name], lin[gradName])
                      - nn.Jacobian.forward(lin, case[1], lin[name])):abs():max()
         check.ok(err < precision, string.format('SparseLinear %s: %s error %g', case[2], gradName, err))
      end
   end
   -- gradWeight is gradOutput^T x; one backward then updateParameters is the dense SGD step
   local gradOutput = torch.randn(3, outputSize)
   lin:zeroGradParameters()
   lin.gradWeight:zero()
   lin:forward(batch)
   lin:backward(batch, gradOutput)
   check.ok(maxDiff(lin.gradWeight, torch.mm(gradOutput:t(), dense)) < 1e-12, 'SparseLinear gradWeight')
   check.ok(maxDiff(lin.gradBias, gradOutput:sum(1):view(outputSize)) < 1e-12, 'SparseLinear gradBias')
   local weight, bias = lin.weight:clone(), lin.bias:clone()
   lin:updateParameters(0.5)
   check.ok(maxDiff(lin.weight, weight:add(-0.5, torch.mm(gradOutput:t(), dense))) < 1e-12,
            'SparseLinear sparse updateParameters')
   check.ok(maxDiff(lin.bias, bias:add(-0.5, gradOutput:sum(1):view(outputSize))) < 1e-12,
            'SparseLinear updateParameters bias')
   lin:zeroGradParameters()
   check.eq(lin.gradWeight:abs():max() + lin.gradBias:abs():max(), 0, 'SparseLinear sparse zeroGradParameters')
   -- doGradInput: (index, weight^T gradOutput) rows over every feature
   local withGrad = nn.SparseLinear(inputSize, outputSize, true)
   withGrad:forward(batch)
   local gradInput = withGrad:backward(batch, gradOutput)
   check.eq(#gradInput, 3, 'SparseLinear gradInput: one per sample')
   local denseGrad = torch.mm(gradOutput, withGrad.weight)
   for i = 1, 3 do
      check.ok(maxDiff(gradInput[i]:select(2, 1), torch.range(1, inputSize)) == 0, 'gradInput indices ' .. i)
      check.ok(maxDiff(gradInput[i]:select(2, 2), denseGrad[i]) < 1e-12, 'gradInput values ' .. i)
   end
   withGrad:forward(x)
   local single = withGrad:backward(x, gradOutput[1])
   check.eq(#single, 1, 'one sample: a table of one (torch7)')
   check.ok(maxDiff(single[1]:select(2, 2), denseGrad[1]) < 1e-12, 'SparseLinear one sample gradInput')
   -- bad inputs: out-of-range index, wrong shapes; the module's tensors stay as they were
   local before = lin.weight:clone()
   check.raises(function() lin:forward(torch.Tensor({ { inputSize + 1, 1 } })) end, nil, 'index past inputSize')
   check.raises(function() lin:forward(torch.Tensor({ { 0, 1 } })) end, nil, 'index 0')
   check.raises(function() lin:forward(torch.randn(3, 3)) end, 'nnz x 2', 'rows of three')
   check.raises(function() lin:forward({ torch.randn(4) }) end, 'sample 1', 'a 1-D sample')
   check.ok(maxDiff(lin.weight, before) == 0, 'weight unchanged by the failed calls')
end

-- bias + sum over a sample's entries of value * weight[key + keysOffset]
local function indexLinearReference(weight, bias, keys, values, keysOffset)
   local out = bias:clone()
   for i = 1, keys:nElement() do out:add(values[i], weight[keys[i] + keysOffset]) end
   return out
end

function tests.indexLinear()
   local inputSize, outputSize = 6, 3
   local lin = nn.IndexLinear(inputSize, outputSize)
   check.eq(tostring(lin), 'nn.IndexLinear(6 -> 3)', 'tostring')
   check.eq(nn.utils.sizeString(lin.weight), '6x3', 'weight inputSize x outputSize')
   check.eq(lin.weight:abs():max(), 0, 'a new layer starts at zero (torch7)')
   lin:reset()
   lin.bias:normal()
   local keys = { torch.LongTensor({ 2, 5 }), torch.LongTensor({ 1, 6, 3 }), torch.LongTensor({ 4 }) }
   local values = { torch.randn(2), torch.randn(3), torch.randn(1) }
   check.ok(maxDiff(lin:forward({ keys[2], values[2] }),
                    indexLinearReference(lin.weight, lin.bias, keys[2], values[2], 0)) < 1e-12, 'one sample')
   local out = lin:forward({ keys, values })
   check.eq(nn.utils.sizeString(out), '3x3', 'batch output size')
   for j = 1, 3 do
      check.ok(maxDiff(out[j], indexLinearReference(lin.weight, lin.bias, keys[j], values[j], 0)) < 1e-12,
               'table batch sample ' .. j)
   end
   local flat = { torch.cat(keys, 1), torch.cat(values, 1), torch.LongTensor({ 2, 3, 1 }) }
   check.ok(maxDiff(lin:forward(flat), out) < 1e-12, 'flat batch')
   -- keysOffset shifts the rows used: key k reads row k + keysOffset
   local shifted = nn.IndexLinear(inputSize, outputSize, false, 1)
   shifted:reset()
   check.ok(maxDiff(shifted:forward({ keys[1], values[1] }),
                    indexLinearReference(shifted.weight, shifted.bias, keys[1], values[1], 1)) < 1e-12, 'keysOffset')
   -- one backward then updateParameters(lr) moves weight by -lr d<output, gradOutput>/d weight
   -- (central differences) and bias by -lr (sum of gradOutput's rows)
   local input = { keys, values }
   local gradOutput = torch.randn(3, outputSize)
   local numeric = torch.mv(nn.Jacobian.forward(lin, input, lin.weight), gradOutput:view(gradOutput:nElement()))
   local weight, bias = lin.weight:clone(), lin.bias:clone()
   lin:zeroGradParameters()
   lin:forward(input)
   lin:backward(input, gradOutput)
   check.ok(maxDiff(lin.gradBias, gradOutput:sum(1):view(outputSize)) < 1e-12, 'gradBias')
   lin:updateParameters(0.1)
   local step = (weight - lin.weight):div(0.1)
   check.ok(maxDiff(step:view(step:nElement()), numeric) < precision, 'updateParameters weight step')
   check.ok(maxDiff(lin.bias, bias - gradOutput:sum(1):view(outputSize) * 0.1) < 1e-12, 'updateParameters bias')
   -- two backwards accumulate
   lin.weight:copy(weight)
   lin.bias:copy(bias)
   lin:zeroGradParameters()
   lin:backward(input, gradOutput)
   lin:backward(input, gradOutput)
   lin:updateParameters(0.05)
   check.ok(maxDiff((weight - lin.weight):div(0.1):view(step:nElement()), numeric) < precision,
            'accumulated gradients')
   -- accUpdateGradParameters(lr) is the same step without the gradient buffers
   lin.weight:copy(weight)
   lin.bias:copy(bias)
   lin:forward(input)
   lin:accUpdateGradParameters(input, gradOutput, 0.1)
   check.ok(maxDiff((weight - lin.weight):div(0.1):view(step:nElement()), numeric) < precision,
            'accUpdateGradParameters')
   -- doGradInput: torch7's dense gradient, {features 1..inputSize, weight gradOutput} per
   -- sample: the gradient of the output with respect to every feature's value, present
   -- or not (a Linear's gradInput on the dense input)
   local withGrad = nn.IndexLinear(inputSize, outputSize, true)
   withGrad:reset()
   local dense = torch.mm(gradOutput, withGrad.weight:t())
   withGrad:forward(input)
   local gi = withGrad:backward(input, gradOutput)
   for j = 1, 3 do
      check.ok(maxDiff(gi[1][j], torch.range(1, inputSize):long()) == 0, 'gradInput features ' .. j)
      check.ok(maxDiff(gi[2][j], dense[j]) < 1e-12, 'gradInput values ' .. j)
   end
   withGrad:forward(flat)
   gi = withGrad:backward(flat, gradOutput)
   check.ok(maxDiff(gi[1], torch.range(1, inputSize):long():repeatTensor(3)) == 0, 'flat gradInput features')
   check.ok(maxDiff(gi[2], dense:view(dense:nElement())) < 1e-12, 'flat gradInput values')
   withGrad:forward({ keys[2], values[2] })
   gi = withGrad:backward({ keys[2], values[2] }, gradOutput[2])
   check.ok(maxDiff(gi[2], dense[2]) < 1e-12 and gi[1]:nElement() == inputSize, 'one sample gradInput')
   -- the present features' entries are the derivatives by finite differences
   local numericValues = torch.mv(nn.Jacobian.forward(withGrad, { keys[2], values[2] }, values[2]), gradOutput[2])
   check.ok(maxDiff(numericValues, dense[2]:index(1, keys[2])) < precision, 'against finite differences')
   -- normalisation: columns 1..4 per feature; values enter as v / max|v| seen
   local norm = nn.IndexLinear(inputSize, outputSize, false, 0, nil, nil, true)
   check.eq(nn.utils.sizeString(norm.weight), '6x7', 'normalized weight has 4 extra columns')
   check.eq(norm.weight:narrow(2, 1, 4):abs():max(), 0, 'normalisation columns start at zero')
   local nout = norm:forward({ keys[2], values[2] })
   local expected = norm.bias:clone()
   for i = 1, 3 do
      expected:add(values[2][i] / math.abs(values[2][i]), norm.weight[keys[2][i]]:narrow(1, 5, outputSize))
   end
   check.ok(maxDiff(nout, expected) < 1e-12, 'normalized output: each value over its own max')
   -- float: the keys stay longs
   local floatOut = lin:clone():float():forward({ keys, { values[1]:float(), values[2]:float(), values[3]:float() } })
   check.ok(maxDiff(floatOut:double(), lin:forward(input)) < 1e-5, 'IndexLinear as float')
   -- bad inputs
   local before = lin.weight:clone()
   check.raises(function() lin:forward({ torch.LongTensor({ 7 }), torch.randn(1) }) end, nil, 'key past inputSize')
   check.raises(function() lin:forward({ torch.LongTensor({ 1, 2 }), torch.randn(3) }) end, 'as long as',
                'values and keys of different lengths')
   check.raises(function() lin:forward({ torch.randn(2), torch.randn(2) }) end, 'LongTensor', 'double keys')
   check.raises(function() lin:forward(flat[1]) end, 'bad input', 'a bare tensor')
   check.ok(maxDiff(lin.weight, before) == 0, 'weight unchanged by the failed calls')
end

return tests
