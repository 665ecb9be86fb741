-- nn.TemporalConvolution(inputFrameSize, outputFrameSize, kW[, dW = 1]): a 1-D convolution
-- over a sequence [nInputFrame, inputFrameSize] (or a batch [B, nInputFrame,
-- inputFrameSize]); frame t of the output is weight times the kW input frames from
-- (t - 1) dW + 1 laid end to end, plus bias. weight: [outputFrameSize, kW *
-- inputFrameSize].
local TemporalConvolution, parent = torch.class('nn.TemporalConvolution', 'nn.Module')

function TemporalConvolution:__init(inputFrameSize, outputFrameSize, kW, dW)
   parent.__init(self)
   self.inputFrameSize = inputFrameSize
   self.outputFrameSize = outputFrameSize
   self.kW = kW
   self.dW = dW or 1
   nn.utils.allocateParameters(self, { outputFrameSize, inputFrameSize * kW }, { outputFrameSize })
   self:reset()
end

function TemporalConvolution:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.kW * self.inputFrameSize)
end

function TemporalConvolution:updateOutput(input)
   input.THNN.TemporalConvolution_updateOutput(input, self.output, self.weight, self.bias, self.kW, self.dW,
                                               self.inputFrameSize, self.outputFrameSize)
   return self.output
end

function TemporalConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      input.THNN.TemporalConvolution_updateGradInput(input, gradOutput, self.gradInput, self.weight, self.kW,
                                                     self.dW)
      return self.gradInput
   end
end

function TemporalConvolution:accGradParameters(input, gradOutput, scale)
   input.THNN.TemporalConvolution_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias, self.kW,
                                                    self.dW, scale or 1)
end

function TemporalConvolution:__tostring__()
   return torch.type(self) .. string.format('(%d -> %d, %d, %d)', self.inputFrameSize, self.outputFrameSize,
                                             self.kW, self.dW)
end
