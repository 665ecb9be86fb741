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
   self.weight = torch.Tensor(nOutputPlane, nInputPlane, kT, kH, kW)
   self.bias = torch.Tensor(nOutputPlane)
   self.gradWeight = torch.Tensor(nOutputPlane, nInputPlane, kT, kH, kW)
   self.gradBias = torch.Tensor(nOutputPlane)
   self:reset()
end

function VolumetricConvolution:noBias()
   self.bias = nil
   self.gradBias = nil
   return self
end

-- uniform in [-stdv, stdv], stdv = 1 / sqrt(kT kW kH nInputPlane) unless given
function VolumetricConvolution:reset(stdv)
   if stdv then
      stdv = stdv * math.sqrt(3)
   else
      stdv = 1 / math.sqrt(self.kT * self.kW * self.kH * self.nInputPlane)
   end
   self.weight:uniform(-stdv, stdv)
   if self.bias then self.bias:uniform(-stdv, stdv) end
   return self
end

local function buffers(self)
   self.finput = self.finput or self.weight.new()
   self.fgradInput = self.fgradInput or self.weight.new()
end

function VolumetricConvolution:updateOutput(input)
   buffers(self)
   input.THNN.VolumetricConvolutionMM_updateOutput(input, self.output, self.weight, self.bias, self.finput,
                                                   self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                   self.dH, self.padT, self.padW, self.padH)
   return self.output
end

function VolumetricConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      buffers(self)
      input.THNN.VolumetricConvolutionMM_updateGradInput(input, gradOutput, self.gradInput, self.weight, self.finput,
                                                         self.fgradInput, self.kT, self.kW, self.kH, self.dT, self.dW,
                                                         self.dH, self.padT, self.padW, self.padH)
      return self.gradInput
   end
end

function VolumetricConvolution:accGradParameters(input, gradOutput, scale)
   buffers(self)
   input.THNN.VolumetricConvolutionMM_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias,
                                                        self.finput, self.fgradInput, self.kT, self.kW, self.kH,
                                                        self.dT, self.dW, self.dH, self.padT, self.padW, self.padH,
                                                        scale or 1)
end

function VolumetricConvolution:type(typename, tensorCache)
   -- buffers are remade in the new type rather than converted
   if typename then
      self.finput = self.finput and torch.Tensor()
      self.fgradInput = self.fgradInput and torch.Tensor()
   end
   return parent.type(self, typename, tensorCache)
end

function VolumetricConvolution:__tostring__()
   local s = string.format('%s(%d -> %d, %dx%dx%d', torch.type(self), self.nInputPlane, self.nOutputPlane, self.kT,
                           self.kW, self.kH)
   if self.dT ~= 1 or self.dW ~= 1 or self.dH ~= 1 or self.padT ~= 0 or self.padW ~= 0 or self.padH ~= 0 then
      s = s .. string.format(', %d,%d,%d', self.dT, self.dW, self.dH)
   end
   if self.padT ~= 0 or self.padW ~= 0 or self.padH ~= 0 then
      s = s .. string.format(', %d,%d,%d', self.padT, self.padW, self.padH)
   end
   return s .. (self.bias and ')' or ') without bias')
end

function VolumetricConvolution:clearState()
   nn.utils.clear(self, 'finput', 'fgradInput', '_input', '_gradOutput')
   return parent.clearState(self)
end
