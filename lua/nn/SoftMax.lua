-- nn.SoftMax: y = exp(x) / sum(exp(x)) over the last dimension of a vector or batch (over
-- the planes of a 3-D or batched 4-D input).
local SoftMax = torch.class('nn.SoftMax', 'nn.Module')

function SoftMax:updateOutput(input)
   input.THNN.SoftMax_updateOutput(input, self.output)
   return self.output
end

function SoftMax:updateGradInput(input, gradOutput)
   input.THNN.SoftMax_updateGradInput(input, gradOutput, self.gradInput, self.output)
   return self.gradInput
end
