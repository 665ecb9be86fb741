-- `require 'torch'`: torch7's torch package on LuaJIT, over TH built with 1-based indices.
-- The C functions live in torch.cimpl (lua/csrc); this file holds the class system and the
-- package-level functions, Tensor.lua and TensorMath.lua the tensor classes.
local C = require 'torch.cimpl'
-- as torch7's init did: scripts that require torch use the global paths without requiring it
require 'paths'

torch = torch or {}
local torch = torch

-- Lua 5.2's name for unpack, which torch7's init defines and its and nn's code use.
table.unpack = table.unpack or unpack
torch._C = C

torch.types = C.types  -- from TH's type table: the types with arithmetic
torch.allTypes = C.allTypes  -- and Half, which has storages, tensors and copies only

-- Class metatables by name ("torch.DoubleTensor", "nn.Linear").
local metatables = {}
torch._metatables = metatables

function torch.typename(obj)
   local mt = getmetatable(obj)
   if type(mt) == 'table' then
      return rawget(mt, '__typename')
   end
   return nil
end

function torch.type(obj)
   return torch.typename(obj) or type(obj)
end

-- The version of an object's class, written before its class name in .t7 files ("V 1"):
-- the class's __version, 1 when it has none.
function torch.version(obj)
   local mt = getmetatable(obj)
   return type(mt) == 'table' and mt.__version or 1
end

function torch.getmetatable(name)
   return metatables[name]
end

