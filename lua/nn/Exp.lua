-- nn.Exp: y = exp(x); dy/dx = y.
local Exp = torch.class('nn.Exp', 'nn.Module')

function Exp:updateOutput(input)
   self.output:resizeAs(input):copy(input):exp()
   return self.output
end

function Exp:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(gradOutput):copy(gradOutput):cmul(self.output)
   return self.gradInput
end
