-- nn.ZipTable: {{a1, a2, ...}, {b1, b2, ...}} -> {{a1, b1}, {a2, b2}, ...}; the gradient
-- is zipped back the same way.
local ZipTable, parent = torch.class('nn.ZipTable', 'nn.Module')

function ZipTable:__init()
   parent.__init(self)
   self.output = {}
   self.gradInput = {}
end

local function zip(t, msg)
   if type(t) ~= 'table' then error(msg .. ': a table of tables expected', 3) end
   local out = {}
   for i, inner in ipairs(t) do
      if type(inner) ~= 'table' then error(string.format('%s: element %d is not a table', msg, i), 3) end
      if i > 1 and #inner ~= #t[1] then
         error(string.format('%s: table %d has %d elements, table 1 has %d', msg, i, #inner, #t[1]), 3)
      end
      for j, v in ipairs(inner) do
         out[j] = out[j] or {}
         out[j][i] = v
      end
   end
   return out
end

function ZipTable:updateOutput(input)
   self.output = zip(input, 'nn.ZipTable')
   return self.output
end

function ZipTable:updateGradInput(input, gradOutput)
   self.gradInput = zip(gradOutput, 'nn.ZipTable (gradOutput)')
   return self.gradInput
end
