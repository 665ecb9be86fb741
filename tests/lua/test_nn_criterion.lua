-- Criterions: the loss against its plain formula summed element by element in Lua, and
-- gradInput against central differences of the loss.
require 'nn'
local tests = {}

-- d loss / d input by central differences (input: a tensor or a table of tensors)
local function numericalGrad(criterion, input, target)
   local function grad(t)
      local g = t:clone():zero()
      local flat, gflat = t:view(t:nElement()), g:view(g:nElement())
      for i = 1, flat:nElement() do
         local orig = flat[i]
         flat[i] = orig + 1e-6
         local up = criterion:forward(input, target)
         flat[i] = orig - 1e-6
         local down = criterion:forward(input, target)
         flat[i] = orig
         gflat[i] = (up - down) / 2e-6
      end
      return g
   end
   if torch.isTensor(input) then return grad(input) end
   local r = {}
   for i, t in ipairs(input) do r[i] = grad(t) end
   return r
end

local function checkGrad(criterion, input, target, msg)
   criterion:forward(input, target)
   local analytic = criterion:backward(input, target)
   local numeric = numericalGrad(criterion, input, target)
   if torch.isTensor(input) then analytic, numeric = { analytic }, { numeric } end
   for i = 1, #numeric do
      local err = (analytic[i]:contiguous():view(numeric[i]:nElement()) - numeric[i]:view(numeric[i]:nElement()))
                  :abs():max()
      check.ok(err < 1e-5, string.format('%s: gradInput error %g', msg, err))
   end
end

-- sum over the elements of f(x, y), and its mean
local function elementSum(input, target, f)
   local x, y = input:contiguous():view(input:nElement()), target:contiguous():view(target:nElement())
   local s = 0
   for i = 1, x:nElement() do s = s + f(x[i], y[i]) end
   return s, s / x:nElement()
end

local elementwise = {
   { 'MSECriterion', nn.MSECriterion, function(x, y) return (x - y) ^ 2 end },
   { 'AbsCriterion', nn.AbsCriterion, function(x, y) return math.abs(x - y) end },
   { 'SmoothL1Criterion', nn.SmoothL1Criterion,
     function(x, y) local d = math.abs(x - y); return d < 1 and 0.5 * d * d or d - 0.5 end },
}

function tests.elementwise_regression_losses()
   for _, case in ipairs(elementwise) do
      local name, ctor, f = case[1], case[2], case[3]
      local input, target = torch.randn(3, 4), torch.randn(3, 4)
      local sum, mean = elementSum(input, target, f)
      check.near(ctor():forward(input, target), mean, 1e-12, name .. ' averaged')
      check.near(ctor(false):forward(input, target), sum, 1e-12, name .. ' summed')
      checkGrad(ctor(), input, target, name)
      checkGrad(ctor(false), input, target, name .. ' summed')
   end
end

function tests.soft_margin_and_margin()
   local input = torch.randn(2, 5)
   local target = torch.Tensor(2, 5):bernoulli(0.5):mul(2):add(-1)
   local _, mean = elementSum(input, target, function(x, y) return math.log(1 + math.exp(-x * y)) end)
   check.near(nn.SoftMarginCriterion():forward(input, target), mean, 1e-12, 'SoftMarginCriterion')
   checkGrad(nn.SoftMarginCriterion(), input, target, 'SoftMarginCriterion')
   _, mean = elementSum(input, target, function(x, y) return math.max(0, 0.5 - x * y) end)
   check.near(nn.MarginCriterion(0.5):forward(input, target), mean, 1e-12, 'MarginCriterion')
end

function tests.dist_kl_div()
   local input = torch.randn(3, 4)
   local target = torch.rand(3, 4)
   target[1][2] = 0
   local _, mean = elementSum(input, target, function(x, y) return y > 0 and y * (math.log(y) - x) or 0 end)
   check.near(nn.DistKLDivCriterion():forward(input, target), mean, 1e-12)
   checkGrad(nn.DistKLDivCriterion(), input, target, 'DistKLDivCriterion')
