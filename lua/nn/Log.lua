-- nn.Log: y = log(x); dy/dx = 1 / x.
local Log = torch.class('nn.Log', 'nn.Module')

function Log:updateOutput(input)
   self.output:resizeAs(input):copy(input):log()
   return self.output
end

function Log:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(input):fill(1):cdiv(input):cmul(gradOutput)
   return self.gradInput
end
