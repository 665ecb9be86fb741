-- nn.Sqrt([eps = 0]): y = sqrt(x + eps).
local Sqrt, parent = torch.class('nn.Sqrt', 'nn.Module')

function Sqrt:__init(eps)
   parent.__init(self)
   self.eps = eps or 0
end

function Sqrt:updateOutput(input)
   self.eps = self.eps or 0
   input.THNN.Sqrt_updateOutput(input, self.output, self.eps)
   return self.output
end

function Sqrt:updateGradInput(input, gradOutput)
   input.THNN.Sqrt_updateGradInput(input, gradOutput, self.gradInput, self.output)
   return self.gradInput
end
