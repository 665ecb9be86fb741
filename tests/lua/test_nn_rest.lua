-- The last nn modules of torch7's list: Kmeans, PartialLinear, DistanceRatioCriterion,
-- CAddTensorTable and nn.SparseJacobian. Outputs against plain loops over the defining
-- formulas, gradients against nn.Jacobian's finite differences (or central differences
-- written here for criterions and tables), and bad inputs.
require 'nn'
local tests = {}

local precision = 1e-5

local function maxDiff(a, b)
   check.ok(a:isSameSizeAs(b), 'sizes differ: ' .. nn.utils.sizeString(a) .. ' vs ' .. nn.utils.sizeString(b))
   return (a - b):abs():max()
end

local function squaredDistance(x, c)
   local s = 0
   for j = 1, x:size(1) do s = s + (x[j] - c[j]) ^ 2 end
   return s
end

function tests.kmeans_forward_and_update()
   torch.manualSeed(7)
   local k, dim, n = 3, 4, 10
   local km = nn.Kmeans(k, dim)
   local x = torch.randn(n, dim)
   local out = km:forward(x)
   local loss, nearest = 0, {}
   for i = 1, n do
      local best, bestC = math.huge, 0
      for c = 1, k do
         local d = squaredDistance(x[i], km.weight[c])
         if d < best then best, bestC = d, c end
      end
      nearest[i] = bestC
      loss = loss + best
      check.eq(out[i], bestC, 'sample ' .. i .. "'s nearest centre")
   end
   check.near(km.loss, loss, 1e-12, 'loss')
   check.eq(km:backward(x, out):abs():sum(), 0, 'gradInput is zero')
   -- gradWeight[c] = -1/n_c sum over c's samples of (x - c)
   local expected = torch.zeros(k, dim)
   local counts = torch.zeros(k)
   for i = 1, n do
      counts[nearest[i]] = counts[nearest[i]] + 1
      expected[nearest[i]]:add(-1, x[i] - km.weight[nearest[i]])
   end
   for c = 1, k do
      if counts[c] > 0 then expected[c]:div(counts[c]) end
   end
   check.ok(maxDiff(km.gradWeight, expected) < 1e-12, 'gradWeight')
   check.ok(maxDiff(km.clusterSampleCount, counts) == 0, 'clusterSampleCount')
   -- a step of lr 1 puts each centre with samples on their mean
   local before = km.weight:clone()
   km:updateParameters(1)
   for c = 1, k do
      if counts[c] > 0 then
         local mean = torch.zeros(dim)
         for i = 1, n do
            if nearest[i] == c then mean:add(x[i]) end
         end
         check.ok(maxDiff(km.weight[c], mean:div(counts[c])) < 1e-12, 'centre ' .. c .. ' on its mean')
      else
         check.ok(maxDiff(km.weight[c], before[c]) == 0, 'a centre without samples stays')
      end
   end
   -- the constructor's scale wins over the argument's
   local scaled = nn.Kmeans(k, dim, 0.5)
   scaled.weight:copy(before)
   scaled:zeroGradParameters()
   scaled:forward(x)
   scaled:backward(x, out, 3)
   check.ok(maxDiff(scaled.gradWeight, expected * 0.5) < 1e-12, 'scale')
end

function tests.kmeans_initialization_and_convergence()
   torch.manualSeed(11)
   -- two blobs around (-5, -5) and (5, 5)
   local n = 40
   local x = torch.randn(n, 2):mul(0.3)
   x:narrow(1, 1, n / 2):add(-5)
   x:narrow(1, n / 2 + 1, n / 2):add(5)
   local function isSample(c)
      for i = 1, n do
         if maxDiff(x[i], c) == 0 then return true end
      end
      return false
   end
   local km = nn.Kmeans(2, 2)
   km:initRandom(x)
   check.ok(isSample(km.weight[1]) and isSample(km.weight[2]), 'initRandom picks samples')
   check.ok(maxDiff(km.weight[1], km.weight[2]) > 0, 'distinct samples')
   -- with p = 1 the next centre is the sample farthest from the first
   km:initKmeansPlus(x, 1)
   local farthest, best = nil, -1
   for i = 1, n do
      local d = squaredDistance(x[i], km.weight[1])
      if d > best then best, farthest = d, i end
   end
   check.ok(maxDiff(km.weight[2], x[farthest]) == 0, 'k-means++ with p = 1')
   check.ok(km.weight[1][1] * km.weight[2][1] < 0, 'one centre per blob')
   -- a few steps of lr 1 find the blobs' means
   km:initRandom(x)
   for _ = 1, 5 do
      km:zeroGradParameters()
      km:forward(x)
      km:backward(x, km.output)
      km:updateParameters(1)
   end
   local means = { x:narrow(1, 1, n / 2):mean(1):view(2), x:narrow(1, n / 2 + 1, n / 2):mean(1):view(2) }
   local c1 = km.weight[1][1] < 0 and 1 or 2
   check.ok(maxDiff(km.weight[c1], means[1]) < 1e-12 and maxDiff(km.weight[3 - c1], means[2]) < 1e-12, 'converged')
