-- nn.SpatialDepthWiseConvolution(nInputPlane, nOutputPlane, kW, kH[, dW = 1, dH = 1[, padW = 0,
-- padH = 0]]): each input plane i is convolved with its own nOutputPlane filters (the depth
-- multiplier), giving nInputPlane * nOutputPlane planes; output plane (i-1)*nOutputPlane + o
-- uses weight[o][i] (nOutputPlane x nInputPlane x kH x kW) and bias[o][i]
-- (nOutputPlane x nInputPlane). finput and fgradInput are the kernels' unfold buffers.
local SpatialDepthWiseConvolution, parent = torch.class('nn.SpatialDepthWiseConvolution', 'nn.Module')

function SpatialDepthWiseConvolution:__init(nInputPlane, nOutputPlane, kW, kH, dW, dH, padW, padH)
   parent.__init(self)
   self.nInputPlane = nInputPlane
   self.nOutputPlane = nOutputPlane
   self.kW = kW
   self.kH = kH
   self.dW = dW or 1
   self.dH = dH or 1
   self.padW = padW or 0
   self.padH = padH or 0
   self.weight = torch.Tensor(nOutputPlane, nInputPlane, kH, kW)
   self.bias = torch.Tensor(nOutputPlane, nInputPlane)
   self.gradWeight = torch.Tensor(nOutputPlane, nInputPlane, kH, kW)
   self.gradBias = torch.Tensor(nOutputPlane, nInputPlane)
   self:reset()
end

function SpatialDepthWiseConvolution:noBias()
   self.bias = nil
   self.gradBias = nil
   return self
end

-- uniform in [-stdv, stdv], stdv = 1 / sqrt(kW kH nInputPlane) unless given
function SpatialDepthWiseConvolution:reset(stdv)
   if stdv then
      stdv = stdv * math.sqrt(3)
   else
      stdv = 1 / math.sqrt(self.kW * self.kH * self.nInputPlane)
   end
   self.weight:uniform(-stdv, stdv)
   if self.bias then self.bias:uniform(-stdv, stdv) end
   return self
end

local function buffers(self)
   self.finput = self.finput or self.weight.new()
   self.fgradInput = self.fgradInput or self.weight.new()
end

-- the kernel wants a bias; without one it is given zeros
local function biasOrZeros(self)
   if self.bias then return self.bias end
   self._zeroBias = self._zeroBias or self.weight.new()
   return self._zeroBias:resize(self.nOutputPlane, self.nInputPlane):zero()
end

local function checkInput(self, input)
   local dim = input:dim()
   if dim ~= 3 and dim ~= 4 then
      error(string.format('%s: expected a 3D (nInputPlane x H x W) or 4D (batch) input, got %s', torch.type(self),
                          nn.utils.sizeString(input)), 3)
   end
   if input:size(dim - 2) ~= self.nInputPlane then
      error(string.format('%s: expected %d input planes, got %s', torch.type(self), self.nInputPlane,
                          nn.utils.sizeString(input)), 3)
   end
end

function SpatialDepthWiseConvolution:updateOutput(input)
   checkInput(self, input)
   buffers(self)
   input.THNN.SpatialDepthwiseConvolution_updateOutput(input, self.output, self.weight, biasOrZeros(self),
                                                       self.finput, self.fgradInput, self.kW, self.kH, self.dW,
                                                       self.dH, self.padW, self.padH)
   return self.output
end

function SpatialDepthWiseConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      checkInput(self, input)
      buffers(self)
      input.THNN.SpatialDepthwiseConvolution_updateGradInput(input, gradOutput, self.gradInput, self.weight,
                                                             self.finput, self.fgradInput, self.kW, self.kH,
                                                             self.dW, self.dH, self.padW, self.padH)
      return self.gradInput
   end
end

function SpatialDepthWiseConvolution:accGradParameters(input, gradOutput, scale)
   checkInput(self, input)
   buffers(self)
   local gradBias = self.gradBias
   if not gradBias then
      self._gradBiasSink = self._gradBiasSink or self.weight.new()
      gradBias = self._gradBiasSink:resize(self.nOutputPlane, self.nInputPlane)
   end
   input.THNN.SpatialDepthwiseConvolution_accGradParameters(input, gradOutput, self.gradWeight, gradBias,
                                                            self.finput, self.fgradInput, self.kW, self.kH,
                                                            self.dW, self.dH, self.padW, self.padH, scale or 1)
end

function SpatialDepthWiseConvolution:type(typename, tensorCache)
   -- buffers are remade in the new type rather than converted
   if typename then
      self.finput = self.finput and torch.Tensor()
      self.fgradInput = self.fgradInput and torch.Tensor()
   end
   return parent.type(self, typename, tensorCache)
end

function SpatialDepthWiseConvolution:__tostring__()
   local s = string.format('%s(%d -> %d, %dx%d', torch.type(self), self.nInputPlane, self.nOutputPlane, self.kW,
                           self.kH)
   if self.dW ~= 1 or self.dH ~= 1 or self.padW ~= 0 or self.padH ~= 0 then
      s = s .. string.format(', %d,%d', self.dW, self.dH)
   end
   if self.padW ~= 0 or self.padH ~= 0 then
      s = s .. ', ' .. self.padW .. ',' .. self.padH
   end
   return s .. (self.bias and ')' or ') without bias')
end

function SpatialDepthWiseConvolution:clearState()
   nn.utils.clear(self, 'finput', 'fgradInput', '_zeroBias', '_gradBiasSink')
   return parent.clearState(self)
end
