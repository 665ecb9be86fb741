-- nn.L1Penalty(l1weight[, sizeAverage = false[, provideOutput = true]]): the identity
-- forwards, recording the loss l1weight |x|_1 (divided by the number of elements with
-- sizeAverage) in self.loss; backwards it adds that loss's gradient, l1weight sign(x), to
-- gradOutput (or gives it alone without provideOutput).
local L1Penalty, parent = torch.class('nn.L1Penalty', 'nn.Module')

function L1Penalty:__init(l1weight, sizeAverage, provideOutput)
   parent.__init(self)
   if type(l1weight) ~= 'number' then error('nn.L1Penalty(l1weight[, sizeAverage[, provideOutput]]): a weight expected', 2) end
   self.l1weight = l1weight
   self.sizeAverage = sizeAverage or false
   if provideOutput == nil then self.provideOutput = true else self.provideOutput = provideOutput end
end

function L1Penalty:_weight(input)
   if self.sizeAverage then return self.l1weight / input:nElement() end
   return self.l1weight
end

function L1Penalty:updateOutput(input)
   self.loss = self:_weight(input) * input:clone():abs():sum()
   self.output:set(input)
   return self.output
end

function L1Penalty:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(input):copy(input):sign():mul(self:_weight(input))
   if self.provideOutput then self.gradInput:add(gradOutput) end
   return self.gradInput
end
