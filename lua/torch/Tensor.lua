-- torch.<Type>Tensor: views on storages with 1-based indexing, torch7's constructors,
-- element access, views, conversions and printing.
local torch = torch
local C = torch._C

local function isTensor(x) return torch.isTensor(x) end

-- Sizes from constructor-style arguments: numbers, or one LongStorage, or a table.
local function sizesOf(...)
   local a = ...
   if torch.typename(a) == 'torch.LongStorage' then return a end
   local n = select('#', ...)
   local s = torch.LongStorage(n)
   for i = 1, n do s[i] = select(i, ...) end
   return s
end
torch._sizesOf = sizesOf

-- Print formats as torch7's Storage__printformat chose them: integers (%d) with the width
-- of the largest, else 4 decimals, with a common power-of-ten scale or %e when magnitudes
-- are far apart. width is the characters one value takes.
function torch._printformat(values, T)
   local intMode = true
   if T == 'Float' or T == 'Double' then
      for _, v in ipairs(values) do
         if v ~= math.ceil(v) then intMode = false break end
      end
   end
   local amin, amax = math.huge, 0
   for _, v in ipairs(values) do
      local a = math.abs(v)
      if a < amin then amin = a end
      if a > amax then amax = a end
   end
   if #values == 0 then amin = 0 end
   local expMin = amin ~= 0 and math.floor(math.log10(amin)) + 1 or 1
   local expMax = amax ~= 0 and math.floor(math.log10(amax)) + 1 or 1
   if amax ~= amax or amax == math.huge then expMax = 1; intMode = false end
   local format, scale, width = nil, 1, nil
   if intMode then
      if expMax > 9 then
         format, width = '%11.4e', 11
      else
         format, width = '%' .. (expMax + 1) .. 'd', expMax + 1
      end
   else
      if expMax - expMin > 4 then
         format, width = '%11.4e', 11
         if math.abs(expMax) > 99 or math.abs(expMin) > 99 then format, width = '%12.4e', 12 end
      elseif expMax > 5 or expMax < 0 then
         format, width = '%7.4f', 7
         scale = math.pow(10, expMax - 1)
      else
         width = expMax == 0 and 7 or expMax + 6
         format = '%' .. width .. '.4f'
      end
   end
   return { format = format, scale = scale, width = width }
end

