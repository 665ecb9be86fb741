-- torch7's shape helpers that nn and its tests use: permute, split, repeatTensor as
-- methods, and torch.view / torch.expand / torch.repeatTensor as functions with torch7's
-- optional result first (`torch.view([result,] src, sizes...)`).
local torch = torch
local isTensor = torch.isTensor
local sizesOf = torch._sizesOf

local methods = {}

-- permute(d1, d2, ...): a view whose dimension i is the source's dimension di.
function methods.permute(self, ...)
   local perm = { ... }
   local n = self:dim()
   if #perm ~= n then error(string.format('permute: %d dimensions expected, got %d', n, #perm), 2) end
   local seen, sizes, strides = {}, {}, {}
   for i, p in ipairs(perm) do
      if type(p) ~= 'number' or p < 1 or p > n or seen[p] then
         error('permute: invalid permutation (dimension ' .. tostring(p) .. ')', 2)
      end
      seen[p] = true
      sizes[i], strides[i] = self:size(p), self:stride(p)
   end
   if self:nElement() == 0 then return self.new() end
   return self.new():set(self:storage(), self:storageOffset(), torch.LongStorage(sizes), torch.LongStorage(strides))
end

-- split(size[, dim]): views of `size` slices along dim (1 by default), the last one smaller
-- when size does not divide the dimension.
function methods.split(self, size, dim)
   dim = dim or 1
   local total = self:size(dim)
   local parts = {}
   for first = 1, total, size do
      parts[#parts + 1] = self:narrow(dim, first, math.min(size, total - first + 1))
   end
   return parts
end

-- repeatTensor([result,] src, sizes...): src tiled sizes[i] times along dimension i
-- (leading dimensions of size 1 added to src when sizes has more).
local function repeatTensor(result, src, ...)
   if not isTensor(src) then
      return repeatTensor(result.new(), result, src, ...)
   end
   local reps = sizesOf(...):totable()
   local n = #reps
   if n < src:dim() then
      error('repeatTensor: the number of repetitions cannot be smaller than the number of dimensions of the tensor', 2)
   end
   local outSizes, blockSizes, srcSizes = {}, {}, {}
   for i = 1, n do
      local s = i > n - src:dim() and src:size(i - (n - src:dim())) or 1
      outSizes[i] = reps[i] * s
      blockSizes[2 * i - 1], blockSizes[2 * i] = reps[i], s
      srcSizes[2 * i - 1], srcSizes[2 * i] = 1, s
   end
   result:resize(torch.LongStorage(outSizes))
   if result:nElement() == 0 then return result end
   local target = result:isContiguous() and result or result.new(torch.LongStorage(outSizes))
   target:view(torch.LongStorage(blockSizes)):copy(src:contiguous():view(torch.LongStorage(srcSizes)):expand(torch.LongStorage(blockSizes)))
   if target ~= result then result:copy(target) end
   return result
end
methods.repeatTensor = repeatTensor

for _, T in ipairs(torch.types) do
   local m = torch._metatables['torch.' .. T .. 'Tensor'].__methods
   for k, fn in pairs(methods) do m[k] = fn end
end

torch.repeatTensor = repeatTensor
function torch.permute(t, ...) return t:permute(...) end
function torch.split(a, b, ...)
   if type(a) == 'table' and isTensor(b) then
      local parts = b:split(...)
      for i = #a, 1, -1 do a[i] = nil end
      for i, p in ipairs(parts) do a[i] = p end
      return a
   end
   return a:split(b, ...)
end

-- torch.view([result,] src, sizes...) and torch.expand the same way.
for _, name in ipairs({ 'view', 'expand' }) do
   torch[name] = function(a, b, ...)
      if isTensor(a) and isTensor(b) and select('#', ...) > 0 then
         return a:set(b[name](b, ...))
      end
      return a[name](a, b, ...)
   end
end
