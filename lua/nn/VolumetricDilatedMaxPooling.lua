-- nn.VolumetricDilatedMaxPooling(kT, kW, kH[, dT = kT, dW = kW, dH = kH[, padT = 0, padW = 0,
-- padH = 0[, dilationT = 1, dilationW = 1, dilationH = 1]]]): VolumetricMaxPooling over
-- windows whose elements are dilation apart.
local VolumetricDilatedMaxPooling, parent = torch.class('nn.VolumetricDilatedMaxPooling', 'nn.VolumetricMaxPooling')

function VolumetricDilatedMaxPooling:__init(kT, kW, kH, dT, dW, dH, padT, padW, padH, dilationT, dilationW, dilationH)
   parent.__init(self, kT, kW, kH, dT, dW, dH, padT, padW, padH)
   self.dilationT = dilationT or 1
   self.dilationW = dilationW or 1
   self.dilationH = dilationH or 1
end

function VolumetricDilatedMaxPooling:updateOutput(input)
   input.THNN.VolumetricDilatedMaxPooling_updateOutput(input, self.output, nn.utils.poolingIndices(self), self.kT,
                                                       self.kW, self.kH, self.dT, self.dW, self.dH, self.padT,
                                                       self.padW, self.padH, self.dilationT, self.dilationW,
                                                       self.dilationH, self.ceil_mode)
   self:markFlatIndices()
   local n = input:dim()
   self.itime, self.iheight, self.iwidth = input:size(n - 2), input:size(n - 1), input:size(n)
   return self.output
end

function VolumetricDilatedMaxPooling:updateGradInput(input, gradOutput)
   input.THNN.VolumetricDilatedMaxPooling_updateGradInput(input, gradOutput, self.gradInput, self:inputIndices(input),
                                                          self.kT, self.kW, self.kH, self.dT, self.dW, self.dH,
                                                          self.padT, self.padW, self.padH, self.dilationT,
                                                          self.dilationW, self.dilationH, self.ceil_mode)
   return self.gradInput
end

function VolumetricDilatedMaxPooling:__tostring__()
   return string.format('%s(%dx%dx%d, %d,%d,%d, %d,%d,%d, %d,%d,%d)', torch.type(self), self.kT, self.kW, self.kH,
                        self.dT, self.dW, self.dH, self.padT, self.padW, self.padH, self.dilationT, self.dilationW,
                        self.dilationH)
end