-- The class torch.<T>Tensor over the C functions f (C[T]: TH's here, THC's for cutorch's
-- torch.Cuda<Type>Tensor); elementType names the element type for printing.
function torch._defineTensorClass(T, f, elementType)
   local name = 'torch.' .. T .. 'Tensor'
   elementType = elementType or T
   local mt = debug.getregistry()[name]
   local methods = {}
   mt.__typename = name
   mt.__gc = f.tensor_gc
   mt.__methods = methods
   torch._metatables[name] = mt
   local Storage = torch[T .. 'Storage']
   local sget, sset = f.storage_get, f.storage_set

   -- C functions that are methods as they are
   for _, k in ipairs({ 'size', 'stride', 'nElement', 'storageOffset', 'storage', 'isContiguous',
                        'narrow', 'transpose', 'unfold', 'resize', 'copy', 'fill', 'zero', 'clone',
                        'contiguous', 'uniform', 'normal', 'bernoulli', 'random', 'permute', 'isSetTo' }) do
      methods[k] = f[k]
   end
   function methods.elementSize() return f.storage_elementSize() end
   -- as in torch7, selecting in a vector gives the element (whatever the dimension said),
   -- and squeezing a tensor of one element a number
   function methods.select(self, d, i)
      if f.nDimension(self) == 1 then return self[i] end
      return f.select(self, d, i)
   end
   function methods.isTensor(x) return torch.isTensor(x) end
   function methods.isStorage(x) return torch.isStorage(x) end
   function methods.squeeze(self, d)
      if d == nil and f.nElement(self) == 1 then return sget(f.storage(self), f.storageOffset(self)) end
      return f.squeeze(self, d)
   end
   function methods.isSize(self, sizes)
      if torch.typename(sizes) ~= 'torch.LongStorage' then sizes = torch.LongStorage(sizes) end
      return f.isSize(self, sizes)
   end
   methods.nDimension = f.nDimension
   methods.dim = f.nDimension
   methods.cdata = f.pointer
   methods.isSameSizeAs = function(self, other)
      if self:dim() ~= other:dim() then return false end
      for i = 1, self:dim() do
         if self:size(i) ~= other:size(i) then return false end
      end
      return true
   end

   -- Element access through the storage: offset of the element at 1-based indices.
   local function offsetOf(self, idx, n)
      local off = f.storageOffset(self)
      for d = 1, n do
         local i, size = idx[d], f.size(self, d)
         if i < 0 then i = size + 1 + i end
         if i < 1 or i > size then
            error(string.format('index %d is out of range for dimension %d of size %d', idx[d], d, size), 3)
         end
         off = off + (i - 1) * f.stride(self, d)
      end
      return off
   end

   local function new(...) return f.new(nil, 1, ...) end

   -- torch7's new is the type's constructor reachable from any tensor: x.new(2, 3) and
   -- input.new() make fresh tensors, x:new() a tensor on x's storage
   function methods.new(...) return torch[T .. 'Tensor'](...) end
   function methods.type(self, typename)
      if typename == nil then return name end
      if typename == name then return self end
      local ctor = torch._tensorConstructor(typename)
      return ctor():resize(self:size()):copy(self)
   end
   function methods.typeAs(self, other) return self:type(other:type()) end
   for _, U in ipairs(torch.allTypes) do
      methods[U:lower()] = function(self) return self:type('torch.' .. U .. 'Tensor') end
   end
   -- real(): the tensor as the default tensor type (what arithmetic on a Half tensor goes through)
   function methods.real(self) return self:type(torch.getdefaulttensortype()) end
   methods.char = function(self) return self:type('torch.CharTensor') end

   -- Sizes for a view of src: one of them may be -1, the rest of the elements.
   local function viewSizes(src, sizes)
      local n, known, free = src:nElement(), 1, nil
      local s = torch.LongStorage(#sizes)
      for i = 1, #sizes do
         s[i] = sizes[i]
         if sizes[i] == -1 then
            if free then error('view: only one dimension can be -1', 3) end
            free = i
         else
            known = known * sizes[i]
         end
      end
      if free then
         if known == 0 or n % known ~= 0 then error('view: ' .. n .. ' elements do not fit these sizes', 3) end
         s[free] = n / known
      end
      return s
   end
   -- view(sizes) / view(template): a new view; result:view(src, sizes | template) sets
   -- result to the view and returns it (expand, viewAs, expandAs alike)
   local function resultFirst(viewOf)
      return function(self, a, ...)
         if isTensor(a) and select('#', ...) > 0 then
            return f.set(self, viewOf(a, ...))
         end
         return viewOf(self, a, ...)
      end
   end
   methods.view = resultFirst(function(self, a, ...)
      if isTensor(a) then return f.view(self, a:size()) end
      return f.view(self, viewSizes(self, sizesOf(a, ...)))
   end)
   methods.viewAs = resultFirst(function(self, other) return f.view(self, other:size()) end)
   methods.expand = resultFirst(function(self, ...) return f.expand(self, sizesOf(...)) end)
   methods.expandAs = resultFirst(function(self, other) return f.expand(self, other:size()) end)
   -- repeatTensor(sizes): src repeated sizes[i] times along dimension i (new leading
   -- dimensions when there are more sizes than dimensions); result:repeatTensor(src, sizes)
   function methods.repeatTensor(self, a, ...)
      local result, src, sizes = self, a, nil
      if isTensor(a) then sizes = sizesOf(...) else result, src, sizes = torch[T .. 'Tensor'](), self, sizesOf(a, ...) end
      if #sizes < src:dim() then error('repeatTensor: at least as many sizes as dimensions expected', 2) end
      local xsize = {}
      for i = 1, #sizes - src:dim() do xsize[i] = 1 end
      for i = 1, src:dim() do xsize[#xsize + 1] = src:size(i) end
      local rsize = {}
      for i = 1, #sizes do rsize[i] = xsize[i] * sizes[i] end
      result:resize(torch.LongStorage(rsize))
      -- result as blocks: dimensions (sizes..., xsize...), each block a copy of src
      local blocks = result
      for i = 1, #sizes do blocks = f.unfold(blocks, i, xsize[i], xsize[i]) end
      local shaped = f.view(src:contiguous(), torch.LongStorage(xsize))
      local one = {}
      for i = 1, #sizes do one[i] = 1 end
      for i = 1, #xsize do one[#one + 1] = xsize[i] end
      f.copy(blocks, f.expand(f.view(shaped, torch.LongStorage(one)), blocks:size()))
      return result
   end
   function methods.split(self, size, d) return torch.split(self, size, d) end
   function methods.chunk(self, n, d) return torch.chunk(self, n, d) end
   function methods.resizeAs(self, other) return self:resize(other:size()) end
   function methods.resize(self, ...) return f.resize(self, sizesOf(...)) end
   function methods.t(self)
      if self:dim() ~= 2 then error('t(): a matrix (2 dimensions) expected, got ' .. self:dim(), 2) end
      return f.transpose(self, 1, 2)
   end
   -- sub(d1first, d1last, d2first, d2last, ...): inclusive ranges, negative from the end
   function methods.sub(self, ...)
      local args = { ... }
      local r = self
      for d = 1, #args / 2 do
         local size = f.size(self, d)
         local a, b = args[2 * d - 1], args[2 * d]
         if a < 0 then a = size + 1 + a end
         if b < 0 then b = size + 1 + b end
         r = f.narrow(r, d, a, b - a + 1)
      end
      return r
   end
   -- named parameters rather than `...`: LuaJIT's compiled traces of `cond and ... or nil`
   -- handed the strides over as the sizes once the loop calling set got hot
   function methods.set(self, src, offset, sizes, strides)
      if isTensor(src) then return f.set(self, src) end
      if torch.isStorage(src) then
         return f.set(self, f.new(src, offset or 1, sizes, strides))
      end
      return f.set(self, f.new(nil, 1))
   end
   function methods.totable(self)
      local function rec(t)
         if t:dim() == 1 then
            local r = {}
            for i = 1, t:size(1) do r[i] = t[i] end
            return r
         end
         local r = {}
         for i = 1, t:size(1) do r[i] = rec(t:select(1, i)) end
         return r
      end
      if self:dim() == 0 then return {} end
      return rec(self)
   end
   -- apply(func): func(x) for each element in row-major order, replacing it by the result
   -- when that is a number.
   function methods.apply(self, func)
      local n = self:dim()
      if n == 0 then return self end
      local st, off = self:storage(), self:storageOffset()
      local size, stride = self:size():totable(), self:stride():totable()
      local idx = {}
      for d = 1, n do idx[d] = 1 end
      while true do
         local o = off
         for d = 1, n do o = o + (idx[d] - 1) * stride[d] end
         local v = func(sget(st, o))
         if v ~= nil then sset(st, o, v) end
         local d = n
         while d >= 1 do
            idx[d] = idx[d] + 1
            if idx[d] <= size[d] then break end
            idx[d] = 1
            d = d - 1
         end
         if d < 1 then break end
      end
      return self
   end
   function methods.map(self, other, func)
      assert(self:nElement() == other:nElement(), 'map: tensors of different sizes')
      local flat = other:contiguous():view(other:nElement())
      local i = 0
      return self:apply(function(x) i = i + 1; return func(x, flat[i]) end)
   end
   function methods.map2(self, a, b, func)
      assert(self:nElement() == a:nElement() and self:nElement() == b:nElement(), 'map2: tensors of different sizes')
      local fa, fb = a:contiguous():view(a:nElement()), b:contiguous():view(b:nElement())
      local i = 0
      return self:apply(function(x) i = i + 1; return func(x, fa[i], fb[i]) end)
   end

   -- t[k]: k a number (select, or the element of a vector) or a table of per-dimension
   -- indices ({i}, {first, last}, {} or a number).
   local function viewOf(self, k)
      local r = self
      local d = 1
      local allNumbers = true
      for i = 1, #k do
         if type(k[i]) ~= 'number' then allNumbers = false end
      end
      if allNumbers and #k == self:dim() then
         return nil, offsetOf(self, k, #k)
      end
      if #k > self:dim() then error('too many indices (' .. #k .. ') for a tensor of ' .. self:dim() .. ' dimensions', 3) end
      for i = 1, #k do
         local s = k[i]
         if type(s) == 'number' then
            r = f.select(r, d, s)
         elseif type(s) == 'table' then
            local size = f.size(r, d)
            local a, b = s[1] or 1, s[2] or s[1] or size
            if #s == 0 then a, b = 1, size end
            if a < 0 then a = size + 1 + a end
            if b < 0 then b = size + 1 + b end
            r = f.narrow(r, d, a, b - a + 1)
            d = d + 1
         else
            error('index ' .. i .. ': a number or a table expected', 3)
         end
      end
      return r
   end

   -- t[mask] and t[mask] = v: a ByteTensor of t's size selects elements
   local function isMask(k) return torch.typename(k) == 'torch.ByteTensor' end

   mt.__index = function(self, k)
      local tk = type(k)
      if tk == 'userdata' and isMask(k) then return self:maskedSelect(k)
      elseif tk == 'number' then
         if f.nDimension(self) == 1 then
            return sget(f.storage(self), offsetOf(self, { k }, 1))
         end
         return f.select(self, 1, k)
      elseif tk == 'table' then
         local view, off = viewOf(self, k)
         if view then return view end
         return sget(f.storage(self), off)
      elseif tk == 'userdata' and isTensor(k) then
         -- torch7's t[mask] (a ByteTensor: maskedSelect) and t[indices] (a LongTensor: index)
         if torch.typename(k) == 'torch.ByteTensor' then return self:maskedSelect(k) end
         return self:index(1, k)
      end
      return methods[k]
   end
   mt.__newindex = function(self, k, v)
      local tk = type(k)
      local view
      if tk == 'userdata' and isMask(k) then
         if type(v) == 'number' then return self:maskedFill(k, v) end
         return self:maskedCopy(k, v)
      elseif tk == 'number' then
         if f.nDimension(self) == 1 then
            return sset(f.storage(self), offsetOf(self, { k }, 1), v)
         end
         view = f.select(self, 1, k)
      elseif tk == 'table' then
         local off
         view, off = viewOf(self, k)
         if not view then return sset(f.storage(self), off, v) end
      elseif tk == 'userdata' and isTensor(k) then
         local byMask = torch.typename(k) == 'torch.ByteTensor'
         if type(v) == 'number' then
            if byMask then self:maskedFill(k, v) else self:indexFill(1, k, v) end
         elseif byMask then
            self:maskedCopy(k, v)
         else
            self:indexCopy(1, k, v)
         end
         return
      else
         error('cannot set field ' .. tostring(k) .. ' of a ' .. name, 2)
      end
      if type(v) == 'number' then f.fill(view, v)
      elseif isTensor(v) then view:copy(v)
      else error('a number or a tensor expected to assign to a tensor view', 2) end
   end

   -- torch7's Tensor__printMatrix: the rows of m, in blocks of as many columns as fit in 80
   -- characters ("Columns 1 to 8" above each block when there are several, a blank line
   -- between blocks), each block under its scale line when there is a scale, its rows then
   -- one space further in.
   local function formatMatrix(m, fmt, indent)
      local nRows, nColumns = m:size(1), m:size(2)
      local perLine = math.floor((80 - #indent) / (fmt.width + 1))
      local rowIndent = fmt.scale ~= 1 and indent .. ' ' or indent
      local parts = {}
      for first = 1, nColumns, perLine do
         local last = math.min(first + perLine - 1, nColumns)
         if perLine < nColumns then
            -- as torch7 prints it: only the first block's header is indented
            parts[#parts + 1] = (first == 1 and indent or '\n') .. 'Columns ' .. first .. ' to ' .. last .. '\n'
         end
         if fmt.scale ~= 1 then parts[#parts + 1] = indent .. string.format('%g', fmt.scale) .. ' *\n' end
         for i = 1, nRows do
            local row = {}
            for j = first, last do row[#row + 1] = string.format(fmt.format, m[i][j] / fmt.scale) end
            parts[#parts + 1] = rowIndent .. table.concat(row, ' ') .. '\n'
         end
      end
      return table.concat(parts)
   end

   -- torch7's Tensor.__tostring__: one format for all the elements; a vector one value a
   -- line; a matrix by formatMatrix; more dimensions as their matrices "(i,j,.,.) = ",
   -- one space in; then the type and size.
   mt.__tostring = function(self)
      local n = self:dim()
      if n == 0 then return '[' .. name .. ' with no dimension]\n' end
      local values = self:contiguous():view(self:nElement())
      local all = {}
      for i = 1, self:nElement() do all[i] = values[i] end
      local fmt = torch._printformat(all, elementType)
      local body
      if n == 1 then
         local lines = {}
         if fmt.scale ~= 1 then lines[1] = string.format('%g', fmt.scale) .. ' *' end
         for i = 1, #all do lines[#lines + 1] = string.format(fmt.format, all[i] / fmt.scale) end
         body = table.concat(lines, '\n') .. '\n'
      elseif n == 2 then
         body = formatMatrix(self, fmt, '')
      else
         local parts = {}
         local idx = {}
         local function rec(t, d)
            if d == n - 1 then
               parts[#parts + 1] = '(' .. table.concat(idx, ',') .. ',.,.) = \n' .. formatMatrix(t, fmt, ' ')
               return
            end
            for i = 1, t:size(1) do
               idx[d] = i
               rec(t:select(1, i), d + 1)
            end
            idx[d] = nil
         end
         rec(self, 1)
         body = table.concat(parts, '\n')
      end
      local sizes = {}
      for i = 1, n do sizes[i] = self:size(i) end
      return body .. '[' .. name .. ' of size ' .. table.concat(sizes, 'x') .. ']\n'
   end

   -- torch.DoubleTensor(...): () empty; (sizes... | LongStorage[, strides]); (table)
   -- nested; (tensor) a view of it; (storage[, offset, sizes[, strides]]).
   -- A storage of the tensor's own type is memory to view, so torch.LongTensor(longStorage)
   -- views it as in torch7; any other LongStorage holds sizes.
   local ownStorage = 'torch.' .. T .. 'Storage'
   local function construct(a, ...)
      if a == nil then return new() end
      local kind = torch.typename(a)
      if type(a) == 'number' or (kind == 'torch.LongStorage' and kind ~= ownStorage) then
         local sizes = sizesOf(a, ...)
         local strides = nil
         if kind == 'torch.LongStorage' then strides = ... end
         for i = 1, #sizes do
            if sizes[i] < 0 then error('tensor sizes must be non-negative', 3) end
         end
         return f.new(nil, 1, sizes, strides)
      end
      if isTensor(a) then
         if torch.typename(a) ~= name then error(name .. ': a tensor of the same type expected', 3) end
         return f.set(new(), a)
      end
      if torch.isStorage(a) then
         if kind ~= ownStorage then error(name .. ': a ' .. T .. 'Storage expected', 3) end
         local offset, sizes, strides = ...
         if sizes == nil then sizes = torch.LongStorage({ #a - (offset or 1) + 1 }) end
         if type(sizes) == 'number' then
            local s = { sizes }
            local rest = { select(2, ...) }
            for i = 1, #rest do s[#s + 1] = rest[i] end
            sizes, strides = torch.LongStorage(s), nil
         end
         return f.new(a, offset or 1, sizes, strides)
      end
      if type(a) == 'table' then
         -- nested tables: sizes from the first element at each depth, checked everywhere
         local sizes = {}
         local cur = a
         while type(cur) == 'table' do
            sizes[#sizes + 1] = #cur
            cur = cur[1]
         end
         local flat = {}
         local function walk(t, d)
            if type(t) ~= 'table' or #t ~= sizes[d] then
               error('inconsistent table sizes at depth ' .. d, 4)
            end
            for i = 1, #t do
               if d == #sizes then
                  if type(t[i]) ~= 'number' then error('a table of numbers expected', 4) end
                  flat[#flat + 1] = t[i]
               else
                  walk(t[i], d + 1)
               end
            end
         end
         walk(a, 1)
         local s = Storage(flat)
         if #flat == 0 then return new() end
         return f.new(s, 1, torch.LongStorage(sizes))
      end
      error(name .. ': sizes, a table, a storage or a tensor expected', 3)
   end
   -- two handles on one tensor are equal
   mt.__eq = function(a, b) return f.pointer(a) == f.pointer(b) end
   mt.__constructor = construct
   mt.__factory = function() return new() end
   -- torch7's class tables: methods and metamethods defined on them reach the tensors
   torch[T .. 'Tensor'] = setmetatable({}, {
      __typename = name,
      __call = function(_, ...) return construct(...) end,
      __index = methods,
      __newindex = function(_, k, v)
         methods[k] = v
         if type(k) == 'string' and k:sub(1, 2) == '__' then mt[k] = v end
      end,
   })
   -- torch.getmetatable('torch.DoubleTensor').real and the like, as torch7 had them
   setmetatable(mt, { __index = methods })
end
for _, T in ipairs(torch.allTypes) do torch._defineTensorClass(T, C[T]) end

-- split([result,] t, size[, dim]): t in views of `size` along dim (the last one shorter);
-- chunk([result,] t, n[, dim]): in n views at most. result, a table, is emptied and filled.
function torch.split(result, tensor, size, d)
   if type(result) ~= 'table' then
      result, tensor, size, d = {}, result, tensor, size
   else
      for k in pairs(result) do result[k] = nil end
   end
   d = d or 1
   local first, n = 1, tensor:size(d)
   while first <= n do
      local len = math.min(size, n - first + 1)
      result[#result + 1] = tensor:narrow(d, first, len)
      first = first + len
   end
   return result
end
function torch.chunk(result, tensor, nChunk, d)
   if type(result) ~= 'table' then
      result, tensor, nChunk, d = {}, result, tensor, nChunk
   end
   d = d or 1
   return torch.split(result, tensor, math.ceil(tensor:size(d) / nChunk), d)
end
function torch.totable(x) return x:totable() end

function torch._tensorConstructor(typename)
   local T = typename:match('^torch%.(%a+)Tensor$')
   local ctor = T and torch[T .. 'Tensor']
   if not ctor then error('unknown tensor type ' .. tostring(typename), 3) end
   return ctor
end

-- torch.Tensor follows torch.setdefaulttensortype (DoubleTensor to begin with).
local defaultType = 'torch.DoubleTensor'
function torch.setdefaulttensortype(typename)
   local T = typename:match('^torch%.(%a+)Tensor$')
   assert(T and torch[T .. 'Tensor'], 'invalid tensor type ' .. tostring(typename))
   defaultType = typename
   torch.Tensor = torch[T .. 'Tensor']
   torch.Storage = torch[T .. 'Storage']
end
function torch.getdefaulttensortype() return defaultType end
torch.setdefaulttensortype('torch.DoubleTensor')
