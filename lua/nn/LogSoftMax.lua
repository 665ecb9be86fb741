-- nn.LogSoftMax: y = x - log(sum(exp(x))) over the last dimension of a vector or batch
-- (over the planes of a 3-D or batched 4-D input).
local LogSoftMax = torch.class('nn.LogSoftMax', 'nn.Module')

function LogSoftMax:updateOutput(input)
   input.THNN.LogSoftMax_updateOutput(input, self.output)
   return self.output
end

function LogSoftMax:updateGradInput(input, gradOutput)
   input.THNN.LogSoftMax_updateGradInput(input, gradOutput, self.gradInput, self.output)
   return self.gradInput
end
