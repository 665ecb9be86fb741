-- torch7's TensorMath, first slice: methods mutate self as in torch7 (`a:add(b)` changes
-- a; `r:add(a, b)` sets r to a + b), torch.fn([res,] ...) returns a new tensor unless
-- res is given. Reductions return numbers without a dimension, tensors (keeping the
-- reduced dimension, as torch7 did) with one; max/min also return 1-based indices.
local torch = torch
local C = torch._C
local isTensor = torch.isTensor

local function check(cond, msg)
   if not cond then error(msg, 3) end
end

for _, T in ipairs(torch.types) do
   local name = 'torch.' .. T .. 'Tensor'
   local f = C[T]
   local mt = torch._metatables[name]
   local m = mt.__methods

   local function sameType(x, i)
      if torch.typename(x) ~= name then
         error(string.format('argument %d: a %s expected, got %s', i, name, torch.type(x)), 4)
      end
      return x
   end

   -- add: self = self + v | self + t | self + v*t | t + v | t + u | t + v*u
   function m.add(self, a, b, c)
      if c ~= nil then
         f.cadd(self, sameType(a, 1), b, sameType(c, 3))
      elseif b ~= nil then
         if isTensor(a) and isTensor(b) then f.cadd(self, sameType(a, 1), 1, sameType(b, 2))
         elseif isTensor(a) then f.add(self, sameType(a, 1), b)
         else f.cadd(self, self, a, sameType(b, 2)) end
      elseif isTensor(a) then
         f.cadd(self, self, 1, sameType(a, 1))
      else
         check(type(a) == 'number', 'add: a number or a tensor expected')
         f.add(self, self, a)
      end
      return self
   end
   function m.csub(self, a, b, c)
      if c ~= nil then return m.add(self, a, -b, c) end
      if b ~= nil then
         if isTensor(b) then return m.add(self, a, -1, b) end
         if isTensor(a) then return m.add(self, a, -b) end
         return m.add(self, -a, b)
      end
      if isTensor(a) then return m.add(self, -1, a) end
      return m.add(self, -a)
   end
   -- value ops: self = self op v | t op v
   for _, op in ipairs({ 'mul', 'div', 'pow', 'fmod', 'remainder' }) do
      m[op] = function(self, a, b)
         if b ~= nil then f[op](self, sameType(a, 1), b)
         else
            check(type(a) == 'number', op .. ': a number expected')
            f[op](self, self, a)
         end
         return self
      end
   end
   -- pairwise ops: self = self op t | t op u
   for _, op in ipairs({ 'cmul', 'cdiv', 'cpow', 'cmax', 'cmin' }) do
      m[op] = function(self, a, b)
         if b ~= nil then f[op](self, sameType(a, 1), sameType(b, 2))
         else f[op](self, self, sameType(a, 1)) end
         return self
      end
   end
   -- unary ops: self = op(self) | op(t)
   for _, op in ipairs({ 'neg', 'abs', 'sign', 'exp', 'log', 'sqrt', 'tanh', 'sigmoid', 'sin', 'cos',
                         'floor', 'ceil', 'round' }) do
      if f[op] then
         m[op] = function(self, a)
            f[op](self, a and sameType(a, 1) or self)
            return self
         end
      end
   end
   function m.clamp(self, a, lo, hi)
      if not isTensor(a) then a, lo, hi = self, a, lo end
      return self:copy(a):cmax(self:clone():fill(lo)):cmin(self:clone():fill(hi))
   end

   -- mm: self = a * b (matrices)
   function m.mm(self, a, b)
      sameType(a, 1); sameType(b, 2)
      check(a:dim() == 2 and b:dim() == 2, 'mm: matrices expected, got ' .. a:dim() .. 'D and ' .. b:dim() .. 'D tensors')
      check(a:size(2) == b:size(1), string.format('mm: size mismatch, %dx%d times %dx%d', a:size(1), a:size(2), b:size(1), b:size(2)))
      self:resize(a:size(1), b:size(2)):zero()
      f.addmm(self, 0, self, 1, a, b)
      return self
   end
   -- addmm: self = beta*t + alpha*(a*b), torch7's argument orders
   function m.addmm(self, ...)
      local args = { ... }
      local beta, t, alpha, a, b = 1, self, 1, nil, nil
      if #args == 2 then a, b = args[1], args[2]
      elseif #args == 3 and isTensor(args[1]) then t, a, b = args[1], args[2], args[3]
      elseif #args == 3 then alpha, a, b = args[1], args[2], args[3]
      elseif #args == 4 and isTensor(args[2]) and type(args[1]) == 'number' and type(args[3]) == 'number' then
         beta, alpha, a, b = args[1], args[3], args[2], args[4]  -- (beta, ?) unused form
      elseif #args == 4 then beta, t, a, b = args[1], args[2], args[3], args[4]
      else beta, t, alpha, a, b = args[1], args[2], args[3], args[4], args[5] end
      f.addmm(self, beta, sameType(t, 2), alpha, sameType(a, 4), sameType(b, 5))
      return self
   end
   function m.mv(self, a, v)
      local r = torch[T .. 'Tensor']():mm(a, v:view(v:nElement(), 1))
      return self:resize(a:size(1)):copy(r)
   end
   function m.dot(self, other)
      check(self:nElement() == other:nElement(), 'dot: tensors of different sizes')
      return f.sumall(self:clone():cmul(other:contiguous():viewAs(self:contiguous())))
   end

   -- reductions on self
   function m.sum(self, dim)
      if dim == nil then return f.sumall(self) end
      local r = self.new(self)
      f.sum(r, self, dim)
      return r
   end
   function m.prod(self, dim)
      if dim == nil then return f.prodall(self) end
      local r = self.new(self)
      f.prod(r, self, dim)
      return r
   end
   function m.mean(self, dim)
      if dim == nil then return f.meanall(self) end
      check(f.mean, 'mean: a floating-point tensor expected')
      local r = self.new(self)
      f.mean(r, self, dim)
      return r
   end
   for _, op in ipairs({ 'max', 'min' }) do
      m[op] = function(self, dim)
         if dim == nil then return f[op .. 'all'](self) end
         local v, i = self.new(self), torch.LongTensor()
         f[op](v, i, self, dim)
         return v, i
      end
   end
   function m.equal(self, other)
      return torch.typename(other) == name and f.equal(self, other)
   end

   -- indices are 1-based LongTensors
   function m.indexSelect(self, a, b, c)
      if c ~= nil then f.indexSelect(self, sameType(a, 1), b, c); return self end
      local r = self.new(self)
      f.indexSelect(r, self, a, b)
      return r
   end
   function m.gather(self, a, b, c)
      if c ~= nil then f.gather(self, sameType(a, 1), b, c); return self end
      local r = self.new(self)
      f.gather(r, self, a, b)
      return r
   end
   function m.scatter(self, dim, index, src)
      f.scatter(self, dim, index, src)
      return self
   end
   -- sort([dim[, descending]]) -> sorted values, their 1-based positions
   function m.sort(self, dim, descending)
      if type(dim) == 'boolean' then dim, descending = nil, dim end
      local v, i = self.new(self), torch.LongTensor()
      f.sort(v, i, self, dim or self:dim(), descending)
      return v, i
   end
   function m.nonzero(self)
      local r = torch.LongTensor()
      f.nonzero(r, self)
      return r
   end

   -- operators make new tensors
   mt.__add = function(a, b)
      if isTensor(a) and isTensor(b) then return a:clone():add(b) end
      if isTensor(a) then return a:clone():add(b) end
      return b:clone():add(a)
   end
   mt.__sub = function(a, b)
      if isTensor(a) and isTensor(b) then return a:clone():add(-1, b) end
      if isTensor(a) then return a:clone():add(-b) end
      return b:clone():mul(-1):add(a)
   end
   mt.__unm = function(a) return a:clone():mul(-1) end
   mt.__mul = function(a, b)
      if not isTensor(a) then return b:clone():mul(a) end
      if not isTensor(b) then return a:clone():mul(b) end
      if a:dim() == 1 and b:dim() == 1 then return a:dot(b) end
      if a:dim() == 2 and b:dim() == 1 then return a.new(a):mv(a, b) end
      return a.new(a):mm(a, b)
   end
   mt.__div = function(a, b)
      check(type(b) == 'number', 'division of a tensor by a number only')
      return a:clone():div(b)
   end
   mt.__mod = function(a, b)
      check(type(b) == 'number', 'modulo of a tensor by a number only')
      return a:clone():remainder(b)
   end

   -- random
   for _, op in ipairs({ 'uniform', 'normal', 'bernoulli', 'random' }) do m[op] = f[op] end
