-- nn.CMinTable: the element-wise minimum of a table of tensors of one size; the gradient
-- goes to the first input holding the minimum.
local CMinTable, parent = torch.class('nn.CMinTable', 'nn.CMaxTable')

function CMinTable:__init()
   parent.__init(self)
   self.sign = -1
end
