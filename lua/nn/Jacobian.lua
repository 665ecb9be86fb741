-- nn.Jacobian: a module's Jacobian by finite differences (forward) and by its own
-- backward pass (backward), and tests comparing the two. Rows are indexed by the input
-- (or parameter) element, columns by the output element.
local Jacobian = {}
nn.Jacobian = Jacobian

local function fillUniform(t, minval, maxval)
   t:copy(torch.rand(t:nElement()):mul(maxval - minval):add(minval))
end

local function maxAbs(t)
   if t:nElement() == 0 then return 0 end
   return t:clone():abs():max()
end

-- Shared with nn.SparseJacobian: column i of the rows x outputs Jacobian is column(gradInput)
-- after backpropagating output element i's unit gradient (accGradParameters too when
-- accParams is set).
local function byBackprop(module, input, rows, column, accParams)
   module:forward(input)
   local dout = module.output.new():resizeAs(module.output)
   local flatDout = dout:view(dout:nElement())
   local jacobian = torch.Tensor(rows, dout:nElement()):zero()
   for i = 1, flatDout:nElement() do
      dout:zero()
      flatDout[i] = 1
      module:zeroGradParameters()
      local din = module:updateGradInput(input, dout)
      if accParams then module:accGradParameters(input, dout) end
      jacobian:select(2, i):copy(column(din))
   end
   return jacobian
end

-- Row r: the output's central difference when element r of the 1-D tensor flat (a view into
-- the input or a parameter) moves by +-perturbation.
local function byDifferences(module, input, flat, perturbation)
   perturbation = perturbation or 1e-6
   local nOut = module:forward(input):nElement()
   local jacobian = torch.Tensor(flat:nElement(), nOut)
   local outa, outb = torch.Tensor(nOut), torch.Tensor(nOut)
   for i = 1, flat:nElement() do
      local orig = flat[i]
      flat[i] = orig - perturbation
      outa:copy(module:forward(input))
      flat[i] = orig + perturbation
      outb:copy(module:forward(input))
      flat[i] = orig
      outb:add(-1, outa):div(2 * perturbation)
      jacobian:select(1, i):copy(outb)
   end
   return jacobian
end
Jacobian._byBackprop, Jacobian._byDifferences = byBackprop, byDifferences

-- d output / d param (param: the input when not given) through updateGradInput and
-- accGradParameters, one output element at a time; dparam is param's gradient.
function Jacobian.backward(module, input, param, dparam)
   local useParam = param ~= nil
   param = param or input
   return byBackprop(module, input, param:nElement(),
                     function(din) return useParam and dparam or din end, true)
end

-- The same by central differences: param (contiguous) is moved by +-perturbation.
function Jacobian.forward(module, input, param, perturbation)
   param = param or input
   assert(param:isContiguous(), 'nn.Jacobian.forward: param must be contiguous')
   return byDifferences(module, input, param:view(param:nElement()), perturbation)
end

-- param after one accUpdateGradParameters(lr = 1) step per output element's unit gradient.
function Jacobian.backwardUpdate(module, input, param)
   module:forward(input)
   local dout = module.output.new():resizeAs(module.output)
   local flatDout = dout:view(dout:nElement())
   local jacobian = torch.Tensor(param:nElement(), dout:nElement()):zero()
   local origParam = param:clone()
   for i = 1, flatDout:nElement() do
      param:copy(origParam)
      dout:zero()
      flatDout[i] = 1
      module:updateGradInput(input, dout)
      module:accUpdateGradParameters(input, dout, 1)
      jacobian:select(2, i):copy(param)
   end
   param:copy(origParam)
   return jacobian
end

-- The same expected by finite differences: param - d output / d param.
function Jacobian.forwardUpdate(module, input, param, perturbation)
   local jacobian = Jacobian.forward(module, input, param, perturbation):mul(-1)
   local flat = param:contiguous():view(param:nElement())
   for i = 1, flat:nElement() do
      jacobian:select(1, i):add(flat[i])
   end
   return jacobian
end

