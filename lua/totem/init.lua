-- `require 'totem'`: the test helpers nngraph's tests are written with (DeepMind's totem):
-- totem.Tester (torch.Tester, its eq also comparing storages by value), totem.TestSuite,
-- and totem.nn's module checks:
--   totem.nn.checkGradients(tester, module, input[, precision]): gradInput and every
--     parameter's gradient against central differences of <output, gradOutput> for a
--     random gradOutput (input and output may be nested tables of tensors);
--   totem.nn.checkSerializable(tester, module, input[, precision]): a serialized and read
--     back copy computes the same output and gradInput;
--   totem.nn.checkTypeCastable(tester, module, input[, precision]): as a FloatTensor
--     module on float input it computes what it does in double.
require 'nn'

totem = totem or {}
local totem = totem

local Tester, parent = torch.class('totem.Tester', 'torch.Tester')

function Tester:__init()
   parent.__init(self)
end

-- storages compare by their elements, as tables
local function byValue(x)
   if torch.isStorage(x) then return x:totable() end
   if type(x) == 'table' and not torch.typename(x) then
      local t = {}
      for k, v in pairs(x) do t[k] = byValue(v) end
      return t
   end
   return x
end

function Tester:eq(got, expected, ...)
   return parent.eq(self, byValue(got), byValue(expected), ...)
end

function Tester:ne(got, unexpected, ...)
   return parent.ne(self, byValue(got), byValue(unexpected), ...)
end

totem.TestSuite = torch.TestSuite

totem.nn = {}

-- the tensors of a nested table, in a fixed order
local function leaves(x, out)
   out = out or {}
   if torch.isTensor(x) then
      out[#out + 1] = x
   elseif type(x) == 'table' then
      for i = 1, #x do leaves(x[i], out) end
   end
   return out
end

local function copyNested(x)
   if torch.isTensor(x) then return x:clone() end
   local t = {}
   for i = 1, #x do t[i] = copyNested(x[i]) end
   return t
end

local function randomLike(x)
   if torch.isTensor(x) then return x.new():resizeAs(x):normal() end
   local t = {}
   for i = 1, #x do t[i] = randomLike(x[i]) end
   return t
end

-- <a, b> over the tensors of two nested tables of one structure
local function inner(a, b)
   local la, lb, s = leaves(a), leaves(b), 0
   for i = 1, #la do s = s + la[i]:double():dot(lb[i]:double()) end
   return s
end

function totem.nn.checkGradients(tester, module, input, precision)
   precision = precision or 1e-5
   local eps = 1e-6
   input = copyNested(input)
   local output = module:forward(input)
   local gradOutput = randomLike(output)
   local function loss() return inner(module:forward(input), gradOutput) end

   module:zeroGradParameters()
   module:forward(input)
   local gradInput = copyNested(module:backward(input, gradOutput))
   local params, gradParams = module:parameters()
   params, gradParams = params or {}, gradParams or {}
   local analytic = {}
   for i, g in ipairs(gradParams) do analytic[i] = g:clone() end

   local function check(values, grads, what)
      local flatValues = values:view(values:nElement())
      local flatGrads = grads:contiguous():view(grads:nElement())
      local worst = 0
      for k = 1, flatValues:nElement() do
         local v = flatValues[k]
         flatValues[k] = v + eps
         local up = loss()
         flatValues[k] = v - eps
         local down = loss()
         flatValues[k] = v
         worst = math.max(worst, math.abs((up - down) / (2 * eps) - flatGrads[k]))
      end
      tester:assertlt(worst, precision, what .. ': gradient against finite differences')
   end
   local inputs, gradInputs = leaves(input), leaves(gradInput)
   tester:eq(#gradInputs, #inputs, 'gradInput has a tensor per input tensor')
   for i = 1, math.min(#inputs, #gradInputs) do
      tester:eq(gradInputs[i]:size():totable(), inputs[i]:size():totable(), 'gradInput ' .. i .. ' size')
      if gradInputs[i]:isSameSizeAs(inputs[i]) then check(inputs[i], gradInputs[i], 'input ' .. i) end
   end
   for i, p in ipairs(params) do check(p, analytic[i], 'parameter ' .. i) end
end

-- output and gradInput of module on input, copied
local function run(module, input, gradOutput)
   local output = copyNested(module:forward(input))
   return output, copyNested(module:backward(input, gradOutput))
end

local function converted(x, typename)
   if torch.isTensor(x) then return x:type(typename) end
   local t = {}
   for i = 1, #x do t[i] = converted(x[i], typename) end
   return t
end

function totem.nn.checkSerializable(tester, module, input, precision)
   precision = precision or 1e-6
   local gradOutput = randomLike(module:forward(input))
   local copy = torch.deserialize(torch.serialize(module))
   local output, gradInput = run(module, input, gradOutput)
   local output2, gradInput2 = run(copy, input, gradOutput)
   tester:eq(output2, output, 'the read back module: output', precision)
   tester:eq(gradInput2, gradInput, 'the read back module: gradInput', precision)
end

function totem.nn.checkTypeCastable(tester, module, input, precision)
   precision = precision or 1e-5
   local double = module:clone():double()
   local float = module:clone():float()
   local inputD, inputF = converted(input, 'torch.DoubleTensor'), converted(input, 'torch.FloatTensor')
   local gradOutput = randomLike(double:forward(inputD))
   local outputD, gradInputD = run(double, inputD, gradOutput)
   local outputF, gradInputF = run(float, inputF, converted(gradOutput, 'torch.FloatTensor'))
   tester:eq(converted(outputF, 'torch.DoubleTensor'), outputD, 'float module: output', precision)
   tester:eq(converted(gradInputF, 'torch.DoubleTensor'), gradInputD, 'float module: gradInput', precision)
end

return totem
