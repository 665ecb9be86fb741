-- nn.CMulTable: the element-wise product of a table of tensors of one size.
local CMulTable, parent = torch.class('nn.CMulTable', 'nn.Module')

function CMulTable:__init()
   parent.__init(self)
   self.gradInput = {}
end

function CMulTable:updateOutput(input)
   nn.CAddTable.checkSizes(self, input)
   self.output:resizeAs(input[1]):copy(input[1])
   for i = 2, #input do self.output:cmul(input[i]) end
   return self.output
end

-- the product of the other inputs times gradOutput (not output / input[i], which fails at 0)
function CMulTable:updateGradInput(input, gradOutput)
   for i = 1, #input do
      self.gradInput[i] = self.gradInput[i] or input[1].new()
      self.gradInput[i]:resizeAs(input[i]):copy(gradOutput)
      for j = 1, #input do
         if j ~= i then self.gradInput[i]:cmul(input[j]) end
      end
   end
   for i = #input + 1, #self.gradInput do self.gradInput[i] = nil end
   return self.gradInput
end
