-- nn.SparseJacobian: nn.Jacobian for modules whose input is sparse, nnz x 2 rows {feature
-- index, value} (nn.SparseLinear): the Jacobian with respect to the input runs over the
-- values (column 2) only. The functions with respect to parameters are nn.Jacobian's.
local Jacobian = nn.Jacobian
local SparseJacobian = {}
nn.SparseJacobian = SparseJacobian

local function fillUniform(t, minval, maxval)
   t:copy(torch.rand(t:nElement()):mul(maxval - minval):add(minval))
end

local function maxAbs(t)
   if t:nElement() == 0 then return 0 end
   return t:clone():abs():max()
end

-- The gradient of each input row's value, from a gradInput of {index, gradient} rows
-- (one per input row, or one per feature).
local function valueGradients(input, gradInput)
   local byIndex = {}
   for r = 1, gradInput:size(1) do byIndex[gradInput[r][1]] = gradInput[r][2] end
   local grads = torch.Tensor(input:size(1))
   for r = 1, input:size(1) do
      local g = byIndex[input[r][1]]
      if g == nil then error('nn.SparseJacobian: gradInput has no row for feature ' .. input[r][1], 3) end
      grads[r] = g
   end
   return grads
end

-- d output / d param by backpropagation; without param, d output / d (input values).
function SparseJacobian.backward(module, input, param, dparam)
   if param then return Jacobian.backward(module, input, param, dparam) end
   module:forward(input)
   local dout = module.output.new():resizeAs(module.output)
   local flatDout = dout:view(dout:nElement())
   local jacobian = torch.Tensor(input:size(1), dout:nElement()):zero()
   for i = 1, flatDout:nElement() do
      dout:zero()
      flatDout[i] = 1
      module:zeroGradParameters()
      local din = module:updateGradInput(input, dout)
      jacobian:select(2, i):copy(valueGradients(input, din))
   end
   return jacobian
end

-- The same by central differences.
function SparseJacobian.forward(module, input, param, perturbation)
   if param then return Jacobian.forward(module, input, param, perturbation) end
   perturbation = perturbation or 1e-6
   local values = input:select(2, 2)
   local nOut = module:forward(input):nElement()
   local jacobian = torch.Tensor(input:size(1), nOut)
   local outa, outb = torch.Tensor(nOut), torch.Tensor(nOut)
   for r = 1, values:nElement() do
      local orig = values[r]
      values[r] = orig - perturbation
      outa:copy(module:forward(input))
      values[r] = orig + perturbation
      outb:copy(module:forward(input))
      values[r] = orig
      jacobian:select(1, r):copy(outb:add(-1, outa):div(2 * perturbation))
   end
   return jacobian
end

SparseJacobian.backwardUpdate = Jacobian.backwardUpdate
SparseJacobian.forwardUpdate = Jacobian.forwardUpdate
SparseJacobian.testIO = Jacobian.testIO
SparseJacobian.testAllUpdate = Jacobian.testAllUpdate

-- Largest difference of the two Jacobians for input values drawn from [minval, maxval].
function SparseJacobian.testJacobian(module, input, minval, maxval, perturbation)
   minval, maxval = minval or -2, maxval or 2
   fillUniform(input:select(2, 2), minval, maxval)
   local fprop = SparseJacobian.forward(module, input, nil, perturbation)
   local bprop = SparseJacobian.backward(module, input)
   return maxAbs(fprop - bprop)
end

function SparseJacobian.testJacobianParameters(module, input, param, dparam, minval, maxval, perturbation)
   minval, maxval = minval or -2, maxval or 2
   fillUniform(input:select(2, 2), minval, maxval)
   fillUniform(param, minval, maxval)
   local bprop = Jacobian.backward(module, input, param, dparam)
   local fprop = Jacobian.forward(module, input, param, perturbation)
   return maxAbs(fprop - bprop)
end

function SparseJacobian.testJacobianUpdateParameters(module, input, param, minval, maxval, perturbation)
   minval, maxval = minval or -2, maxval or 2
   fillUniform(input:select(2, 2), minval, maxval)
   fillUniform(param, minval, maxval)
   local bprop = Jacobian.backwardUpdate(module, input, param)
   local fprop = Jacobian.forwardUpdate(module, input, param, perturbation)
   return maxAbs(fprop - bprop)
end