end

-- torch.fn([res,] ...) for the methods above: the first argument is a result tensor when
-- there is one argument more than the source form takes.
local function withRes(method, isRes)
   return function(...)
      local n = select('#', ...)
      local a = ...
      if isRes(n, ...) then return method(...) end
      return method(a.new(a), ...)
   end
end
local function tensorAt(i, ...) return isTensor((select(i, ...))) end
torch.add = withRes(function(r, ...) return r.add(r, ...) end,
                    function(n, ...) return n == 4 or (n == 3 and tensorAt(2, ...)) end)
for _, op in ipairs({ 'mul', 'div', 'pow', 'fmod', 'remainder' }) do
   torch[op] = withRes(function(r, ...) return r[op](r, ...) end, function(n) return n == 3 end)
end
for _, op in ipairs({ 'cmul', 'cdiv', 'cpow', 'cmax', 'cmin', 'mm', 'mv' }) do
   torch[op] = withRes(function(r, ...) return r[op](r, ...) end, function(n) return n == 3 end)
end
for _, op in ipairs({ 'neg', 'abs', 'sign', 'exp', 'log', 'sqrt', 'tanh', 'sigmoid', 'sin', 'cos',
                      'floor', 'ceil', 'round' }) do
   torch[op] = function(a, b)
      if b ~= nil then return a[op](a, b) end
      return a.new(a)[op](a.new(a):resizeAs(a), a)
   end
