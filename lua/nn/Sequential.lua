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

-- Runs method(the module's input, gradOutput, ...) from the last module to the first, each
-- module's gradOutput being the gradInput of the module after it: what method returned
-- where it returns one (returnsGradInput: updateGradInput, backward), else that module's
-- gradInput field. Returns the first module's result.
local function backwardWalk(self, method, returnsGradInput, input, gradOutput, ...)
   local modules = self.modules
   local current = gradOutput
   -- an empty Sequential fails in rethrowErrors, naming module 1
   for i = math.max(#modules, 1), 1, -1 do
      local moduleInput = input
      if i > 1 then moduleInput = modules[i - 1].output end
      local result = self:rethrowErrors(modules[i], i, method, moduleInput, current, ...)
      if returnsGradInput then current = result else current = modules[i].gradInput end
   end
   return current
end

function Sequential:updateGradInput(input, gradOutput)
   self.gradInput = backwardWalk(self, 'updateGradInput', true, input, gradOutput)
   return self.gradInput
end

function Sequential:accGradParameters(input, gradOutput, scale)
   backwardWalk(self, 'accGradParameters', false, input, gradOutput, scale or 1)
end

function Sequential:backward(input, gradOutput, scale)
   self.gradInput = backwardWalk(self, 'backward', true, input, gradOutput, scale or 1)
   return self.gradInput
end

function Sequential:accUpdateGradParameters(input, gradOutput, lr)
   backwardWalk(self, 'accUpdateGradParameters', false, input, gradOutput, lr)
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
