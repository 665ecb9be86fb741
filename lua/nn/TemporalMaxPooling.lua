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

function TemporalMaxPooling:type(typename, tensorCache)
   -- the indices stay a LongTensor
   local indices = self.indices
   self.indices = nil
   parent.type(self, typename, tensorCache)
   self.indices = indices
   return self
end

function TemporalMaxPooling:clearState()
   nn.utils.clear(self, 'indices')
   return parent.clearState(self)
end
