-- Classes that serialize themselves (Note [Own payloads] in t7/t7.h): as torch7's
-- File:writeObject, an object whose class has a write(file) method is written as its tag,
-- index, version and class name followed by whatever the method writes, and readObject
-- gives a fresh instance (no __init) to the class's read(file, versionNumber).
local tests = {}

-- A class that writes a count, a name and a tensor itself, in that order.
local Packed = torch.class('customser.Packed')
function Packed:__init(count, name, values)
   self.count, self.name, self.values = count, name, values
   self.initialized = true  -- not written: read must not see it
end
function Packed:write(file)
   file:writeInt(self.count)
   file:writeObject(self.name)
   file:writeObject(self.values)
end
function Packed:read(file, version)
   self.count = file:readInt()
   self.name = file:readObject()
   self.values = file:readObject()
   self.versionRead = version
end

-- A subclass inherits the methods; __version reaches read as a number.
local Derived = torch.class('customser.Derived', 'customser.Packed')
Derived.__version = 3

-- A class without write/read: its fields are written as a table.
local Plain = torch.class('customser.Plain')
function Plain:__init(x) self.x = x end

-- A class whose payload is a single object, to share with the outside.
local Holder = torch.class('customser.Holder')
function Holder:write(file) file:writeObject(self.held) end
function Holder:read(file) self.held = file:readObject() end

-- A class whose methods fail.
local Failing = torch.class('customser.Failing')
function Failing:write(file)
   file:writeInt(1)
   error('cannot write a Failing')
end
function Failing:read() error('cannot read a Failing') end

