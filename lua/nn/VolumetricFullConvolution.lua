-- nn.VolumetricFullConvolution(nInputPlane, nOutputPlane, kT, kW, kH[, dT = 1, dW = 1, dH = 1[,
-- padT = 0, padW = 0, padH = 0[, adjT = 0, adjW = 0, adjH = 0]]]): the transposed 3-D
-- convolution, weight nInputPlane x nOutputPlane x kT x kH x kW; each output size is
-- (in - 1) d - 2 pad + k + adj. The input may be { input, target }: the adjustments are then
-- chosen so that the output takes target's last three sizes.
local VolumetricFullConvolution, parent = torch.class('nn.VolumetricFullConvolution', 'nn.Module')

function VolumetricFullConvolution:__init(nInputPlane, nOutputPlane, kT, kW, kH, dT, dW, dH, padT, padW, padH,
                                          adjT, adjW, adjH)
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
   self.padW = padW or 0
   self.padH = padH or 0
   self.adjT = adjT or 0
   self.adjW = adjW or 0
   self.adjH = adjH or 0
   if self.adjW > self.dW - 1 or self.adjH > self.dH - 1 or self.adjT > self.dT - 1 then
      error('nn.VolumetricFullConvolution: adjW, adjH and adjT must be smaller than dW, dH and dT', 2)
   end
   nn.utils.allocateParameters(self, { nInputPlane, nOutputPlane, kT, kH, kW }, { nOutputPlane })
   self:reset()
end

VolumetricFullConvolution.noBias = nn.utils.noBias
VolumetricFullConvolution.type = nn.utils.convolutionType
VolumetricFullConvolution.clearState = nn.utils.convolutionClearState

function VolumetricFullConvolution:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.kT * self.kW * self.kH * self.nInputPlane)
end

-- the input tensor and the adjustments: { input, target } asks for target's sizes
local function unpack(self, input)
   if type(input) ~= 'table' then return input, self.adjT, self.adjW, self.adjH end
   local target = input[2]
   local n = target:dim()
   local function adj(size, k, pad, d) return (size + 2 * pad - k) % d end
   return input[1], adj(target:size(n - 2), self.kT, self.padT, self.dT),
          adj(target:size(n), self.kW, self.padW, self.dW), adj(target:size(n - 1), self.kH, self.padH, self.dH)
end

function VolumetricFullConvolution:updateOutput(input)
   nn.utils.convolutionBuffers(self)
   local x, adjT, adjW, adjH = unpack(self, input)
   x.THNN.VolumetricFullConvolution_updateOutput(x, self.output, self.weight, self.bias, self.finput, self.fgradInput,
                                                 self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT,
                                                 self.padW, self.padH, adjT, adjW, adjH)
   return self.output
end

function VolumetricFullConvolution:updateGradInput(input, gradOutput)
   if not self.gradInput then return end
   nn.utils.convolutionBuffers(self)
   local x, adjT, adjW, adjH = unpack(self, input)
   local gradInput = nn.utils.fullConvolutionGradInput(self, input, x)
   x.THNN.VolumetricFullConvolution_updateGradInput(x, gradOutput, gradInput, self.weight, self.finput,
                                                    self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                    self.dH, self.padT, self.padW, self.padH, adjT, adjW, adjH)
   return self.gradInput
end

function VolumetricFullConvolution:accGradParameters(input, gradOutput, scale)
   nn.utils.convolutionBuffers(self)
   local x, adjT, adjW, adjH = unpack(self, input)
   x.THNN.VolumetricFullConvolution_accGradParameters(x, gradOutput, self.gradWeight, self.gradBias, self.finput,
                                                      self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                      self.dH, self.padT, self.padW, self.padH, adjT, adjW, adjH,
                                                      scale or 1)
end

function VolumetricFullConvolution:__tostring__()
   -- torch7 prints this one W, H, T
   local adjusted = self.adjW ~= 0 or self.adjH ~= 0 or self.adjT ~= 0
   return nn.utils.convolutionString(self, { { self.kW, self.kH, self.kT } }, { self.dW, self.dH, self.dT },
                                     { self.padW, self.padH, self.padT },
                                     adjusted and { { self.adjW, self.adjH, self.adjT } })
end
