-- nn.Criterion: a loss. forward(input, target) returns the loss (self.output, a number),
-- backward(input, target) its gradient with respect to input (self.gradInput).
local Criterion = torch.class('nn.Criterion')

function Criterion:__init()
   self.gradInput = torch.Tensor()
   self.output = 0
end

function Criterion:updateOutput(input, target)
end

function Criterion:forward(input, target)
   return self:updateOutput(input, target)
end

function Criterion:backward(input, target)
   return self:updateGradInput(input, target)
end

function Criterion:updateGradInput(input, target)
end

function Criterion:clone()
   return torch.deserialize(torch.serialize(self))
end

-- every tensor field, at any depth, as a module converts them
Criterion.type = nn.Module.type

function Criterion:float() return self:type('torch.FloatTensor') end
function Criterion:double() return self:type('torch.DoubleTensor') end

function Criterion:clearState()
   return nn.utils.clear(self, 'gradInput')
end

function Criterion:__tostring__()
   return torch.type(self)
end