-- The bytes of the typed writes f(file) makes on a binary MemoryFile.
local function bytesOf(f)
   local file = torch.MemoryFile():binary()
   f(file)
   local s = file:storage():string()
   file:close()
   return s:sub(1, #s - 1)  -- the MemoryFile's trailing 0
end

local function writeString(file, s)
   file:writeInt(#s)
   file:writeChar(torch.CharStorage():string(s))
end

function tests.bytes_are_torch7_framing()
   -- torch7: TYPE_TORCH (4), index, "V 1", the class name, then the method's data
   local object = customser.Packed(7, 'seven', nil)
   local expected = bytesOf(function(file)
      file:writeInt(4); file:writeInt(1)
      writeString(file, 'V 1'); writeString(file, 'customser.Packed')
      file:writeInt(7)                                   -- writeInt(self.count)
      file:writeInt(2); writeString(file, 'seven')       -- writeObject('seven')
      file:writeInt(0)                                   -- writeObject(nil)
   end)
   check.eq(torch.serialize(object), expected)
end

function tests.plain_class_writes_its_table()
   local expected = bytesOf(function(file)
      file:writeInt(4); file:writeInt(1)
      writeString(file, 'V 1'); writeString(file, 'customser.Plain')
      file:writeInt(3); file:writeInt(2); file:writeInt(1)  -- a table (index 2) of one entry
      file:writeInt(2); writeString(file, 'x')
      file:writeInt(1); file:writeDouble(2.5)
   end)
   check.eq(torch.serialize(customser.Plain(2.5)), expected)
   local back = torch.deserialize(expected)
   check.eq(torch.typename(back), 'customser.Plain')
   check.eq(back.x, 2.5)
end

function tests.round_trip_binary_ascii_and_file()
   local values = torch.Tensor({ { 1, 2 }, { 3, 4 } })
   local object = customser.Packed(3, 'three', values)
   local path = os.tmpname()
   local loaded = {
      torch.deserialize(torch.serialize(object)),
      torch.deserialize(torch.serialize(object, 'ascii'), 'ascii'),
      torch.deserialize(torch.serialize(object, 'ascii')),  -- format detected
      torch.deserialize(torch.serialize(object, 'b32'), 'b32'),
   }
   torch.save(path, object)
   loaded[#loaded + 1] = torch.load(path)
   torch.save(path, object, 'ascii')
   loaded[#loaded + 1] = torch.load(path)
   os.remove(path)
   for i, back in ipairs(loaded) do
      local what = 'copy ' .. i
      check.eq(torch.typename(back), 'customser.Packed', what)
      check.eq(back.count, 3, what); check.eq(back.name, 'three', what)
      check.ok(torch.isTensor(back.values) and back.values:equal(values), what .. ': values')
      check.eq(back.initialized, nil, what .. ': made without __init')
      check.eq(back.versionRead, 1, what .. ': version')
   end
end

function tests.inherited_methods_and_version()
   local back = torch.deserialize(torch.serialize(customser.Derived(5, 'five', nil)))
   check.eq(torch.typename(back), 'customser.Derived')
   check.eq(back.count, 5); check.eq(back.name, 'five')
   check.eq(back.versionRead, 3)
end

function tests.references_inside_payload_stay_shared()
   local inner = { tag = 'inner' }
   local t = torch.Tensor(3):fill(1)
   -- shared object met first inside the payload, then outside (and the other way round)
   local h1, h2 = customser.Holder(), customser.Holder()
   h1.held, h2.held = inner, t
   local back = torch.deserialize(torch.serialize({ h1, inner, t, h2, h1 }))
   check.ok(back[1].held == back[2], 'table inside then outside')
   check.ok(back[3] == back[4].held, 'tensor outside then inside')
   check.ok(back[1] == back[5], 'the object itself')
   back[3][2] = 9
   check.eq(back[4].held[2], 9, 'one storage')
end

function tests.payload_refers_to_its_object()
   local h = customser.Holder()
   h.held = { owner = h }
   local back = torch.deserialize(torch.serialize(h))
   check.ok(back.held.owner == back, 'back reference to the object being read')
   local hs = customser.Holder()
   hs.held = hs
   local back2 = torch.deserialize(torch.serialize(hs))
   check.ok(back2.held == back2, 'itself')
end

function tests.nested_own_payloads()
   local innerPacked = customser.Packed(1, 'one', torch.LongTensor({ 4, 5 }))
   local outer = customser.Holder()
   outer.held = { innerPacked, customser.Plain(innerPacked) }
   local path = os.tmpname()
   torch.save(path, outer)
   local back = torch.load(path)
   os.remove(path)
   local p = back.held[1]
   check.eq(torch.typename(p), 'customser.Packed')
   check.tensor(p.values, { 4, 5 })
   check.ok(back.held[2].x == p, 'shared with a plain object')
end

function tests.several_objects_of_one_file()
   local shared = torch.Tensor(2):fill(3)
   local h = customser.Holder()
   h.held = shared
   local file = torch.MemoryFile()
   file:binary()
   file:writeObject(h)
   file:writeInt(77)
   file:writeObject(shared)
   file:seek(1)
   local a = file:readObject()
   check.eq(file:readInt(), 77)
   local b = file:readObject()
   file:close()
   check.ok(a.held == b, 'later objects refer to the payload\'s')
end

function tests.errors_of_the_methods()
   check.raises(function() torch.serialize(customser.Failing()) end, 'cannot write a Failing')
   local bytes = bytesOf(function(file)
      file:writeInt(4); file:writeInt(1)
      writeString(file, 'V 1'); writeString(file, 'customser.Failing')
   end)
   check.raises(function() torch.deserialize(bytes) end, 'cannot read a Failing')
   -- a payload shorter than its read method expects
   local short = bytesOf(function(file)
      file:writeInt(4); file:writeInt(1)
      writeString(file, 'V 1'); writeString(file, 'customser.Packed')
   end)
   check.raises(function() torch.deserialize(short) end, 'read error')
   -- a file that failed in the middle of an object writes the next one whole
   local file = torch.MemoryFile():binary()
   check.raises(function() file:writeObject({ customser.Failing() }) end, 'cannot write a Failing')
   local at = file:position()
   file:writeObject(customser.Plain(1))
   file:seek(at)
   check.eq(file:readObject().x, 1)
   file:close()
end

return tests
