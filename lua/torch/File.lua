-- torch.File and its kinds (torch.DiskFile, torch.MemoryFile, torch.PipeFile), and
-- torch.save / torch.load / torch.serialize / torch.deserialize written on them as in
-- torch7. The typed reads and writes are C (lua/csrc/FileMethods.cpp); readObject /
-- writeObject (lua/csrc/FileObject.cpp) go through the one .t7 implementation (t7/):
-- this file only tells it which Lua tables are torch objects, how to make the objects it
-- reads, and which classes write and read their data themselves.
local torch = torch
local C = torch._C

-- As torch7: the method `name` of an object's class (__name first), found through the
-- class and its parents, not the object's own fields.
local function classMethod(object, name)
   local mt = torch.getmetatable(torch.typename(object))
   if not mt then return nil end
   local method = mt['__' .. name] or mt[name]
   if type(method) == 'function' then return method end
end

local function classOf(tbl)
   local name = torch.typename(tbl)
   if name then return name, torch.version(tbl), classMethod(tbl, 'write') ~= nil end
end

-- The packages of this project that define the classes of a saved object's name prefix,
-- required when an object of a class not loaded yet is read (an nn model read before
-- `require 'nn'`), as torch7's users expect of them.
local definingPackages = {
   nn = { 'nn', 'nngraph' },  -- nn.gModule and nn.ModuleFromCriterion are nngraph's
   nngraph = { 'nngraph' },
   graph = { 'graph' },
   optim = { 'optim' },
}

-- The metatable of class name, requiring its package when it is one of ours; torch7's error
-- for any other unknown class.
local function classNamed(name)
   local mt = torch.getmetatable(name)
   if mt then return mt end
   for _, package in ipairs(definingPackages[name:match('^([^.]+)%.') or ''] or {}) do
      require(package)
      mt = torch.getmetatable(name)
      if mt then return mt end
   end
   error('unknown Torch class <' .. name .. '>', 0)
end

-- The flag that loads cutorch's and cudnn.torch's records on the CPU (Note [CUDA records
-- in files] in lua/csrc/FileObject.cpp), as the error messages name it.
local cudaToCpuFlag = 'torch.load(filename, mode, {cudaToCpu = true})'

-- One warning per file (a torch.load is one file).
local warnedFiles = setmetatable({}, { __mode = 'k' })
local function warnCudaToCpu(file, what)
   if warnedFiles[file] then return end
   warnedFiles[file] = true
   io.stderr:write('warning: ' .. what .. ' (cudaToCpu: CUDA tensors become CPU tensors of their element type, '
                   .. 'torch.CudaTensor and torch.CudaHalfTensor torch.FloatTensor; cudnn modules become nn ones)\n')
end

-- Note [cudnn modules on the CPU]: cudnn.torch's modules are nn modules of the same fields
-- with cuDNN descriptors, which their write methods cleared: cudnn.convert(model, nn) turns
-- each into its nn class by its class name, keeping the fields. A file holding them loads
-- that way on a machine without cudnn when the file is read with cudaToCpu (the records'
-- tensors are CUDA ones anyway). What convert does besides: ReLU gets nn.ReLU's own fields,
-- average pooling divides and counts the padding as cudnn's mode said (convert.lua reads
-- that mode from the class name, a slip: the module's field is meant). Grouped convolutions
-- have no nn class.
local cudnnToNn = {
   BatchNormalization = true, SpatialBatchNormalization = true, VolumetricBatchNormalization = true,
   SpatialConvolution = true, SpatialFullConvolution = true, VolumetricConvolution = true,
   VolumetricFullConvolution = true, SpatialCrossMapLRN = true, SpatialMaxPooling = true,
   SpatialAveragePooling = true, VolumetricMaxPooling = true, VolumetricAveragePooling = true,
   ReLU = true, Tanh = true, Sigmoid = true, SoftMax = true, LogSoftMax = true,
}
local function cudnnAsNn(name, fields, file)
   local short = name:match('^cudnn%.(.+)$')
   if not cudnnToNn[short] then
      error('cannot load a ' .. name .. ' on the CPU: cudnn.torch\'s module has no nn equivalent', 0)
   end
   if (fields.groups or 1) ~= 1 then
      error('cannot load a ' .. name .. ' of ' .. fields.groups .. ' groups on the CPU: nn.' .. short
            .. ' has no groups', 0)
   end
   warnCudaToCpu(file, 'loading cudnn modules as nn modules')
   require 'nn'
   local object = short == 'ReLU' and nn.ReLU() or setmetatable({}, classNamed('nn.' .. short))
   for k, v in pairs(fields) do object[k] = v end
   if short == 'ReLU' then object.mode = nil end
   for _, k in ipairs({ 'iDesc', 'oDesc', 'weightDesc', 'biasDesc', 'convDesc', 'oDescForBias', 'poolDesc',
                        'activDesc', 'sDesc', 'iSize', 'oSize', 'scaleT', 'mode', 'algorithm' }) do
      object[k] = nil
   end
   if short == 'SpatialAveragePooling' or short == 'VolumetricAveragePooling' then
      object.divide = true
      object.count_include_pad = fields.mode ~= 'CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING'
   end
   if short:match('MaxPooling$') then object.indices = object.indices or torch.LongTensor() end
   return object
