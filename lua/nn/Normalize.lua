-- nn.Normalize(p[, eps = 1e-10]): x / |x|_p for a vector or each row of a batch, where
-- |x|_p = (sum |x_i|^p + eps)^(1/p) (max |x_i| + eps for p = math.huge).
local Normalize, parent = torch.class('nn.Normalize', 'nn.Module')

function Normalize:__init(p, eps)
   parent.__init(self)
   if type(p) ~= 'number' or p <= 0 then error('nn.Normalize(p[, eps]): a positive norm expected', 2) end
   self.p = p
   self.eps = eps or 1e-10
end

local function rows(input)
   if input:dim() ~= 1 and input:dim() ~= 2 then
      error('nn.Normalize: a vector or a batch of vectors expected, got ' .. nn.utils.sizeString(input), 3)
   end
   return input:dim() == 1 and input:view(1, -1) or input
end

function Normalize:updateOutput(input)
   local x = rows(input)
   if self.p == math.huge then
      local values, indices = x:clone():abs():max(2)
      self._indices = indices
      self.norm = values:add(self.eps)
   else
      self.normp = x:clone():abs():pow(self.p):sum(2):add(self.eps)
      self.norm = self.normp:clone():pow(1 / self.p)
   end
   self.output:resizeAs(input):view(x:size()):copy(x):cdiv(self.norm:expandAs(x))
   return self.output
end

-- dy_i / dx_k = delta_ik / n - x_i d n / dx_k / n^2, d n / dx_k = |x_k|^(p-2) x_k / n^(p-1)
-- (for p = inf: sign(x_k) at the maximum, 0 elsewhere)
function Normalize:updateGradInput(input, gradOutput)
   local x = rows(input)
   local go = gradOutput:contiguous():view(x:size())
   local cross = x:clone():cmul(go):sum(2) -- [B, 1]
   local dnorm
   if self.p == math.huge then
      dnorm = x.new():resizeAs(x):zero()
      dnorm:scatter(2, self._indices, x:gather(2, self._indices):sign())
      cross:cdiv(self.norm):cdiv(self.norm)
   else
      -- |x|^(p-2) x; for p < 2 eps keeps |x|^(p-2) finite at 0
      if self.p == 2 then
         dnorm = x:clone()
      elseif self.p < 2 then
         dnorm = x:clone():abs():add(self.eps):pow(self.p - 2):cmul(x)
      else
         dnorm = x:clone():abs():pow(self.p - 2):cmul(x)
      end
      cross:cdiv(self.normp):cdiv(self.norm)
   end
   local g = go:clone():cdiv(self.norm:expandAs(x))
   g:add(-1, dnorm:cmul(cross:expandAs(x)))
   self.gradInput:resizeAs(input):copy(g)
   return self.gradInput
end

function Normalize:type(typename, tensorCache)
   self._indices = nil
   return parent.type(self, typename, tensorCache)
end

function Normalize:clearState()
   nn.utils.clear(self, '_indices', 'norm', 'normp')
   return parent.clearState(self)
end

function Normalize:__tostring__()
   local format = self.p % 1 == 0 and '%s(%d)' or '%s(%f)'
   if self.p == math.huge then format = '%s(%s)' end
   return string.format(format, torch.type(self), self.p == math.huge and 'inf' or self.p)
end
