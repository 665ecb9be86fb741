-- nn's layers: gradInput and parameter gradients against nn.Jacobian's finite differences
-- (double), outputs against the defining formulas computed element by element, and bad
-- input sizes.
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
end

return tests