-- The tests comparing the two Jacobians of J (nn.Jacobian or nn.SparseJacobian), whose
-- input draws its values into inputValues(input) (the whole input for nn.Jacobian).
function Jacobian._defineTests(J, inputValues)
   -- Largest difference between the two Jacobians with respect to the input, for input
   -- values drawn uniformly from [minval, maxval] (default [-2, 2]).
   function J.testJacobian(module, input, minval, maxval, perturbation)
      minval, maxval = minval or -2, maxval or 2
      fillUniform(inputValues(input), minval, maxval)
      local fprop = J.forward(module, input, nil, perturbation)
      local bprop = J.backward(module, input)
      return maxAbs(fprop - bprop)
   end

   -- The same with respect to a parameter (param, its gradient dparam).
   function J.testJacobianParameters(module, input, param, dparam, minval, maxval, perturbation)
      minval, maxval = minval or -2, maxval or 2
      fillUniform(inputValues(input), minval, maxval)
      fillUniform(param, minval, maxval)
      local bprop = Jacobian.backward(module, input, param, dparam)
      local fprop = Jacobian.forward(module, input, param, perturbation)
      return maxAbs(fprop - bprop)
   end

   function J.testJacobianUpdateParameters(module, input, param, minval, maxval, perturbation)
      minval, maxval = minval or -2, maxval or 2
      fillUniform(inputValues(input), minval, maxval)
      fillUniform(param, minval, maxval)
      local bprop = Jacobian.backwardUpdate(module, input, param)
      local fprop = Jacobian.forwardUpdate(module, input, param, perturbation)
      return maxAbs(fprop - bprop)
   end
end
Jacobian._defineTests(Jacobian, function(input) return input end)

-- Saves the module (after clearState) and reads it back: the copy's output and gradInput
-- must equal the original's. Returns the largest differences of both.
function Jacobian.testIO(module, input, minval, maxval)
   minval, maxval = minval or -2, maxval or 2
   local inputCopy = input:clone()
   module:forward(input)
   local gradOutput = module.output:clone()
   fillUniform(gradOutput, minval, maxval)
   local gradOutputCopy = gradOutput:clone()
   module:zeroGradParameters()
   module:updateGradInput(input, gradOutput)
   module:accGradParameters(input, gradOutput)
   local output = module.output:clone()
   local gradInput = module.gradInput:clone()

   assert(module == module:clearState(), 'clearState did not return self')
   local path = os.tmpname()
   torch.save(path, module)
   local copy = torch.load(path)
   os.remove(path)
   copy:forward(inputCopy)
   copy:zeroGradParameters()
   copy:updateGradInput(inputCopy, gradOutputCopy)
   copy:accGradParameters(inputCopy, gradOutputCopy)
   return maxAbs(output - copy.output), maxAbs(gradInput - copy.gradInput)
end

local function norm(t)
   return math.sqrt(t:clone():cmul(t):sum())
end

-- accGradParameters + updateParameters, accUpdateGradParameters, and both again on two
-- clones sharing the weight, must all move the named weight alike. Returns the error of
-- each, by name.
function Jacobian.testAllUpdate(module, input, weight, gradWeight)
   local lr = torch.uniform(0.1, 1)
   local errors = {}

   local reference = module:clone()
   local weightBefore = reference[weight]:clone()
   reference:forward(input)
   local gradOutput = torch.rand(reference.output:size())
   reference:zeroGradParameters()
   reference:updateGradInput(input, gradOutput)
   reference:accGradParameters(input, gradOutput)
   reference:updateParameters(lr)
   local step = reference[gradWeight]:clone():mul(lr)
   errors.accGradParameters = norm(weightBefore - step - reference[weight])

   local accUpdate = module:clone()
   accUpdate:forward(input)
   accUpdate:updateGradInput(input, gradOutput)
   accUpdate:accUpdateGradParameters(input, gradOutput, lr)
   errors.accUpdateGradParameters = norm(accUpdate[weight] - reference[weight])

   local shared1, shared2 = module:clone(), module:clone()
   shared2:share(shared1, weight)
   for _, m in ipairs({ shared1, shared2 }) do
      m:forward(input)
      m:zeroGradParameters()
      m:updateGradInput(input, gradOutput)
      m:accGradParameters(input, gradOutput)
   end
   shared1:updateParameters(lr)
   shared2:updateParameters(lr)
   errors['accGradParameters [shared]'] = norm(weightBefore - step * 2 - shared1[weight]) +
                                          norm(weightBefore - step * 2 - shared2[weight])

   local sharedUpdate1, sharedUpdate2 = module:clone(), module:clone()
   sharedUpdate2:share(sharedUpdate1, weight)
   for _, m in ipairs({ sharedUpdate1, sharedUpdate2 }) do
      m:forward(input)
      m:updateGradInput(input, gradOutput)
      m:accUpdateGradParameters(input, gradOutput, lr)
   end
   errors['accUpdateGradParameters [shared]'] = norm(weightBefore - step * 2 - sharedUpdate1[weight]) +
                                                norm(weightBefore - step * 2 - sharedUpdate2[weight])
   return errors
end

return Jacobian
