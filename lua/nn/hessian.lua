-- nn.hessian: torch7's estimate of the diagonal of the Hessian of a loss (LeCun's
-- Gauss-Newton approximation, "Efficient BackProp" 1998), used to give each parameter
-- its own learning rate. As in torch7 it is off until nn.hessian.enable(), which adds to
-- the modules:
--   module:updateDiagHessianInput(input, diagHessianOutput) -> diagHessianInput
--   module:accDiagHessianParameters(input, diagHessianOutput): adds to diagHessianWeight/Bias
--   module:initDiagHessianParameters(): makes diagHessianWeight/Bias (zero)
-- and a third return to parameters() and getParameters(): the diagonal Hessian tensors.
-- The approximation drops second derivatives of the modules themselves: through a layer
-- linear in x and w (y = W x + b, a convolution), d2E/dx_j2 = sum_i W_ij^2 d2E/dy_i2 and
-- d2E/dW_ij2 = x_j^2 d2E/dy_i2, which are the layer's own backward passes with W squared
-- and x squared; through a pointwise f, d2E/dx2 = f'(x)^2 d2E/dy2.
-- nn.Jacobian.testDiagHessianInput/Weight/Bias check a module against sum_k (dy_k/dx_i)^2,
-- which is the diagonal Hessian of sum_k y_k^2 / 2 for a module linear in x_i.
local hessian = {}
nn.hessian = hessian

-- f(...) with module's fields replaced meanwhile (restored even when f fails); f's results.
local function withFields(module, replacements, f, ...)
   local saved = {}
   for name, value in pairs(replacements) do
      saved[name] = module[name]
      module[name] = value
   end
   local results = { pcall(f, ...) }
   for name in pairs(replacements) do module[name] = saved[name] end
   if not results[1] then error(results[2], 0) end
   return unpack(results, 2)
end

local function squared(t) return torch.cmul(t, t) end

