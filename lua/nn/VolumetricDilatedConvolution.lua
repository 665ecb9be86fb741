-- nn.VolumetricDilatedConvolution(nInputPlane, nOutputPlane, kT, kW, kH[, dT, dW, dH[, padT,
-- padW, padH[, dilationT = 1, dilationW = 1, dilationH = 1]]]): VolumetricConvolution whose
-- taps are dilation elements apart. finput holds the columns; fgradInput is torch7's unused
-- `ones`.
local VolumetricDilatedConvolution, parent = torch.class('nn.VolumetricDilatedConvolution', 'nn.VolumetricConvolution')

function VolumetricDilatedConvolution:__init(nInputPlane, nOutputPlane, kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                             dilationT, dilationW, dilationH)
   parent.__init(self, nInputPlane, nOutputPlane, kT, kW, kH, dT, dW, dH, padT, padW, padH)
   self.dilationT = dilationT or 1
   self.dilationW = dilationW or 1
   self.dilationH = dilationH or 1
end

function VolumetricDilatedConvolution:updateOutput(input)
   nn.utils.convolutionBuffers(self)
   input.THNN.VolumetricDilatedConvolution_updateOutput(input, self.output, self.weight, self.bias, self.finput,
                                                        self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                        self.dH, self.padT, self.padW, self.padH, self.dilationT,
                                                        self.dilationW, self.dilationH)
   return self.output
end

function VolumetricDilatedConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      nn.utils.convolutionBuffers(self)
      input.THNN.VolumetricDilatedConvolution_updateGradInput(input, gradOutput, self.gradInput, self.weight,
                                                              self.finput, self.kT, self.kW, self.kH, self.dT,
                                                              self.dW, self.dH, self.padT, self.padW, self.padH,
                                                              self.dilationT, self.dilationW, self.dilationH)
      return self.gradInput
   end
end

function VolumetricDilatedConvolution:accGradParameters(input, gradOutput, scale)
   nn.utils.convolutionBuffers(self)
   input.THNN.VolumetricDilatedConvolution_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias,
                                                             self.finput, self.fgradInput, self.kT, self.kW, self.kH,
                                                             self.dT, self.dW, self.dH, self.padT, self.padW,
                                                             self.padH, self.dilationT, self.dilationW,
                                                             self.dilationH, scale or 1)
end

function VolumetricDilatedConvolution:__tostring__()
   return nn.utils.convolutionString(self, { { self.kT, self.kW, self.kH } }, { self.dT, self.dW, self.dH },
                                     { self.padT, self.padW, self.padH },
                                     { { self.dilationT, self.dilationW, self.dilationH } })
end
