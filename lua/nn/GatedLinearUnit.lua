-- nn.GatedLinearUnit([dim = last]): splits the input in halves a, b along dim and returns
-- a * sigmoid(b) (Dauphin et al.).
local GatedLinearUnit, parent = torch.class('nn.GatedLinearUnit', 'nn.Module')

function GatedLinearUnit:__init(dim)
   parent.__init(self)
   self.dim = dim
end

function GatedLinearUnit:_halves(input)
   local dim = self.dim or input:dim()
   if dim < 1 or dim > input:dim() then
      error(string.format('nn.GatedLinearUnit: dimension %d out of range for %s', dim,
                          nn.utils.sizeString(input)), 3)
   end
   local n = input:size(dim)
   if n % 2 ~= 0 then
      error(string.format('nn.GatedLinearUnit: dimension %d must have an even size, got %d', dim, n), 3)
   end
   return dim, n / 2
end

function GatedLinearUnit:updateOutput(input)
   local dim, h = self:_halves(input)
   local a, b = input:narrow(dim, 1, h), input:narrow(dim, h + 1, h)
   self.gate = self.gate or input.new()
   self.gate:resizeAs(b):copy(b):mul(-1):exp():add(1):cinv()
   self.output:resizeAs(a):copy(a):cmul(self.gate)
   return self.output
end

function GatedLinearUnit:updateGradInput(input, gradOutput)
   local dim, h = self:_halves(input)
   local a = input:narrow(dim, 1, h)
   self.gradInput:resizeAs(input)
   -- d/da = sigmoid(b); d/db = a sigmoid(b) (1 - sigmoid(b))
   self.gradInput:narrow(dim, 1, h):copy(gradOutput):cmul(self.gate)
   self.gradInput:narrow(dim, h + 1, h):copy(self.gate):mul(-1):add(1):cmul(self.gate):cmul(a):cmul(gradOutput)
   return self.gradInput
end

function GatedLinearUnit:clearState()
   nn.utils.clear(self, 'gate')
   return parent.clearState(self)
end