end

function tests.bce()
   local input = torch.rand(3, 4):mul(0.8):add(0.1)
   local target = torch.Tensor(3, 4):bernoulli(0.5)
   local _, mean = elementSum(input, target, function(x, y) return -(y * math.log(x) + (1 - y) * math.log(1 - x)) end)
   check.near(nn.BCECriterion():forward(input, target), mean, 1e-9)
   checkGrad(nn.BCECriterion(), input, target, 'BCECriterion')
   -- class weights repeat for every sample of the batch
   local w = torch.Tensor({ 1, 2, 0.5, 3 })
   local sum = 0
   for b = 1, 3 do
      for j = 1, 4 do
         local x, y = input[b][j], target[b][j]
         sum = sum - w[j] * (y * math.log(x) + (1 - y) * math.log(1 - x))
      end
   end
   check.near(nn.BCECriterion(w):forward(input, target), sum / 12, 1e-9, 'weighted')
   checkGrad(nn.BCECriterion(w), input, target, 'BCECriterion weighted')
   check.raises(function() nn.BCECriterion():forward(input, torch.rand(5)) end, 'size mismatch')
end

function tests.class_nll()
   local input = nn.LogSoftMax():forward(torch.randn(4, 3))
   local target = torch.LongTensor({ 3, 1, 2, 3 })
   local sum = 0
   for b = 1, 4 do sum = sum - input[b][target[b]] end
   check.near(nn.ClassNLLCriterion():forward(input, target), sum / 4, 1e-12, 'averaged')
   check.near(nn.ClassNLLCriterion(nil, false):forward(input, target), sum, 1e-12, 'summed')
   -- targets as a DoubleTensor or a number (one sample)
   check.near(nn.ClassNLLCriterion():forward(input, torch.Tensor({ 3, 1, 2, 3 })), sum / 4, 1e-12)
   check.near(nn.ClassNLLCriterion():forward(input[2], 1), -input[2][1], 1e-12, 'one sample')
   -- weights: each term scaled by its class's weight, the mean by the weights' sum
   local w = torch.Tensor({ 0.5, 2, 1 })
   local wsum, total = 0, 0
   for b = 1, 4 do
      wsum = wsum - w[target[b]] * input[b][target[b]]
      total = total + w[target[b]]
   end
   local crit = nn.ClassNLLCriterion(w)
   local loss, totalWeight = crit:forward(input, target)
   check.near(loss, wsum / total, 1e-12, 'weighted')
   check.near(totalWeight, total, 1e-12, 'total weight')
   checkGrad(nn.ClassNLLCriterion(w), input, target, 'ClassNLLCriterion')
   -- ignoreIndex counts nothing
   check.near(nn.ClassNLLCriterion(nil, false, 2):forward(input, target), sum + input[3][2], 1e-12, 'ignored')
   check.raises(function() nn.ClassNLLCriterion():forward(input, torch.LongTensor({ 1, 2, 4, 1 })) end)
   check.raises(function() nn.ClassNLLCriterion():forward(input, torch.LongTensor({ 0, 2, 1, 1 })) end)
end

function tests.cross_entropy()
   local x = torch.randn(3, 4)
   local target = torch.LongTensor({ 2, 4, 1 })
   local sum = 0
   for b = 1, 3 do
      local z = 0
      for j = 1, 4 do z = z + math.exp(x[b][j]) end
      sum = sum + math.log(z) - x[b][target[b]]
   end
   check.near(nn.CrossEntropyCriterion():forward(x, target), sum / 3, 1e-12)
   checkGrad(nn.CrossEntropyCriterion(), x, target, 'CrossEntropyCriterion')
   checkGrad(nn.CrossEntropyCriterion(), torch.randn(1, 4), 3, 'CrossEntropyCriterion one sample')
end

