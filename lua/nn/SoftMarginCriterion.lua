-- nn.SoftMarginCriterion([sizeAverage = true]): the sum over the elements of log(1 + exp(-x y)), y in {-1, 1},
-- divided by the element count with sizeAverage.
local SoftMarginCriterion, parent = torch.class('nn.SoftMarginCriterion', 'nn.Criterion')

function SoftMarginCriterion:__init(sizeAverage)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
end

function SoftMarginCriterion:updateOutput(input, target)
   self.output_tensor = self.output_tensor or input.new()
   input.THNN.SoftMarginCriterion_updateOutput(input, target, self.output_tensor, self.sizeAverage, true)
   self.output = self.output_tensor[1]
   return self.output
end

function SoftMarginCriterion:updateGradInput(input, target)
   input.THNN.SoftMarginCriterion_updateGradInput(input, target, nil, self.gradInput, self.sizeAverage, true)
   return self.gradInput
end
