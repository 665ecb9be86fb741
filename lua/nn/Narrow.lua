-- nn.Narrow(dimension, offset[, length = 1]): input:narrow(dimension, offset, length),
-- copied. A negative dimension counts from the end; a negative length ends that many
-- elements before the end plus one (-1: up to the last element); a negative offset takes
-- the first size - length elements, as torch7's does.
local Narrow, parent = torch.class('nn.Narrow', 'nn.Module')

function Narrow:__init(dimension, offset, length)
   parent.__init(self)
   if type(dimension) ~= 'number' or type(offset) ~= 'number' then
      error('nn.Narrow(dimension, offset[, length]): numbers expected', 2)
   end
   self.dimension = dimension
   self.index = offset
   self.length = length or 1
end

function Narrow:_range(input)
   local dim = self.dimension < 0 and input:dim() + self.dimension + 1 or self.dimension
   if dim < 1 or dim > input:dim() then
      error(string.format('nn.Narrow: dimension %d out of range for an input of size %s', self.dimension,
                          nn.utils.sizeString(input)), 3)
   end
   local size = input:size(dim)
   -- torch7's reading: a negative length counts from the end past the offset; a negative
   -- offset keeps the first size - length elements (Narrow(2, -1, 7) of 10 is 1 to 3)
   local length = self.length < 0 and size - self.index + self.length + 2 or self.length
   local index = self.index
   if index < 0 then index, length = 1, size - length end
   if index < 1 or length < 1 or index + length - 1 > size then
      error(string.format('nn.Narrow: elements %d to %d out of range for dimension %d of size %d', index,
                          index + length - 1, dim, size), 3)
   end
   return dim, index, length
end

function Narrow:updateOutput(input)
   local part = input:narrow(self:_range(input))
   self.output:resizeAs(part):copy(part)
   return self.output
end

function Narrow:updateGradInput(input, gradOutput)
   local dim, index, length = self:_range(input)
   self.gradInput:resizeAs(input):zero()
   self.gradInput:narrow(dim, index, length):copy(gradOutput)
   return self.gradInput
end

function Narrow:__tostring__()
   return torch.type(self) .. string.format('(%d, %d, %d)', self.dimension, self.index, self.length)
end
