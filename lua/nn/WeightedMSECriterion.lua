-- nn.WeightedMSECriterion(weight[, sizeAverage = true]): nn.MSECriterion between the input
-- and the target multiplied elementwise by weight (weight has the size of one sample; a
-- batch input weights each sample's target).
local WeightedMSECriterion, parent = torch.class('nn.WeightedMSECriterion', 'nn.MSECriterion')

function WeightedMSECriterion:__init(weight, sizeAverage)
   parent.__init(self, sizeAverage)
   assert(torch.isTensor(weight), 'nn.WeightedMSECriterion(weight): weight must be a tensor')
   self.weight = weight:clone()
   self.buffer = torch.Tensor()
end

function WeightedMSECriterion:_weightedTarget(input, target)
   if target:nElement() ~= input:nElement() then
      error(string.format('nn.WeightedMSECriterion: the target (%s) must have the input\'s size (%s)',
                          nn.utils.sizeString(target), nn.utils.sizeString(input)), 3)
   end
   self.buffer = self.buffer:typeAs(input)
   self.buffer:resizeAs(input):copy(target)
   if input:dim() - 1 == self.weight:dim() and input[1]:nElement() == self.weight:nElement() then
      for i = 1, input:size(1) do self.buffer[i]:cmul(self.weight:viewAs(self.buffer[i])) end
   elseif input:nElement() == self.weight:nElement() then
      self.buffer:cmul(self.weight:viewAs(self.buffer))
   else
      error(string.format('nn.WeightedMSECriterion: weight (%s) fits neither the input (%s) nor one sample of it',
                          nn.utils.sizeString(self.weight), nn.utils.sizeString(input)), 3)
   end
   return self.buffer
end

function WeightedMSECriterion:updateOutput(input, target)
   return parent.updateOutput(self, input, self:_weightedTarget(input, target))
end

function WeightedMSECriterion:updateGradInput(input, target)
   return parent.updateGradInput(self, input, self:_weightedTarget(input, target))
end
