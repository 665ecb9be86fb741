-- nn.Add(inputSize[, scalar]): y = x + bias, bias a vector of inputSize elements (x a
-- vector, or a batch of them), or with scalar one number added to every element.
local Add, parent = torch.class('nn.Add', 'nn.Module')

function Add:__init(inputSize, scalar)
   parent.__init(self)
   local size = inputSize
   if scalar then size = 1 end
   self.scalar = scalar
   self.bias = torch.Tensor(size)
   self.gradBias = torch.Tensor(size)
   self:reset()
end

function Add:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.bias:size(1))
end

function Add:updateOutput(input)
   self.output:resizeAs(input):copy(input)
   if self.scalar then
      self.output:add(self.bias[1])
   else
      self.output:add(nn.CMul.expandParameter(self, self.bias, input))
   end
   return self.output
end

function Add:updateGradInput(input, gradOutput)
   if not self.gradInput then return end
   self.gradInput:resizeAs(gradOutput):copy(gradOutput)
   return self.gradInput
end

function Add:accGradParameters(input, gradOutput, scale)
   scale = scale or 1
   if self.scalar then
      self.gradBias[1] = self.gradBias[1] + scale * gradOutput:sum()
   else
      local expanded = nn.CMul.expandParameter(self, self.bias, input)
      self.gradBias:add(scale, nn.CMul.reduceToParameter(gradOutput, expanded, self.bias))
   end
end
