-- nn.Sum([dimension = 1[, nInputDims[, sizeAverage = false[, squeeze = true]]]]): the sum
-- (the mean with sizeAverage) over dimension, 1-based, negative counting from the last.
-- With nInputDims, an input of nInputDims + 1 dimensions is a batch and dimension skips
-- the batch dimension. squeeze drops the summed dimension (unless it is the only one).
local Sum, parent = torch.class('nn.Sum', 'nn.Module')

function Sum:__init(dimension, nInputDims, sizeAverage, squeeze)
   parent.__init(self)
   self.dimension = dimension or 1
   self.nInputDims = nInputDims
   self.sizeAverage = sizeAverage or false
   if squeeze ~= nil and type(squeeze) ~= 'boolean' then error('nn.Sum: squeeze has to be true or false', 2) end
   self.squeeze = squeeze == nil and true or squeeze
end

-- shared with Max, Min and Mean
function Sum._getPositiveDimension(self, input)
   local dimension = nn.utils.positiveDimension(self, input:dim())
   if dimension < 1 or dimension > input:dim() then
      error(string.format('%s: dimension %d out of range for an input of size %s', torch.type(self), dimension,
                          nn.utils.sizeString(input)), 3)
   end
   return dimension
end

function Sum:updateOutput(input)
   local dimension = Sum._getPositiveDimension(self, input)
   local sum = input:sum(dimension)
   if self.sizeAverage then sum:div(input:size(dimension)) end
   if self.squeeze and sum:dim() > 1 then sum = sum:select(dimension, 1) end
   self.output:resizeAs(sum):copy(sum)
   return self.output
end

function Sum:updateGradInput(input, gradOutput)
   local dimension = Sum._getPositiveDimension(self, input)
   local sizes = input:size():totable()
   sizes[dimension] = 1
   local spread = gradOutput:contiguous():view(torch.LongStorage(sizes)):expandAs(input)
   self.gradInput:resizeAs(input):copy(spread)
   if self.sizeAverage then self.gradInput:div(input:size(dimension)) end
   return self.gradInput
end
