-- nn.ELU([alpha = 1[, inplace]]): x > 0 ? x : alpha * (exp(x) - 1).
local ELU, parent = torch.class('nn.ELU', 'nn.Module')

function ELU:__init(alpha, inplace)
   parent.__init(self)
   self.alpha = alpha or 1
   assert(type(self.alpha) == 'number', 'nn.ELU: alpha must be a number')
   self.inplace = inplace or false
end

function ELU:updateOutput(input)
   input.THNN.ELU_updateOutput(input, self.output, self.alpha, self.inplace)
   return self.output
end

function ELU:updateGradInput(input, gradOutput)
   input.THNN.ELU_updateGradInput(input, gradOutput, self.gradInput, self.output, self.alpha, self.inplace)
   return self.gradInput
end

function ELU:__tostring__()
   return string.format('%s (alpha:%f)', torch.type(self), self.alpha)
end
