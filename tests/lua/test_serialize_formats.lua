-- torch.save / torch.load formats against hand-computed layouts (binary: little-endian
-- int32 tags and lengths, 8- or 4-byte longs, float64 numbers; ascii: the same items as
-- printf text, one a line), long-size detection, and sharing kept through save and load.
local tests = {}

local function int32(x)
   x = x % 2 ^ 32
   return string.char(x % 256, math.floor(x / 256) % 256, math.floor(x / 65536) % 256, math.floor(x / 16777216))
end
local function str(s) return int32(#s) .. s end

local function saved(obj, mode)
   local path = os.tmpname()
   torch.save(path, obj, mode)
   local f = io.open(path, 'rb'); local bytes = f:read('*a'); f:close()
   return bytes, path
end

function tests.scalar_layouts()
   check.eq(torch.serialize(true), int32(5) .. int32(1), 'boolean')
   check.eq(torch.serialize(nil), int32(0), 'nil')
   check.eq(torch.serialize('ab'), int32(2) .. str('ab'), 'string')
   check.eq(torch.serialize(3.5, 'ascii'), '1\n3.5\n', 'ascii number')
   check.eq(torch.serialize('ab', 'ascii'), '2\n2\nab\n', 'ascii string')
   check.eq(torch.serialize({ 7 }, 'ascii'), '3\n1\n1\n1\n1\n1\n7\n', 'ascii table: tag, index, size, key, value')
end

function tests.b32_layout_and_detection()
   local t = torch.LongTensor({ 5, -6 })
   -- Tensor.c's write with 4-byte longs: dims, size, stride, offset, then the storage
   local expected = int32(4) .. int32(1) .. str('V 1') .. str('torch.LongTensor') ..
                    int32(1) .. int32(2) .. int32(1) .. int32(1) ..
                    int32(4) .. int32(2) .. str('V 1') .. str('torch.LongStorage') .. int32(2) .. int32(5) .. int32(-6)
   local bytes, path = saved(t, 'b32')
   check.eq(bytes, expected, 'b32 bytes')
   check.tensor(torch.load(path), { 5, -6 }, 0, 'long size detected')
   check.tensor(torch.load(path, 'b32'), { 5, -6 }, 0, 'b32 given')
   check.tensor(torch.load(path, 'binary'), { 5, -6 }, 0, 'binary: long size detected')
   check.raises(function() torch.load(path, 'b64') end)
   local b64 = saved(t, 'b64')
   check.eq(#b64, #expected + 4 * 6, 'six longs of 8 bytes instead of 4')
   check.eq(saved(t), b64, 'binary is b64')
   check.raises(function() torch.save(path, torch.LongTensor({ 2 ^ 40 }), 'b32') end, '4 bytes')
   os.remove(path)
end

function tests.ascii_and_binary_round_trip()
   local a = torch.randn(3, 4)
   local obj = { a = a, narrow = a:narrow(1, 2, 2), f = torch.FloatTensor({ 0.1, 1e-30 }), n = -1 / 3, s = 'x\ny' }
   for _, mode in ipairs({ 'binary', 'ascii', 'b32' }) do
      local bytes, path = saved(obj, mode)
      local o = torch.load(path, mode)
      check.ok(o.a:equal(a), mode .. ': doubles exact (%.17g in ascii)')
      check.ok(o.narrow:equal(a:narrow(1, 2, 2)), mode)
      check.ok(o.f:equal(obj.f), mode .. ': floats exact (%.9g in ascii)')
      check.eq(o.n, -1 / 3, mode); check.eq(o.s, 'x\ny', mode)
      check.eq(torch.pointer(o.a:storage()), torch.pointer(o.narrow:storage()), mode .. ': one storage')
      check.ok(torch.load(path).a:equal(a), mode .. ': format and long size detected')
      os.remove(path)
   end
end

function tests.sharing_and_cycles()
   local s = torch.DoubleStorage({ 1, 2, 3, 4 })
   local x = torch.DoubleTensor(s, 1, torch.LongStorage({ 2, 2 }))
   local y = torch.DoubleTensor(s, 3, torch.LongStorage({ 2 }))
   local shared = { v = 1 }
   local obj = { x = x, y = y, s = s, p = shared, q = { inner = shared } }
   obj.self = obj
   local o = torch.deserialize(torch.serialize(obj))
   check.ok(rawequal(o.self, o), 'a cycle comes back as a cycle')
   check.ok(rawequal(o.p, o.q.inner), 'a shared table stays shared')
   check.eq(torch.pointer(o.x:storage()), torch.pointer(o.s), 'tensor and storage share')
   check.eq(torch.pointer(o.y:storage()), torch.pointer(o.s))
   o.s[3] = 30
   check.eq(o.x[2][1], 30); check.eq(o.y[1], 30)
   -- unreferenced: every occurrence is a copy
   local path = os.tmpname()
   torch.save(path, { x = x, y = y }, 'binary', false)
   local u = torch.load(path)
   check.ok(torch.pointer(u.x:storage()) ~= torch.pointer(u.y:storage()), 'referenced = false copies')
   check.eq(u.y[2], 4)
   os.remove(path)
end

function tests.version_of_classes()
   local C = torch.getmetatable('test.Versioned') or torch.class('test.Versioned')
   C.__version = 3
   local bytes = torch.serialize(setmetatable({}, C))
   check.eq(bytes:sub(9, 15), str('V 3'), 'the class version is written')
end

function tests.serialize_to_storage()
   local s = torch.serializeToStorage({ 1, 2 })
   check.eq(torch.type(s), 'torch.CharStorage')
   check.eq(#s, #torch.serialize({ 1, 2 }))
   check.eq(torch.deserializeFromStorage(s)[2], 2)
end

return tests
