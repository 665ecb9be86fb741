-- nn.Linear(inputSize, outputSize[, bias = true]): y = W x + b, for a vector x or a batch
-- (one sample per row).
local Linear, parent = torch.class('nn.Linear', 'nn.Module')

function Linear:__init(inputSize, outputSize, bias)
   parent.__init(self)
   if bias == nil then bias = true end
   nn.utils.allocateParameters(self, { outputSize, inputSize }, bias and { outputSize })
   self:reset()
end

Linear.noBias = nn.utils.noBias

-- uniform in [-stdv, stdv], stdv = 1 / sqrt(inputSize) unless given
function Linear:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.weight:size(2))
end

function Linear:updateOutput(input)
   self.addBuffer = self.addBuffer or input.new()
   input.THNN.Linear_updateOutput(input, self.output, self.weight, self.bias, self.addBuffer)
   return self.output
end

function Linear:updateGradInput(input, gradOutput)
   if self.gradInput then
      input.THNN.Linear_updateGradInput(input, gradOutput, self.gradInput, self.weight)
      return self.gradInput
   end
end

function Linear:accGradParameters(input, gradOutput, scale)
   self.addBuffer = self.addBuffer or input.new()
   input.THNN.Linear_accGradParameters(input, gradOutput, self.gradInput, self.weight, self.bias,
                                       self.gradWeight, self.gradBias, self.addBuffer, scale or 1)
end

function Linear:clearState()
   nn.utils.clear(self, 'addBuffer')
   return parent.clearState(self)
end

function Linear:__tostring__()
   return torch.type(self) .. string.format('(%d -> %d)', self.weight:size(2), self.weight:size(1)) ..
          (self.bias == nil and ' without bias' or '')
end
