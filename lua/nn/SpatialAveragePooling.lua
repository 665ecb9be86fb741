-- nn.SpatialAveragePooling(kW, kH[, dW = 1, dH = 1[, padW = 0, padH = 0]]): the mean of
-- each kW x kH window of each plane; padding counts in the divisor unless
-- setCountExcludePad(); with divide = false, the sum. :ceil() rounds the output size up.
local SpatialAveragePooling, parent = torch.class('nn.SpatialAveragePooling', 'nn.Module')

function SpatialAveragePooling:__init(kW, kH, dW, dH, padW, padH)
   parent.__init(self)
   self.kW = kW
   self.kH = kH
   self.dW = dW or 1
   self.dH = dH or 1
   self.padW = padW or 0
   self.padH = padH or 0
   self.ceil_mode = false
   self.count_include_pad = true
   self.divide = true
end

SpatialAveragePooling.ceil = nn.utils.setCeilMode
SpatialAveragePooling.floor = nn.utils.setFloorMode
SpatialAveragePooling.setCountIncludePad = nn.utils.setCountIncludePad
SpatialAveragePooling.setCountExcludePad = nn.utils.setCountExcludePad

function SpatialAveragePooling:updateOutput(input)
   input.THNN.SpatialAveragePooling_updateOutput(input, self.output, self.kW, self.kH, self.dW, self.dH, self.padW,
                                                 self.padH, self.ceil_mode, self.count_include_pad)
   if not self.divide then self.output:mul(self.kW * self.kH) end
   return self.output
end

function SpatialAveragePooling:updateGradInput(input, gradOutput)
   if self.gradInput then
      input.THNN.SpatialAveragePooling_updateGradInput(input, gradOutput, self.gradInput, self.kW, self.kH, self.dW,
                                                       self.dH, self.padW, self.padH, self.ceil_mode,
                                                       self.count_include_pad)
      if not self.divide then self.gradInput:mul(self.kW * self.kH) end
      return self.gradInput
   end
end

function SpatialAveragePooling:__tostring__()
   return nn.utils.poolingString(self, { self.kW, self.kH }, { self.dW, self.dH }, { self.padW, self.padH })
end
