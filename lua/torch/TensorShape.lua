-- torch7's shape functions that nn and its tests use, with torch7's optional result first:
-- torch.view / torch.expand / torch.repeatTensor / torch.permute (the methods are in
-- Tensor.lua).
local torch = torch
local isTensor = torch.isTensor

-- repeatTensor([result,] src, sizes...): the method takes the result first too.
function torch.repeatTensor(a, ...) return a:repeatTensor(...) end
function torch.permute(t, ...) return t:permute(...) end

-- torch.view([result,] src, sizes...) and torch.expand the same way.
for _, name in ipairs({ 'view', 'expand' }) do
   torch[name] = function(a, b, ...)
      if isTensor(a) and isTensor(b) and select('#', ...) > 0 then
         return a:set(b[name](b, ...))
      end
      return a[name](a, b, ...)
   end
end
