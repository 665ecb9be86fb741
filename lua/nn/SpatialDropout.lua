-- nn.SpatialDropout([p = 0.5[, stochasticInference = false]]): in training, each feature
-- map (plane) of a [C, H, W] or [B, C, H, W] input is zeroed with probability p, whole
-- (neighbouring pixels are correlated, so single pixels would leak through); in
-- evaluation the input is scaled by 1 - p.
local SpatialDropout, parent = torch.class('nn.SpatialDropout', 'nn.Module')

function SpatialDropout:__init(p, stochasticInference)
   parent.__init(self)
   self.p = p or 0.5
   if self.p < 0 or self.p >= 1 then error('nn.SpatialDropout: p must be in [0, 1)', 2) end
   self.train = true
   self.stochastic_inference = stochasticInference or false
   self.noise = torch.Tensor()
end

-- the noise's size for input (shared with VolumetricDropout through nPlaneDims)
SpatialDropout.nPlaneDims = 2

function SpatialDropout:_noiseSize(input)
   local k = self.nPlaneDims
   if input:dim() ~= k + 1 and input:dim() ~= k + 2 then
      error(string.format('%s: a %dD input (features first) or a %dD batch expected, got %s', torch.type(self),
                          k + 1, k + 2, nn.utils.sizeString(input)), 3)
   end
   local sizes = input:size():totable()
   for d = input:dim() - k + 1, input:dim() do sizes[d] = 1 end
   return torch.LongStorage(sizes)
end

function SpatialDropout:updateOutput(input)
   local noiseSize = self:_noiseSize(input)
   self.output:resizeAs(input):copy(input)
   if self.train or self.stochastic_inference then
      self.noise:resize(noiseSize):bernoulli(1 - self.p)
      self.output:cmul(self.noise:expandAs(input))
   else
      self.output:mul(1 - self.p)
   end
   return self.output
end

function SpatialDropout:updateGradInput(input, gradOutput)
   if not self.train then error(torch.type(self) .. ': backprop only defined while training', 2) end
   self.gradInput:resizeAs(gradOutput):copy(gradOutput):cmul(self.noise:expandAs(input))
   return self.gradInput
end

function SpatialDropout:setp(p)
   self.p = p
end

function SpatialDropout:clearState()
   nn.utils.clear(self, 'noise')
   return parent.clearState(self)
end

function SpatialDropout:__tostring__()
   return string.format('%s(%f)', torch.type(self), self.p)
end
