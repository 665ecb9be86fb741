-- nn.FlattenTable: a nested table of tensors as one flat table, depth first in key order
-- (ipairs); gradInput has the input's nesting. As in torch7, self.input_map mirrors the
-- input's nesting with each tensor's position in the output, and the output table (and
-- the map) are rebuilt only when the input no longer matches them, so that code holding
-- m.output keeps a valid table across calls with the same structure.
local FlattenTable, parent = torch.class('nn.FlattenTable', 'nn.Module')

function FlattenTable:__init()
   parent.__init(self)
   self.output = {}
   self.input_map = {}
   self.gradInput = {}
end

-- appends input's tensors to output; returns input's map
local function flatten(output, input)
   if torch.isTensor(input) then
      output[#output + 1] = input
      return #output
   elseif type(input) == 'table' then
      local map = {}
      for i, v in ipairs(input) do map[i] = flatten(output, v) end
      return map
   end
   error('nn.FlattenTable: tensors or tables of them expected, got ' .. torch.type(input), 4)
end

-- whether flat[map's positions] are nested's tensors, with nested's structure
local function matches(flat, nested, map)
   if type(nested) == 'table' then
      if type(map) ~= 'table' or #map ~= #nested then return false end
      for i = 1, #nested do
         if not matches(flat, nested[i], map[i]) then return false end
      end
      return true
   end
   return type(map) == 'number' and flat[map] == nested
end

-- gradOutput's tensors in the nesting of map
local function unflatten(gradOutput, map)
   if type(map) == 'number' then return gradOutput[map] end
   local nested = {}
   for i, m in ipairs(map) do nested[i] = unflatten(gradOutput, m) end
   return nested
end

function FlattenTable:updateOutput(input)
   if type(input) ~= 'table' then error('nn.FlattenTable: a table expected, got ' .. torch.type(input), 2) end
   if not matches(self.output, input, self.input_map) then
      self.output = {}
      self.input_map = flatten(self.output, input)
   end
   return self.output
end

function FlattenTable:updateGradInput(input, gradOutput)
   if type(gradOutput) ~= 'table' or #gradOutput ~= #self.output then
      error('nn.FlattenTable: gradOutput must be a table of ' .. #self.output .. ' tensors', 2)
   end
   if not matches(gradOutput, self.gradInput, self.input_map) then
      self.gradInput = unflatten(gradOutput, self.input_map)
   end
   return self.gradInput
end

function FlattenTable:type(typename, tensorCache)
   self:clearState()
   return parent.type(self, typename, tensorCache)
end

-- output and gradInput hold other modules' tensors: drop them rather than empty them
function FlattenTable:clearState()
   self.output, self.gradInput, self.input_map = {}, {}, {}
   return self
end
