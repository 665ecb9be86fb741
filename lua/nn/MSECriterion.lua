-- nn.MSECriterion([sizeAverage = true]): the sum over the elements of (x - y)^2,
-- divided by the element count with sizeAverage.
local MSECriterion, parent = torch.class('nn.MSECriterion', 'nn.Criterion')

function MSECriterion:__init(sizeAverage)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
end

function MSECriterion:updateOutput(input, target)
   self.output_tensor = self.output_tensor or input.new()
   input.THNN.MSECriterion_updateOutput(input, target, self.output_tensor, self.sizeAverage, true)
   self.output = self.output_tensor[1]
   return self.output
end

function MSECriterion:updateGradInput(input, target)
   input.THNN.MSECriterion_updateGradInput(input, target, nil, self.gradInput, self.sizeAverage, true)
   return self.gradInput
end
