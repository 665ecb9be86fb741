-- nn.SpatialAdaptiveAveragePooling(W, H): average pooling to an output of H x W whatever the
-- input size: output (i, j) is the mean of rows [floor((i-1) iH / H) + 1, ceil(i iH / H)]
-- and the same for columns.
local SpatialAdaptiveAveragePooling, parent = torch.class('nn.SpatialAdaptiveAveragePooling', 'nn.Module')

function SpatialAdaptiveAveragePooling:__init(W, H)
   parent.__init(self)
   self.W = W
   self.H = H
end

function SpatialAdaptiveAveragePooling:updateOutput(input)
   input.THNN.SpatialAdaptiveAveragePooling_updateOutput(input, self.output, self.W, self.H)
   return self.output
end

function SpatialAdaptiveAveragePooling:updateGradInput(input, gradOutput)
   input.THNN.SpatialAdaptiveAveragePooling_updateGradInput(input, gradOutput, self.gradInput)
   return self.gradInput
end
