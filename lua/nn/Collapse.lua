-- nn.Collapse(nInputDim): flattens a sample of nInputDim dimensions into a vector, and
-- each sample of a batch (an input with more dimensions) into a row.
local Collapse, parent = torch.class('nn.Collapse', 'nn.Module')

function Collapse:__init(nInputDim)
   parent.__init(self)
   assert(type(nInputDim) == 'number', 'nn.Collapse(nInputDim): nInputDim must be a number')
   self.nInputDim = nInputDim
end

function Collapse:updateOutput(input)
   input = input:contiguous()
   if input:dim() > self.nInputDim then
      self.output = input:view(input:size(1), input:nElement() / input:size(1))
   else
      self.output = input:view(input:nElement())
   end
   return self.output
end

function Collapse:updateGradInput(input, gradOutput)
   self.gradInput = gradOutput:contiguous():view(input:size())
   return self.gradInput
end

function Collapse:__tostring__()
   return string.format('%s(%d)', torch.type(self), self.nInputDim)
end
