-- Gradient checks shared by the nn suites (loaded with dofile from the same folder):
--   gradcheck.jacobian(module, input, paramNames, msg): a tensor input; gradInput and each
--     named parameter's gradient against nn.Jacobian's central differences, the
--     accUpdateGradParameters step (gradcheck.accUpdate), and the save/load round trip;
--   gradcheck.directional(module, input, msg[, paramNames]): any input (tensors or nested
--     tables); every gradient against central differences of <output, gradOutput> along
--     a random gradOutput;
--   gradcheck.maxDiff(a, b): the largest absolute difference of two tensors of one size;
--   gradcheck.precision: the tolerance of the finite-difference checks.
require 'nn'
local gradcheck = {}

local precision = 1e-5
gradcheck.precision = precision

local function maxDiff(a, b)
   check.ok(a:isSameSizeAs(b), 'sizes differ: ' .. nn.utils.sizeString(a) .. ' vs ' .. nn.utils.sizeString(b))
   return (a - b):abs():max()
end
gradcheck.maxDiff = maxDiff

function gradcheck.jacobian(module, input, paramNames, msg)
   local err = nn.Jacobian.testJacobian(module, input)
   check.ok(err < precision, string.format('%s: gradInput error %g', msg, err))
   for _, name in ipairs(paramNames or {}) do
      local gradName = 'grad' .. name:sub(1, 1):upper() .. name:sub(2)
      err = nn.Jacobian.testJacobianParameters(module, input, module[name], module[gradName])
      check.ok(err < precision, string.format('%s: %s error %g', msg, gradName, err))
   end
   if paramNames then gradcheck.accUpdate(module, input, msg) end
   local errOut, errBack = nn.Jacobian.testIO(module, input)
   check.eq(errOut, 0, msg .. ': output after save/load')
   check.eq(errBack, 0, msg .. ': gradInput after save/load')
end

-- accUpdateGradParameters(lr) moves every parameter as backward then updateParameters(lr)
function gradcheck.accUpdate(module, input, msg)
   local lr = 0.3
   local stepped, updated = module:clone(), module:clone()
   stepped:forward(input)
   local gradOutput = torch.randn(stepped.output:size())
   stepped:zeroGradParameters()
   stepped:backward(input, gradOutput)
   stepped:updateParameters(lr)
   updated:forward(input)
   updated:updateGradInput(input, gradOutput)
   updated:accUpdateGradParameters(input, gradOutput, lr)
   local a, b = stepped:parameters(), updated:parameters()
   for i = 1, #a do
      local err = maxDiff(a[i], b[i])
      check.ok(err < 1e-12, string.format('%s: accUpdateGradParameters moves parameter %d off by %g', msg, i, err))
   end
end

-- the tensors of a nested table, depth first in key order
local function leaves(t, out)
   out = out or {}
   if torch.isTensor(t) then
      out[#out + 1] = t
   else
      local keys = {}
      for k in pairs(t) do keys[#keys + 1] = k end
      table.sort(keys)
      for _, k in ipairs(keys) do leaves(t[k], out) end
   end
   return out
end
gradcheck.leaves = leaves

local function randomLike(t)
   if torch.isTensor(t) then return torch.randn(t:size()) end
   local r = {}
   for k, v in pairs(t) do r[k] = randomLike(v) end
   return r
end

local function inner(a, b)
   local la, lb = leaves(a), leaves(b)
   local s = 0
   for i = 1, #la do s = s + la[i]:dot(lb[i]) end
   return s
end

function gradcheck.directional(module, input, msg, paramNames)
   local gradOutput = randomLike(module:forward(input))
   module:zeroGradParameters()
   local gradInput = nn.utils.recursiveCopy(nil, module:backward(input, gradOutput))
   local function numeric(t)
      local flat = t:view(t:nElement())
      local g = torch.Tensor(t:nElement())
      for i = 1, flat:nElement() do
         local orig = flat[i]
         flat[i] = orig + 1e-6
         local up = inner(module:forward(input), gradOutput)
         flat[i] = orig - 1e-6
         local down = inner(module:forward(input), gradOutput)
         flat[i] = orig
         g[i] = (up - down) / 2e-6
      end
      return g
   end
   local ins, grads = leaves(input), leaves(gradInput)
   check.eq(#grads, #ins, msg .. ': one gradient per input tensor')
   for i, t in ipairs(ins) do
      check.ok(grads[i]:isSameSizeAs(t), msg .. ': gradient ' .. i .. ' has its input\'s size')
      if torch.typename(t) == 'torch.DoubleTensor' then
         local err = maxDiff(numeric(t), grads[i]:contiguous():view(t:nElement()))
         check.ok(err < precision, string.format('%s: gradient of input tensor %d off by %g', msg, i, err))
      end
   end
   for _, name in ipairs(paramNames or {}) do
      local p = module[name]
      local gradName = 'grad' .. name:sub(1, 1):upper() .. name:sub(2)
      local err = maxDiff(numeric(p), module[gradName]:contiguous():view(p:nElement()))
      check.ok(err < precision, string.format('%s: %s off by %g', msg, gradName, err))
   end
end

return gradcheck
