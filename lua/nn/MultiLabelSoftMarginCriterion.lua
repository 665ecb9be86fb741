-- nn.MultiLabelSoftMarginCriterion([weights]): binary cross-entropy of sigmoid(x) against
-- targets in {0, 1}, averaged over the elements.
local MultiLabelSoftMarginCriterion, parent = torch.class('nn.MultiLabelSoftMarginCriterion', 'nn.Criterion')

function MultiLabelSoftMarginCriterion:__init(weights)
   parent.__init(self)
   self.lsm = nn.Sigmoid()
   self.nll = nn.BCECriterion(weights)
end

function MultiLabelSoftMarginCriterion:updateOutput(input, target)
   input = input:nElement() == 1 and input or input:squeeze()
   target = target:nElement() == 1 and target or target:squeeze()
   self.lsm:updateOutput(input)
   self.nll:updateOutput(self.lsm.output, target)
   self.output = self.nll.output
   return self.output
end

function MultiLabelSoftMarginCriterion:updateGradInput(input, target)
   local size = input:size()
   input = input:nElement() == 1 and input or input:squeeze()
   target = target:nElement() == 1 and target or target:squeeze()
   self.nll:updateGradInput(self.lsm.output, target)
   self.lsm:updateGradInput(input, self.nll.gradInput)
   self.gradInput = self.lsm.gradInput:view(size)
   return self.gradInput
end