-- The package table a dotted class name lives in, created as needed ("nn.Linear" -> nn).
local function packageOf(name)
   local parts = {}
   for part in name:gmatch('[^%.]+') do parts[#parts + 1] = part end
   local pkg = _G
   for i = 1, #parts - 1 do
      pkg[parts[i]] = pkg[parts[i]] or {}
      pkg = pkg[parts[i]]
   end
   return pkg, parts[#parts]
end

-- torch.class(name[, parent]) -> class metatable, parent metatable. `Name(...)` makes an
-- object and calls its __init; `__factory` makes one without __init (used by torch.load).
function torch.class(name, parentName, module)
   assert(type(name) == 'string', 'torch.class: class name (a string) expected')
   assert(not metatables[name], 'torch.class: class ' .. name .. ' already exists')
   local parent
   if parentName then
      -- the parent by name, or by its class table or constructor (torch.class('B', A)), as
      -- torch7 allowed
      if type(parentName) == 'table' then
         local cmt = getmetatable(parentName)
         local pname = rawget(parentName, '__typename') or type(cmt) == 'table' and rawget(cmt, '__typename')
         -- a table that is no class is the module to define the class in: torch.class(name, module)
         if pname then parentName = pname else module, parentName = parentName, nil end
      end
      if parentName then
         parent = metatables[parentName]
         assert(parent, 'torch.class: parent class ' .. tostring(parentName) .. ' does not exist')
      end
   end
   local mt = { __typename = name }
   mt.__index = mt
   if parent then
      setmetatable(mt, { __index = parent })
      -- operators and __tostring__ are inherited through rawget-free lookups
      for _, k in ipairs({ '__tostring', '__add', '__sub', '__mul', '__div', '__unm', '__len', '__eq', '__concat', '__call__' }) do
         if rawget(parent, k) then mt[k] = parent[k] end
      end
   end
   mt.__tostring = function(self)
      local f = self.__tostring__
      if f then return f(self) end
      return name
   end
   mt.__factory = function()
      return setmetatable({}, mt)
   end
   -- as luaT's: calling an object calls its class's __call__ (nngraph's `module(input)`)
   mt.__call = function(self, ...)
      local call = self.__call__
      if not call then error('attempt to call a ' .. name .. ' object (its class has no __call__)', 2) end
      return call(self, ...)
   end
   metatables[name] = mt
   local ctor = setmetatable({}, {
      __typename = name,
      __index = mt,
      __newindex = mt,
      __call = function(_, ...)
         local obj = setmetatable({}, mt)
         if obj.__init then obj:__init(...) end
         return obj
      end,
   })
   if module then
      module[name:match('[^.]*$')] = ctor  -- as luaT: under the name's last part
   else
      local pkg, short = packageOf(name)
      pkg[short] = ctor
   end
   return mt, parent
end

-- torch.isTypeOf(obj, spec): whether obj's class or one of its ancestors is spec, a class
-- name, a class constructor (torch.LongTensor, nn.Linear) or a Lua pattern; a plain name
-- must match the whole class name ('torch.Long' is not 'torch.LongTensor').
function torch.isTypeOf(obj, typeSpec)
   if type(typeSpec) ~= 'string' then
      local cmt = getmetatable(typeSpec)
      typeSpec = type(typeSpec) == 'table' and rawget(typeSpec, '__typename')
         or type(cmt) == 'table' and rawget(cmt, '__typename') or torch.typename(typeSpec)
      assert(type(typeSpec) == 'string', 'torch.isTypeOf: a class name, a pattern or a constructor expected')
   end
   local name = torch.typename(obj)
   if not name then return false end
   local mt = metatables[name]
   while mt do
      local tn = rawget(mt, '__typename')
      if tn then
         local match = tn:match(typeSpec)
         if match and (match ~= typeSpec or match == tn) then return true end
      end
      local up = getmetatable(mt)
      mt = up and rawget(up, '__index')
      if type(mt) ~= 'table' then mt = nil end
   end
   return false
end

function torch.isTensor(obj)
   local name = torch.typename(obj)
   return name ~= nil and name:match('^torch%.%a+Tensor$') ~= nil and metatables[name] ~= nil
end

function torch.isStorage(obj)
   local name = torch.typename(obj)
   return name ~= nil and name:match('^torch%.%a+Storage$') ~= nil and metatables[name] ~= nil
end

function torch.pointer(obj)
   if torch.isTensor(obj) or torch.isStorage(obj) then return obj:cdata() end
   local t = type(obj)
   if t == 'table' or t == 'function' or t == 'thread' or t == 'userdata' then return C.address(obj) end
end

torch.manualSeed = C.manualSeed
torch.seed = C.seed
torch.initialSeed = C.initialSeed
torch.random = C.random
torch.uniform = C.uniform
torch.normal = C.normal
torch.getRNGState = C.getRNGState
torch.setRNGState = C.setRNGState
torch.setnumthreads = C.setnumthreads
torch.getnumthreads = C.getnumthreads

-- torch.setheaptracking(enabled): whether Lua's collector runs when the memory of storages
-- and tensors has grown (Note [Heap tracking] in lua/csrc/common.h); on by default, as it
-- should be for any loop that drops tensors. torch._heaptracking tells the setting, as in
-- torch7; torch._C.heapsize() the bytes TH holds.
function torch.setheaptracking(enabled)
   assert(type(enabled) == 'boolean', 'torch.setheaptracking: a boolean expected')
   C.setheaptracking(enabled)
   torch._heaptracking = enabled
end
torch.setheaptracking(true)

-- torch.Generator(): a random generator of its own; torch.fn(gen, ...) draws from it for
-- the random functions below and torch.rand, randn, randperm, multinomial.
local Generator = torch.class('torch.Generator')
function Generator:__init() self._c = C.newGenerator() end
function Generator:write(file) file:writeObject(torch._withGenerator(self, C.getRNGState)) end
function Generator:read(file)
   self._c = C.newGenerator()
   local state = file:readObject()
   torch._withGenerator(self, C.setRNGState, state)
end
-- fn(...) with the generator gen in use, whatever fn raises.
function torch._withGenerator(gen, fn, ...)
   C.useGenerator(gen._c)
   local r = { pcall(fn, ...) }
   C.useGenerator(nil)
   if not r[1] then error(r[2], 0) end
   return unpack(r, 2, table.maxn(r))
end
-- fn taking an optional torch.Generator first.
function torch._generatorFirst(fn)
   return function(gen, ...)
      if torch.typename(gen) == 'torch.Generator' then return torch._withGenerator(gen, fn, ...) end
      return fn(gen, ...)
   end
end

require 'torch.Storage'
require 'torch.Tensor'
require 'torch.TensorMath'
require 'torch.TensorShape'
require 'torch.File'
require 'torch.Tester'
require 'torch.Timer'
require 'torch.CmdLine'

for _, k in ipairs({ 'manualSeed', 'seed', 'initialSeed', 'getRNGState', 'setRNGState', 'random', 'uniform',
                     'normal', 'exponential', 'cauchy', 'logNormal', 'geometric', 'bernoulli', 'rand', 'randn',
                     'randperm', 'multinomial', 'multinomialAlias' }) do
   torch[k] = torch._generatorFirst(torch[k])
end

return torch
