-- nn.MulConstant(constant[, inplace]): y = constant * x. In place, the input is scaled and
-- then scaled back in the backward.
local MulConstant, parent = torch.class('nn.MulConstant', 'nn.Module')

function MulConstant:__init(constant_scalar, inplace)
   parent.__init(self)
   assert(type(constant_scalar) == 'number', 'nn.MulConstant: the constant must be a number')
   self.constant_scalar = constant_scalar
   self.inplace = inplace or false
end

function MulConstant:updateOutput(input)
   if self.inplace then
      input:mul(self.constant_scalar)
      self.output:set(input)
   else
      self.output:resizeAs(input):copy(input):mul(self.constant_scalar)
   end
   return self.output
end

function MulConstant:updateGradInput(input, gradOutput)
   if self.inplace then
      gradOutput:mul(self.constant_scalar)
      self.gradInput:set(gradOutput)
      input:div(self.constant_scalar)
   else
      self.gradInput:resizeAs(gradOutput):copy(gradOutput):mul(self.constant_scalar)
   end
   return self.gradInput
end