end

function tests.kmeans_errors()
   local km = nn.Kmeans(3, 4)
   check.raises(function() km:forward(torch.randn(5, 3)) end, 'nBatch x 4')
   check.raises(function() km:initRandom(torch.randn(2, 4)) end, 'at least 3 samples')
   check.raises(function() nn.Kmeans(0, 4) end, 'clusters')
end

function tests.partial_linear_forward()
   torch.manualSeed(3)
   local m = nn.PartialLinear(5, 7)
   local weight = m.network:get(1):get(2).weight
   check.eq(weight:size(1), 7); check.eq(weight:size(2), 5)
   m.bias:uniform(-1, 1)
   local x = torch.randn(4, 5)
   -- all columns: a Linear layer
   local linear = nn.Linear(5, 7)
   linear.weight:copy(weight); linear.bias:copy(m.bias:view(7))
   check.ok(maxDiff(m:forward(x), linear:forward(x)) < 1e-12, 'all columns')
   local partition = torch.LongTensor({ 6, 2, 4 })
   m:setPartition(partition)
   local out = m:forward(x)
   check.eq(out:size(1), 4); check.eq(out:size(2), 3)
   for b = 1, 4 do
      for j = 1, 3 do
         local col = partition[j]
         local s = m.bias[1][col]
         for i = 1, 5 do s = s + x[b][i] * weight[col][i] end
         check.near(out[b][j], s, 1e-12, 'output ' .. b .. ',' .. j)
      end
   end
   m:resetPartition()
   check.eq(m:forward(x):size(2), 7, 'resetPartition')
   check.eq(tostring(m), 'nn.PartialLinear(5 -> 7)')
end

function tests.partial_linear_gradients()
   torch.manualSeed(5)
   local m = nn.PartialLinear(4, 6)
   m.bias:uniform(-1, 1)
   m:setPartition(torch.Tensor({ 5, 1, 3 }))
   local input = torch.Tensor(3, 4)
   local weight, gradWeight = m.network:get(1):get(2).weight, m.network:get(1):get(2).gradWeight
   check.ok(nn.Jacobian.testJacobian(m, input) < precision, 'gradInput')
   check.ok(nn.Jacobian.testJacobianParameters(m, input, weight, gradWeight) < precision, 'gradWeight')
   check.ok(nn.Jacobian.testJacobianParameters(m, input, m.bias, m.gradBias) < precision, 'gradBias')
   check.ok(nn.Jacobian.testJacobianUpdateParameters(m, input, weight) < precision, 'weight update')
   check.ok(nn.Jacobian.testJacobianUpdateParameters(m, input, m.bias) < precision, 'bias update')
   -- only the partition's columns receive gradient
   m:zeroGradParameters()
   m:forward(input)
   m:backward(input, torch.ones(3, 3))
   for _, col in ipairs({ 2, 4, 6 }) do
      check.eq(gradWeight[col]:abs():sum() + math.abs(m.gradBias[1][col]), 0, 'column ' .. col .. ' untouched')
   end
   check.eq(m.gradBias[1][5], 3, 'bias gradient: the batch sum')
   local errOut, errBack = nn.Jacobian.testIO(m, input)
   check.eq(errOut, 0); check.eq(errBack, 0)
   check.raises(function() m:setPartition(torch.LongTensor({ 7 })) end, 'in [1, 6]')
   check.raises(function() m:forward(torch.randn(4)) end, 'nBatch x 4')
end

-- loss of one pair, by its definition
local function ratioLoss(x, y) return -math.log(math.exp(-x) / (math.exp(-x) + math.exp(-y))) end

