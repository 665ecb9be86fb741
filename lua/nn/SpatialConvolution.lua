-- nn.SpatialConvolution(nInputPlane, nOutputPlane, kW, kH[, dW = 1, dH = 1[, padW = 0,
-- padH = padW]]): 2-D convolution of planes (nInputPlane x H x W) or batches of them,
-- weight nOutputPlane x nInputPlane x kH x kW, through THNN's unfold + GEMM kernels
-- (finput and fgradInput are their buffers).
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
   self.weight = torch.Tensor(nOutputPlane, nInputPlane, kH, kW)
   self.bias = torch.Tensor(nOutputPlane)
   self.gradWeight = torch.Tensor(nOutputPlane, nInputPlane, kH, kW)
   self.gradBias = torch.Tensor(nOutputPlane)
   self:reset()
end

function SpatialConvolution:noBias()
   self.bias = nil
   self.gradBias = nil
   return self
end

-- uniform in [-stdv, stdv], stdv = 1 / sqrt(kW kH nInputPlane) unless given
function SpatialConvolution:reset(stdv)
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

function SpatialConvolution:updateOutput(input)
   buffers(self)
   input.THNN.SpatialConvolutionMM_updateOutput(input, self.output, self.weight, self.bias, self.finput,
                                                self.fgradInput, self.kW, self.kH, self.dW, self.dH,
                                                self.padW, self.padH)
   return self.output
end

function SpatialConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      buffers(self)
      input.THNN.SpatialConvolutionMM_updateGradInput(input, gradOutput, self.gradInput, self.weight, self.finput,
                                                      self.fgradInput, self.kW, self.kH, self.dW, self.dH,
                                                      self.padW, self.padH)
      return self.gradInput
   end
end

function SpatialConvolution:accGradParameters(input, gradOutput, scale)
   buffers(self)
   input.THNN.SpatialConvolutionMM_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias, self.finput,
                                                     self.fgradInput, self.kW, self.kH, self.dW, self.dH,
                                                     self.padW, self.padH, scale or 1)
end

function SpatialConvolution:type(typename, tensorCache)
   -- buffers are remade in the new type rather than converted
   if typename then
      self.finput = self.finput and torch.Tensor()
      self.fgradInput = self.fgradInput and torch.Tensor()
   end
   return parent.type(self, typename, tensorCache)
end

function SpatialConvolution:__tostring__()
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

function SpatialConvolution:clearState()
   nn.utils.clear(self, 'finput', 'fgradInput', '_input', '_gradOutput')
   return parent.clearState(self)
end
