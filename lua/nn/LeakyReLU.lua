-- nn.LeakyReLU([negval = 0.01[, inplace]]): x > 0 ? x : negval * x.
local LeakyReLU, parent = torch.class('nn.LeakyReLU', 'nn.Module')

function LeakyReLU:__init(negval, inplace)
   parent.__init(self)
   if type(negval) == 'boolean' then
      inplace, negval = negval, nil
   end
   self.negval = negval or 1 / 100
   self.inplace = inplace or false
   if self.negval < 0 then
      -- the in-place backward reads the sign of x off y
      self.inplace = false
   end
end

function LeakyReLU:updateOutput(input)
   input.THNN.LeakyReLU_updateOutput(input, self.output, self.negval, self.inplace)
   return self.output
end

function LeakyReLU:updateGradInput(input, gradOutput)
   input.THNN.LeakyReLU_updateGradInput(input, gradOutput, self.gradInput, self.negval, self.inplace)
   return self.gradInput
end

function LeakyReLU:__tostring__()
   return torch.type(self) .. string.format('(%g)', self.negval)
end
