-- nn.Module: torch7's base class. A module keeps its result in self.output and
-- self.gradInput, its parameters in weight/bias and their gradients in
-- gradWeight/gradBias; subclasses override updateOutput, updateGradInput and
-- accGradParameters.
local Module = torch.class('nn.Module')

function Module:__init()
   self.gradInput = torch.Tensor()
   self.output = torch.Tensor()
   self._type = self.output:type()
end

function Module:parameters()
   if self.weight and self.bias then
      return { self.weight, self.bias }, { self.gradWeight, self.gradBias }
   elseif self.weight then
      return { self.weight }, { self.gradWeight }
   elseif self.bias then
      return { self.bias }, { self.gradBias }
   end
end

function Module:updateOutput(input)
   return self.output
end

function Module:forward(input)
   return self:updateOutput(input)
end

function Module:backward(input, gradOutput, scale)
   scale = scale or 1
   self:updateGradInput(input, gradOutput)
   self:accGradParameters(input, gradOutput, scale)
   return self.gradInput
end

function Module:backwardUpdate(input, gradOutput, lr)
   self:updateGradInput(input, gradOutput)
   self:accUpdateGradParameters(input, gradOutput, lr)
   return self.gradInput
end

function Module:updateGradInput(input, gradOutput)
   return self.gradInput
end

function Module:accGradParameters(input, gradOutput, scale)
end

-- weight -= lr * gradient, by accumulating the gradient into the parameters themselves
function Module:accUpdateGradParameters(input, gradOutput, lr)
   local gradWeight, gradBias = self.gradWeight, self.gradBias
   self.gradWeight, self.gradBias = self.weight, self.bias
   self:accGradParameters(input, gradOutput, -lr)
   self.gradWeight, self.gradBias = gradWeight, gradBias
end

function Module:sharedAccUpdateGradParameters(input, gradOutput, lr)
   if self:parameters() then
      self:zeroGradParameters()
      self:accGradParameters(input, gradOutput, 1)
      self:updateParameters(lr)
   end
end

function Module:zeroGradParameters()
   local _, gradParams = self:parameters()
   if gradParams then
      for i = 1, #gradParams do gradParams[i]:zero() end
   end
end

function Module:updateParameters(learningRate)
   local params, gradParams = self:parameters()
   if params then
      for i = 1, #params do params[i]:add(-learningRate, gradParams[i]) end
   end
end

function Module:training()
   self.train = true
end

function Module:evaluate()
   self.train = false
end

-- Makes the named fields (weight, bias, ...) views of mlp's: both modules then read and
-- write one storage.
function Module:share(mlp, ...)
   for _, name in ipairs({ ... }) do
      if self[name] ~= nil then
         self[name]:set(mlp[name])
      end
   end
   return self
end

-- A deep copy (through serialization); the named fields stay shared with self.
function Module:clone(...)
   local copy = torch.deserialize(torch.serialize(self))
   if select('#', ...) > 0 then copy:share(self, ...) end
   return copy
end

-- Converts every tensor field (at any depth) to typename; tensors that shared a storage
-- still share one. tensorCache may be passed to keep sharing across several modules.
function Module:type(typename, tensorCache)
   if not typename then return self._type end
   tensorCache = tensorCache or {}
   for key, param in pairs(self) do
      self[key] = nn.utils.recursiveType(param, typename, tensorCache)
   end
   self._type = typename
   return self
end

function Module:float(...) return self:type('torch.FloatTensor', ...) end
function Module:double(...) return self:type('torch.DoubleTensor', ...) end

function Module:reset()
end

