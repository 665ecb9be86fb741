-- nn.CriterionTable(criterion): a module that runs a criterion on an input table
-- {input, target}; its output is the loss and its gradInput the table {dloss/dinput}.
local CriterionTable, parent = torch.class('nn.CriterionTable', 'nn.Module')

function CriterionTable:__init(criterion)
   parent.__init(self)
   assert(criterion, 'nn.CriterionTable(criterion): a criterion is required')
   self.criterion = criterion
   self.gradInput = { criterion.gradInput }
end

function CriterionTable:updateOutput(input)
   if type(input) ~= 'table' or #input < 2 then
      error('nn.CriterionTable: a table {input, target} expected', 2)
   end
   self.output = self.criterion:updateOutput(unpack(input))
   return self.output
end

function CriterionTable:updateGradInput(input, gradOutput)
   self.gradInput = { self.criterion:updateGradInput(unpack(input)) }
   return self.gradInput
end
