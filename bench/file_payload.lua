-- Reading objects whose class reads its own payload (Note [Own payloads] in t7/t7.h) from a
-- DiskFile: every nested readObject continues on the bytes the file already read, so reading
-- n such objects is linear in n. Prints the times for n and 2n objects, with a megabyte after
-- them, and their ratio (about 2 when linear, 4 when each nested read re-reads the file).
--   th bench/file_payload.lua        (tests/lua/test_file_payload.lua checks the values)
local Item = torch.class('benchpayload.Item')
function Item:__init(i)
   self.i = i
   self.label = 'item' .. i
   self.values = torch.LongTensor({ i, 2 * i })
end
function Item:write(file)
   file:writeInt(self.i)
   file:writeObject(self.label)
   file:writeObject(self.values)
end
function Item:read(file)
   self.i = file:readInt()
   self.label = file:readObject()
   self.values = file:readObject()
end

local function best(reps, f)
   local t = math.huge
   for _ = 1, reps do
      local timer = torch.Timer()
      f()
      t = math.min(t, timer:time().real)
   end
   return t
end

local function measure(n)
   local items = {}
   for i = 1, n do items[i] = benchpayload.Item(i) end
   local path = os.tmpname()
   torch.save(path, { items = items, tail = torch.ByteTensor(2 ^ 20):fill(7) })
   local load = best(5, function() torch.load(path) end)
   local w = torch.DiskFile(path, 'w'):binary()
   for _, item in ipairs(items) do w:writeObject(item) end
   w:writeObject(torch.ByteTensor(2 ^ 20):fill(7))
   w:close()
   local one_by_one = best(5, function()
      local r = torch.DiskFile(path, 'r'):binary()
      for _ = 1, n do r:readObject() end
      r:close()
   end)
   os.remove(path)
   return load, one_by_one
end

local n = 2000
local load1, each1 = measure(n)
local load2, each2 = measure(2 * n)
print(string.format('torch.load, %d payloads:         %.4f s; %d: %.4f s; ratio %.2f (linear: 2)', n, load1, 2 * n, load2, load2 / load1))
print(string.format('readObject one by one, %d:      %.4f s; %d: %.4f s; ratio %.2f (linear: 2)', n, each1, 2 * n, each2, each2 / each1))
