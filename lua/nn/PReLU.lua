-- nn.PReLU([nOutputPlane = 0]): x > 0 ? x : w * x with learnt slopes w (initially 0.25):
-- one shared slope, or one per input plane (channel).
local PReLU, parent = torch.class('nn.PReLU', 'nn.Module')

function PReLU:__init(nOutputPlane)
   parent.__init(self)
   self.nOutputPlane = nOutputPlane or 0
   self.weight = torch.Tensor(math.max(self.nOutputPlane, 1)):fill(0.25)
   self.gradWeight = torch.Tensor(math.max(self.nOutputPlane, 1))
end

function PReLU:updateOutput(input)
   input.THNN.PReLU_updateOutput(input, self.output, self.weight)
   return self.output
end

function PReLU:updateGradInput(input, gradOutput)
   input.THNN.PReLU_updateGradInput(input, gradOutput, self.gradInput, self.weight)
   return self.gradInput
end

function PReLU:accGradParameters(input, gradOutput, scale)
   input.THNN.PReLU_accGradParameters(input, gradOutput, self.gradInput, self.weight, self.gradWeight, scale or 1)
end
