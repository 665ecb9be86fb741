-- nn.FlattenTable: a nested table of tensors as one flat table, depth first in key order
-- (ipairs); gradInput has the input's nesting.
local FlattenTable, parent = torch.class('nn.FlattenTable', 'nn.Module')

function FlattenTable:__init()
   parent.__init(self)
   self.output = {}
   self.gradInput = {}
end

local function flatten(output, input)
   if torch.isTensor(input) then
      output[#output + 1] = input
   elseif type(input) == 'table' then
      for _, v in ipairs(input) do flatten(output, v) end
   else
      error('nn.FlattenTable: tensors or tables of them expected, got ' .. torch.type(input), 4)
   end
   return output
end

-- gradInput shaped like input, filled from gradOutput from position at on; returns the
-- next position
local function unflatten(gradInput, input, gradOutput, at)
   for i, v in ipairs(input) do
      if torch.isTensor(v) then
         gradInput[i] = gradOutput[at]
         at = at + 1
      else
         gradInput[i] = type(gradInput[i]) == 'table' and gradInput[i] or {}
         at = unflatten(gradInput[i], v, gradOutput, at)
      end
   end
   for i = #input + 1, #gradInput do gradInput[i] = nil end
   return at
end

function FlattenTable:updateOutput(input)
   if type(input) ~= 'table' then error('nn.FlattenTable: a table expected, got ' .. torch.type(input), 2) end
   self.output = flatten({}, input)
   return self.output
end

function FlattenTable:updateGradInput(input, gradOutput)
   if type(gradOutput) ~= 'table' or #gradOutput ~= #self.output then
      error('nn.FlattenTable: gradOutput must be a table of ' .. #self.output .. ' tensors', 2)
   end
   unflatten(self.gradInput, input, gradOutput, 1)
   return self.gradInput
end

function FlattenTable:type(typename, tensorCache)
   self.output, self.gradInput = {}, {}
   return parent.type(self, typename, tensorCache)
end

-- output and gradInput hold other modules' tensors: drop them rather than empty them
function FlattenTable:clearState()
   self.output, self.gradInput = {}, {}
   return self
end
