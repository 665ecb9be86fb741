-- torch.DiskFile / MemoryFile / PipeFile: typed reads and writes against hand-computed
-- byte layouts (binary: little endian, ascii: printf's %d / %.9g / %.17g with a newline
-- after each write), positions, errors and quiet mode, and objects read and written in a
-- row on one file.
local tests = {}

local function bytes(...)
   return string.char(...)
end

-- the contents of a MemoryFile, up to its trailing 0
local function contents(f)
   local s = f:storage()
   check.eq(s[#s], 0, 'MemoryFile storage ends with a 0 byte')
   local chars = {}
   for i = 1, #s - 1 do chars[i] = string.char(s[i] % 256) end
   return table.concat(chars)
end

function tests.binary_layouts()
   local f = torch.MemoryFile():binary()
   check.eq(f:writeInt(1), 1)
   check.eq(contents(f), bytes(1, 0, 0, 0), 'writeInt(1)')
   f = torch.MemoryFile():binary()
   f:writeShort(-2); f:writeByte(255); f:writeChar(-1); f:writeLong(2 ^ 32 + 3)
   check.eq(contents(f), bytes(0xfe, 0xff, 0xff, 0xff, 3, 0, 0, 0, 1, 0, 0, 0), 'short, byte, char, long')
   f = torch.MemoryFile():binary()
   f:writeDouble(1); f:writeFloat(-2)
   -- 1.0 = 0x3FF0000000000000, -2.0f = 0xC0000000
   check.eq(contents(f), bytes(0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0xc0), 'double and float')
   f = torch.MemoryFile():binary():bigEndianEncoding()
   f:writeInt(1)
   check.eq(contents(f), bytes(0, 0, 0, 1), 'big endian')
   f = torch.MemoryFile():binary():longSize(4)
   f:writeLong(5)
   check.eq(contents(f), bytes(5, 0, 0, 0), 'longSize(4)')
   check.raises(function() f:writeLong(2 ^ 40) end, 'does not fit')
end

function tests.ascii_layouts()
   local f = torch.MemoryFile()  -- ascii by default, as torch7's
   check.eq(f:isBinary(), false)
   f:writeInt(42); f:writeDouble(0.1); f:writeFloat(0.1); f:writeLong(-7)
   check.eq(contents(f), '42\n0.10000000000000001\n0.100000001\n-7\n')
   f = torch.MemoryFile()
   check.eq(f:writeInt(torch.IntStorage({ 1, 2, 3 })), 3, 'a storage write returns its count')
   f:writeChar(torch.CharStorage({ 104, 105 }))
   check.eq(contents(f), '1 2 3\nhi\n', 'numbers spaced, chars raw, a newline after each write')
   f = torch.MemoryFile():noAutoSpacing()
   f:writeInt(torch.IntStorage({ 1, 2 }))
   check.eq(contents(f), '12', 'noAutoSpacing')
end

function tests.read_back_every_type()
   for _, mode in ipairs({ 'binary', 'ascii' }) do
      local f = torch.MemoryFile()[mode](torch.MemoryFile())
      f:writeByte(200); f:writeChar(-100); f:writeShort(-30000); f:writeInt(-2 ^ 31)
      f:writeLong(2 ^ 53); f:writeFloat(0.1); f:writeDouble(math.pi)
      f:writeDouble(torch.DoubleStorage({ 1.5, -2.5, 1e300 }))
      f:writeString('tail\nline2')
      f:seek(1)
      check.eq(f:readByte(), 200, mode .. ' byte'); check.eq(f:readChar(), -100, mode .. ' char')
      check.eq(f:readShort(), -30000, mode .. ' short'); check.eq(f:readInt(), -2 ^ 31, mode .. ' int')
      check.eq(f:readLong(), 2 ^ 53, mode .. ' long')
      local float = torch.FloatStorage(1); float[1] = 0.1
      check.eq(f:readFloat(), float[1], mode .. ' float, rounded to single precision')
      check.eq(f:readDouble(), math.pi, mode .. ' double')
      local s = f:readDouble(3)
      check.eq(torch.type(s), 'torch.DoubleStorage'); check.eq(#s, 3)
      check.eq(s[1], 1.5); check.eq(s[2], -2.5); check.eq(s[3], 1e300)
      check.eq(f:readString('*l'), 'tail', mode .. ' line')
      check.eq(f:readString('*a'), 'line2', mode .. ' rest')
      check.eq(f:readString('*a'), '', 'nothing left')
   end
end

function tests.read_into_storage()
   local f = torch.MemoryFile():binary()
   f:writeInt(torch.IntStorage({ 7, 8, 9 }))
   f:seek(1)
   local s = torch.IntStorage(2)
   check.eq(f:readInt(s), 2)
   check.eq(s[1], 7); check.eq(s[2], 8)
   check.eq(f:position(), 9, 'positions count from 1')
   f:seekEnd()
   check.eq(f:position(), 13)
   f:seek(5)
   check.eq(f:readInt(), 8)
   check.eq(f:readString(2), bytes(9, 0))
end

function tests.errors_and_quiet()
   local f = torch.MemoryFile():binary()
   f:writeInt(1)
   f:seek(1)
   f:readInt()
   check.raises(function() f:readInt() end, 'read error')
   check.eq(f:hasError(), true)
   f:clearError()
   check.eq(f:hasError(), false)
   f:quiet()
   f:seek(1)
   local s = f:readInt(3)
   check.eq(#s, 1, 'a short read gives what was there')
   check.eq(s[1], 1)
   check.eq(f:hasError(), true)
   f:pedantic()
   check.raises(function() f:readInt() end, 'read error')
   check.raises(function() f:seek(0) end, 'position')
   check.raises(function() f:readInt('x') end, 'expected')
   local r = torch.MemoryFile('r')
   check.eq(r:isReadable(), true); check.eq(r:isWritable(), false)
   check.raises(function() r:writeInt(1) end, 'read-only')
   local w = torch.MemoryFile('w')
   check.raises(function() w:readInt() end, 'write-only')
   w:close()
   check.raises(function() w:writeInt(1) end, 'closed file')
   check.eq(w:isWritable(), false)
   check.raises(function() torch.DiskFile('/nonexistent/dir/file', 'r') end, 'cannot open')
   check.eq(torch.DiskFile('/nonexistent/dir/file', 'r', true), nil, 'quiet open gives nil')
   check.raises(function() torch.DiskFile(os.tmpname(), 'x') end, 'mode')
   check.raises(function() torch.MemoryFile(torch.CharStorage({ 65 })) end, 'end with a 0 byte')
end

function tests.disk_file()
   local path = os.tmpname()
   local f = torch.DiskFile(path, 'w'):binary()
   check.eq(torch.typename(f), 'torch.DiskFile')
   check.ok(torch.isTypeOf(f, 'torch.File'))
   f:writeInt(258); f:writeString('ab')
   f:close()
   local raw = io.open(path, 'rb'); local got = raw:read('*a'); raw:close()
   check.eq(got, bytes(2, 1, 0, 0) .. 'ab')
   f = torch.DiskFile(path, 'rw'):binary()
   check.eq(f:readInt(), 258)
   f:seekEnd()
   f:writeInt(3)
   f:seek(7)
   check.eq(f:readInt(), 3, 'a write after reads, then a read after writes')
   f:close()
   os.remove(path)
end

function tests.memory_file_of_storage()
   local s = torch.CharStorage({ 49, 32, 50, 0 })  -- "1 2" and the trailing 0
   local f = torch.MemoryFile(s, 'r')
   check.eq(f:readInt(), 1); check.eq(f:readInt(), 2)
   local w = torch.MemoryFile(s, 'rw')
   w:seekEnd(); w:writeInt(3)
   check.eq(contents(w), '1 23\n')
end

function tests.pipe_file()
   local p = torch.PipeFile('printf "12 34\\nhello\\n"', 'r')
   check.ok(torch.isTypeOf(p, 'torch.DiskFile'), 'a PipeFile is a DiskFile, as in torch7')
   check.eq(p:readInt(), 12); check.eq(p:readInt(), 34)
   check.eq(p:readString('*l'), 'hello')
   p:close()
   local path = os.tmpname()
   local w = torch.PipeFile('cat > ' .. path, 'w'):binary()
   w:writeInt(7)
   w:close()
   local raw = io.open(path, 'rb'); local got = raw:read('*a'); raw:close()
   check.eq(got, bytes(7, 0, 0, 0))
   local objects = torch.PipeFile('cat ' .. path .. ' ' .. path, 'r'):binary()
   check.eq(objects:readInt(), 7)
   check.eq(objects:readInt(), 7)
   objects:close()
   os.remove(path)
   check.raises(function() torch.PipeFile('true', 'rw') end, 'not both')
end

function tests.objects_in_a_row()
   -- torch7's referenced mode spans the file: an object written again is its index only
   for _, mode in ipairs({ 'binary', 'ascii' }) do
      local t = { x = 1 }
      local f = torch.MemoryFile()[mode](torch.MemoryFile())
      f:writeObject(t)
      local first = #contents(f)
      f:writeObject(t)
      f:writeInt(99)
      f:writeObject({ t, 'end' })
      if mode == 'binary' then
         check.eq(contents(f):sub(first + 1, first + 8), bytes(3, 0, 0, 0, 1, 0, 0, 0), 'tag 3 and index 1')
      else
         check.eq(contents(f):sub(first + 1, first + 4), '3\n1\n', 'tag 3 and index 1')
      end
      f:seek(1)
      local a = f:readObject()
      local b = f:readObject()
      check.eq(f:readInt(), 99, mode .. ': a number between objects')
      local c = f:readObject()
      check.eq(a.x, 1)
      check.ok(rawequal(a, b) and rawequal(c[1], a), mode .. ': one table')
      check.eq(c[2], 'end')
   end
end

function tests.unreferenced()
   local t = { 1, 2 }
   local f = torch.MemoryFile():binary():referenced(false)
   check.eq(f:isReferenced(), false)
   f:writeObject({ t, t })
   f:seek(1)
   local o = f:readObject()
   check.ok(not rawequal(o[1], o[2]), 'each occurrence written in full')
   check.eq(o[2][2], 2)
   local cyclic = {}
   cyclic.self = cyclic
   check.raises(function() torch.MemoryFile():binary():referenced(false):writeObject(cyclic) end, 'nested')
end

function tests.bool()
   local f = torch.MemoryFile():binary()
   f:writeBool(true); f:writeBool(false)
   check.eq(contents(f), bytes(1, 0, 0, 0, 0, 0, 0, 0))
   f:seek(1)
   check.eq(f:readBool(), true); check.eq(f:readBool(), false)
end

return tests
