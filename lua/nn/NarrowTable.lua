-- nn.NarrowTable(offset[, length = 1]): the elements offset .. offset + length - 1 of a
-- table; a negative length counts from the end (-1: up to the last element).
local NarrowTable, parent = torch.class('nn.NarrowTable', 'nn.Module')

function NarrowTable:__init(offset, length)
   parent.__init(self)
   if type(offset) ~= 'number' then error('nn.NarrowTable(offset[, length]): an offset expected', 2) end
   self.offset = offset
   self.length = length or 1
   self.output = {}
   self.gradInput = {}
end

function NarrowTable:_length(input)
   local length = self.length
   if length < 0 then length = #input - self.offset + 2 + length end
   if self.offset < 1 or length < 0 or self.offset + length - 1 > #input then
      error(string.format('nn.NarrowTable: elements %d to %d out of range for a table of %d elements',
                          self.offset, self.offset + length - 1, #input), 3)
   end
   return length
end

function NarrowTable:updateOutput(input)
   local length = self:_length(input)
   self.output = {}
   for i = 1, length do self.output[i] = input[self.offset + i - 1] end
   return self.output
end

function NarrowTable:updateGradInput(input, gradOutput)
   local length = self:_length(input)
   for i = 1, #input do
      if i >= self.offset and i < self.offset + length then
         self.gradInput[i] = nn.utils.recursiveCopy(self.gradInput[i], gradOutput[i - self.offset + 1])
      else
         self.gradInput[i] = nn.utils.recursiveFill(nn.utils.recursiveResizeAs(self.gradInput[i], input[i]), 0)
      end
   end
   for i = #input + 1, #self.gradInput do self.gradInput[i] = nil end
   return self.gradInput
end

function NarrowTable:type(typename, tensorCache)
   self.output, self.gradInput = {}, {}
   return parent.type(self, typename, tensorCache)
end

-- the output holds the inputs themselves: drop them rather than empty them
function NarrowTable:clearState()
   self.output, self.gradInput = {}, {}
   return self
end

function NarrowTable:__tostring__()
   return torch.type(self) .. '(' .. self.offset .. ', ' .. self.length .. ')'
end
