-- nn.CMul(size): y = x .* weight, element-wise, weight of the given size (numbers or a
-- LongStorage). The input is weight's size (the same number of elements), a batch of
-- such inputs (first dimension), or a size weight expands to (weight's size-1
-- dimensions spread).
local CMul, parent = torch.class('nn.CMul', 'nn.Module')

function CMul:__init(...)
   parent.__init(self)
   self.size = nn.utils.sizeArguments(...)
   nn.utils.allocateParameters(self, self.size)
   self:reset()
end

function CMul:reset(stdv)
   return nn.utils.resetUniform(self, stdv, self.weight:nElement())
end

-- param (a contiguous parameter) viewed and expanded to input's size: the same elements
-- laid out as input, one copy per batch sample, or param's size-1 dimensions spread.
-- Shared with CAdd and Add.
function CMul.expandParameter(module, param, input)
   if param:nElement() == input:nElement() then return param:view(input:size()) end
   if input:dim() >= 2 and input:nElement() == input:size(1) * param:nElement() then
      local sizes = input:size():totable()
      sizes[1] = 1
      return param:view(torch.LongStorage(sizes)):expandAs(input)
   end
   local fits = param:dim() == input:dim()
   for d = 1, input:dim() do
      if fits and param:size(d) ~= 1 and param:size(d) ~= input:size(d) then fits = false end
   end
   if not fits then
      error(string.format('%s: an input of size %s does not fit the parameter\'s size %s', torch.type(module),
                          nn.utils.sizeString(input), nn.utils.sizeString(param)), 3)
   end
   return param:expandAs(input)
end

-- grad (input-shaped) summed over the dimensions that expanded (expandParameter's
-- result) spread, laid out as param
function CMul.reduceToParameter(grad, expanded, param)
   for d = 1, expanded:dim() do
      if expanded:stride(d) == 0 and expanded:size(d) > 1 then grad = grad:sum(d) end
   end
   return grad:contiguous():view(param:size())
end

function CMul:updateOutput(input)
   self.output:resizeAs(input):copy(input):cmul(CMul.expandParameter(self, self.weight, input))
   return self.output
end

function CMul:updateGradInput(input, gradOutput)
   if not self.gradInput then return end
   self.gradInput:resizeAs(input):copy(gradOutput):cmul(CMul.expandParameter(self, self.weight, input))
   return self.gradInput
end

function CMul:accGradParameters(input, gradOutput, scale)
   local expanded = CMul.expandParameter(self, self.weight, input)
   local product = input:clone():cmul(gradOutput)
   self.gradWeight:add(scale or 1, CMul.reduceToParameter(product, expanded, self.weight))
end

function CMul:__tostring__()
   return torch.type(self) .. '(' .. table.concat(self.weight:size():totable(), 'x') .. ')'
end
