-- nn.SpatialDilatedConvolution(nInputPlane, nOutputPlane, kW, kH[, dW = 1, dH = 1[, padW = 0,
-- padH = 0[, dilationW = 1, dilationH = 1]]]): SpatialConvolution whose taps are dilation
-- elements apart. finput holds the columns; fgradInput is torch7's unused `ones`.
local SpatialDilatedConvolution, parent = torch.class('nn.SpatialDilatedConvolution', 'nn.SpatialConvolution')

function SpatialDilatedConvolution:__init(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH, dilationW, dilationH)
   parent.__init(self, nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH)
   self.dilationW = dilationW or 1
   self.dilationH = dilationH or 1
end

function SpatialDilatedConvolution:updateOutput(input)
   nn.utils.convolutionBuffers(self)
   input.THNN.SpatialDilatedConvolution_updateOutput(input, self.output, self.weight, self.bias, self.finput,
                                                     self.fgradInput, self.kW, self.kH, self.dW, self.dH, self.padW,
                                                     self.padH, self.dilationW, self.dilationH)
   return self.output
end

function SpatialDilatedConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      nn.utils.convolutionBuffers(self)
      input.THNN.SpatialDilatedConvolution_updateGradInput(input, gradOutput, self.gradInput, self.weight,
                                                           self.finput, self.kW, self.kH, self.dW, self.dH,
                                                           self.padW, self.padH, self.dilationW, self.dilationH)
      return self.gradInput
   end
end

function SpatialDilatedConvolution:accGradParameters(input, gradOutput, scale)
   nn.utils.convolutionBuffers(self)
   input.THNN.SpatialDilatedConvolution_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias,
                                                          self.finput, self.fgradInput, self.kW, self.kH, self.dW,
                                                          self.dH, self.padW, self.padH, self.dilationW,
                                                          self.dilationH, scale or 1)
end

function SpatialDilatedConvolution:__tostring__()
   return nn.utils.convolutionString(self, { { self.kW, self.kH } }, { self.dW, self.dH }, { self.padW, self.padH },
                                     { { self.dilationW, self.dilationH } })
end
