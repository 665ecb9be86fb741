-- nn.SpatialFullConvolution(nInputPlane, nOutputPlane, kW, kH[, dW = 1, dH = 1[, padW = 0,
-- padH = 0[, adjW = 0, adjH = 0]]]): the transposed 2-D convolution, weight
-- nInputPlane x nOutputPlane x kH x kW; each output size is (in - 1) d - 2 pad + k + adj.
-- The input may be { input, target }: the adjustments are then chosen so that the output
-- takes target's last two sizes (the target gets a zero gradient). finput holds the
-- columns; fgradInput is torch7's unused `ones`.
local SpatialFullConvolution, parent = torch.class('nn.SpatialFullConvolution', 'nn.Module')

function SpatialFullConvolution:__init(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH, adjW, adjH)
   parent.__init(self)
   self.nInputPlane = nInputPlane
   self.nOutputPlane = nOutputPlane
   self.kW = kW
   self.kH = kH
   self.dW = dW or 1
   self.dH = dH or 1
   self.padW = padW or 0
   self.padH = padH or 0
   self.adjW = adjW or 0
   self.adjH = adjH or 0
   if self.adjW > self.dW - 1 or self.adjH > self.dH - 1 then
      error('nn.SpatialFullConvolution: adjW and adjH must be smaller than dW and dH', 2)
   end
   nn.utils.allocateParameters(self, { nInputPlane, nOutputPlane, kH, kW }, { nOutputPlane })
   self:reset()
end

SpatialFullConvolution.noBias = nn.utils.noBias
SpatialFullConvolution.type = nn.utils.convolutionType
SpatialFullConvolution.clearState = nn.utils.convolutionClearState

function SpatialFullConvolution:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.kW * self.kH * self.nInputPlane)
end

-- the input tensor and the adjustments: { input, target } asks for target's sizes
local function unpack(self, input)
   if type(input) ~= 'table' then return input, self.adjW, self.adjH end
   local target = input[2]
   local n = target:dim()
   local function adj(size, k, pad, d) return (size + 2 * pad - k) % d end
   return input[1], adj(target:size(n), self.kW, self.padW, self.dW), adj(target:size(n - 1), self.kH, self.padH, self.dH)
end

function SpatialFullConvolution:updateOutput(input)
   nn.utils.convolutionBuffers(self)
   local x, adjW, adjH = unpack(self, input)
   x.THNN.SpatialFullConvolution_updateOutput(x, self.output, self.weight, self.bias, self.finput, self.fgradInput,
                                              self.kW, self.kH, self.dW, self.dH, self.padW, self.padH, adjW, adjH)
   return self.output
end

function SpatialFullConvolution:updateGradInput(input, gradOutput)
   if not self.gradInput then return end
   nn.utils.convolutionBuffers(self)
   local x, adjW, adjH = unpack(self, input)
   local gradInput = nn.utils.fullConvolutionGradInput(self, input, x)
   x.THNN.SpatialFullConvolution_updateGradInput(x, gradOutput, gradInput, self.weight, self.finput, self.kW,
                                                 self.kH, self.dW, self.dH, self.padW, self.padH, adjW, adjH)
   return self.gradInput
end

function SpatialFullConvolution:accGradParameters(input, gradOutput, scale)
   nn.utils.convolutionBuffers(self)
   local x, adjW, adjH = unpack(self, input)
   x.THNN.SpatialFullConvolution_accGradParameters(x, gradOutput, self.gradWeight, self.gradBias, self.finput,
                                                   self.fgradInput, self.kW, self.kH, self.dW, self.dH, self.padW,
                                                   self.padH, adjW, adjH, scale or 1)
end

function SpatialFullConvolution:__tostring__()
   local adjusted = self.adjW ~= 0 or self.adjH ~= 0
   return nn.utils.convolutionString(self, { { self.kW, self.kH } }, { self.dW, self.dH }, { self.padW, self.padH },
                                     adjusted and { { self.adjW, self.adjH } })
end
