-- nn.AbsCriterion([sizeAverage = true]): the sum over the elements of |x - y|,
-- divided by the element count with sizeAverage.
local AbsCriterion, parent = torch.class('nn.AbsCriterion', 'nn.Criterion')

function AbsCriterion:__init(sizeAverage)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
end

function AbsCriterion:updateOutput(input, target)
   self.output_tensor = self.output_tensor or input.new()
   input.THNN.AbsCriterion_updateOutput(input, target, self.output_tensor, self.sizeAverage, true)
   self.output = self.output_tensor[1]
   return self.output
end

function AbsCriterion:updateGradInput(input, target)
   input.THNN.AbsCriterion_updateGradInput(input, target, nil, self.gradInput, self.sizeAverage, true)
   return self.gradInput
end
