-- nn.AddConstant(constant[, inplace]): y = x + constant. In place, the input is shifted and
-- shifted back in the backward.
local AddConstant, parent = torch.class('nn.AddConstant', 'nn.Module')

function AddConstant:__init(constant_scalar, inplace)
   parent.__init(self)
   assert(type(constant_scalar) == 'number', 'nn.AddConstant: the constant must be a number')
   self.constant_scalar = constant_scalar
   self.inplace = inplace or false
end

function AddConstant:updateOutput(input)
   if self.inplace then
      input:add(self.constant_scalar)
      self.output:set(input)
   else
      self.output:resizeAs(input):copy(input):add(self.constant_scalar)
   end
   return self.output
end

function AddConstant:updateGradInput(input, gradOutput)
   if self.inplace then
      self.gradInput:set(gradOutput)
      input:add(-self.constant_scalar)
   else
      self.gradInput:resizeAs(gradOutput):copy(gradOutput)
   end
   return self.gradInput
end
