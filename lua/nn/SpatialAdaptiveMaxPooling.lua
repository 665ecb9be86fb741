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

function SpatialAdaptiveMaxPooling:updateOutput(input)
   input.THNN.SpatialAdaptiveMaxPooling_updateOutput(input, self.output, nn.utils.poolingIndices(self), self.W, self.H)
   return self.output
end

function SpatialAdaptiveMaxPooling:updateGradInput(input, gradOutput)
   input.THNN.SpatialAdaptiveMaxPooling_updateGradInput(input, gradOutput, self.gradInput,
                                                        nn.utils.poolingIndices(self))
   return self.gradInput
end

SpatialAdaptiveMaxPooling.clearState = nn.utils.maxPoolingClearState
