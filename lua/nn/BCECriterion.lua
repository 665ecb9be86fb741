-- nn.BCECriterion([weights[, sizeAverage = true]]): binary cross-entropy
-- -w (y log(x) + (1 - y) log(1 - x)) summed over the elements (averaged with sizeAverage);
-- weights: one per class (the last dimension of a batch).
local BCECriterion, parent = torch.class('nn.BCECriterion', 'nn.Criterion')

function BCECriterion:__init(weights, sizeAverage)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
   if weights ~= nil then
      assert(weights:dim() == 1, 'nn.BCECriterion: weights must be a 1-D tensor')
      self.weights = weights
   end
end

-- the weights repeated for every sample of a batch
local function expandedWeights(self, target)
   if self.weights == nil or target:dim() == 1 then return self.weights end
   return self.weights:view(1, target:size(target:dim())):expandAs(target)
end

function BCECriterion:updateOutput(input, target)
   assert(input:nElement() == target:nElement(), 'nn.BCECriterion: input and target size mismatch')
   self.output_tensor = self.output_tensor or input.new()
   input.THNN.BCECriterion_updateOutput(input, target, self.output_tensor, self.sizeAverage,
                                        expandedWeights(self, target), true)
   self.output = self.output_tensor[1]
   return self.output
end

function BCECriterion:updateGradInput(input, target)
   assert(input:nElement() == target:nElement(), 'nn.BCECriterion: input and target size mismatch')
   input.THNN.BCECriterion_updateGradInput(input, target, nil, self.gradInput, self.sizeAverage,
                                           expandedWeights(self, target), true)
   return self.gradInput
end
