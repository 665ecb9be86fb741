-- nn.SpatialConvolution(nInputPlane, nOutputPlane, kW, kH[, dW = 1, dH = 1[, padW = 0,
-- padH = padW]]): 2-D convolution of planes (nInputPlane x H x W) or batches of them,
-- weight nOutputPlane x nInputPlane x kH x kW, through THNN's kernels: oneDNN for float, unfold +
-- GEMM for double (finput and fgradInput are their buffers).
local SpatialConvolution, parent = torch.class('nn.SpatialConvolution', 'nn.Module')

function SpatialConvolution:__init(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH)
   parent.__init(self)
   self.nInputPlane = nInputPlane
   self.nOutputPlane = nOutputPlane
   self.kW = kW
   self.kH = kH
   self.dW = dW or 1
   self.dH = dH or 1
   self.padW = padW or 0
   self.padH = padH or self.padW
   nn.utils.allocateParameters(self, { nOutputPlane, nInputPlane, kH, kW }, { nOutputPlane })
   self:reset()
end

SpatialConvolution.noBias = nn.utils.noBias
SpatialConvolution.type = nn.utils.convolutionType
SpatialConvolution.clearState = nn.utils.convolutionClearState

-- uniform in [-stdv, stdv], stdv = 1 / sqrt(kW kH nInputPlane) unless given
function SpatialConvolution:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.kW * self.kH * self.nInputPlane)
end

function SpatialConvolution:updateOutput(input)
   nn.utils.convolutionBuffers(self)
   input.THNN.SpatialConvolutionMM_updateOutput(input, self.output, self.weight, self.bias, self.finput,
                                                self.fgradInput, self.kW, self.kH, self.dW, self.dH,
                                                self.padW, self.padH)
   return self.output
end

function SpatialConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      nn.utils.convolutionBuffers(self)
      input.THNN.SpatialConvolutionMM_updateGradInput(input, gradOutput, self.gradInput, self.weight, self.finput,
                                                      self.fgradInput, self.kW, self.kH, self.dW, self.dH,
                                                      self.padW, self.padH)
      return self.gradInput
   end
end

function SpatialConvolution:accGradParameters(input, gradOutput, scale)
   nn.utils.convolutionBuffers(self)
   input.THNN.SpatialConvolutionMM_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias, self.finput,
                                                     self.fgradInput, self.kW, self.kH, self.dW, self.dH,
                                                     self.padW, self.padH, scale or 1)
end

function SpatialConvolution:__tostring__()
   return nn.utils.convolutionString(self, { { self.kW, self.kH } }, { self.dW, self.dH }, { self.padW, self.padH })
end
