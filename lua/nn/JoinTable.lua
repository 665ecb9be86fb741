-- nn.JoinTable(dimension[, nInputDims]): concatenates a table of tensors along dimension
-- (1-based; negative counts from the last). With nInputDims, an input of nInputDims + 1
-- dimensions is a batch and dimension skips the batch dimension.
local JoinTable, parent = torch.class('nn.JoinTable', 'nn.Module')

function JoinTable:__init(dimension, nInputDims)
   parent.__init(self)
   if type(dimension) ~= 'number' then error('nn.JoinTable(dimension[, nInputDims]): a dimension expected', 2) end
   self.size = torch.LongStorage()
   self.dimension = dimension
   self.gradInput = {}
   self.nInputDims = nInputDims
end

function JoinTable:_getPositiveDimension(input)
   return nn.utils.positiveDimension(self, input[1]:dim())
end

function JoinTable:updateOutput(input)
   if type(input) ~= 'table' or #input == 0 then error('nn.JoinTable: a table of tensors expected', 2) end
   local dimension = self:_getPositiveDimension(input)
   local first = input[1]
   if dimension < 1 or dimension > first:dim() then
      error(string.format('nn.JoinTable: dimension %d out of range for a %dD input', dimension, first:dim()), 2)
   end
   local sizes = first:size():totable()
   for i = 2, #input do
      local t = input[i]
      local ok = t:dim() == first:dim()
      for d = 1, first:dim() do
         if ok and d ~= dimension and t:size(d) ~= first:size(d) then ok = false end
      end
      if not ok then
         error(string.format('nn.JoinTable: input %d has size %s, input 1 has size %s (they may differ in ' ..
                             'dimension %d only)', i, nn.utils.sizeString(t), nn.utils.sizeString(first),
                             dimension), 2)
      end
      sizes[dimension] = sizes[dimension] + t:size(dimension)
   end
   self.size = torch.LongStorage(sizes)
   self.output:resize(self.size)
   local offset = 1
   for _, t in ipairs(input) do
      self.output:narrow(dimension, offset, t:size(dimension)):copy(t)
      offset = offset + t:size(dimension)
   end
   return self.output
end

function JoinTable:updateGradInput(input, gradOutput)
   local dimension = self:_getPositiveDimension(input)
   local offset = 1
   for i, t in ipairs(input) do
      self.gradInput[i] = self.gradInput[i] or t.new()
      self.gradInput[i]:resizeAs(t):copy(gradOutput:narrow(dimension, offset, t:size(dimension)))
      offset = offset + t:size(dimension)
   end
   for i = #input + 1, #self.gradInput do self.gradInput[i] = nil end
   return self.gradInput
end

function JoinTable:type(typename, tensorCache)
   self.gradInput = {}
   return parent.type(self, typename, tensorCache)
end
