-- nn.TanhShrink: y = x - tanh(x), elementwise.
local TanhShrink, parent = torch.class('nn.TanhShrink', 'nn.Module')

function TanhShrink:__init()
   parent.__init(self)
   self.tanh = nn.Tanh()
end

function TanhShrink:updateOutput(input)
   local th = self.tanh:updateOutput(input)
   self.output:resizeAs(input):copy(input):add(-1, th)
   return self.output
end

function TanhShrink:updateGradInput(input, gradOutput)
   -- d/dx (x - tanh x) = 1 - (1 - tanh^2 x) = gradOutput - tanh's gradInput
   local dth = self.tanh:updateGradInput(input, gradOutput)
   self.gradInput:resizeAs(input):copy(gradOutput):add(-1, dth)
   return self.gradInput
end
