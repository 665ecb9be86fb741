-- nn.SmoothL1Criterion([sizeAverage = true]): the sum over the elements of 0.5 (x - y)^2 where |x - y| < 1, else |x - y| - 0.5,
-- divided by the element count with sizeAverage.
local SmoothL1Criterion, parent = torch.class('nn.SmoothL1Criterion', 'nn.Criterion')

function SmoothL1Criterion:__init(sizeAverage)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
end

function SmoothL1Criterion:updateOutput(input, target)
   self.output_tensor = self.output_tensor or input.new()
   input.THNN.SmoothL1Criterion_updateOutput(input, target, self.output_tensor, self.sizeAverage, true)
   self.output = self.output_tensor[1]
   return self.output
end

function SmoothL1Criterion:updateGradInput(input, target)
   input.THNN.SmoothL1Criterion_updateGradInput(input, target, nil, self.gradInput, self.sizeAverage, true)
   return self.gradInput
end
