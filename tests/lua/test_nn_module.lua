-- nn.Module and the containers: wiring, parameters and their flattening, clone/share,
-- type conversion, clearState, module traversal, printing, and users' own subclasses.
require 'nn'
local tests = {}

local function mlp()
   return nn.Sequential():add(nn.Linear(4, 3)):add(nn.Tanh()):add(nn.Linear(3, 2)):add(nn.LogSoftMax())
end

local function maxDiff(a, b) return (a - b):abs():max() end

function tests.sequential_chains_modules()
   local m = mlp()
   local x = torch.randn(5, 4)
   local out = m:forward(x)
   -- the same chain, module by module
   local h = m.modules[2]:forward(m.modules[1]:forward(x)):clone()
   local expected = m.modules[4]:forward(m.modules[3]:forward(h)):clone()
   check.eq(maxDiff(out, expected), 0, 'output')
   check.ok(m.output == m.modules[4].output, 'output is the last module\'s')
   local gradOutput = torch.randn(5, 2)
   local gradInput = m:backward(x, gradOutput)
   local g = gradOutput
   for i = 4, 1, -1 do
      g = m.modules[i]:updateGradInput(i == 1 and x or m.modules[i - 1].output, g):clone()
   end
   check.eq(maxDiff(gradInput, g), 0, 'gradInput')
   check.eq(m:size(), 4)
   check.ok(m:get(3) == m.modules[3])
end

function tests.sequential_insert_remove()
   local m = nn.Sequential():add(nn.Tanh()):add(nn.ReLU())
   m:insert(nn.Linear(2, 2), 1)
   check.eq(torch.type(m:get(1)), 'nn.Linear')
   check.ok(m.gradInput == m:get(1).gradInput)
   m:remove()
   check.eq(m:size(), 2)
   check.ok(m.output == m:get(2).output)
   check.raises(function() m:insert(nn.Tanh(), 5) end, 'contiguous')
   check.raises(function() m:remove(7) end, 'out of range')
end

function tests.backward_accumulates_with_scale()
   local l = nn.Linear(3, 2)
   local x, go = torch.randn(4, 3), torch.randn(4, 2)
   l:zeroGradParameters()
   l:forward(x)
   l:backward(x, go)
   local once = l.gradWeight:clone()
   l:backward(x, go, 0.5)
   check.ok(maxDiff(l.gradWeight, once * 1.5) < 1e-12, 'gradWeight accumulates scale * gradient')
   -- gradWeight = gradOutput^T x, gradBias = column sums of gradOutput
   check.ok(maxDiff(once, go:t() * x) < 1e-12, 'gradWeight formula')
   check.ok(maxDiff(l.gradBias, go:sum(1):view(2) * 1.5) < 1e-12, 'gradBias formula')
end

function tests.update_parameters()
   local l = nn.Linear(3, 2)
   local w = l.weight:clone()
   l.gradWeight:fill(2)
   l.gradBias:fill(1)
   l:updateParameters(0.1)
   check.ok(maxDiff(l.weight, w - 0.2) < 1e-12)
   -- accUpdateGradParameters moves the weights by -lr * gradient and keeps gradWeight
   local x, go = torch.randn(2, 3), torch.randn(2, 2)
   local a = nn.Linear(3, 2)
   local b = a:clone()
   a:forward(x); a:zeroGradParameters(); a:backward(x, go); a:updateParameters(0.3)
   b:forward(x); b:updateGradInput(x, go); b:accUpdateGradParameters(x, go, 0.3)
   check.ok(maxDiff(a.weight, b.weight) < 1e-12 and maxDiff(a.bias, b.bias) < 1e-12)
end

