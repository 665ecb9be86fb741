-- nn.CAddTable([inplace]): the sum of a table of tensors of one size. In place, the output
-- is the first input (overwritten) and every gradInput is gradOutput itself.
local CAddTable, parent = torch.class('nn.CAddTable', 'nn.Module')

function CAddTable:__init(inplace)
   parent.__init(self)
   self.inplace = inplace
   self.gradInput = {}
end

-- every input must have the first one's size
local function checkSizes(self, input)
   if type(input) ~= 'table' or #input == 0 then
      error(torch.type(self) .. ': a table of tensors expected', 3)
   end
   for i = 2, #input do
      if not input[i]:isSameSizeAs(input[1]) then
         error(string.format('%s: input %d has size %s, input 1 has size %s', torch.type(self), i,
                             nn.utils.sizeString(input[i]), nn.utils.sizeString(input[1])), 3)
      end
   end
end
CAddTable.checkSizes = checkSizes

function CAddTable:updateOutput(input)
   checkSizes(self, input)
   if self.inplace then
      self.output:set(input[1])
   else
      self.output:resizeAs(input[1]):copy(input[1])
   end
   for i = 2, #input do self.output:add(input[i]) end
   return self.output
end

function CAddTable:updateGradInput(input, gradOutput)
   for i = 1, #input do
      self.gradInput[i] = self.gradInput[i] or input[1].new()
      if self.inplace then
         self.gradInput[i]:set(gradOutput)
      else
         self.gradInput[i]:resizeAs(input[i]):copy(gradOutput)
      end
   end
   for i = #input + 1, #self.gradInput do self.gradInput[i] = nil end
   return self.gradInput
end
