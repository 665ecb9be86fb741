-- nn.MultiLabelMarginCriterion(): for scores x and the classes listed at the start of
-- target (from 1, ended by a 0): sum over listed j and unlisted i of
-- max(0, 1 - x[j] + x[i]) / #x, averaged over a batch with sizeAverage (default true).
local MultiLabelMarginCriterion, parent = torch.class('nn.MultiLabelMarginCriterion', 'nn.Criterion')

function MultiLabelMarginCriterion:__init()
   parent.__init(self)
   self.sizeAverage = true
   self.isTarget = torch.Tensor()
end

function MultiLabelMarginCriterion:updateOutput(input, target)
   self.output_tensor = self.output_tensor or input.new()
   input.THNN.MultiLabelMarginCriterion_updateOutput(input, target:long(), self.output_tensor, self.isTarget,
                                                     self.sizeAverage, true)
   self.output = self.output_tensor[1]
   return self.output
end

function MultiLabelMarginCriterion:updateGradInput(input, target)
   input.THNN.MultiLabelMarginCriterion_updateGradInput(input, target:long(), nil, self.gradInput, self.isTarget,
                                                        self.sizeAverage, true)
   return self.gradInput
end
