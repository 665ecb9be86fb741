-- nn.CDivTable: input[1] / input[2], element-wise.
local CDivTable, parent = torch.class('nn.CDivTable', 'nn.Module')

function CDivTable:__init()
   parent.__init(self)
   self.gradInput = {}
end

function CDivTable:updateOutput(input)
   nn.CSubTable.checkPair(self, input)
   self.output:resizeAs(input[1]):copy(input[1]):cdiv(input[2])
   return self.output
end

-- d/da = 1 / b; d/db = -a / b^2 = -output / b
function CDivTable:updateGradInput(input, gradOutput)
   self.gradInput[1] = self.gradInput[1] or input[1].new()
   self.gradInput[2] = self.gradInput[2] or input[1].new()
   self.gradInput[1]:resizeAs(input[1]):copy(gradOutput):cdiv(input[2])
   self.gradInput[2]:resizeAs(input[2]):copy(self.gradInput[1]):cmul(self.output):mul(-1)
   for i = #input + 1, #self.gradInput do self.gradInput[i] = nil end
   return self.gradInput
end
