-- nn.TemporalDynamicKMaxPooling(minK[, factor = 0]): for each feature of a
-- nInputFrame x frameSize input (or a batch), the k largest values over time kept in their
-- time order, k = max(minK, ceil(factor * nInputFrame)) (Kalchbrenner et al.).
local TemporalDynamicKMaxPooling, parent = torch.class('nn.TemporalDynamicKMaxPooling', 'nn.Module')

function TemporalDynamicKMaxPooling:__init(minK, factor)
   parent.__init(self)
   assert(type(minK) == 'number' and minK >= 1, 'nn.TemporalDynamicKMaxPooling(minK[, factor]): minK must be >= 1')
   self.minK = minK
   self.factor = factor or 0
end

function TemporalDynamicKMaxPooling:_k(input)
   if input:dim() ~= 2 and input:dim() ~= 3 then
      error('nn.TemporalDynamicKMaxPooling: 2D or 3D (batch mode) tensor expected, got ' .. nn.utils.sizeString(input), 3)
   end
   local timeDim = input:dim() - 1
   local n = input:size(timeDim)
   local k = math.max(self.minK, math.ceil(self.factor * n))
   if k > n then
      error(string.format('nn.TemporalDynamicKMaxPooling: k = %d exceeds the sequence length %d', k, n), 3)
   end
   return timeDim, k
end

function TemporalDynamicKMaxPooling:updateOutput(input)
   local timeDim, k = self:_k(input)
   local _, top = input:topk(k, timeDim, true)
   -- the chosen frames in time order
   self.indices = top:sort(timeDim)
   self.output = input:gather(timeDim, self.indices)
   return self.output
end

function TemporalDynamicKMaxPooling:updateGradInput(input, gradOutput)
   local timeDim = self:_k(input)
   self.gradInput:resizeAs(input):zero():scatter(timeDim, self.indices, gradOutput)
   return self.gradInput
end

-- type() needs no override: nn.utils.recursiveType leaves the LongTensor indices as they are
TemporalDynamicKMaxPooling.clearState = nn.utils.maxPoolingClearState
