-- nn.TemporalSubSampling(inputFrameSize, kW[, dW = 1]): output frame t, feature f is
-- weight[f] times the sum of the kW input frames from (t - 1) dW + 1, plus bias[f]; input
-- [nInputFrame, inputFrameSize] (or a batch of them).
local TemporalSubSampling, parent = torch.class('nn.TemporalSubSampling', 'nn.Module')

function TemporalSubSampling:__init(inputFrameSize, kW, dW)
   parent.__init(self)
   self.inputFrameSize = inputFrameSize
   self.kW = kW
   self.dW = dW or 1
   self.weight = torch.Tensor(inputFrameSize)
   self.bias = torch.Tensor(inputFrameSize)
   self.gradWeight = torch.Tensor(inputFrameSize)
   self.gradBias = torch.Tensor(inputFrameSize)
   self:reset()
end

function TemporalSubSampling:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.kW)
end

function TemporalSubSampling:updateOutput(input)
   input.THNN.TemporalSubSampling_updateOutput(input, self.output, self.weight, self.bias, self.kW, self.dW,
                                               self.inputFrameSize)
   return self.output
end

function TemporalSubSampling:updateGradInput(input, gradOutput)
   if self.gradInput then
      input.THNN.TemporalSubSampling_updateGradInput(input, gradOutput, self.gradInput, self.weight, self.kW,
                                                     self.dW)
      return self.gradInput
   end
end

function TemporalSubSampling:accGradParameters(input, gradOutput, scale)
   input.THNN.TemporalSubSampling_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias, self.kW,
                                                    self.dW, scale or 1)
end
