-- nn.Mul: y = w x with one learned number w.
local Mul, parent = torch.class('nn.Mul', 'nn.Module')

function Mul:__init()
   parent.__init(self)
   nn.utils.allocateParameters(self, { 1 })
   self:reset()
end

function Mul:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.weight:size(1))
end

function Mul:updateOutput(input)
   self.output:resizeAs(input):copy(input):mul(self.weight[1])
   return self.output
end

function Mul:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(input):copy(gradOutput):mul(self.weight[1])
   return self.gradInput
end

function Mul:accGradParameters(input, gradOutput, scale)
   self.gradWeight[1] = self.gradWeight[1] + (scale or 1) * input:dot(gradOutput)
end
