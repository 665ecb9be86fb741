-- nn.SpatialClassNLLCriterion([weights[, sizeAverage = true[, ignoreIndex]]]):
-- nn.ClassNLLCriterion at each pixel: input N x C x H x W log-probabilities (or C x H x W),
-- target N x H x W (or H x W) of classes counting from 1.
local SpatialClassNLLCriterion, parent = torch.class('nn.SpatialClassNLLCriterion', 'nn.Criterion')

function SpatialClassNLLCriterion:__init(weights, sizeAverage, ignoreIndex)
   parent.__init(self)
   if sizeAverage ~= nil then self.sizeAverage = sizeAverage else self.sizeAverage = true end
   self.ignoreIndex = ignoreIndex or -100
   if weights then
      assert(weights:dim() == 1, 'nn.SpatialClassNLLCriterion: weights must be a 1-D tensor')
      self.weights = weights
   end
   self.output_tensor = torch.zeros(1)
   self.total_weight_tensor = torch.ones(1)
end

local function batched(input, target)
   if input:dim() == 3 and target:dim() == 2 then
      return input:view(1, input:size(1), input:size(2), input:size(3)), target:view(1, target:size(1), target:size(2))
   end
   if input:dim() ~= 4 or target:dim() ~= 3 then
      error(string.format('nn.SpatialClassNLLCriterion: input N x C x H x W with target N x H x W (or without N) '
                          .. 'expected, got input %s and target %s', nn.utils.sizeString(input),
                          nn.utils.sizeString(target)), 3)
   end
   return input, target
end

function SpatialClassNLLCriterion:updateOutput(input, target)
   local x, t = batched(input, target)
   self.target = nn.ClassNLLCriterion._longTarget(self, t)  -- (cunn's for CUDA inputs)
   input.THNN.SpatialClassNLLCriterion_updateOutput(x, self.target, self.output_tensor, self.sizeAverage,
                                                    self.weights, self.total_weight_tensor, self.ignoreIndex, true)
   self.output = self.output_tensor[1]
   return self.output, self.total_weight_tensor[1]
end

function SpatialClassNLLCriterion:updateGradInput(input, target)
   local x, t = batched(input, target)
   self.target = nn.ClassNLLCriterion._longTarget(self, t)  -- (cunn's for CUDA inputs)
   self.gradInput:resizeAs(input):zero()
   input.THNN.SpatialClassNLLCriterion_updateGradInput(x, self.target, nil, self.gradInput:view(x:size()),
                                                       self.sizeAverage, self.weights, self.total_weight_tensor,
                                                       self.ignoreIndex, true)
   return self.gradInput
end

function SpatialClassNLLCriterion:type(typename, tensorCache)
   -- the targets stay a LongTensor
   local target = self.target
   self.target = nil
   parent.type(self, typename, tensorCache)
   self.target = target
   return self
end
