-- nn.LookupTable(nIndex, nOutput[, paddingValue = 0[, maxNorm[, normType = 2]]]): rows of
-- weight [nIndex, nOutput] picked by 1-based ids. An input of ids [n] gives [n, nOutput],
-- a batch [B, n] gives [B, n, nOutput]. The row of id paddingValue gets no gradient; with
-- maxNorm, the rows looked up are first rescaled to a normType-norm of at most maxNorm.
local LookupTable, parent = torch.class('nn.LookupTable', 'nn.Module')

LookupTable.__version = 4

function LookupTable:__init(nIndex, nOutput, paddingValue, maxNorm, normType)
   parent.__init(self)
   if type(nIndex) ~= 'number' or type(nOutput) ~= 'number' then
      error('nn.LookupTable(nIndex, nOutput[, paddingValue[, maxNorm[, normType]]]): sizes expected', 2)
   end
   self.weight = torch.Tensor(nIndex, nOutput)
   self.gradWeight = torch.Tensor(nIndex, nOutput):zero()
   self.paddingValue = paddingValue or 0
   self.maxNorm = maxNorm
   self.normType = normType
   self.shouldScaleGradByFreq = false
   self:reset()
end

function LookupTable:backCompatibility()
   self._count = self._count or torch.IntTensor()
   self._input = self._input or torch.LongTensor()
   if not self.shouldScaleGradByFreq then self.shouldScaleGradByFreq = false end
end

-- no gradWeight: accUpdateGradParameters only (large tables)
function LookupTable:accUpdateOnly()
   self.gradWeight = nil
   return self
end

function LookupTable:setPadding(paddingValue)
   self.paddingValue = paddingValue
   return self
end

function LookupTable:setMaxNorm(maxNorm)
   self.maxNorm = maxNorm
   return self
end

function LookupTable:setNormType(normType)
   self.normType = normType
   return self
end

-- each id's gradient divided by its number of occurrences in the input
function LookupTable:scaleGradByFreq()
   self.shouldScaleGradByFreq = true
   return self
end

function LookupTable:reset(stdv)
   self.weight:normal(0, stdv or 1)
   return self
end

-- the ids as a contiguous LongTensor, checked against the table's size
function LookupTable:makeInputContiguous(input)
   if not torch.isTensor(input) or (input:dim() ~= 1 and input:dim() ~= 2) then
      error('nn.LookupTable: input must be a vector or matrix of ids, got ' .. nn.utils.sizeString(input), 3)
   end
   if torch.typename(input) ~= 'torch.LongTensor' or not input:isContiguous() then
      self._input:resize(input:size()):copy(input)
      input = self._input
   end
   if input:nElement() > 0 then
      local lo, hi = input:min(), input:max()
      if lo < 1 or hi > self.weight:size(1) then
         error(string.format('nn.LookupTable: id %d out of range (the table has ids 1 to %d)',
                             lo < 1 and lo or hi, self.weight:size(1)), 3)
      end
   end
   return input
end

function LookupTable:updateOutput(input)
   self:backCompatibility()
   input = self:makeInputContiguous(input)
   self:renorm(input)
   local flat = input:view(input:nElement())
   self.output:indexSelect(self.weight, 1, flat)
   if input:dim() == 2 then
      self.output = self.output:view(input:size(1), input:size(2), self.weight:size(2))
   end
   return self.output
end

-- the input is made of ids: its gradient is zero, of the input's type
function LookupTable:updateGradInput(input, gradOutput)
   if torch.typename(self.gradInput) ~= torch.typename(input) then self.gradInput = input.new() end
   if not self.gradInput:isSameSizeAs(input) then self.gradInput:resizeAs(input):zero() end
   return self.gradInput
end

function LookupTable:accGradParameters(input, gradOutput, scale)
   self:backCompatibility()
   input = self:makeInputContiguous(input)
   local expected = input:nElement() * self.weight:size(2)
   if gradOutput:nElement() ~= expected then
      error(string.format('nn.LookupTable: gradOutput of size %s for %d ids of %d values', 
                          nn.utils.sizeString(gradOutput), input:nElement(), self.weight:size(2)), 2)
   end
   gradOutput = gradOutput:contiguous()
   self.gradWeight.THNN.LookupTable_accGradParameters(input, gradOutput, self.gradWeight, self._count, nil, nil,
                                                      self.shouldScaleGradByFreq, self.paddingValue or 0,
                                                      scale or 1)
end

-- rows of the ids in input (a LongTensor) rescaled to norm maxNorm where larger
function LookupTable:renorm(input)
   if not self.maxNorm then return end
   self._ids = self._ids or torch.LongTensor()
   self._ids:resize(input:nElement()):copy(input:view(input:nElement()))
   self.weight.THNN.LookupTable_renorm(self._ids, self.weight, self.maxNorm, self.normType or 2)
end

function LookupTable:type(typename, tensorCache)
   -- ids and counts keep their integer types
   local input, count, ids = self._input, self._count, self._ids
   self._input, self._count, self._ids = nil, nil, nil
   parent.type(self, typename, tensorCache)
   self._input, self._count, self._ids = input, count, ids
   return self
end

function LookupTable:clearState()
   nn.utils.clear(self, '_count', '_input', '_ids')
   return parent.clearState(self)
end

-- sharing the table needs no accumulation
LookupTable.sharedAccUpdateGradParameters = LookupTable.accUpdateGradParameters
