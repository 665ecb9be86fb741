-- nn.ClassNLLCriterion([weights[, sizeAverage = true[, ignoreIndex]]]): -w[t] x[t] for
-- log-probabilities x and a class t counting from 1 (a number or a tensor of one per
-- sample); with sizeAverage divided by the sum of the weights of the targets. A target
-- equal to ignoreIndex counts nothing.
local ClassNLLCriterion, parent = torch.class('nn.ClassNLLCriterion', 'nn.Criterion')

function ClassNLLCriterion:__init(weights, sizeAverage, ignoreIndex)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
   self.ignoreIndex = ignoreIndex or -100
   if weights then
      assert(weights:dim() == 1, 'nn.ClassNLLCriterion: weights must be a 1-D tensor')
      self.weights = weights
   end
   self.output_tensor = torch.zeros(1)
   self.total_weight_tensor = torch.ones(1)
   self.target = torch.LongTensor(1):zero()
end

-- the kernels read targets as a LongTensor
function ClassNLLCriterion:_longTarget(target)
   if type(target) == 'number' then
      self.target = torch.type(self.target) == 'torch.LongTensor' and self.target or torch.LongTensor()
      self.target:resize(1)
      self.target[1] = target
   else
      self.target = target:long()
   end
   return self.target
end

function ClassNLLCriterion:updateOutput(input, target)
   input.THNN.ClassNLLCriterion_updateOutput(input, self:_longTarget(target), self.output_tensor, self.sizeAverage,
                                             self.weights, self.total_weight_tensor, self.ignoreIndex, true)
   self.output = self.output_tensor[1]
   return self.output, self.total_weight_tensor[1]
end

function ClassNLLCriterion:updateGradInput(input, target)
   input.THNN.ClassNLLCriterion_updateGradInput(input, self:_longTarget(target), nil, self.gradInput,
                                                self.sizeAverage, self.weights, self.total_weight_tensor,
                                                self.ignoreIndex, true)
   return self.gradInput
end
