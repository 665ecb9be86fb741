-- nn.SpatialMaxPooling(kW, kH[, dW = kW, dH = kH[, padW = 0, padH = 0]]): the maximum of
-- each kW x kH window of each plane. indices (a LongTensor shaped like the output) holds
-- where each maximum was, counting from 1. :ceil() rounds the output size up. The input's
-- last two sizes are kept (iheight, iwidth) for SpatialMaxUnpooling.
local SpatialMaxPooling, parent = torch.class('nn.SpatialMaxPooling', 'nn.Module')

function SpatialMaxPooling:__init(kW, kH, dW, dH, padW, padH)
   parent.__init(self)
   self.kW = kW
   self.kH = kH
   self.dW = dW or kW
   self.dH = dH or kH
   self.padW = padW or 0
   self.padH = padH or 0
   self.ceil_mode = false
   self.indices = torch.LongTensor()
end

SpatialMaxPooling.ceil = nn.utils.setCeilMode
SpatialMaxPooling.floor = nn.utils.setFloorMode
SpatialMaxPooling.clearState = nn.utils.maxPoolingClearState

function SpatialMaxPooling:updateOutput(input)
   input.THNN.SpatialMaxPooling_updateOutput(input, self.output, nn.utils.poolingIndices(self), self.kW, self.kH,
                                             self.dW, self.dH, self.padW, self.padH, self.ceil_mode)
   -- the input's size, which SpatialMaxUnpooling restores
   local n = input:dim()
   self.iheight, self.iwidth = input:size(n - 1), input:size(n)
   return self.output
end

function SpatialMaxPooling:updateGradInput(input, gradOutput)
   input.THNN.SpatialMaxPooling_updateGradInput(input, gradOutput, self.gradInput, nn.utils.poolingIndices(self),
                                                self.kW, self.kH, self.dW, self.dH, self.padW, self.padH,
                                                self.ceil_mode)
   return self.gradInput
end

function SpatialMaxPooling:__tostring__()
   return nn.utils.poolingString(self, { self.kW, self.kH }, { self.dW, self.dH }, { self.padW, self.padH })
end
