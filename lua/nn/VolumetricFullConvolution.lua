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
   self.weight = torch.Tensor(nInputPlane, nOutputPlane, kT, kH, kW)
   self.gradWeight = torch.Tensor(nInputPlane, nOutputPlane, kT, kH, kW)
   self.bias = torch.Tensor(nOutputPlane)
   self.gradBias = torch.Tensor(nOutputPlane)
   self:reset()
end

function VolumetricFullConvolution:noBias()
   self.bias = nil
   self.gradBias = nil
   return self
end

function VolumetricFullConvolution:reset(stdv)
   if stdv then
      stdv = stdv * math.sqrt(3)
   else
      stdv = 1 / math.sqrt(self.kT * self.kW * self.kH * self.nInputPlane)
   end
   self.weight:uniform(-stdv, stdv)
   if self.bias then self.bias:uniform(-stdv, stdv) end
   return self
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

local function buffers(self)
   self.finput = self.finput or self.weight.new()
   self.fgradInput = self.fgradInput or self.weight.new()
end

function VolumetricFullConvolution:updateOutput(input)
   buffers(self)
   local x, adjT, adjW, adjH = unpack(self, input)
   x.THNN.VolumetricFullConvolution_updateOutput(x, self.output, self.weight, self.bias, self.finput, self.fgradInput,
                                                 self.kT, self.kW, self.kH, self.dT, self.dW, self.dH, self.padT,
                                                 self.padW, self.padH, adjT, adjW, adjH)
   return self.output
end

function VolumetricFullConvolution:updateGradInput(input, gradOutput)
   if not self.gradInput then return end
   buffers(self)
   local x, adjT, adjW, adjH = unpack(self, input)
   local gradInput = self.gradInput
   if type(input) == 'table' then
      -- the target gets a zero gradient
      self.gradInput = torch.isTensor(gradInput) and { gradInput, x.new() } or gradInput
      gradInput = self.gradInput[1]
      self.gradInput[2]:resizeAs(input[2]):zero()
   elseif type(gradInput) == 'table' then
      gradInput = gradInput[1]
      self.gradInput = gradInput
   end
   x.THNN.VolumetricFullConvolution_updateGradInput(x, gradOutput, gradInput, self.weight, self.finput,
                                                    self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                    self.dH, self.padT, self.padW, self.padH, adjT, adjW, adjH)
   return self.gradInput
end

function VolumetricFullConvolution:accGradParameters(input, gradOutput, scale)
   buffers(self)
   local x, adjT, adjW, adjH = unpack(self, input)
   x.THNN.VolumetricFullConvolution_accGradParameters(x, gradOutput, self.gradWeight, self.gradBias, self.finput,
                                                      self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                      self.dH, self.padT, self.padW, self.padH, adjT, adjW, adjH,
                                                      scale or 1)
end

function VolumetricFullConvolution:type(typename, tensorCache)
   if typename then
      self.finput = self.finput and torch.Tensor()
      self.fgradInput = self.fgradInput and torch.Tensor()
   end
   return parent.type(self, typename, tensorCache)
end

function VolumetricFullConvolution:__tostring__()
   local s = string.format('%s(%d -> %d, %dx%dx%d', torch.type(self), self.nInputPlane, self.nOutputPlane, self.kW,
                           self.kH, self.kT)
   if self.dW ~= 1 or self.dH ~= 1 or self.dT ~= 1 or self.padW ~= 0 or self.padH ~= 0 or self.padT ~= 0 then
      s = s .. string.format(', %d,%d,%d', self.dW, self.dH, self.dT)
   end
   if self.padW ~= 0 or self.padH ~= 0 or self.padT ~= 0 then
      s = s .. string.format(', %d,%d,%d', self.padW, self.padH, self.padT)
   end
   if self.adjW ~= 0 or self.adjH ~= 0 or self.adjT ~= 0 then
      s = s .. string.format(', %d,%d,%d', self.adjW, self.adjH, self.adjT)
   end
   return s .. (self.bias and ')' or ') without bias')
end

function VolumetricFullConvolution:clearState()
   nn.utils.clear(self, 'finput', 'fgradInput', '_input', '_gradOutput')
   return parent.clearState(self)
end
