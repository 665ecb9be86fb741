-- nn.Sequential: each module's output is the next one's input.
local Sequential, parent = torch.class('nn.Sequential', 'nn.Container')

function Sequential:add(module)
   if #self.modules == 0 then
      self.gradInput = module.gradInput
   end
   table.insert(self.modules, module)
   self.output = module.output
   return self
end

function Sequential:insert(module, index)
   index = index or (#self.modules + 1)
   if index > #self.modules + 1 or index < 1 then
      error('index should be contiguous to existing modules', 2)
   end
   table.insert(self.modules, index, module)
   self.output = self.modules[#self.modules].output
   self.gradInput = self.modules[1].gradInput
   return self
end

function Sequential:remove(index)
   index = index or #self.modules
   if index > #self.modules or index < 1 then
      error('index out of range', 2)
   end
   table.remove(self.modules, index)
   if #self.modules > 0 then
      self.output = self.modules[#self.modules].output
      self.gradInput = self.modules[1].gradInput
   else
      self.output = torch.Tensor()
      self.gradInput = torch.Tensor()
   end
   return self
end

function Sequential:updateOutput(input)
   local current = input
   for i = 1, #self.modules do
      current = self:rethrowErrors(self.modules[i], i, 'updateOutput', current)
   end
   self.output = current
   return current
end

function Sequential:updateGradInput(input, gradOutput)
   local currentGradOutput = gradOutput
   local modules = self.modules
   for i = #modules, 2, -1 do
      currentGradOutput = self:rethrowErrors(modules[i], i, 'updateGradInput', modules[i - 1].output,
                                             currentGradOutput)
   end
   currentGradOutput = self:rethrowErrors(modules[1], 1, 'updateGradInput', input, currentGradOutput)
   self.gradInput = currentGradOutput
   return currentGradOutput
end

function Sequential:accGradParameters(input, gradOutput, scale)
   scale = scale or 1
   local currentGradOutput = gradOutput
   local modules = self.modules
   for i = #modules, 2, -1 do
      local module, previous = modules[i], modules[i - 1]
      self:rethrowErrors(module, i, 'accGradParameters', previous.output, currentGradOutput, scale)
      currentGradOutput = module.gradInput
   end
   self:rethrowErrors(modules[1], 1, 'accGradParameters', input, currentGradOutput, scale)
end

function Sequential:backward(input, gradOutput, scale)
   scale = scale or 1
   local currentGradOutput = gradOutput
   local modules = self.modules
   for i = #modules, 2, -1 do
      currentGradOutput = self:rethrowErrors(modules[i], i, 'backward', modules[i - 1].output,
                                             currentGradOutput, scale)
   end
   currentGradOutput = self:rethrowErrors(modules[1], 1, 'backward', input, currentGradOutput, scale)
   self.gradInput = currentGradOutput
   return currentGradOutput
end

function Sequential:accUpdateGradParameters(input, gradOutput, lr)
   local currentGradOutput = gradOutput
   local modules = self.modules
   for i = #modules, 2, -1 do
      local module, previous = modules[i], modules[i - 1]
      self:rethrowErrors(module, i, 'accUpdateGradParameters', previous.output, currentGradOutput, lr)
      currentGradOutput = module.gradInput
   end
   self:rethrowErrors(modules[1], 1, 'accUpdateGradParameters', input, currentGradOutput, lr)
end

function Sequential:__tostring__()
   local tab, line, arrow = '  ', '\n', ' -> '
   local parts = { 'nn.Sequential {' .. line .. tab .. '[input' }
   for i = 1, #self.modules do parts[#parts + 1] = arrow .. '(' .. i .. ')' end
   parts[#parts + 1] = arrow .. 'output]'
   for i = 1, #self.modules do
      local inner = tostring(self.modules[i]):gsub(line, line .. tab)
      parts[#parts + 1] = line .. tab .. '(' .. i .. '): ' .. inner
   end
   parts[#parts + 1] = line .. '}'
   return table.concat(parts)
end
