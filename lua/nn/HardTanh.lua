-- nn.HardTanh([min_value = -1, max_value = 1[, inplace]]): x clamped to [min_value, max_value].
local HardTanh, parent = torch.class('nn.HardTanh', 'nn.Module')

function HardTanh:__init(min_value, max_value, inplace)
   parent.__init(self)
   self.min_val = min_value or -1
   self.max_val = max_value or 1
   self.inplace = inplace or false
   if self.inplace then assert(type(self.inplace) == 'boolean', 'nn.HardTanh: the in-place flag must be a boolean') end
   if self.max_val <= self.min_val then
      error(string.format('%s: max_value (%g) must be larger than min_value (%g)', torch.type(self),
                          self.max_val, self.min_val), 3)
   end
end

function HardTanh:updateOutput(input)
   input.THNN.HardTanh_updateOutput(input, self.output, self.min_val, self.max_val, self.inplace)
   return self.output
end

function HardTanh:updateGradInput(input, gradOutput)
   input.THNN.HardTanh_updateGradInput(input, gradOutput, self.gradInput, self.min_val, self.max_val, self.inplace)
   return self.gradInput
end
