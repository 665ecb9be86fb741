-- nn.hessian (torch7's diagonal Hessian, after nn.hessian.enable()): for layers linear in
-- their input and weights, against sum_k (dy_k/dx_i)^2 from first derivatives
-- (nn.Jacobian.testDiagHessian*); pointwise modules, Reshape, MSECriterion and a Sequential
-- against the Gauss-Newton formulas written out with plain loops.
require 'nn'
nn.hessian.enable()
local tests = {}

local function maxDiff(a, b)
   check.ok(a:isSameSizeAs(b), 'sizes differ: ' .. nn.utils.sizeString(a) .. ' vs ' .. nn.utils.sizeString(b))
   return (a - b):abs():max()
end

function tests.linear_against_first_derivatives()
   torch.manualSeed(1)
   for _, shape in ipairs({ { 5 }, { 3, 5 } }) do
      local m = nn.Linear(5, 4)
      local input = torch.Tensor(unpack(shape))
      check.ok(nn.Jacobian.testDiagHessianInput(m, input) < 1e-10, 'input')
      check.ok(nn.Jacobian.testDiagHessianWeight(m, input) < 1e-10, 'weight')
      check.ok(nn.Jacobian.testDiagHessianBias(m, input) < 1e-10, 'bias')
   end
end

-- the convolutions torch7's hessian.lua covers besides SpatialConvolution: against
-- sum_k (dy_k/dx_i)^2, exact for layers linear in x and w (nn's test.lua checks these)
function tests.convolutions_against_first_derivatives()
   torch.manualSeed(2)
   local cases = {
      { nn.SpatialConvolutionLocal(2, 3, 5, 4, 2, 2), torch.Tensor(2, 4, 5) },
      { nn.SpatialFullConvolution(2, 3, 3, 2, 2, 1), torch.Tensor(2, 3, 3) },
      { nn.SpatialConvolutionMap(nn.tables.random(3, 2, 2), 2, 2), torch.Tensor(3, 4, 4) },
      { nn.SpatialFullConvolutionMap(nn.tables.random(2, 3, 1), 2, 2, 2, 2), torch.Tensor(2, 3, 3) },
   }
   for _, case in ipairs(cases) do
      local m, input = case[1], case[2]
      local name = torch.type(m)
      check.ok(nn.Jacobian.testDiagHessianInput(m, input) < 1e-10, name .. ' input')
      check.ok(nn.Jacobian.testDiagHessianWeight(m, input) < 1e-10, name .. ' weight')
      check.ok(nn.Jacobian.testDiagHessianBias(m, input) < 1e-10, name .. ' bias')
      -- the Hessian pass leaves the module's forward and backward as they were
      local x, g = torch.randn(input:size()), nil
      local out = m:forward(x):clone()
      g = torch.randn(out:size())
      local gi = m:backward(x, g):clone()
      m:updateDiagHessianInput(x, g:clone():abs())
      m:accDiagHessianParameters(x, g:clone():abs())
      check.ok(maxDiff(m:forward(x), out) == 0 and maxDiff(m:updateGradInput(x, g), gi) == 0, name .. ' untouched')
   end
end

function tests.linear_formulas()
   torch.manualSeed(2)
   local m = nn.Linear(3, 2)
   m:initDiagHessianParameters()
   local x, d = torch.randn(3), torch.rand(2)
   m:forward(x)
   local h = m:updateDiagHessianInput(x, d)
   m:accDiagHessianParameters(x, d)
   for j = 1, 3 do
      local s = 0
      for i = 1, 2 do s = s + m.weight[i][j] ^ 2 * d[i] end
      check.near(h[j], s, 1e-12, 'diagHessianInput')
   end
   for i = 1, 2 do
      check.near(m.diagHessianBias[i], d[i], 1e-12, 'diagHessianBias')
      for j = 1, 3 do check.near(m.diagHessianWeight[i][j], x[j] ^ 2 * d[i], 1e-12, 'diagHessianWeight') end
   end
   -- the gradients themselves are untouched, and the weights are back
   local w = m.weight:clone()
   m:zeroGradParameters()
   m:updateDiagHessianInput(x, d)
   m:accDiagHessianParameters(x, d)
   check.eq(m.gradWeight:abs():sum() + m.gradBias:abs():sum(), 0, 'gradients untouched')
   check.ok(maxDiff(m.weight, w) == 0, 'weights restored')
end

function tests.spatial_convolution()
   torch.manualSeed(3)
   local m = nn.SpatialConvolution(2, 3, 3, 2, 1, 1, 1, 0)
   local input = torch.Tensor(2, 4, 5)
   check.ok(nn.Jacobian.testDiagHessianInput(m, input) < 1e-10, 'input')
   check.ok(nn.Jacobian.testDiagHessianWeight(m, input) < 1e-10, 'weight')
   check.ok(nn.Jacobian.testDiagHessianBias(m, input) < 1e-10, 'bias')
   -- the unfolded input of the last forward still serves the ordinary backward
   local x, g = torch.randn(2, 4, 5), torch.randn(3, 3, 5)
   local fresh = m:clone()
   m:forward(x)
   m:updateDiagHessianInput(x, g:clone():abs())
   m:accDiagHessianParameters(x, g:clone():abs())
   m:zeroGradParameters(); fresh:zeroGradParameters()
   fresh:forward(x)
   m:accGradParameters(x, g); fresh:accGradParameters(x, g)
   check.ok(maxDiff(m.gradWeight, fresh.gradWeight) < 1e-12, 'gradWeight after the Hessian')
end

function tests.pointwise_reshape_and_mse()
   torch.manualSeed(4)
   local x, d = torch.rand(6):add(0.5), torch.rand(6)
   local derivatives = {
      Tanh = function(v) return 1 - math.tanh(v) ^ 2 end,
      Square = function(v) return 2 * v end,
      Sqrt = function(v) return 0.5 / math.sqrt(v) end,
   }
   for name, derivative in pairs(derivatives) do
      local m = nn[name]()
      m:forward(x)
      local h = m:updateDiagHessianInput(x, d)
      for i = 1, 6 do check.near(h[i], derivative(x[i]) ^ 2 * d[i], 1e-12, name) end
   end
   local r = nn.Reshape(2, 3)
   r:forward(x)
   local h = r:updateDiagHessianInput(x, d:view(2, 3))
   check.ok(h:dim() == 1 and maxDiff(h, d) == 0, 'Reshape carries the diagonal over')
   local mse = nn.MSECriterion()
   check.ok(maxDiff(mse:updateDiagHessianInput(x, d), torch.Tensor(6):fill(2 / 6)) == 0, 'MSE, averaged')
   mse.sizeAverage = false
   check.ok(maxDiff(mse:updateDiagHessianInput(x, d), torch.Tensor(6):fill(2)) == 0, 'MSE, summed')
   check.raises(function() nn.ReLU():updateDiagHessianInput(x, d) end, 'nn.ReLU:updateDiagHessianInput() is undefined')
   check.raises(function() nn.AbsCriterion():updateDiagHessianInput(x, d) end, 'is undefined')
end

function tests.sequential_chain()
   torch.manualSeed(5)
   local l1, l2 = nn.Linear(3, 4), nn.Linear(4, 2)
   local net = nn.Sequential():add(l1):add(nn.Tanh()):add(l2)
   net:initDiagHessianParameters()
   local x, d = torch.randn(3), torch.rand(2)
   net:forward(x)
   local h = net:updateDiagHessianInput(x, d)
   net:accDiagHessianParameters(x, d)
   -- by hand: through l2, then tanh' squared, then l1
   local z = l1.output
   local a = torch.tanh(z)
   local h2, h1 = torch.zeros(4), torch.zeros(3)
   for j = 1, 4 do
      for i = 1, 2 do h2[j] = h2[j] + l2.weight[i][j] ^ 2 * d[i] end
      h2[j] = h2[j] * (1 - a[j] ^ 2) ^ 2
   end
   for k = 1, 3 do
      for j = 1, 4 do h1[k] = h1[k] + l1.weight[j][k] ^ 2 * h2[j] end
   end
   check.ok(maxDiff(h, h1) < 1e-12, 'diagHessianInput')
   for i = 1, 2 do
      for j = 1, 4 do check.near(l2.diagHessianWeight[i][j], a[j] ^ 2 * d[i], 1e-12, 'l2 weight') end
   end
   for j = 1, 4 do
      check.near(l1.diagHessianBias[j], h2[j], 1e-12, 'l1 bias')
      for k = 1, 3 do check.near(l1.diagHessianWeight[j][k], x[k] ^ 2 * h2[j], 1e-12, 'l1 weight') end
   end
   -- parameters() and getParameters() give the Hessian tensors third
   local w, gw, hw = net:parameters()
   check.eq(#hw, 4)
   check.ok(hw[1] == l1.diagHessianWeight and hw[4] == l2.diagHessianBias, 'parameters order')
   local expected = torch.cat({ l1.diagHessianWeight:view(12), l1.diagHessianBias, l2.diagHessianWeight:view(8), l2.diagHessianBias })
   local flat, flatGrad, flatHessian = net:getParameters()
   check.eq(flat:nElement(), 26); check.eq(flatGrad:nElement(), 26)
   check.ok(maxDiff(flatHessian, expected) == 0, 'flat Hessian')
end

return tests
