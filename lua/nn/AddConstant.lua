-- nn.AddConstant(constant[, inplace]): y = x + constant, the constant a number or a vector
-- added to each row of a vector or matrix input. In place, the input is shifted and
-- shifted back in the backward.
local AddConstant, parent = torch.class('nn.AddConstant', 'nn.Module')

function AddConstant:__init(constant_scalar, inplace)
   parent.__init(self)
   assert(type(constant_scalar) == 'number' or torch.isTensor(constant_scalar),
          'nn.AddConstant: the constant must be a number or a tensor')
   self.constant_scalar = constant_scalar
   self.inplace = inplace or false
end

-- the constant as something input:add accepts: a number, or the vector expanded over rows
function AddConstant:_constantFor(input)
   local c = self.constant_scalar
   if type(c) == 'number' then return c end
   local n = input:dim()
   if n < 1 or n > 2 or input:size(n) ~= c:nElement() then
      error('nn.AddConstant: the input does not match the size of the constant tensor', 3)
   end
   if n == 1 then return c:typeAs(input):view(c:nElement()) end
   return c:typeAs(input):view(1, c:nElement()):expand(input:size(1), c:nElement())
end

local function add(t, c, sign)
   if type(c) == 'number' then t:add(sign * c) else t:add(sign, c) end
end

function AddConstant:updateOutput(input)
   local c = self:_constantFor(input)
   if self.inplace then
      add(input, c, 1)
      self.output:set(input)
   else
      self.output:resizeAs(input):copy(input)
      add(self.output, c, 1)
   end
   return self.output
end

function AddConstant:updateGradInput(input, gradOutput)
   if self.inplace then
      self.gradInput:set(gradOutput)
      add(input, self:_constantFor(input), -1)
   else
      self.gradInput:resizeAs(gradOutput):copy(gradOutput)
   end
   return self.gradInput
end
