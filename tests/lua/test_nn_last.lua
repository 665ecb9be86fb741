-- nn's dilated volumetric max pooling, depthwise convolution and sparse linear layers:
-- gradients against nn.Jacobian's finite differences (double, small sizes), outputs against
-- plain loops over the defining formulas, batch and single-sample inputs, and bad inputs.
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

-- max over each dilated window of each volume of x (C x T x H x W), padding ignored; also
-- the 1-based flat offset of each maximum in its volume
local function dilatedMaxPoolReference(x, k, d, pad, dil)
   local C, T, H, W = unpack(x:size():totable())
   local sizes, inSizes = {}, { T, H, W }
   for i = 1, 3 do
      sizes[i] = math.floor((inSizes[i] + 2 * pad[i] - dil[i] * (k[i] - 1) - 1) / d[i]) + 1
   end
   local out = torch.Tensor(C, sizes[1], sizes[2], sizes[3])
   local idx = torch.LongTensor(C, sizes[1], sizes[2], sizes[3])
   for c = 1, C do
      for ot = 1, sizes[1] do
         for oh = 1, sizes[2] do
            for ow = 1, sizes[3] do
               local best, where = -math.huge, nil
               for a = 1, k[1] do
                  for b = 1, k[2] do
                     for e = 1, k[3] do
                        local t = (ot - 1) * d[1] - pad[1] + (a - 1) * dil[1] + 1
                        local h = (oh - 1) * d[2] - pad[2] + (b - 1) * dil[2] + 1
                        local w = (ow - 1) * d[3] - pad[3] + (e - 1) * dil[3] + 1
                        if t >= 1 and t <= T and h >= 1 and h <= H and w >= 1 and w <= W and x[c][t][h][w] > best then
                           best, where = x[c][t][h][w], ((t - 1) * H + (h - 1)) * W + w
                        end
                     end
                  end
               end
               out[c][ot][oh][ow], idx[c][ot][oh][ow] = best, where
            end
         end
      end
   end
   return out, idx
end

function tests.volumetricDilatedMaxPooling()
   -- kT, kW, kH, dT, dW, dH, padT, padW, padH, dilT, dilW, dilH; reference args in (T, H, W) order
   local pool = nn.VolumetricDilatedMaxPooling(2, 2, 3, 1, 2, 1, 1, 0, 1, 2, 1, 2)
   check.eq(tostring(pool), 'nn.VolumetricDilatedMaxPooling(2x2x3, 1,2,1, 1,0,1, 2,1,2)', 'tostring')
   local x = torch.randn(2, 5, 6, 5)
   local ref, refIdx = dilatedMaxPoolReference(x, { 2, 3, 2 }, { 1, 1, 2 }, { 1, 1, 0 }, { 2, 2, 1 })
   check.ok(maxDiff(pool:forward(x), ref) == 0, 'VolumetricDilatedMaxPooling output')
   check.ok(maxDiff(pool.indices:double(), refIdx:double()) == 0, 'VolumetricDilatedMaxPooling indices')
   check.eq(pool.itime * 100 + pool.iheight * 10 + pool.iwidth, 565, 'input sizes kept for unpooling')
   local batch = torch.randn(3, 2, 5, 6, 5)
   local out = pool:forward(batch)
   for n = 1, 3 do
      local r = dilatedMaxPoolReference(batch[n], { 2, 3, 2 }, { 1, 1, 2 }, { 1, 1, 0 }, { 2, 2, 1 })
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
   check.ok(maxDiff(single:select(2, 2), denseGrad[1]) < 1e-12, 'SparseLinear one sample gradInput')
   -- bad inputs: out-of-range index, wrong shapes; the module's tensors stay as they were
   local before = lin.weight:clone()
   check.raises(function() lin:forward(torch.Tensor({ { inputSize + 1, 1 } })) end, nil, 'index past inputSize')
   check.raises(function() lin:forward(torch.Tensor({ { 0, 1 } })) end, nil, 'index 0')
   check.raises(function() lin:forward(torch.randn(3, 3)) end, 'nnz x 2', 'rows of three')
   check.raises(function() lin:forward({ torch.randn(4) }) end, 'sample 1', 'a 1-D sample')
   check.ok(maxDiff(lin.weight, before) == 0, 'weight unchanged by the failed calls')
end

return tests