end

-- A loaded object of class name with its fields: an instance of the Lua class.
local function makeObject(name, content, version, file)
   if name:match('^cudnn%.') and not torch.getmetatable(name) then
      local ok, err = pcall(require, 'cudnn')
      if not ok or not torch.getmetatable(name) then
         if file and file:isCudaToCpu() and type(content) == 'table' then return cudnnAsNn(name, content, file) end
         error('cannot load a ' .. name .. ': ' .. tostring(ok and 'cudnn has no such class' or err)
               .. '; ' .. cudaToCpuFlag .. ' loads cudnn.torch\'s modules as their nn equivalents on the CPU', 0)
      end
   end
   local mt = classNamed(name)
   if type(content) == 'table' then return setmetatable(content, mt) end
   return content
end

-- Classes with a write(file) method write their payload themselves after their class name,
-- and classes with a read(file, versionNumber) method read it into a fresh instance (made
-- without __init), as torch7's File:writeObject and File:readObject do. cudnn's classes are
-- left to makeObject (Note [cudnn modules on the CPU]).
local function newReading(name)
   if name:match('^cudnn%.') and not torch.getmetatable(name) then return nil end
   local mt = classNamed(name)
   local object = mt.__factory and mt.__factory() or setmetatable({}, mt)
   if classMethod(object, 'read') then return object end
end

