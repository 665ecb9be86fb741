-- nn.MultiMarginCriterion([p = 1[, weights[, margin = 1]]]): for scores x and a class t
-- (from 1): sum over i ~= t of w[t] max(0, margin - x[t] + x[i])^p / #x, averaged over a
-- batch with sizeAverage (default true).
local MultiMarginCriterion, parent = torch.class('nn.MultiMarginCriterion', 'nn.Criterion')

function MultiMarginCriterion:__init(p, weights, margin)
   parent.__init(self)
   assert(p == nil or p == 1 or p == 2, 'nn.MultiMarginCriterion: only p = 1 and p = 2 are supported')
   self.p = p or 1
   self.margin = margin or 1
   self.sizeAverage = true
   if weights then
      assert(weights:dim() == 1, 'nn.MultiMarginCriterion: weights must be a 1-D tensor')
      self.weights = weights
   end
end

function MultiMarginCriterion:_longTarget(target)
   if type(target) == 'number' then
      self._target = self._target or torch.LongTensor(1)
      self._target[1] = target
      return self._target
   end
   return target:long()
end

function MultiMarginCriterion:updateOutput(input, target)
   self.output_tensor = self.output_tensor or input.new()
   input.THNN.MultiMarginCriterion_updateOutput(input, self:_longTarget(target), self.output_tensor, self.sizeAverage,
                                                self.p, self.weights, self.margin, true)
   self.output = self.output_tensor[1]
   return self.output
end

function MultiMarginCriterion:updateGradInput(input, target)
   input.THNN.MultiMarginCriterion_updateGradInput(input, self:_longTarget(target), nil, self.gradInput,
                                                   self.sizeAverage, self.p, self.weights, self.margin, true)
   return self.gradInput
end