end
for _, op in ipairs({ 'sum', 'prod', 'mean', 'max', 'min' }) do
   torch[op] = function(a, ...) return a[op](a, ...) end
end
function torch.dot(a, b) return a:dot(b) end
-- with a result tensor first, the method form sets it: res:indexSelect(src, dim, index)
function torch.indexSelect(a, ...) return a:indexSelect(...) end
function torch.gather(a, ...) return a:gather(...) end
function torch.scatter(a, ...) return a:clone():scatter(...) end
function torch.sort(a, ...)
   if isTensor(a) and isTensor((...)) then
      -- torch.sort(rv, ri, t[, dim[, descending]])
      local ri, t, dim, descending = ...
      if type(dim) == 'boolean' then dim, descending = nil, dim end
      C[torch.typename(a):match('torch%.(%a+)Tensor')].sort(a, ri, t, dim or t:dim(), descending)
      return a, ri
   end
   return a:sort(...)
end
function torch.nonzero(a) return a:nonzero() end
function torch.equal(a, b) return a:equal(b) end
function torch.clamp(a, lo, hi) return a.new(a):clamp(a, lo, hi) end

-- constructors with random or constant contents, of the default type
local function filled(init)
   return function(...)
      local t = torch.Tensor(torch._sizesOf(...))
      return init(t)
   end
end
torch.rand = filled(function(t) return t:uniform(0, 1) end)
torch.randn = filled(function(t) return t:normal(0, 1) end)
torch.zeros = filled(function(t) return t:zero() end)
torch.ones = filled(function(t) return t:fill(1) end)
function torch.range(a, b, step)
   step = step or 1
   local n = math.floor((b - a) / step) + 1
   local t = torch.Tensor(n)
   for i = 1, n do t[i] = a + (i - 1) * step end
   return t
end

-- torch.cat([res,] a, b[, dim]) or torch.cat([res,] {a, b, ...}[, dim]): along dim (the
-- last dimension of the first tensor by default); empty tensors are skipped.
function torch.cat(...)
   local args = { ... }
   local res
   if isTensor(args[1]) and (type(args[2]) == 'table' and not isTensor(args[2]) or isTensor(args[3])) then
      res = table.remove(args, 1)
   end
   local list, dim
   if isTensor(args[1]) then
      list, dim = { args[1], args[2] }, args[3]
   else
      list, dim = args[1], args[2]
   end
   local parts = {}
   for _, t in ipairs(list) do
      if t:nElement() > 0 then parts[#parts + 1] = t end
   end
   check(#list > 0, 'cat: at least one tensor expected')
   res = res or list[1].new(list[1])
   if #parts == 0 then return res:resize(0) end
   dim = dim or parts[1]:dim()
   local first = parts[1]
   check(dim >= 1 and dim <= first:dim(), 'cat: dimension ' .. tostring(dim) .. ' out of range')
   local total = 0
   for i, t in ipairs(parts) do
      check(torch.typename(t) == torch.typename(first), 'cat: tensors of one type expected')
      check(t:dim() == first:dim(), 'cat: tensors with the same number of dimensions expected')
      for d = 1, first:dim() do
         if d ~= dim and t:size(d) ~= first:size(d) then
            error(string.format('cat: tensor %d has size %d in dimension %d, %d expected', i, t:size(d), d, first:size(d)), 2)
         end
      end
      total = total + t:size(dim)
   end
   local sizes = first:size():totable()
   sizes[dim] = total
   res:resize(torch.LongStorage(sizes))
   local at = 1
   for _, t in ipairs(parts) do
      res:narrow(dim, at, t:size(dim)):copy(t)
      at = at + t:size(dim)
   end
   return res
end
