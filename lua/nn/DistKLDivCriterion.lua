-- nn.DistKLDivCriterion([sizeAverage = true]): the sum over the elements of y (log y - x) where y > 0 (x: log-probabilities),
-- divided by the element count with sizeAverage.
local DistKLDivCriterion, parent = torch.class('nn.DistKLDivCriterion', 'nn.Criterion')

function DistKLDivCriterion:__init(sizeAverage)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
end

function DistKLDivCriterion:updateOutput(input, target)
   self.output_tensor = self.output_tensor or input.new()
   input.THNN.DistKLDivCriterion_updateOutput(input, target, self.output_tensor, self.sizeAverage, true)
   self.output = self.output_tensor[1]
   return self.output
end

function DistKLDivCriterion:updateGradInput(input, target)
   input.THNN.DistKLDivCriterion_updateGradInput(input, target, nil, self.gradInput, self.sizeAverage, true)
   return self.gradInput
end
