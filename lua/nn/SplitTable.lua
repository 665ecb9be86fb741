-- nn.SplitTable(dimension[, nInputDims]): the slices of a tensor along dimension (1-based;
-- negative counts from the last), as a table; the inverse of JoinTable over stacked
-- slices. With nInputDims, an input of nInputDims + 1 dimensions is a batch.
local SplitTable, parent = torch.class('nn.SplitTable', 'nn.Module')

function SplitTable:__init(dimension, nInputDims)
   parent.__init(self)
   if type(dimension) ~= 'number' then error('nn.SplitTable(dimension[, nInputDims]): a dimension expected', 2) end
   self.dimension = dimension
   self.nInputDims = nInputDims
end

function SplitTable:_getPositiveDimension(input)
   local dimension = nn.utils.positiveDimension(self, input:dim())
   if dimension < 1 or dimension > input:dim() then
      error(string.format('nn.SplitTable: dimension %d out of range for a %dD input', dimension, input:dim()), 3)
   end
   return dimension
end

function SplitTable:updateOutput(input)
   local dimension = self:_getPositiveDimension(input)
   local slices = input:size(dimension)
   if type(self.output) ~= 'table' then self.output = {} end
   for i = 1, slices do self.output[i] = input:select(dimension, i) end
   for i = slices + 1, #self.output do self.output[i] = nil end
   return self.output
end

-- a slice whose gradOutput is missing gets a zero gradient
function SplitTable:updateGradInput(input, gradOutput)
   local dimension = self:_getPositiveDimension(input)
   self.gradInput:resizeAs(input):zero()
   for i = 1, input:size(dimension) do
      if gradOutput[i] then self.gradInput:select(dimension, i):copy(gradOutput[i]) end
   end
   return self.gradInput
end
