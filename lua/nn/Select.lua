-- nn.Select(dimension, index): the slice input:select(dimension, index), copied; both
-- 1-based, negative values count from the end (-1: the last).
local Select, parent = torch.class('nn.Select', 'nn.Module')

function Select:__init(dimension, index)
   parent.__init(self)
   if type(dimension) ~= 'number' or type(index) ~= 'number' then
      error('nn.Select(dimension, index): numbers expected', 2)
   end
   self.dimension = dimension
   self.index = index
end

function Select:_place(input)
   local dim = self.dimension < 0 and input:dim() + self.dimension + 1 or self.dimension
   if dim < 1 or dim > input:dim() then
      error(string.format('nn.Select: dimension %d out of range for an input of size %s', self.dimension,
                          nn.utils.sizeString(input)), 3)
   end
   local index = self.index < 0 and input:size(dim) + self.index + 1 or self.index
   if index < 1 or index > input:size(dim) then
      error(string.format('nn.Select: index %d out of range for dimension %d of size %d', self.index, dim,
                          input:size(dim)), 3)
   end
   return dim, index
end

function Select:updateOutput(input)
   local dim, index = self:_place(input)
   local slice = input:select(dim, index)
   self.output:resizeAs(slice):copy(slice)
   return self.output
end

function Select:updateGradInput(input, gradOutput)
   local dim, index = self:_place(input)
   self.gradInput:resizeAs(input):zero()
   self.gradInput:select(dim, index):copy(gradOutput)
   return self.gradInput
end

function Select:__tostring__()
   return torch.type(self) .. string.format('(%d, %d)', self.dimension, self.index)
end
