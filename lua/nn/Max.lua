-- nn.Max([dimension = 1[, nInputDims]]): the maximum over dimension (1-based, negative
-- counting from the last; with nInputDims a batch input skips its first dimension), that
-- dimension dropped unless it is the only one. The gradient goes to the first maximum.
local Max, parent = torch.class('nn.Max', 'nn.Module')

function Max:__init(dimension, nInputDims)
   parent.__init(self)
   self.dimension = dimension or 1
   self.nInputDims = nInputDims
end

Max.reduction = 'max'

function Max:updateOutput(input)
   local dimension = nn.Sum._getPositiveDimension(self, input)
   local values, indices = input[self.reduction](input, dimension)
   self._indices = indices
   if input:dim() > 1 then values = values:select(dimension, 1) end
   self.output:resizeAs(values):copy(values)
   return self.output
end

function Max:updateGradInput(input, gradOutput)
   local dimension = nn.Sum._getPositiveDimension(self, input)
   local view = gradOutput:contiguous():view(self._indices:size())
   self.gradInput:resizeAs(input):zero():scatter(dimension, self._indices, view)
   return self.gradInput
end

-- type() needs no override: nn.utils.recursiveType leaves the LongTensor _indices as they are

function Max:clearState()
   nn.utils.clear(self, '_indices')
   return parent.clearState(self)
end
