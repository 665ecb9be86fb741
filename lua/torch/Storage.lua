-- torch.<Type>Storage: 1-based arrays of one element type, backed by TH storages.
local torch = torch
local C = torch._C

-- The class torch.<T>Storage over the C functions f (C[T]: TH's here, THC's for cutorch's
-- torch.Cuda<Type>Storage, whose metatable its C side registered).
function torch._defineStorageClass(T, f)
   local name = 'torch.' .. T .. 'Storage'
   local mt = debug.getregistry()[name]
   local methods = {}
   mt.__typename = name
   mt.__gc = f.storage_gc
   torch._metatables[name] = mt

   local get, set = f.storage_get, f.storage_set
   mt.__index = function(self, k)
      if type(k) == 'number' then return get(self, k) end
      return methods[k]
   end
   mt.__newindex = function(self, k, v)
      if type(k) == 'number' then return set(self, k, v) end
      error('cannot set field ' .. tostring(k) .. ' of a ' .. name, 2)
   end
   mt.__len = function(self) return f.storage_size(self) end
   -- as luaT's default __eq: two userdata are equal when they hold the same C storage
   mt.__eq = function(a, b) return f.storage_pointer(a) == f.storage_pointer(b) end

   methods.size = f.storage_size
   methods.resize = f.storage_resize
   methods.fill = f.storage_fill
   methods.cdata = f.storage_pointer
   methods.elementSize = f.storage_elementSize
   function methods.copy(self, src)
      local n = f.storage_size(self)
      if torch.isStorage(src) then
         assert(#src == n, 'copy: storages of different sizes')
         for i = 1, n do set(self, i, src[i]) end
      elseif type(src) == 'table' then
         assert(#src == n, 'copy: table and storage of different sizes')
         for i = 1, n do set(self, i, src[i]) end
      else
         error('copy: a storage or a table expected', 2)
      end
      return self
   end
   function methods.totable(self)
      local t = {}
      for i = 1, f.storage_size(self) do t[i] = get(self, i) end
      return t
   end
   function methods.type(self, typename)
      if not typename then return name end
      if typename == name then return self end
      local other = torch.getmetatable(typename)
      assert(other, 'unknown type ' .. typename)
      local s = other.__constructor(#self)
      for i = 1, #self do s[i] = self[i] end
      return s
   end
   -- storage:string(): the elements as the bytes of a string; storage:string(str) (Byte
   -- and Char storages): resized to str's bytes, then returned.
   local signed = T == 'Char'
   function methods.string(self, str)
      if str ~= nil then
         if T ~= 'Byte' and T ~= 'Char' then error('string: only a ByteStorage or a CharStorage holds a string', 2) end
         if type(str) ~= 'string' then error('string: a string expected, got ' .. type(str), 2) end
         f.storage_resize(self, #str)
         for i = 1, #str do
            local b = str:byte(i)
            set(self, i, signed and b > 127 and b - 256 or b)
         end
         return self
      end
      local chars = {}
      for i = 1, f.storage_size(self) do chars[i] = string.char(get(self, i) % 256) end
      return table.concat(chars)
   end
   -- torch7's Storage.__tostring__: a blank line, the scale line if any, a value a line
   mt.__tostring = function(self)
      local n = f.storage_size(self)
      local lines = { '' }
      local fmt = torch._printformat(methods.totable(self), T)
      if fmt.scale ~= 1 then lines[2] = string.format('%g', fmt.scale) .. ' *' end
      for i = 1, n do lines[#lines + 1] = string.format(fmt.format, get(self, i) / fmt.scale) end
      lines[#lines + 1] = '[' .. name .. ' of size ' .. n .. ']\n'
      return table.concat(lines, '\n')
   end

   -- torch.DoubleStorage(n) / (table): a new storage; (storage[, offset[, size]]): a view
   -- on the elements of a storage of this type from offset (1-based); (filename[, shared[,
   -- size[, sharedMem]]]): a file mapped, or POSIX shared memory (storage_newMapped)
   local function new(a, ...)
      if a == nil then return f.storage_new(0) end
      if type(a) == 'string' then return f.storage_newMapped(a, ...) end
      if torch.typename(a) == name then return f.storage_view(a, ...) end
      if type(a) == 'number' then return f.storage_new(a) end
      if type(a) == 'table' and not torch.typename(a) then
         local s = f.storage_new(#a)
         for i = 1, #a do set(s, i, a[i]) end
         return s
      end
      error(name .. ': a size or a table of numbers expected', 3)
   end
   mt.__constructor = new
   mt.__factory = function() return f.storage_new(0) end
   mt.__methods = methods
   local pkgname = T .. 'Storage'
   torch[pkgname] = setmetatable({}, {
      __call = function(_, ...) return new(...) end,
      __index = methods,
   })
end

for _, T in ipairs(torch.allTypes) do torch._defineStorageClass(T, C[T]) end
