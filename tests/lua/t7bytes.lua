-- Bytes of torch7's binary .t7 format written field by field, as torch7's File.lua and
-- cutorch wrote them, with the file's typed writes and not the t7 library: the independent
-- reference the CUDA file suites (test_cuda_files.lua, gpu/test_cutorch.lua) compare with.
--   local w = dofile('t7bytes.lua')()
--   w.value(w.tensor('torch.CudaTensor', {2}, {1}, 1, w.storage('torch.CudaStorage', {1, 2}, 'writeFloat')))
--   local bytes = w.bytes()
-- torch7's binary format: every value is an int32 tag, then its data; objects (tables and
-- torch classes) carry an index, met again as the index alone; longs are 8 bytes.
local TAG = { number = 1, string = 2, table = 3, torch = 4, boolean = 5 }
local function writer()
   local f = torch.MemoryFile():binary()
   local w = { file = f, index = 0 }
   local function str(s)
      f:writeInt(#s)
      f:writeString(s)
   end
   function w.value(v)
      local kind = type(v)
      if kind == 'number' then
         f:writeInt(TAG.number); f:writeDouble(v)
      elseif kind == 'string' then
         f:writeInt(TAG.string); str(v)
      elseif kind == 'boolean' then
         f:writeInt(TAG.boolean); f:writeInt(v and 1 or 0)
      elseif kind == 'table' and v.ref then  -- an object written before: its index
         f:writeInt(v.tag); f:writeInt(v.ref)
      elseif kind == 'table' and v.class then  -- a torch object: {class =, payload = function}
         w.index = w.index + 1
         v.tag, v.ref = TAG.torch, w.index
         f:writeInt(TAG.torch); f:writeInt(w.index); str('V 1'); str(v.class)
         v.payload()
      else  -- a plain table: pairs in a list {{k, v}, ...}
         w.index = w.index + 1
         f:writeInt(TAG.table); f:writeInt(w.index); f:writeInt(#v.pairs)
         for _, kv in ipairs(v.pairs) do w.value(kv[1]); w.value(kv[2]) end
      end
   end
   -- a storage record: its size as a long, then its elements (write: the typed writer)
   function w.storage(class, values, write)
      return { class = class, payload = function()
         f:writeLong(#values)
         for _, x in ipairs(values) do f[write](f, x) end
      end }
   end
   -- a tensor record: dims, sizes, strides, offset (1-based), then its storage object
   function w.tensor(class, sizes, strides, offset, storage)
      return { class = class, payload = function()
         f:writeInt(#sizes)
         for _, s in ipairs(sizes) do f:writeLong(s) end
         for _, s in ipairs(strides) do f:writeLong(s) end
         f:writeLong(offset)
         if storage then w.value(storage) else f:writeInt(0) end
      end }
   end
   function w.bytes()
      local s = f:storage():string()
      return s:sub(1, #s - 1)  -- MemoryFile's trailing 0
   end
   return w
end

return writer
