-- Every fixture torch7 wrote, loaded and saved again, gives the file's bytes back: the
-- reader remembers the order it met each table's keys in (torch7 wrote them in LuaJIT's
-- random pairs() order) and the class versions ("V 2" for SpatialBatchNormalization).
local tests = {}

local function readBytes(path)
   local f = assert(io.open(path, 'rb'))
   local s = f:read('*a')
   f:close()
   return s
end

local function firstDifference(a, b)
   for i = 1, math.max(#a, #b) do
      if a:byte(i) ~= b:byte(i) then return i end
   end
end

local fixtures = {
   tensors = 'binary', mlp = 'binary', mlp_ascii = 'ascii', mlp_io = 'binary',
   cnn = 'binary', cnn_io = 'binary', rng = 'binary',
}
for name, mode in pairs(fixtures) do
   tests['same_bytes_' .. name] = function()
      local path = FIXTURES .. '/' .. name .. '.t7'
      local original = readBytes(path)
      local out = os.tmpname()
      torch.save(out, torch.load(path), mode)
      local again = readBytes(out)
      os.remove(out)
      check.eq(#again, #original, name .. ': size')
      check.eq(firstDifference(again, original), nil, name .. ': first differing byte')
      -- through a MemoryFile too
      check.ok(torch.serialize(torch.deserialize(original), mode) == original, name .. ': serialize')
   end
end

function tests.key_order_follows_changes()
   -- a loaded table changed afterwards: its remaining keys keep the file's order, new
   -- keys follow, and what is saved loads back with the change
   local t = torch.load(FIXTURES .. '/tensors.t7')
   t.misc.extra = 'new'
   t.misc.str = nil
   local again = torch.deserialize(torch.serialize(t))
   check.eq(again.misc.extra, 'new')
   check.eq(again.misc.str, nil)
   check.eq(again.misc.num, 3.25)
end

return tests
