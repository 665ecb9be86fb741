-- nn.Power(p): y = x ^ p; dy/dx = p x ^ (p - 1).
local Power, parent = torch.class('nn.Power', 'nn.Module')

function Power:__init(p)
   parent.__init(self)
   self.pow = p
   if not p then error('nn.Power(p): the power p is required', 2) end
end

function Power:updateOutput(input)
   self.output:resizeAs(input):copy(input):pow(self.pow)
   return self.output
end

function Power:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(input):copy(input):pow(self.pow - 1):mul(self.pow):cmul(gradOutput)
   return self.gradInput
end
