-- torch.save / torch.load / torch.serialize / torch.deserialize through the one .t7
-- implementation (legacy/t7): this file only tells it which Lua tables are torch objects
-- and how to make the objects it reads.
local torch = torch
local C = torch._C

local function classOf(tbl)
   return torch.typename(tbl)
end

-- A loaded object of class name with its fields: an instance of the Lua class when one is
-- defined, else a plain table that keeps its class name (so that saving it writes it back).
local function makeObject(name, content)
   local mt = torch.getmetatable(name)
   if mt then
      if type(content) == 'table' then return setmetatable(content, mt) end
      return content
   end
   if type(content) ~= 'table' then return content end
   local anon = torch._anonymous[name]
   if not anon then
      anon = { __typename = name }
      anon.__index = anon
      torch._anonymous[name] = anon
   end
   return setmetatable(content, anon)
end
torch._anonymous = {}

local function checkFormat(fmt)
   if fmt ~= nil and fmt ~= 'binary' and fmt ~= 'ascii' then
      error("format must be 'binary' or 'ascii', got " .. tostring(fmt), 3)
   end
end

function torch.save(path, obj, format)
   assert(type(path) == 'string', 'torch.save: a file name expected')
   checkFormat(format)
   C.save(path, obj, format or 'binary', classOf)
end

function torch.load(path, format)
   assert(type(path) == 'string', 'torch.load: a file name expected')
   return C.load(path, format, makeObject)
end

function torch.serialize(obj, format)
   checkFormat(format)
   return C.serialize(obj, format or 'binary', classOf)
end

function torch.deserialize(bytes, format)
   return C.deserialize(bytes, format, makeObject)
end
