-- nn.MultiCriterion(): the weighted sum of criterions, all applied to the same input and
-- target. add(criterion[, weight = 1]).
local MultiCriterion, parent = torch.class('nn.MultiCriterion', 'nn.Criterion')

function MultiCriterion:__init()
   parent.__init(self)
   self.criterions = {}
   self.weights = {}
end

function MultiCriterion:add(criterion, weight)
   assert(criterion, 'nn.MultiCriterion:add: no criterion given')
   table.insert(self.criterions, criterion)
   self.weights[#self.criterions] = weight or 1
   return self
end

function MultiCriterion:updateOutput(input, target)
   self.output = 0
   for i, criterion in ipairs(self.criterions) do
      self.output = self.output + self.weights[i] * criterion:updateOutput(input, target)
   end
   return self.output
end

function MultiCriterion:updateGradInput(input, target)
   self.gradInput = nn.utils.recursiveResizeAs(self.gradInput, input)
   nn.utils.recursiveFill(self.gradInput, 0)
   for i, criterion in ipairs(self.criterions) do
      nn.utils.recursiveAdd(self.gradInput, self.weights[i], criterion:updateGradInput(input, target))
   end
   return self.gradInput
end
