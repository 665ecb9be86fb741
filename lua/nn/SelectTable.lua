-- nn.SelectTable(index): the index-th element of a table (a tensor or a table); a negative
-- index counts from the end (-1 is the last). The other elements get zero gradients.
local SelectTable, parent = torch.class('nn.SelectTable', 'nn.Module')

function SelectTable:__init(index)
   parent.__init(self)
   if index == nil then error('nn.SelectTable(index): an index expected', 2) end
   self.index = index
   self.gradInput = {}
end

function SelectTable:_position(input)
   if type(self.index) ~= 'number' then return self.index end
   local n = #input
   local index = self.index < 0 and n + self.index + 1 or self.index
   if index < 1 or index > n then
      error(string.format('nn.SelectTable: index %d out of range for a table of %d elements', self.index, n), 3)
   end
   return index
end

function SelectTable:updateOutput(input)
   local index = self:_position(input)
   assert(input[index] ~= nil, 'nn.SelectTable: no element ' .. tostring(index))
   self.output = input[index]
   return self.output
end

-- zeros shaped like t (a tensor or nested table), reusing what gradInput already holds
local function zeroLike(old, t)
   if type(t) == 'table' then
      old = type(old) == 'table' and old or {}
      for k, v in pairs(t) do old[k] = zeroLike(old[k], v) end
      for k in pairs(old) do if t[k] == nil then old[k] = nil end end
      return old
   end
   old = torch.isTensor(old) and torch.typename(old) == torch.typename(t) and old or t.new()
   return old:resizeAs(t):zero()
end

function SelectTable:updateGradInput(input, gradOutput)
   local index = self:_position(input)
   for k, v in pairs(input) do
      if k ~= index then self.gradInput[k] = zeroLike(self.gradInput[k], v) end
   end
   self.gradInput[index] = nn.utils.recursiveCopy(self.gradInput[index], gradOutput)
   for k in pairs(self.gradInput) do
      if input[k] == nil then self.gradInput[k] = nil end
   end
   return self.gradInput
end

function SelectTable:type(typename, tensorCache)
   self.gradInput = {}
   self.output = {}
   return parent.type(self, typename, tensorCache)
end

function SelectTable:__tostring__()
   return torch.type(self) .. '(' .. tostring(self.index) .. ')'
end

-- the output is one of the inputs: drop it rather than empty it
function SelectTable:clearState()
   self.output, self.gradInput = {}, {}
   return self
end