function tests.multi_margin()
   local x = torch.randn(3, 4)
   local target = torch.LongTensor({ 2, 4, 1 })
   for _, p in ipairs({ 1, 2 }) do
      local sum = 0
      for b = 1, 3 do
         local t = target[b]
         for i = 1, 4 do
            if i ~= t then sum = sum + math.max(0, 0.7 - x[b][t] + x[b][i]) ^ p / 4 end
         end
      end
      check.near(nn.MultiMarginCriterion(p, nil, 0.7):forward(x, target), sum / 3, 1e-12, 'p = ' .. p)
      checkGrad(nn.MultiMarginCriterion(p, nil, 0.7), x, target, 'MultiMarginCriterion p = ' .. p)
   end
end

function tests.multi_label_margin()
   local x = torch.randn(2, 4)
   local target = torch.LongTensor({ { 3, 1, 0, 0 }, { 2, 0, 4, 1 } })
   local sum = 0
   for b = 1, 2 do
      local listed = {}
      for k = 1, 4 do
         if target[b][k] == 0 then break end
         listed[target[b][k]] = true
      end
      for j in pairs(listed) do
         for i = 1, 4 do
            if not listed[i] then sum = sum + math.max(0, 1 - x[b][j] + x[b][i]) / 4 end
         end
      end
   end
   check.near(nn.MultiLabelMarginCriterion():forward(x, target), sum / 2, 1e-12)
   checkGrad(nn.MultiLabelMarginCriterion(), x, target, 'MultiLabelMarginCriterion')
end

function tests.multi_label_soft_margin()
   local x = torch.randn(2, 3)
   local target = torch.Tensor({ { 1, 0, 1 }, { 0, 0, 1 } })
   local _, mean = elementSum(x, target, function(v, y)
      local s = 1 / (1 + math.exp(-v))
      return -(y * math.log(s) + (1 - y) * math.log(1 - s))
   end)
   check.near(nn.MultiLabelSoftMarginCriterion():forward(x, target), mean, 1e-9)
   checkGrad(nn.MultiLabelSoftMarginCriterion(), x, target, 'MultiLabelSoftMarginCriterion')
end

function tests.hinge_embedding()
   local x = torch.randn(6):add(0.5)
   local y = torch.Tensor({ 1, -1, 1, -1, -1, 1 })
   local _, mean = elementSum(x, y, function(v, l) return l == 1 and v or math.max(0, 0.8 - v) end)
   check.near(nn.HingeEmbeddingCriterion(0.8):forward(x, y), mean, 1e-12)
   checkGrad(nn.HingeEmbeddingCriterion(0.8), x, y, 'HingeEmbeddingCriterion')
end

function tests.l1_hinge_embedding()
   local a, b = torch.randn(5), torch.randn(5)
   local d = (a - b):abs():sum()
   check.near(nn.L1HingeEmbeddingCriterion(2):forward({ a, b }, 1), d, 1e-12)
   check.near(nn.L1HingeEmbeddingCriterion(d + 1):forward({ a, b }, -1), 1, 1e-12)
   checkGrad(nn.L1HingeEmbeddingCriterion(2), { a, b }, 1, 'L1HingeEmbeddingCriterion y = 1')
   checkGrad(nn.L1HingeEmbeddingCriterion(d + 1), { a, b }, -1, 'L1HingeEmbeddingCriterion y = -1')
end

function tests.cosine_embedding()
   local a, b = torch.randn(3, 4), torch.randn(3, 4)
   local y = torch.Tensor({ 1, -1, -1 })
   local sum = 0
   for i = 1, 3 do
      local cos = a[i]:dot(b[i]) / math.sqrt(a[i]:dot(a[i]) * b[i]:dot(b[i]))
      sum = sum + (y[i] == 1 and 1 - cos or math.max(0, cos + 0.5))
   end
   check.near(nn.CosineEmbeddingCriterion(-0.5):forward({ a, b }, y), sum / 3, 1e-9)
   checkGrad(nn.CosineEmbeddingCriterion(-0.5), { a, b }, y, 'CosineEmbeddingCriterion')
   checkGrad(nn.CosineEmbeddingCriterion(), { torch.randn(4), torch.randn(4) }, 1, 'one pair')
