-- nn.SpatialConvolutionLocal(nInputPlane, nOutputPlane, iW, iH, kW, kH[, dW = 1, dH = 1[,
-- padW = 0, padH = padW]]): SpatialConvolution with untied weights: every output position
-- (oH x oW, fixed by the input size iH x iW) has its own filters, weight
-- oH x oW x nOutputPlane x nInputPlane x kH x kW, and its own bias, nOutputPlane x oH x oW.
local SpatialConvolutionLocal, parent = torch.class('nn.SpatialConvolutionLocal', 'nn.Module')

function SpatialConvolutionLocal:__init(nInputPlane, nOutputPlane, iW, iH, kW, kH, dW, dH, padW, padH)
   parent.__init(self)
   self.nInputPlane = nInputPlane
   self.nOutputPlane = nOutputPlane
   self.iW = iW
   self.iH = iH
   self.kW = kW
   self.kH = kH
   self.dW = dW or 1
   self.dH = dH or 1
   self.padW = padW or 0
   self.padH = padH or self.padW
   self.oW = math.floor((self.padW * 2 + iW - self.kW) / self.dW) + 1
   self.oH = math.floor((self.padH * 2 + iH - self.kH) / self.dH) + 1
   assert(1 <= self.oW and 1 <= self.oH, 'nn.SpatialConvolutionLocal: illegal configuration, output width or height less than 1')
   nn.utils.allocateParameters(self, { self.oH, self.oW, nOutputPlane, nInputPlane, kH, kW },
                               { nOutputPlane, self.oH, self.oW })
   self:reset()
end

SpatialConvolutionLocal.type = nn.utils.convolutionType
SpatialConvolutionLocal.clearState = nn.utils.convolutionClearState

function SpatialConvolutionLocal:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.kW * self.kH * self.nInputPlane)
end

local function checkInputSize(self, input)
   local n = input:nDimension()
   if n ~= 3 and n ~= 4 then
      error('nn.SpatialConvolutionLocal: 3D or 4D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
   if input:size(n - 2) ~= self.nInputPlane or input:size(n - 1) ~= self.iH or input:size(n) ~= self.iW then
      error(string.format('nn.SpatialConvolutionLocal: given input size (%s) inconsistent with expected input ' ..
                          'size (%dx%dx%d)', nn.utils.sizeString(input), self.nInputPlane, self.iH, self.iW), 3)
   end
end

-- The kernels see a weight (and gradWeight) as torch7's module hands them over: viewed as
-- oH*oW x nOutputPlane x nInputPlane*kH*kW whatever its own sizes, so that a weight of the
-- right number of elements laid out per position works (nn's test fills it by repeatTensor).
local function asMatrices(self, t)
   return t:view(self.oH * self.oW, self.nOutputPlane, self.nInputPlane * self.kH * self.kW)
end

function SpatialConvolutionLocal:updateOutput(input)
   checkInputSize(self, input)
   nn.utils.convolutionBuffers(self)
   input.THNN.SpatialConvolutionLocal_updateOutput(input, self.output, asMatrices(self, self.weight), self.bias,
                                                   self.finput, self.fgradInput, self.kW, self.kH, self.dW, self.dH,
                                                   self.padW, self.padH, self.iW, self.iH, self.oW, self.oH)
   return self.output
end

function SpatialConvolutionLocal:updateGradInput(input, gradOutput)
   checkInputSize(self, input)
   if self.gradInput then
      nn.utils.convolutionBuffers(self)
      input.THNN.SpatialConvolutionLocal_updateGradInput(input, gradOutput, self.gradInput,
                                                         asMatrices(self, self.weight), self.finput, self.fgradInput,
                                                         self.kW, self.kH, self.dW, self.dH, self.padW, self.padH,
                                                         self.iW, self.iH, self.oW, self.oH)
      return self.gradInput
   end
end

function SpatialConvolutionLocal:accGradParameters(input, gradOutput, scale)
   checkInputSize(self, input)
   nn.utils.convolutionBuffers(self)
   input.THNN.SpatialConvolutionLocal_accGradParameters(input, gradOutput, asMatrices(self, self.gradWeight),
                                                        self.gradBias, self.finput, self.fgradInput, self.kW, self.kH,
                                                        self.dW, self.dH, self.padW, self.padH, self.iW, self.iH,
                                                        self.oW, self.oH, scale or 1)
end

function SpatialConvolutionLocal:__tostring__()
   return nn.utils.convolutionString(self, { { self.iW, self.iH }, { self.kW, self.kH } }, { self.dW, self.dH },
                                     { self.padW, self.padH })
end