-- Half storages as Float ones, shared as they were (memo: half storage -> float storage).
local function halfAsFloat(object, memo)
   local half = torch.isStorage(object) and object or object:storage()
   local key = torch.pointer(half)
   local float = memo[key]
   if not float then
      float = torch.FloatStorage(#half)
      if #half > 0 then torch.FloatTensor(float):copy(torch.HalfTensor(half)) end
      memo[key] = float
   end
   if torch.isStorage(object) then return float end
   if object:dim() == 0 then return torch.FloatTensor() end
   return torch.FloatTensor(float, object:storageOffset(), object:size(), object:stride())
end

-- Note [CUDA records in files] in lua/csrc/FileObject.cpp: object is the record as a CPU
-- storage or tensor, className cutorch's.
local function fromCuda(object, className, file, memo)
   if file:isCudaToCpu() then
      warnCudaToCpu(file, 'loading ' .. className .. ' records on the CPU')
      if className:match('^torch%.CudaHalf') then
         memo.half = memo.half or {}
         return halfAsFloat(object, memo.half)
      end
      return object
   end
   local ok, err = pcall(require, 'cutorch')
   if not ok then
      error('cannot load a ' .. className .. ': ' .. tostring(err) .. '; ' .. cudaToCpuFlag
            .. ' loads cutorch\'s tensors as CPU tensors of their element type (torch.CudaTensor as torch.FloatTensor)', 0)
   end
   memo.cuda = memo.cuda or {}
   return cutorch._fromFile(object, className, memo.cuda)
end

-- The CPU copy of a cutorch tensor or storage to write under its class name (the same copy
-- for the same storage within one writer: memo).
local function toFile(object, memo)
   return cutorch._toFile(object, memo)
end

C.file_setObjectFunctions {
   classOf = classOf,
   make = makeObject,
   newReading = newReading,
   writePayload = function(object, file) classMethod(object, 'write')(object, file) end,
   readPayload = function(object, file, version) classMethod(object, 'read')(object, file, version) end,
   fromCuda = fromCuda,
   toFile = toFile,
}

-- torch.File: the methods every kind shares. Methods added to
-- torch.getmetatable('torch.File') reach every file, as in torch7.
local File = { __typename = 'torch.File' }
File.__index = File
torch._metatables['torch.File'] = File
torch.File = setmetatable({}, { __index = File, __newindex = File })

-- The C functions file_<method>, minus the constructors and the internal ones.
local internal = {
   disk = true, pipe = true, memory = true, memoryOfString = true, gc = true, contents = true,
   storage = true, readObject = true, writeObject = true,
}
for name, f in pairs(C) do
   local method = name:match('^file_(.+)$')
   if method and not internal[method] then File[method] = f end
end

function File:readObject()
   return C.file_readObject(self)
end
-- writeObject(object[, debugname[, hook]]): debugname names the object in error messages;
-- hook(value) gives what is written in place of each value (torch7's, to save under one
-- setup what is to be read under another: CUDA tensors as float ones, say).
function File:writeObject(object, debugname, hook)
   C.file_writeObject(self, object, debugname, hook)
end
function File:readBool()
   return self:readInt() == 1
end
function File:writeBool(value)
   return self:writeInt(value and 1 or 0)
end

-- The metatable C registered for a kind of file, made a subclass of parent.
local function fileClass(name, parent, constructor)
   local mt = debug.getregistry()[name]
   mt.__typename = name
   mt.__index = mt
   mt.__gc = C.file_gc
   mt.__tostring = function() return name end
   setmetatable(mt, { __index = parent })
   torch._metatables[name] = mt
   torch[name:match('^torch%.(.+)$')] = setmetatable({}, {
      __call = function(_, ...) return constructor(...) end,
      __index = mt,
   })
   return mt
end

-- torch.DiskFile(path[, mode = 'r'[, quiet]]): mode 'r', 'w' or 'rw'; nil when quiet and
-- the file cannot be opened.
local DiskFile = fileClass('torch.DiskFile', File, C.file_disk)
-- torch.PipeFile(command[, mode = 'r'[, quiet]]): reads the command's output ('r') or
-- writes its input ('w').
fileClass('torch.PipeFile', DiskFile, C.file_pipe)
-- torch.MemoryFile([mode = 'rw']) / torch.MemoryFile(charStorage[, mode]): a file in a
-- CharStorage that ends with a 0 byte; :storage() gives it back.
local MemoryFile = fileClass('torch.MemoryFile', File, C.file_memory)
MemoryFile.storage = C.file_storage

-- torch.save / torch.load modes: binary (8-byte longs), b64, b32 (4-byte longs, as torch7
-- wrote on Windows) and ascii.
local function setMode(file, mode)
   if mode == 'binary' or mode == 'b64' then
      file:binary():longSize(8)
   elseif mode == 'b32' then
      file:binary():longSize(4)
   elseif mode == 'ascii' then
      file:ascii()
   else
      error("unknown format '" .. tostring(mode) .. "': 'binary', 'b32', 'b64' or 'ascii' expected", 3)
   end
   return file
end

-- The object the file holds: with no mode, ascii or binary is told by the first byte, and
-- with no mode or 'binary' the long size is found (Note [Long size] in t7/t7.h).
local function readTop(file, mode)
   if mode == nil then return C.file_readObject(file, true, true) end
   setMode(file, mode)
   if mode == 'binary' then return C.file_readObject(file, false, true) end
   return file:readObject()
end

-- Runs f(file), closes the file whatever happens, and raises f's error at the caller's level.
local function closing(file, f)
   local ok, result = pcall(f, file)
   file:close()
   if not ok then error(result, 3) end
   return result
end

function torch.save(filename, object, mode, referenced)
   assert(type(filename) == 'string', 'torch.save: a file name expected')
   local file = setMode(torch.DiskFile(filename, 'w'), mode or 'binary')
   file:referenced(referenced == nil or referenced)
   closing(file, function(f) f:writeObject(object) end)
end

-- The options of torch.load and torch.deserialize: torch7's `referenced` flag, or a table
-- { referenced = true, allowFunctions = true, cudaToCpu = false }. allowFunctions = false
-- refuses the Lua functions a file may hold (Note [Refusing functions] in t7/t7.h): a file
-- from an untrusted source that should hold data (tensors, tables, nn modules) is read that
-- way, since a function it holds runs with this process's globals when something calls it.
-- cudaToCpu = true loads cutorch's tensors as CPU tensors and cudnn.torch's modules as nn
-- ones, with one warning (Note [CUDA records in files] in lua/csrc/FileObject.cpp); without
-- it they go to the GPU through cutorch, or raise an error that names this option.
local function readOptions(file, options, caller)
   local referenced, allowFunctions, cudaToCpu = options, true, false
   if type(options) == 'table' then
      for key in pairs(options) do
         if key ~= 'referenced' and key ~= 'allowFunctions' and key ~= 'cudaToCpu' then
            error(caller .. ": unknown option '" .. tostring(key) .. "' (referenced, allowFunctions, cudaToCpu)", 3)
         end
      end
      referenced = options.referenced
      if options.allowFunctions ~= nil then allowFunctions = options.allowFunctions end
      cudaToCpu = options.cudaToCpu == true
   end
   file:referenced(referenced == nil or referenced)
   file:allowFunctions(allowFunctions)
   file:cudaToCpu(cudaToCpu)
   return file
end

-- torch.load(filename[, mode[, referenced or options]])
function torch.load(filename, mode, options)
   assert(type(filename) == 'string', 'torch.load: a file name expected')
   local file = readOptions(torch.DiskFile(filename, 'r'), options, 'torch.load')
   return closing(file, function(f) return readTop(f, mode) end)
end

function torch.serialize(object, mode)
   local file = setMode(torch.MemoryFile(), mode or 'binary')
   return closing(file, function(f)
      f:writeObject(object)
      return C.file_contents(f)
   end)
end

-- torch.deserialize(bytes[, mode[, options]]): options as torch.load's.
function torch.deserialize(bytes, mode, options)
   assert(type(bytes) == 'string', 'torch.deserialize: a string expected')
   local file = readOptions(C.file_memoryOfString(bytes), options, 'torch.deserialize')
   return closing(file, function(f) return readTop(f, mode) end)
end

-- The bytes of torch.serialize in a CharStorage (without MemoryFile's trailing 0).
function torch.serializeToStorage(object, mode)
   local file = setMode(torch.MemoryFile(), mode or 'binary')
   return closing(file, function(f)
      f:writeObject(object)
      local storage = f:storage()
      storage:resize(#storage - 1)
      return storage
   end)
end

function torch.deserializeFromStorage(storage, mode, options)
   return torch.deserialize(storage:string(), mode, options)
end