-- Empties the buffers (output, gradInput and the module's own), so that a saved model is small.
function Module:clearState()
   return nn.utils.clear(self, 'output', 'gradInput')
end

function Module:apply(callback)
   callback(self)
   if self.modules then
      for _, module in ipairs(self.modules) do module:apply(callback) end
   end
end

-- self and every module inside it, depth first
function Module:listModules()
   local modules = { self }
   if self.modules then
      for _, child in ipairs(self.modules) do
         for _, m in ipairs(child:listModules()) do modules[#modules + 1] = m end
      end
   end
   return modules
end

-- The modules of class typename inside self (self included), and the container of each.
function Module:findModules(typename, container)
   container = container or self
   local nodes, containers = {}, {}
   if torch.type(self) == typename then
      nodes[#nodes + 1] = self
      containers[#containers + 1] = container
   end
   if self.modules then
      for _, child in ipairs(self.modules) do
         local n, c = child:findModules(typename, self)
         for i = 1, #n do
            nodes[#nodes + 1] = n[i]
            containers[#containers + 1] = c[i]
         end
      end
   end
   return nodes, containers
end

-- Replaces each module m (self included) by callback(m), depth first after m.
function Module:replace(callback)
   local out = callback(self)
   if self.modules then
      for i, module in ipairs(self.modules) do
         self.modules[i] = module:replace(callback)
      end
   end
   return out
end

function Module:__tostring__()
   return torch.type(self)
end

-- Note [Flattening parameters]: getParameters moves every parameter into one new storage
-- and makes each parameter tensor a view of it, keeping its offset and strides relative to
-- the storage it was on, so parameters that shared a storage still share. Elements of the
-- old storages that no parameter covers are dropped, which needs each parameter's span
-- to be free of such holes.
function Module.flatten(parameters)
   if not parameters or #parameters == 0 then return torch.Tensor() end
   local Tensor = nn.utils.tensorConstructor(torch.typename(parameters[1]))
   -- 1. each distinct storage gets a place in one long row
   local storages, order, total = {}, {}, 0
   for _, p in ipairs(parameters) do
      local storage = p:storage()
      local key = torch.pointer(storage)
      if not storages[key] then
         storages[key] = { storage = storage, base = total }
         order[#order + 1] = key
         total = total + #storage
      end
   end
   -- 2. mark the elements some parameter uses
   local used = Tensor(total):zero()
   local usedStorage = used:storage()
   -- (t:set(storage, offset, sizes, strides) is avoided: under the JIT it can take the
   -- strides for the sizes; the constructor reads its arguments plainly)
   local function viewOn(storage, p, offset)
      return Tensor(storage, offset, p:size(), p:stride())
   end
   for _, p in ipairs(parameters) do
      if p:nElement() > 0 then
         local base = storages[torch.pointer(p:storage())].base
         viewOn(usedStorage, p, base + p:storageOffset()):fill(1)
      end
   end
   local nUsed = used:sum()
   -- 3. holesBefore[i]: unused elements before position i (1-based) of the row
   local holesBefore
   if nUsed < total then
      holesBefore = {}
      local holes = 0
      for i = 1, total do
         holesBefore[i] = holes
         if usedStorage[i] == 0 then holes = holes + 1 end
      end
   end
   -- 4. the used values, in row order, go into the flat tensor
   local flat = Tensor(nUsed)
   local flatStorage = flat:storage()
   for _, key in ipairs(order) do
      local entry = storages[key]
      local n = #entry.storage
      if n > 0 then
         local from = Tensor(entry.storage)
         if not holesBefore then
            flat:narrow(1, entry.base + 1, n):copy(from)
         else
            for i = 1, n do
               local at = entry.base + i
               if usedStorage[at] ~= 0 then flatStorage[at - holesBefore[at]] = from[i] end
            end
         end
      end
   end
   -- 5. every parameter becomes a view of the flat storage
   for i, p in ipairs(parameters) do
      if p:nElement() > 0 then
         local at = storages[torch.pointer(p:storage())].base + p:storageOffset()
         local shift = holesBefore and holesBefore[at] or 0
         if holesBefore then
            local last = at
            for d = 1, p:nDimension() do last = last + (p:size(d) - 1) * p:stride(d) end
            assert(holesBefore[last] == shift,
                   'getParameters: parameter ' .. i .. ' spans elements that no parameter uses')
         end
         p:set(viewOn(flatStorage, p, at - shift))
      else
         p:set(Tensor(flatStorage, 1, torch.LongStorage({ 0 })))
      end
   end
   return flat
end

-- One vector holding every parameter, and one holding every gradient: the modules'
-- tensors become views of them (Note [Flattening parameters]), so that an optimizer can
-- update all parameters at once.
function Module:getParameters()
   local parameters, gradParameters = self:parameters()
   local flatParameters = Module.flatten(parameters)
   local flatGradParameters = Module.flatten(gradParameters)
   assert(flatParameters:nElement() == flatGradParameters:nElement(),
          'getParameters: parameters and gradients of different sizes (' .. flatParameters:nElement() ..
          ' and ' .. flatGradParameters:nElement() .. ')')
   if parameters then
      for i = 1, #parameters do
         assert(parameters[i]:storageOffset() == gradParameters[i]:storageOffset(),
                'getParameters: parameter ' .. i .. ' and its gradient are laid out differently')
      end
   end
   return flatParameters, flatGradParameters
end
