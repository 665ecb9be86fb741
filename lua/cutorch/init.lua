-- `require 'cutorch'`: cutorch's CUDA tensors (torch.CudaTensor for float, torch.CudaDoubleTensor,
-- torch.CudaHalfTensor, torch.CudaByteTensor, ... and their storages) over THC, with index
-- base 1. The C side is cutorch/cimpl.so (lua/csrc/cuda), built only where the CUDA toolkit
-- is and loaded here on first use; the classes and their TensorMath are torch's own Lua
-- definitions (torch._defineStorageClass, _defineTensorClass, _defineTensorMath) over its
-- functions. Without the shared object, or without a GPU, require raises a clear error.
require 'torch'
local torch = torch

-- cutorch/cimpl.so: on package.cpath, else beside the program or library holding torch's C side
local function modulePath()
   local candidates = {}
   local onPath = package.searchpath and package.searchpath('cutorch.cimpl', package.cpath)
   if onPath then candidates[#candidates + 1] = onPath end
   local here = torch._C.libraryPath()
   if here then
      local dir = here:match('^(.*)/[^/]*$') or '.'
      candidates[#candidates + 1] = dir .. '/cutorch/cimpl.so'
      candidates[#candidates + 1] = dir .. '/../cutorch/cimpl.so'
   end
   for _, path in ipairs(candidates) do
      local f = io.open(path, 'rb')
      if f then
         f:close()
         return path
      end
   end
end

-- A failed require leaves its sentinel in package.loaded, which makes the next require say
-- "loop or previous error": cleared, so that each require raises the cause again.
local function fail(msg)
   package.loaded.cutorch = nil
   error(msg, 0)
end

local path = modulePath()
if not path then
   fail('cutorch: this build has no CUDA support (cutorch/cimpl.so, which the build makes only where the CUDA '
         .. 'toolkit is installed, is not beside ' .. tostring(torch._C.libraryPath()) .. ')')
end
local open, loadError = package.loadlib(path, 'luaopen_cutorch_cimpl')
if not open then fail('cutorch: cannot load ' .. path .. ': ' .. tostring(loadError)) end
local opened, C = pcall(open)  -- "cutorch: no CUDA GPU is available (...)" when there is none
if not opened then fail(tostring(C):gsub('^[^\n]-:%d+: ', '')) end

cutorch = {}
local cutorch = cutorch
cutorch._C = C
for k, v in pairs(C) do
   if type(v) == 'function' then cutorch[k] = v end
end

-- cutorch's class prefix of each element type, and the CPU type of the same elements
local types = {
   { 'Cuda', 'Float' }, { 'CudaDouble', 'Double' }, { 'CudaHalf', 'Half' }, { 'CudaByte', 'Byte' },
   { 'CudaChar', 'Char' }, { 'CudaShort', 'Short' }, { 'CudaInt', 'Int' }, { 'CudaLong', 'Long' },
}
local cpuOf = {}
local companion = { Byte = 'CudaByte', Long = 'CudaLong', Int = 'CudaInt', P = { 'Cuda', 'CudaDouble' } }
for _, pair in ipairs(types) do
   local T, cpu = pair[1], pair[2]
   cpuOf[T] = cpu
   local f = C[T]
   torch._defineStorageClass(T, f)
   torch._defineTensorClass(T, f, cpu)
   if cpu ~= 'Half' then torch._defineTensorMath(T, f, companion) end
   local mt = torch.getmetatable('torch.' .. T .. 'Tensor')
   local methods = mt.__methods
   methods.getDevice = f.getDevice
   -- printed as its CPU copy is (one transfer rather than one per element), under its own name
   mt.__tostring = function(self)
      local text = tostring(self:type('torch.' .. cpu .. 'Tensor'))
      return (text:gsub('%[torch%.' .. cpu .. 'Tensor ', '[torch.' .. T .. 'Tensor '))
   end
   -- storages copy through tensors on them (a whole storage, one transfer)
   local storageMethods = torch.getmetatable('torch.' .. T .. 'Storage').__methods
   function storageMethods.copy(self, src)
      if not torch.isStorage(src) then error('copy: a storage expected', 2) end
      if #src ~= #self then error('copy: storages of different sizes (' .. #src .. ' into ' .. #self .. ')', 2) end
      if #self > 0 then
         local srcClass = torch.typename(src):match('^torch%.(%a+)Storage$')
         torch[T .. 'Tensor'](self):copy(torch[srcClass .. 'Tensor'](src))
      end
      return self
   end
end

local function cudaPrefixOf(object)
   local name = torch.typename(object)
   return name and (name:match('^torch%.(Cuda%a*)Tensor$') or name:match('^torch%.(Cuda%a*)Storage$'))
end

-- CPU tensors copy from CUDA ones: to the CPU type of the same elements, then (when that
-- is another type) converted there.
for _, cpu in ipairs(torch.allTypes) do
   local methods = torch.getmetatable('torch.' .. cpu .. 'Tensor').__methods
   local cpuCopy = methods.copy
   function methods.copy(self, src)
      local T = cudaPrefixOf(src)
      if not T then return cpuCopy(self, src) end
      if self:nElement() ~= src:nElement() then
         error(string.format('copy: sizes do not match (%d elements into %d)', src:nElement(), self:nElement()), 2)
      end
      if cpuOf[T] == cpu then return C[T].copyToCpu(self, src) end
      local staged = torch[cpuOf[T] .. 'Tensor'](src:size())
      C[T].copyToCpu(staged, src)
      return cpuCopy(self, staged)
   end
end

-- :cuda(), :cudaDouble(), ... on every tensor (the element type kept by :cuda() is float,
-- as in cutorch), and :type('torch.CudaTensor') through the constructors above.
local conversions = { cuda = 'Cuda' }
for _, pair in ipairs(types) do
   if pair[1] ~= 'Cuda' then conversions['cuda' .. pair[2]] = pair[1] end
end
local tensorTypes = {}
for _, cpu in ipairs(torch.allTypes) do tensorTypes[#tensorTypes + 1] = cpu end
for _, pair in ipairs(types) do tensorTypes[#tensorTypes + 1] = pair[1] end
for _, T in ipairs(tensorTypes) do
   local methods = torch.getmetatable('torch.' .. T .. 'Tensor').__methods
   for method, target in pairs(conversions) do
      methods[method] = function(self) return self:type('torch.' .. target .. 'Tensor') end
   end
end

-- Note [CUDA records in files] (lua/csrc/FileObject.cpp): a record read as a CPU storage
-- or tensor goes to the GPU, storages shared as in the file (memo: CPU storage -> CUDA one).
function cutorch._fromFile(object, className, memo)
   local T = className:match('^torch%.(Cuda%a*)Tensor$') or className:match('^torch%.(Cuda%a*)Storage$')
   local cpuStorage = torch.isStorage(object) and object or object:storage()
   local key = torch.pointer(cpuStorage)
   local storage = memo[key]
   if not storage then
      storage = torch[T .. 'Storage'](#cpuStorage)
      if #cpuStorage > 0 then storage:copy(cpuStorage) end
      memo[key] = storage
   end
   if torch.isStorage(object) then return storage end
   if object:dim() == 0 then return torch[T .. 'Tensor']() end
   return torch[T .. 'Tensor'](storage, object:storageOffset(), object:size(), object:stride())
end

-- ... and written as the CPU copy cutorch wrote, one copy per CUDA storage and per tensor.
function cutorch._toFile(object, memo)
   local T = cudaPrefixOf(object)
   local cpu = cpuOf[T]
   local storage = torch.isStorage(object) and object or object:storage()
   local key = 's' .. torch.pointer(storage)
   local host = memo[key]
   if not host then
      host = torch[cpu .. 'Storage'](#storage)
      if #storage > 0 then C[T].storage_copyTo(host, storage) end
      memo[key] = host
   end
   if torch.isStorage(object) then return host end
   local tkey = 't' .. torch.pointer(object)
   if memo[tkey] then return memo[tkey] end
   local tensor = object:dim() == 0 and torch[cpu .. 'Tensor']()
      or torch[cpu .. 'Tensor'](host, object:storageOffset(), object:size(), object:stride())
   memo[tkey] = tensor
   return tensor
end

-- CudaHalfTensor holds, copies and saves halves, but THC has no Half math: cutorch's own
-- tests leave Half out when hasHalf is false
cutorch.hasHalf = false

-- f() with device current, the current device restored whatever f raises
function cutorch.withDevice(device, f)
   local current = cutorch.getDevice()
   cutorch.setDevice(device)
   local r = { pcall(f) }
   cutorch.setDevice(current)
   if not r[1] then error(r[2], 0) end
   return unpack(r, 2, table.maxn(r))
end
-- a fresh seed for the current device's generator (all devices': seedAll), returned
function cutorch.seed()
   local s = torch.random()
   cutorch.manualSeed(s)
   return s
end
function cutorch.seedAll()
   local s = torch.random()
   cutorch.manualSeedAll(s)
   return s
end
-- every stream of the list waits for what is queued on the others
function cutorch.streamBarrier(streams)
   for _, s in ipairs(streams) do cutorch.streamWaitFor(s, streams) end
end

cutorch.test = function(...) error('cutorch.test: run ../shared/upstream/cutorch/test/test.lua (scripts/device_check.sh)', 2) end

return cutorch
