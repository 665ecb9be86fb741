-- nn.SpatialSubSampling(nInputPlane, kW, kH[, dW = 1, dH = 1]): per plane, the sum of each
-- kW x kH window times a trained scalar, plus a trained bias: weight and bias nInputPlane.
local SpatialSubSampling, parent = torch.class('nn.SpatialSubSampling', 'nn.Module')

function SpatialSubSampling:__init(nInputPlane, kW, kH, dW, dH)
   parent.__init(self)
   self.nInputPlane = nInputPlane
   self.kW = kW
   self.kH = kH
   self.dW = dW or 1
   self.dH = dH or 1
   self.weight = torch.Tensor(nInputPlane)
   self.bias = torch.Tensor(nInputPlane)
   self.gradWeight = torch.Tensor(nInputPlane)
   self.gradBias = torch.Tensor(nInputPlane)
   self:reset()
end

function SpatialSubSampling:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.kW * self.kH)
end

function SpatialSubSampling:updateOutput(input)
   input.THNN.SpatialSubSampling_updateOutput(input, self.output, self.weight, self.bias, self.kW, self.kH, self.dW,
                                              self.dH)
   return self.output
end

function SpatialSubSampling:updateGradInput(input, gradOutput)
   if self.gradInput then
      input.THNN.SpatialSubSampling_updateGradInput(input, gradOutput, self.gradInput, self.weight, self.kW, self.kH,
                                                    self.dW, self.dH)
      return self.gradInput
   end
end

function SpatialSubSampling:accGradParameters(input, gradOutput, scale)
   input.THNN.SpatialSubSampling_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias, self.kW,
                                                   self.kH, self.dW, self.dH, scale or 1)
end
