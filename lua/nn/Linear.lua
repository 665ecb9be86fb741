-- nn.Linear(inputSize, outputSize[, bias = true]): y = W x + b, for a vector x or a batch
-- (one sample per row).
local Linear, parent = torch.class('nn.Linear', 'nn.Module')

function Linear:__init(inputSize, outputSize, bias)
   parent.__init(self)
   if bias == nil then bias = true end
   self.weight = torch.Tensor(outputSize, inputSize)
   self.gradWeight = torch.Tensor(outputSize, inputSize)
   if bias then
      self.bias = torch.Tensor(outputSize)
      self.gradBias = torch.Tensor(outputSize)
   end
   self:reset()
end

function Linear:noBias()
   self.bias = nil
   self.gradBias = nil
   return self
end

-- uniform in [-stdv, stdv], stdv = 1 / sqrt(inputSize) unless given
function Linear:reset(stdv)
   if stdv then
      stdv = stdv * math.sqrt(3)
   else
      stdv = 1 / math.sqrt(self.weight:size(2))
   end
   self.weight:uniform(-stdv, stdv)
   if self.bias then self.bias:uniform(-stdv, stdv) end
   return self
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
