-- nn.SpatialDilatedMaxPooling(kW, kH[, dW = kW, dH = kH[, padW = 0, padH = 0[, dilationW = 1,
-- dilationH = 1]]]): SpatialMaxPooling over windows whose elements are dilation apart.
local SpatialDilatedMaxPooling, parent = torch.class('nn.SpatialDilatedMaxPooling', 'nn.SpatialMaxPooling')

function SpatialDilatedMaxPooling:__init(kW, kH, dW, dH, padW, padH, dilationW, dilationH)
   parent.__init(self, kW, kH, dW, dH, padW, padH)
   self.dilationW = dilationW or 1
   self.dilationH = dilationH or 1
end

function SpatialDilatedMaxPooling:updateOutput(input)
   input.THNN.SpatialDilatedMaxPooling_updateOutput(input, self.output, nn.utils.poolingIndices(self), self.kW,
                                                    self.kH, self.dW, self.dH, self.padW, self.padH, self.dilationW,
                                                    self.dilationH, self.ceil_mode)
   return self.output
end

function SpatialDilatedMaxPooling:updateGradInput(input, gradOutput)
   input.THNN.SpatialDilatedMaxPooling_updateGradInput(input, gradOutput, self.gradInput,
                                                       nn.utils.poolingIndices(self), self.kW, self.kH, self.dW,
                                                       self.dH, self.padW, self.padH, self.dilationW, self.dilationH,
                                                       self.ceil_mode)
   return self.gradInput
end

function SpatialDilatedMaxPooling:__tostring__()
   return string.format('%s(%dx%d, %d,%d, %d,%d, %d,%d)', torch.type(self), self.kW, self.kH, self.dW, self.dH,
                        self.padW, self.padH, self.dilationW, self.dilationH)
end
