-- nn.VolumetricConvolution(nInputPlane, nOutputPlane, kT, kW, kH[, dT = 1, dW = 1, dH = 1[,
-- padT = 0, padW = padT, padH = padW]]): 3-D convolution of volumes (nInputPlane x T x H x W)
-- or batches of them, weight nOutputPlane x nInputPlane x kT x kH x kW, through THNN's
-- vol2col + GEMM kernels (finput: the columns accGradParameters reads; fgradInput: scratch).
local VolumetricConvolution, parent = torch.class('nn.VolumetricConvolution', 'nn.Module')

function VolumetricConvolution:__init(nInputPlane, nOutputPlane, kT, kW, kH, dT, dW, dH, padT, padW, padH)
   parent.__init(self)
   self.nInputPlane = nInputPlane
   self.nOutputPlane = nOutputPlane
   self.kT = kT
   self.kW = kW
   self.kH = kH
   self.dT = dT or 1
   self.dW = dW or 1
   self.dH = dH or 1
   self.padT = padT or 0
   self.padW = padW or self.padT
   self.padH = padH or self.padW
   nn.utils.allocateParameters(self, { nOutputPlane, nInputPlane, kT, kH, kW }, { nOutputPlane })
   self:reset()
end

VolumetricConvolution.noBias = nn.utils.noBias
VolumetricConvolution.type = nn.utils.convolutionType
VolumetricConvolution.clearState = nn.utils.convolutionClearState

-- uniform in [-stdv, stdv], stdv = 1 / sqrt(kT kW kH nInputPlane) unless given
function VolumetricConvolution:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.kT * self.kW * self.kH * self.nInputPlane)
end

function VolumetricConvolution:updateOutput(input)
   nn.utils.convolutionBuffers(self)
   input.THNN.VolumetricConvolutionMM_updateOutput(input, self.output, self.weight, self.bias, self.finput,
                                                   self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                   self.dH, self.padT, self.padW, self.padH)
   return self.output
end

function VolumetricConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      nn.utils.convolutionBuffers(self)
      input.THNN.VolumetricConvolutionMM_updateGradInput(input, gradOutput, self.gradInput, self.weight, self.finput,
                                                         self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                         self.dH, self.padT, self.padW, self.padH)
      return self.gradInput
   end
end

function VolumetricConvolution:accGradParameters(input, gradOutput, scale)
   nn.utils.convolutionBuffers(self)
   input.THNN.VolumetricConvolutionMM_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias,
                                                        self.finput, self.fgradInput, self.kT, self.kW, self.kH,
                                                        self.dT, self.dW, self.dH, self.padT, self.padW, self.padH,
                                                        scale or 1)
end

function VolumetricConvolution:__tostring__()
   return nn.utils.convolutionString(self, { { self.kT, self.kW, self.kH } }, { self.dT, self.dW, self.dH },
                                     { self.padT, self.padW, self.padH })
end
