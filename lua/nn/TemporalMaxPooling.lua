-- nn.TemporalMaxPooling(kW[, dW = kW]): the maximum of each feature over windows of kW
-- frames every dW frames, for [nInputFrame, frameSize] or a batch of them.
local TemporalMaxPooling, parent = torch.class('nn.TemporalMaxPooling', 'nn.Module')

function TemporalMaxPooling:__init(kW, dW)
   parent.__init(self)
   dW = dW or kW
   self.kW = kW
   self.dW = dW
end

function TemporalMaxPooling:updateOutput(input)
   self.indices = self.indices or torch.LongTensor()
   input.THNN.TemporalMaxPooling_updateOutput(input, self.output, self.indices, self.kW, self.dW)
   return self.output
end

function TemporalMaxPooling:updateGradInput(input, gradOutput)
   if self.gradInput then
      input.THNN.TemporalMaxPooling_updateGradInput(input, gradOutput, self.gradInput, self.indices, self.kW,
                                                    self.dW)
      return self.gradInput
   end
end

-- type() needs no override: nn.utils.recursiveType leaves the LongTensor indices as they are
TemporalMaxPooling.clearState = nn.utils.maxPoolingClearState
