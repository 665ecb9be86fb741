-- nn.Identity: output = input, gradInput = gradOutput (the same tensors or tables).
local Identity, parent = torch.class('nn.Identity', 'nn.Module')

function Identity:updateOutput(input)
   self.output = input
   return self.output
end

function Identity:updateGradInput(input, gradOutput)
   self.gradInput = gradOutput
   return self.gradInput
end

function Identity:clearState()
   return nn.utils.clearReferences(self, 'output', 'gradInput')
end