end

function tests.margin_ranking()
   local a, b = torch.randn(5), torch.randn(5)
   local y = torch.Tensor({ 1, -1, 1, 1, -1 })
   local sum = 0
   for i = 1, 5 do sum = sum + math.max(0, -y[i] * (a[i] - b[i]) + 0.3) end
   check.near(nn.MarginRankingCriterion(0.3):forward({ a, b }, y), sum / 5, 1e-12)
   checkGrad(nn.MarginRankingCriterion(0.3), { a, b }, y, 'MarginRankingCriterion')
   local one, two = torch.Tensor({ 0.2 }), torch.Tensor({ 0.9 })
   check.near(nn.MarginRankingCriterion():forward({ one, two }, 1), 1.7, 1e-12, 'default margin 1')
   checkGrad(nn.MarginRankingCriterion(), { one, two }, -1, 'MarginRankingCriterion one pair')
end

function tests.multi_and_parallel_criterion()
   local x, t = torch.randn(3), torch.randn(3)
   local multi = nn.MultiCriterion():add(nn.MSECriterion(), 0.5):add(nn.AbsCriterion())
   local expected = 0.5 * nn.MSECriterion():forward(x, t) + nn.AbsCriterion():forward(x, t)
   check.near(multi:forward(x, t), expected, 1e-12)
   checkGrad(multi, x, t, 'MultiCriterion')
   local par = nn.ParallelCriterion():add(nn.MSECriterion(), 2):add(nn.ClassNLLCriterion())
   local logp = nn.LogSoftMax():forward(torch.randn(4))
   local input, target = { x, logp }, { t, 3 }
   check.near(par:forward(input, target), 2 * nn.MSECriterion():forward(x, t) - logp[3], 1e-12)
   checkGrad(par, input, target, 'ParallelCriterion')
   local rep = nn.ParallelCriterion(true):add(nn.MSECriterion()):add(nn.AbsCriterion())
   check.near(rep:forward({ x, x }, t), nn.MSECriterion():forward(x, t) + nn.AbsCriterion():forward(x, t), 1e-12)
end

function tests.class_simplex()
   local crit = nn.ClassSimplexCriterion(4)
   local s = crit.simplex
   check.eq(s:size(1), 4); check.eq(s:size(2), 4)
   -- unit vertices with pairwise dot products -1/3, in the first 3 dimensions
   for i = 1, 4 do
      check.near(s[i]:dot(s[i]), 1, 1e-12, 'unit vertex')
      check.eq(s[i][4], 0)
      for j = i + 1, 4 do check.near(s[i]:dot(s[j]), -1 / 3, 1e-12, 'regular') end
   end
   local x = torch.randn(2, 4)
   local target = torch.Tensor({ 3, 1 })
   local sum = 0
   for b = 1, 2 do
      for j = 1, 4 do sum = sum + (x[b][j] - s[target[b]][j]) ^ 2 end
   end
   check.near(crit:forward(x, target), sum / 8, 1e-12)
   checkGrad(nn.ClassSimplexCriterion(4), x, target, 'ClassSimplexCriterion')
   check.eq(crit:getTopPrediction(s:narrow(1, 2, 2))[2], 3)
end

function tests.criterion_type_and_clone()
   local crit = nn.ClassNLLCriterion(torch.Tensor({ 1, 2 })):float()
   check.eq(torch.type(crit.weights), 'torch.FloatTensor')
   local input = torch.FloatTensor({ { -0.5, -1 } })
   check.near(crit:forward(input, torch.LongTensor({ 2 })), -2 * -1 / 2, 1e-6)
   local copy = crit:clone()
   copy.weights[1] = 5
   check.eq(crit.weights[1], 1, 'a deep copy')
end

return tests
