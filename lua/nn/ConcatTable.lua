-- nn.ConcatTable: every module gets the same input (a tensor or a table); the output is
-- the table of their outputs, the gradInput the sum of their gradInputs.
local ConcatTable, parent = torch.class('nn.ConcatTable', 'nn.Container')

function ConcatTable:__init()
   parent.__init(self)
   self.output = {}
end

function ConcatTable:updateOutput(input)
   for i = 1, #self.modules do
      self.output[i] = self:rethrowErrors(self.modules[i], i, 'updateOutput', input)
   end
   for i = #self.modules + 1, #self.output do self.output[i] = nil end
   return self.output
end

function ConcatTable:_sumGradInputs(method, input, gradOutput, scale)
   for i, module in ipairs(self.modules) do
      local gradInput = self:rethrowErrors(module, i, method, input, gradOutput[i], scale)
      if i == 1 then
         -- resized first, which drops entries of an earlier, longer input
         self.gradInput = nn.utils.recursiveResizeAs(self.gradInput, gradInput)
         self.gradInput = nn.utils.recursiveCopy(self.gradInput, gradInput)
      else
         nn.utils.recursiveAdd(self.gradInput, gradInput)
      end
   end
   return self.gradInput
end

function ConcatTable:updateGradInput(input, gradOutput)
   return self:_sumGradInputs('updateGradInput', input, gradOutput)
end

function ConcatTable:backward(input, gradOutput, scale)
   return self:_sumGradInputs('backward', input, gradOutput, scale or 1)
end

function ConcatTable:accGradParameters(input, gradOutput, scale)
   for i, module in ipairs(self.modules) do
      self:rethrowErrors(module, i, 'accGradParameters', input, gradOutput[i], scale or 1)
   end
end

function ConcatTable:accUpdateGradParameters(input, gradOutput, lr)
   for i, module in ipairs(self.modules) do
      self:rethrowErrors(module, i, 'accUpdateGradParameters', input, gradOutput[i], lr)
   end
end

function ConcatTable:__tostring__()
   return self:branchesToString()
end
