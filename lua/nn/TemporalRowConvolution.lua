-- nn.TemporalRowConvolution(inputFrameSize, kW[, dW = 1[, featFirst = false]]): a 1-D
-- convolution of each feature row with a kernel of its own (depthwise): for an input of
-- nInputFrame x inputFrameSize (inputFrameSize x nInputFrame with featFirst, or a batch),
-- y[t][c] = bias[c] + sum_k weight[c][1][k] x[(t - 1) dW + k][c].
local TemporalRowConvolution, parent = torch.class('nn.TemporalRowConvolution', 'nn.Module')

function TemporalRowConvolution:__init(inputFrameSize, kW, dW, featFirst)
   parent.__init(self)
   self.inputFrameSize = inputFrameSize
   self.kW = kW
   self.dW = dW or 1
   self.featFirst = featFirst or false
   self.weight = torch.Tensor(inputFrameSize, 1, kW)
   self.bias = torch.Tensor(inputFrameSize)
   self.gradWeight = torch.Tensor(inputFrameSize, 1, kW):zero()
   self.gradBias = torch.Tensor(inputFrameSize):zero()
   self:reset()
end

function TemporalRowConvolution:reset(stdv)
   stdv = stdv or 1 / math.sqrt(self.kW * self.inputFrameSize)
   self.weight:uniform(-stdv, stdv)
   self.bias:uniform(-stdv, stdv)
end

function TemporalRowConvolution:_buffers(input)
   self.finput = self.finput or input.new()
   self.fgradInput = self.fgradInput or input.new()
end

function TemporalRowConvolution:updateOutput(input)
   self:_buffers(input)
   input.THNN.TemporalRowConvolution_updateOutput(input, self.output, self.weight, self.bias, self.finput,
                                                  self.fgradInput, self.kW, self.dW, 0, self.featFirst)
   return self.output
end

function TemporalRowConvolution:updateGradInput(input, gradOutput)
   if self.gradInput then
      self:_buffers(input)
      input.THNN.TemporalRowConvolution_updateGradInput(input, gradOutput, self.gradInput, self.weight, self.finput,
                                                        self.fgradInput, self.kW, self.dW, 0, self.featFirst)
      return self.gradInput
   end
end

function TemporalRowConvolution:accGradParameters(input, gradOutput, scale)
   self:_buffers(input)
   input.THNN.TemporalRowConvolution_accGradParameters(input, gradOutput, self.gradWeight, self.gradBias,
                                                       self.finput, self.fgradInput, self.kW, self.dW, 0,
                                                       self.featFirst, scale or 1)
end

function TemporalRowConvolution:clearState()
   nn.utils.clear(self, 'finput', 'fgradInput')
   return parent.clearState(self)
end

function TemporalRowConvolution:__tostring__()
   local s = string.format('%s(%d, %d', torch.type(self), self.inputFrameSize, self.kW)
   if self.dW ~= 1 then s = s .. ', ' .. self.dW end
   return s .. ')'
end
