-- nn.Parallel(inputDimension, outputDimension): module i gets slice i of the input along
-- inputDimension; their outputs are joined along outputDimension. Modules beyond the
-- number of slices are not used.
local Parallel, parent = torch.class('nn.Parallel', 'nn.Container')

function Parallel:__init(inputDimension, outputDimension)
   parent.__init(self)
   self.inputDimension = inputDimension
   self.outputDimension = outputDimension
end

function Parallel:updateOutput(input)
   local n = input:size(self.inputDimension)
   -- as in torch7, the slices decide: modules beyond them are left out
   if n > #self.modules then
      error(string.format('nn.Parallel: input has %d slices along dimension %d for %d modules', n,
                          self.inputDimension, #self.modules), 2)
   end
   local outputs, sizes = {}, nil
   for i = 1, n do
      local out = self:rethrowErrors(self.modules[i], i, 'updateOutput', input:select(self.inputDimension, i))
      outputs[i] = out
      if i == 1 then
         sizes = out:size():totable()
      else
         sizes[self.outputDimension] = sizes[self.outputDimension] + out:size(self.outputDimension)
      end
   end
   self.output:resize(torch.LongStorage(sizes))
   local offset = 1
   for i = 1, n do
      local size = outputs[i]:size(self.outputDimension)
      self.output:narrow(self.outputDimension, offset, size):copy(outputs[i])
      offset = offset + size
   end
   return self.output
end

-- method(slice i of input, the module's part of gradOutput[, scale]) for each module;
-- gradInputs (when the method returns them) land in slice i of self.gradInput
function Parallel:_eachBranch(method, input, gradOutput, scale, keepGradInput)
   if keepGradInput then self.gradInput:resizeAs(input) end
   local offset = 1
   for i = 1, input:size(self.inputDimension) do
      local module = self.modules[i]
      local size = module.output:size(self.outputDimension)
      local part = gradOutput:narrow(self.outputDimension, offset, size)
      local gradInput = self:rethrowErrors(module, i, method, input:select(self.inputDimension, i), part, scale)
      if keepGradInput then self.gradInput:select(self.inputDimension, i):copy(gradInput) end
      offset = offset + size
   end
   return self.gradInput
end

function Parallel:updateGradInput(input, gradOutput)
   return self:_eachBranch('updateGradInput', input, gradOutput, nil, true)
end

function Parallel:backward(input, gradOutput, scale)
   return self:_eachBranch('backward', input, gradOutput, scale or 1, true)
end

function Parallel:accGradParameters(input, gradOutput, scale)
   self:_eachBranch('accGradParameters', input, gradOutput, scale or 1, false)
end

function Parallel:accUpdateGradParameters(input, gradOutput, lr)
   self:_eachBranch('accUpdateGradParameters', input, gradOutput, lr, false)
end

function Parallel:__tostring__()
   return self:branchesToString()
end