-- diagHessianInput: the module's updateGradInput with each weight named in weightNames
-- squared (kept in the field of squareNames), on diagHessianOutput.
function hessian.updateDiagHessianInput(module, input, diagHessianOutput, weightNames, squareNames)
   assert(#weightNames == #squareNames, 'nn.hessian: as many squared weights as weights expected')
   module.diagHessianInput = module.diagHessianInput or input.new()
   local replacements = { gradInput = module.diagHessianInput }
   for i, name in ipairs(weightNames) do
      local square = module[squareNames[i]] or module[name].new()
      module[squareNames[i]] = square
      replacements[name] = square:resizeAs(module[name]):cmul(module[name], module[name])
   end
   module.diagHessianInput = withFields(module, replacements, module.updateGradInput, module, input, diagHessianOutput)
   return module.diagHessianInput
end

-- Adds to the diagonal Hessian fields (hessianNames) what accGradParameters adds to the
-- gradients (gradNames) for the input squared. Modules whose accGradParameters reads
-- buffers of updateOutput (an unfolded input) name them in buffers: they are rebuilt from
-- the squared input in scratch fields.
function hessian.accDiagHessianParameters(module, input, diagHessianOutput, gradNames, hessianNames, buffers)
   assert(#gradNames == #hessianNames, 'nn.hessian: as many Hessian fields as gradients expected')
   local inputSquared = squared(input)
   local replacements = {}
   for i, name in ipairs(gradNames) do
      if module[name] then
         module[hessianNames[i]] = module[hessianNames[i]] or module[name].new():resizeAs(module[name]):zero()
         replacements[name] = module[hessianNames[i]]
      end
   end
   withFields(module, replacements, function()
      if buffers then
         local scratch = { output = module.output.new() }
         for _, name in ipairs(buffers) do scratch[name] = module[name] and module[name].new() end
         withFields(module, scratch, function()
            module:updateOutput(inputSquared)
            module:accGradParameters(inputSquared, diagHessianOutput, 1)
         end)
      else
         module:accGradParameters(inputSquared, diagHessianOutput, 1)
      end
   end)
end

-- Pointwise modules: f'(x)^2 * diagHessianOutput, f' from updateGradInput on ones.
function hessian.updateDiagHessianInputPointWise(module, input, diagHessianOutput)
   local ones = diagHessianOutput.new():resizeAs(diagHessianOutput):fill(1)
   local derivative = hessian.updateDiagHessianInput(module, input, ones, {}, {})
   derivative:cmul(derivative):cmul(diagHessianOutput)
   return derivative
end

function hessian.initDiagHessianParameters(module, gradNames, hessianNames)
   module.diagHessianInput = module.diagHessianInput or module.gradInput.new()
   for i, name in ipairs(gradNames) do
      if module[name] then
         module[hessianNames[i]] = module[hessianNames[i]] or module[name].new():resizeAs(module[name]):zero()
      end
   end
end

-- The diagonal Hessian tensors in parameters() order, when every parameter has one.
local function hessianList(module, weights)
   if not weights then return nil end
   local list = {}
   for i, w in ipairs(weights) do
      local h = w == module.weight and module.diagHessianWeight or w == module.bias and module.diagHessianBias or nil
      if not h then return nil end
      list[i] = h
   end
   return list
end

local enabled = false

function hessian.enable()
   if enabled then return end
   enabled = true
   local Module, Criterion = nn.Module, nn.Criterion

   function Module:updateDiagHessianInput()
      error(torch.typename(self) .. ':updateDiagHessianInput() is undefined', 2)
   end
   function Module:accDiagHessianParameters() end
   function Module:initDiagHessianParameters() end
   function Criterion:updateDiagHessianInput()
      error(torch.typename(self) .. ':updateDiagHessianInput() is undefined', 2)
   end

   -- layers linear in their input and weights
   local function linearLayer(class, weights, grads, hessians, buffers)
      function class:updateDiagHessianInput(input, diagHessianOutput)
         local squares = {}
         for i, name in ipairs(weights) do squares[i] = name .. 'Sq' end
         return hessian.updateDiagHessianInput(self, input, diagHessianOutput, weights, squares)
      end
      function class:accDiagHessianParameters(input, diagHessianOutput)
         hessian.accDiagHessianParameters(self, input, diagHessianOutput, grads, hessians, buffers)
      end
      function class:initDiagHessianParameters()
         hessian.initDiagHessianParameters(self, grads, hessians)
      end
   end
   local grads, hessians = { 'gradWeight', 'gradBias' }, { 'diagHessianWeight', 'diagHessianBias' }
   linearLayer(nn.Linear, { 'weight' }, grads, hessians)
   linearLayer(nn.SpatialConvolution, { 'weight' }, grads, hessians, { 'finput', 'fgradInput' })
   local convolutionBuffers = { 'finput', 'fgradInput' }
   linearLayer(nn.SpatialConvolutionLocal, { 'weight' }, grads, hessians, convolutionBuffers)
   linearLayer(nn.SpatialFullConvolution, { 'weight' }, grads, hessians, convolutionBuffers)
   -- over a dense module, whose buffers the forward on the squared input refills
   linearLayer(nn.SpatialConvolutionMap, { 'weight' }, grads, hessians, {})
   linearLayer(nn.SpatialFullConvolutionMap, { 'weight' }, grads, hessians, {})

   for _, name in ipairs({ 'Tanh', 'Square', 'Sqrt' }) do
      nn[name].updateDiagHessianInput = hessian.updateDiagHessianInputPointWise
   end

   -- a rearrangement of its input: its backward carries the diagonal over unchanged
   function nn.Reshape:updateDiagHessianInput(input, diagHessianOutput)
      return hessian.updateDiagHessianInput(self, input, diagHessianOutput, {}, {})
   end

   -- the loss sum (x - y)^2 (/ n): its second derivative is 2 (/ n) everywhere
   function nn.MSECriterion:updateDiagHessianInput(input)
      self.diagHessianInput = self.diagHessianInput or input.new()
      self.diagHessianInput:resizeAs(input):fill(self.sizeAverage and 2 / input:nElement() or 2)
      return self.diagHessianInput
   end

   local Sequential = nn.Sequential
   function Sequential:initDiagHessianParameters()
      for _, module in ipairs(self.modules) do module:initDiagHessianParameters() end
   end
   -- from the last module to the first, each on its predecessor's output
   function Sequential:updateDiagHessianInput(input, diagHessianOutput)
      local current = diagHessianOutput
      for i = #self.modules, 1, -1 do
         local moduleInput = i > 1 and self.modules[i - 1].output or input
         current = self.modules[i]:updateDiagHessianInput(moduleInput, current)
      end
      self.diagHessianInput = current
      return current
   end
   function Sequential:accDiagHessianParameters(input, diagHessianOutput)
      local current = diagHessianOutput
      for i = #self.modules, 1, -1 do
         local module = self.modules[i]
         module:accDiagHessianParameters(i > 1 and self.modules[i - 1].output or input, current)
         current = module.diagHessianInput
      end
   end

   local parameters, containerParameters, getParameters = Module.parameters, nn.Container.parameters, Module.getParameters
   function Module:parameters()
      local w, gw = parameters(self)
      if w then return w, gw, hessianList(self, w) end
   end
   function nn.Container:parameters()
      local w, gw = containerParameters(self)
      local hs = {}
      for _, module in ipairs(self.modules) do
         local p, _, h = module:parameters()
         if p and #p > 0 then
            if not h then return w, gw end
            for i = 1, #p do hs[#hs + 1] = h[i] end
         end
      end
      return w, gw, hs
   end
   function Module:getParameters()
      local flat, flatGrad = getParameters(self)
      local _, _, hs = self:parameters()
      if hs and #hs > 0 then return flat, flatGrad, Module.flatten(hs) end
      return flat, flatGrad
   end

   -- nn.Jacobian's checks of the above (see the top of this file)
   local Jacobian = nn.Jacobian

   -- the module's diagonal Hessian of sum_k y_k^2 / 2: diagHessianOutput is all ones
   function Jacobian.backwardDiagHessian(module, input, diagHessianParamName)
      module:forward(input)
      local ones = module.output.new():resizeAs(module.output):fill(1)
      for _, name in ipairs({ 'diagHessianWeight', 'diagHessianBias' }) do
         if module[name] then module[name]:zero() end
      end
      module:updateDiagHessianInput(input, ones)
      module:accDiagHessianParameters(input, ones)
      return module[diagHessianParamName]
   end

   -- the same from first derivatives: sum_k (dy_k / dx_i)^2, exact for a linear module
   function Jacobian.linearModuleDiagHessian(module, input, gradParamName)
      module:forward(input)
      local gradOutput = module.output.new():resizeAs(module.output)
      local flat = gradOutput:view(gradOutput:nElement())
      local sum
      for k = 1, flat:nElement() do
         flat:zero()
         flat[k] = 1
         module:zeroGradParameters()
         module:updateGradInput(input, gradOutput)
         module:accGradParameters(input, gradOutput)
         local g = module[gradParamName]
         sum = sum or g.new():resizeAs(g):zero()
         sum:addcmul(g, g)
      end
      return sum
   end

   function Jacobian.testDiagHessian(module, input, gradParamName, diagHessianParamName, minval, maxval)
      minval, maxval = minval or -2, maxval or 2
      input:copy(torch.rand(input:nElement()):mul(maxval - minval):add(minval))
      module:initDiagHessianParameters()
      local bprop = Jacobian.backwardDiagHessian(module, input, diagHessianParamName)
      local linear = Jacobian.linearModuleDiagHessian(module, input, gradParamName)
      return (bprop - linear):abs():max()
   end
   function Jacobian.testDiagHessianInput(module, input, minval, maxval)
      return Jacobian.testDiagHessian(module, input, 'gradInput', 'diagHessianInput', minval, maxval)
   end
   function Jacobian.testDiagHessianWeight(module, input, minval, maxval)
      return Jacobian.testDiagHessian(module, input, 'gradWeight', 'diagHessianWeight', minval, maxval)
   end
   function Jacobian.testDiagHessianBias(module, input, minval, maxval)
      return Jacobian.testDiagHessian(module, input, 'gradBias', 'diagHessianBias', minval, maxval)
   end
end
