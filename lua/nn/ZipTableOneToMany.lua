-- nn.ZipTableOneToMany: {v, {a, b, c}} -> {{v, a}, {v, b}, {v, c}}; v's gradient is the
-- sum of the gradients of its copies.
local ZipTableOneToMany, parent = torch.class('nn.ZipTableOneToMany', 'nn.Module')

function ZipTableOneToMany:__init()
   parent.__init(self)
   self.output = {}
   self.gradInput = {}
   self.gradInputEl = torch.Tensor()
end

local function checkInput(input)
   if type(input) ~= 'table' or #input ~= 2 or type(input[2]) ~= 'table' then
      error('nn.ZipTableOneToMany: a table {element, {elements...}} expected', 3)
   end
end

function ZipTableOneToMany:updateOutput(input)
   checkInput(input)
   self.output = {}
   for i, v in ipairs(input[2]) do self.output[i] = { input[1], v } end
   return self.output
end

function ZipTableOneToMany:updateGradInput(input, gradOutput)
   checkInput(input)
   local el = input[1]
   self.gradInputEl = self.gradInputEl:typeAs(el):resizeAs(el):zero()
   local gradTable = {}
   for i, g in ipairs(gradOutput) do
      self.gradInputEl:add(g[1])
      gradTable[i] = g[2]
   end
   self.gradInput = { self.gradInputEl, gradTable }
   return self.gradInput
end
