-- nn.ModuleCriterion(criterion[, inputModule[, targetModule[, castTarget = true]]]): the
-- criterion applied to inputModule(input) and targetModule(target); the gradient flows
-- back through inputModule only. castTarget converts the target to the criterion's type.
local ModuleCriterion, parent = torch.class('nn.ModuleCriterion', 'nn.Criterion')

function ModuleCriterion:__init(criterion, inputModule, targetModule, castTarget)
   parent.__init(self)
   assert(criterion, 'nn.ModuleCriterion(criterion[, inputModule[, targetModule[, castTarget]]]): a criterion is required')
   self.criterion = criterion
   self.inputModule = inputModule
   self.targetModule = targetModule
   if castTarget == nil then castTarget = true end
   self.castTarget = castTarget
end

function ModuleCriterion:updateOutput(input, target)
   if self.inputModule then
      self.input = self.inputModule:forward(input)
   else
      self.input = input
   end
   if self.targetModule then
      self.target = self.targetModule:forward(target)
   else
      self.target = target
   end
   if self.castTarget and torch.isTensor(self.target) and torch.isTensor(self.input) then
      self.target = self.target:type(self.input:type())
   end
   self.output = self.criterion:forward(self.input, self.target)
   return self.output
end

function ModuleCriterion:updateGradInput(input, target)
   self.gradInput = self.criterion:backward(self.input, self.target)
   if self.inputModule then
      self.gradInput = self.inputModule:backward(input, self.gradInput)
   end
   return self.gradInput
end

function ModuleCriterion:type(typename, tensorCache)
   if self.inputModule then self.inputModule:type(typename, tensorCache) end
   if self.targetModule then self.targetModule:type(typename, tensorCache) end
   self.criterion:type(typename, tensorCache)
   self._type = typename
   return self
end