function tests.distance_ratio_criterion()
   torch.manualSeed(9)
   local X, Y = torch.rand(6):mul(3), torch.rand(6):mul(3)
   for _, sizeAverage in ipairs({ true, false }) do
      local crit = nn.DistanceRatioCriterion(sizeAverage)
      local expected = 0
      for i = 1, 6 do expected = expected + ratioLoss(X[i], Y[i]) end
      if sizeAverage then expected = expected / 6 end
      check.near(crit:forward({ X, Y }), expected, 1e-12, 'loss')
      -- gradient by central differences
      local grad = crit:backward({ X, Y })
      for which = 1, 2 do
         local t = which == 1 and X or Y
         for i = 1, 6 do
            local orig = t[i]
            t[i] = orig + 1e-6
            local up = crit:forward({ X, Y })
            t[i] = orig - 1e-6
            local down = crit:forward({ X, Y })
            t[i] = orig
            check.near(grad[which][i], (up - down) / 2e-6, 1e-6, 'gradient ' .. which .. ',' .. i)
         end
      end
   end
   -- far distances do not overflow: 1000 + log(e^-1000 + e^-1001) = log(1 + e^-1)
   local far = nn.DistanceRatioCriterion():forward({ torch.Tensor({ 1000 }), torch.Tensor({ 1001 }) })
   check.near(far, math.log(1 + math.exp(-1)), 1e-12, 'far distances')
   check.raises(function() nn.DistanceRatioCriterion():forward({ torch.rand(3), torch.rand(4) }) end, 'do not match')
   check.raises(function() nn.DistanceRatioCriterion():forward(torch.rand(3)) end, 'input {X, Y}')
end

function tests.cadd_tensor_table()
   local m = nn.CAddTensorTable()
   local x = torch.randn(2, 3)
   local ys = { torch.randn(2, 3), torch.randn(2, 3), torch.randn(2, 3) }
   local out = m:forward({ x, ys })
   check.eq(#out, 3)
   for i = 1, 3 do
      for a = 1, 2 do
         for b = 1, 3 do check.near(out[i][a][b], x[a][b] + ys[i][a][b], 1e-15, 'output') end
      end
   end
   local gradOutput = { torch.randn(2, 3), torch.randn(2, 3), torch.randn(2, 3) }
   local gradInput = m:backward({ x, ys }, gradOutput)
   -- d/dx sum_i <g_i, x + y_i> = sum_i g_i; d/dy_i = g_i
   check.ok(maxDiff(gradInput[1], gradOutput[1] + gradOutput[2] + gradOutput[3]) < 1e-14, 'gradient of x')
   for i = 1, 3 do check.ok(maxDiff(gradInput[2][i], gradOutput[i]) == 0, 'gradient of y' .. i) end
   -- fewer ys later: the tables shrink
   check.eq(#m:forward({ x, { ys[1] } }), 1)
   check.eq(#m:backward({ x, { ys[1] } }, { gradOutput[1] })[2], 1)
   check.raises(function() m:forward({ x, { torch.randn(3, 2) } }) end, 'input[2][1] has size 3x2')
   check.raises(function() m:forward(x) end, 'input {tensor, {tensor, ...}}')
end

function tests.sparse_jacobian()
   torch.manualSeed(13)
   local m = nn.SparseLinear(6, 3, true)
   -- three of the six features present
   local input = torch.Tensor({ { 2, 0 }, { 5, 0 }, { 6, 0 } })
   check.ok(nn.SparseJacobian.testJacobian(m, input) < precision, 'gradInput')
   check.ok(nn.SparseJacobian.testJacobianParameters(m, input, m.weight, m.gradWeight) < precision, 'gradWeight')
   check.ok(nn.SparseJacobian.testJacobianParameters(m, input, m.bias, m.gradBias) < precision, 'gradBias')
   check.ok(nn.SparseJacobian.testJacobianUpdateParameters(m, input, m.weight) < precision, 'weight update')
   -- the Jacobian of the values is the weight's columns of the features present
   local jac = nn.SparseJacobian.backward(m, input)
   for r, feature in ipairs({ 2, 5, 6 }) do
      check.ok(maxDiff(jac[r], m.weight:select(2, feature)) < 1e-14, 'row ' .. r)
   end
   -- a wrong gradient is caught
   local wrong = nn.SparseLinear(6, 3, true)
   function wrong:updateGradInput(i, g)
      local gi = nn.SparseLinear.updateGradInput(self, i, g)
      gi[1]:select(2, 2):mul(2)
      return gi
   end
   check.ok(nn.SparseJacobian.testJacobian(wrong, input) > 1e-2, 'a doubled gradient shows')
   -- a dense gradInput (nn.PartialLinear's) is read row by row, column 2 (torch7): here the
   -- Jacobian of the values of column 2 of a Linear's input is its weight's column 2
   local lin = nn.Linear(2, 3)
   local dense = torch.randn(4, 2)
   check.ok(nn.SparseJacobian.testJacobian(lin, dense) < precision, 'dense gradInput')
   local djac = nn.SparseJacobian.backward(lin, dense)
   for r = 1, 4 do
      for o = 1, 3 do check.near(djac[r][(r - 1) * 3 + o], lin.weight[o][2], 1e-14, 'dense jacobian') end
   end
end

return tests
