-- nn.Threshold(threshold = 1e-6, value = 0[, inplace]): y = x > threshold ? x : value.
local Threshold, parent = torch.class('nn.Threshold', 'nn.Module')

function Threshold:__init(threshold, value, inplace)
   parent.__init(self)
   if (threshold ~= nil and type(threshold) ~= 'number') or (value ~= nil and type(value) ~= 'number') then
      error('nn.Threshold(threshold, value): numbers expected', 2)
   end
   if inplace ~= nil and type(inplace) ~= 'boolean' then
      error('nn.Threshold: the in-place flag must be a boolean', 2)
   end
   self.threshold = threshold or 1e-6
   self.val = value or 0
   self.inplace = inplace or false
   self:validateParameters()
end

-- in place, the backward reads the sign of x off y (Note [In-place activations] in THNN)
function Threshold:validateParameters()
   self.inplace = self.inplace or false
   if self.inplace and self.val > self.threshold then
      error(string.format('%s: in-place processing requires value (%g) not to exceed threshold (%g)',
                          torch.type(self), self.val, self.threshold), 3)
   end
end

function Threshold:updateOutput(input)
   self:validateParameters()
   input.THNN.Threshold_updateOutput(input, self.output, self.threshold, self.val, self.inplace)
   return self.output
end

function Threshold:updateGradInput(input, gradOutput)
   self:validateParameters()
   input.THNN.Threshold_updateGradInput(input, gradOutput, self.gradInput, self.threshold, self.val, self.inplace)
   return self.gradInput
end
