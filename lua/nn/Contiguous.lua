-- nn.Contiguous: the input itself when contiguous, else a contiguous copy (likewise the
-- gradient).
local Contiguous, parent = torch.class('nn.Contiguous', 'nn.Module')

function Contiguous:updateOutput(input)
   if input:isContiguous() then
      self.output:set(input)
   else
      self.output:resizeAs(input):copy(input)
   end
   return self.output
end

function Contiguous:updateGradInput(input, gradOutput)
   if gradOutput:isContiguous() then
      self.gradInput:set(gradOutput)
   else
      self.gradInput:resizeAs(gradOutput):copy(gradOutput)
   end
   return self.gradInput
end