function tests.parameters_of_a_container()
   local m = mlp()
   local params, grads = m:parameters()
   check.eq(#params, 4)
   check.ok(params[1] == m.modules[1].weight and params[4] == m.modules[3].bias)
   check.ok(grads[3] == m.modules[3].gradWeight)
   local nb = nn.Linear(3, 2, false)
   check.eq(nb.bias, nil)
   check.eq(#nb:parameters(), 1)
   check.eq(tostring(nb), 'nn.Linear(3 -> 2) without bias')
   check.eq(#nn.Linear(3, 2):noBias():parameters(), 1)
end

function tests.get_parameters_flattens_into_views()
   local m = mlp()
   local before = {}
   for i, p in ipairs(m:parameters()) do before[i] = p:clone() end
   local flat, gradFlat = m:getParameters()
   check.eq(flat:nElement(), 4 * 3 + 3 + 3 * 2 + 2)
   check.eq(gradFlat:nElement(), flat:nElement())
   local at = 1
   for i, p in ipairs(m:parameters()) do
      check.ok(p:equal(before[i]), 'values kept')
      check.eq(torch.pointer(p:storage()), torch.pointer(flat:storage()), 'a view of the flat vector')
      check.eq(p:storageOffset(), at)
      at = at + p:nElement()
   end
   -- writes through the flat vector are seen by the modules, and the other way round
   flat:fill(0.25)
   check.eq(m.modules[3].weight[2][3], 0.25)
   m.modules[1].gradBias[2] = 7
   check.eq(gradFlat[4 * 3 + 2], 7)
   -- the gradients keep being written where the flat gradient sees them
   local x = torch.randn(2, 4)
   m:zeroGradParameters()
   m:forward(x)
   m:backward(x, torch.randn(2, 2))
   check.ok(gradFlat:narrow(1, 1, 12):equal(m.modules[1].gradWeight:view(12)))
end

function tests.get_parameters_keeps_shared_parameters_shared()
   local a, b = nn.Linear(3, 3), nn.Linear(3, 3)
   b:share(a, 'weight', 'gradWeight')
   local m = nn.Sequential():add(a):add(b)
   local flat, gradFlat = m:getParameters()
   -- the shared weight is stored once
   check.eq(flat:nElement(), 9 + 3 + 3)
   check.eq(gradFlat:nElement(), 15)
   a.weight[1][1] = 42
   check.eq(b.weight[1][1], 42, 'still shared')
   check.eq(flat[1], 42)
end

function tests.get_parameters_drops_unused_elements()
   -- a parameter that views part of a larger storage
   local l = nn.Linear(2, 2)
   local big = torch.Tensor(10):fill(5)
   l.weight = torch.Tensor():set(big:storage(), 3, torch.LongStorage({ 2, 2 }))
   local flat = l:getParameters()
   check.eq(flat:nElement(), 4 + 2)
   check.eq(l.weight[2][2], 5)
   flat[1] = -1
   check.eq(l.weight[1][1], -1)
end

function tests.clone_is_deep_unless_shared()
   local m = mlp()
   local c = m:clone()
   check.eq(torch.type(c), 'nn.Sequential')
   check.ok(c.modules[1].weight:equal(m.modules[1].weight))
   c.modules[1].weight:fill(3)
   check.ok(m.modules[1].weight[1][1] ~= 3, 'a clone has its own weights')
   local x = torch.randn(2, 4)
   check.eq(maxDiff(c:clone():forward(x), c:forward(x)), 0)
   local s = m:clone('weight', 'bias')
   s.modules[3].bias:fill(9)
   check.eq(m.modules[3].bias[1], 9, 'clone(\'weight\', \'bias\') shares them')
   check.ok(s.modules[3].gradBias ~= m.modules[3].gradBias)
end

function tests.type_conversion_keeps_sharing()
   local a, b = nn.Linear(3, 3), nn.Linear(3, 3)
   b:share(a, 'weight')
   local m = nn.Sequential():add(a):add(nn.Tanh()):add(b)
   local x = torch.randn(2, 3)
   m:float()
   check.eq(m:type(), 'torch.FloatTensor')
   for _, module in ipairs(m:listModules()) do
      check.eq(module._type, 'torch.FloatTensor')
      check.eq(torch.type(module.output), 'torch.FloatTensor')
   end
   check.eq(torch.type(a.weight), 'torch.FloatTensor')
   check.eq(torch.type(b.gradBias), 'torch.FloatTensor')
   check.eq(torch.pointer(a.weight:storage()), torch.pointer(b.weight:storage()), 'shared after :float()')
   local y = m:forward(x:float())
   check.eq(torch.type(y), 'torch.FloatTensor')
   m:double()
   check.eq(torch.pointer(a.weight:storage()), torch.pointer(b.weight:storage()), 'shared after :double()')
   check.ok(maxDiff(m:forward(x), y:double()) < 1e-6)
   check.raises(function() m:forward(x:float()) end, 'torch.FloatTensor expected, got torch.DoubleTensor')
end

function tests.clear_state()
   local m = mlp()
   local x = torch.randn(2, 4)
   m:forward(x)
   m:backward(x, torch.randn(2, 2))
   check.ok(m:clearState() == m, 'returns self')
   for _, module in ipairs(m:listModules()) do
      check.eq(module.output:nElement(), 0)
      check.eq(module.gradInput:nElement(), 0)
   end
   check.eq(m.modules[1].addBuffer:nElement(), 0)
   check.eq(m.modules[1].weight:nElement(), 12, 'parameters kept')
   check.eq(m:forward(x):size(2), 2, 'works again')
end

function tests.traversal()
   local inner = nn.Sequential():add(nn.Linear(2, 2)):add(nn.Tanh())
   local m = nn.Sequential():add(inner):add(nn.Linear(2, 2)):add(nn.ReLU())
   local names = {}
   for _, module in ipairs(m:listModules()) do names[#names + 1] = torch.type(module) end
   check.eq(table.concat(names, ' '), 'nn.Sequential nn.Sequential nn.Linear nn.Tanh nn.Linear nn.ReLU')
   local linears, containers = m:findModules('nn.Linear')
   check.eq(#linears, 2)
   check.ok(containers[1] == inner and containers[2] == m)
   local count = 0
   m:apply(function() count = count + 1 end)
   check.eq(count, 6)
   m:evaluate()
   check.eq(inner.modules[2].train, false)
   m:training()
   check.eq(m.modules[3].train, true)
   m:replace(function(module)
      if torch.type(module) == 'nn.Tanh' then return nn.ReLU() end
      return module
   end)
   check.eq(torch.type(inner.modules[2]), 'nn.ReLU')
end

function tests.tostring_like_torch7()
   local m = nn.Sequential():add(nn.Linear(10, 20)):add(nn.Sequential():add(nn.Tanh()))
   check.eq(tostring(m), 'nn.Sequential {\n' ..
                         '  [input -> (1) -> (2) -> output]\n' ..
                         '  (1): nn.Linear(10 -> 20)\n' ..
                         '  (2): nn.Sequential {\n' ..
                         '    [input -> (1) -> output]\n' ..
                         '    (1): nn.Tanh\n' ..
                         '  }\n' ..
                         '}')
end

function tests.user_subclass()
   if not torch.getmetatable('nn.TestTimesTwo') then
      local TimesTwo, parent = torch.class('nn.TestTimesTwo', 'nn.Module')
      function TimesTwo:__init(factor)
         parent.__init(self)
         self.factor = factor
      end
      function TimesTwo:updateOutput(input)
         self.output:resizeAs(input):copy(input):mul(self.factor)
         return self.output
      end
      function TimesTwo:updateGradInput(input, gradOutput)
         self.gradInput:resizeAs(gradOutput):copy(gradOutput):mul(self.factor)
         return self.gradInput
      end
   end
   local m = nn.Sequential():add(nn.Linear(3, 2)):add(nn.TestTimesTwo(2))
   check.ok(torch.isTypeOf(m.modules[2], 'nn.Module'))
   local x = torch.randn(4, 3)
   check.ok(maxDiff(m:forward(x), m.modules[1].output * 2) < 1e-12)
   check.ok(nn.Jacobian.testJacobian(m, x) < 1e-6, 'Jacobian through the user module')
   check.eq(m:clone().modules[2].factor, 2)
   local bytes = torch.serialize(m)
   check.eq(torch.type(torch.deserialize(bytes).modules[2]), 'nn.TestTimesTwo')
end

function tests.errors_name_the_module_and_leave_state()
   local m = nn.Sequential():add(nn.Linear(4, 3)):add(nn.Tanh())
   local x = torch.randn(2, 4)
   m:forward(x)
   local out = m.modules[1].output:clone()
   local w = m.modules[1].weight:clone()
   check.raises(function() m:forward(torch.randn(2, 5)) end, 'Linear')
   local ok, err = pcall(function() m:forward(torch.randn(2, 5)) end)
   check.ok(not ok and err:find('[2, 5]', 1, true) and err:find('In 1 module of nn.Sequential', 1, true), err)
   check.ok(m.modules[1].output:equal(out), 'output unchanged')
   check.ok(m.modules[1].weight:equal(w), 'weight unchanged')
   check.raises(function() m:backward(x, torch.randn(2, 4)) end, 'gradOutput')
end

return tests
