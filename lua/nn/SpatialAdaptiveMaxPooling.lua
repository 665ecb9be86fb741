-- nn.SpatialAdaptiveMaxPooling(W, H): max pooling to an output of H x W whatever the input
-- size: output (i, j) is the maximum of rows [floor((i-1) iH / H) + 1, ceil(i iH / H)] and
-- the same for columns. indices (LongTensor) holds where each maximum was, counting from 1.
local SpatialAdaptiveMaxPooling, parent = torch.class('nn.SpatialAdaptiveMaxPooling', 'nn.Module')

function SpatialAdaptiveMaxPooling:__init(W, H)
   parent.__init(self)
   self.W = W
   self.H = H
   self.indices = torch.LongTensor()
end

-- type() converts every tensor; the kernels want the indices as longs
local function longIndices(self)
   self.indices = self.indices and self.indices:long() or torch.LongTensor()
   return self.indices
end

function SpatialAdaptiveMaxPooling:updateOutput(input)
   input.THNN.SpatialAdaptiveMaxPooling_updateOutput(input, self.output, longIndices(self), self.W, self.H)
   return self.output
end

function SpatialAdaptiveMaxPooling:updateGradInput(input, gradOutput)
   input.THNN.SpatialAdaptiveMaxPooling_updateGradInput(input, gradOutput, self.gradInput, longIndices(self))
   return self.gradInput
end

function SpatialAdaptiveMaxPooling:clearState()
   if self.indices then self.indices:set() end
   return parent.clearState(self)
end
