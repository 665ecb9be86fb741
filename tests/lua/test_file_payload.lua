-- Objects whose class reads and writes its own payload (Note [Own payloads] in
-- t7/t7.h) read from a DiskFile: every nested readObject continues on the bytes the
-- file already read (so that many such objects read in linear time: bench/file_payload.lua
-- measures it); and torch.load finds the long size of files that hold such objects.
local tests = {}

-- A class whose payload is an int, a nested object (a string) and a nested tensor.
local Item = torch.class('filepayload.Item')
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

local function checkItems(items, n)
   check.eq(#items, n, 'every item read')
   for i = 1, n do
      local item = items[i]
      check.eq(torch.typename(item), 'filepayload.Item', 'an instance of the class')
      check.eq(item.i, i, 'the int of the payload')
      check.eq(item.label, 'item' .. i, 'the nested string')
      check.eq(item.values[1], i, 'the nested tensor')
      check.eq(item.values[2], 2 * i, 'the nested tensor')
   end
end

local function itemList(n)
   local items = {}
   for i = 1, n do items[i] = filepayload.Item(i) end
   return items
end

function tests.many_payloads_in_one_object_read_back()
   local n = 2000
   local path = os.tmpname()
   -- A megabyte after the items, which the reader buffers across the nested reads.
   local tail = torch.ByteTensor(2 ^ 20):fill(7)
   torch.save(path, { items = itemList(n), tail = tail })
   local loaded = torch.load(path)
   os.remove(path)
   checkItems(loaded.items, n)
   check.ok(loaded.tail:eq(7):all() and loaded.tail:nElement() == 2 ^ 20, 'the tail after the items')
end

function tests.many_objects_read_one_by_one()
   local n = 2000
   local path = os.tmpname()
   local w = torch.DiskFile(path, 'w'):binary()
   for _, item in ipairs(itemList(n)) do w:writeObject(item) end
   w:writeObject(torch.ByteTensor(2 ^ 20):fill(7))
   local size = w:position()
   w:close()
   local r = torch.DiskFile(path, 'r'):binary()
   local items = {}
   for i = 1, n do items[i] = r:readObject() end
   check.ok(r:readObject():eq(7):all(), 'the tail after the items')
   check.eq(r:position(), size, 'the file read to its end')
   r:close()
   os.remove(path)
   checkItems(items, n)
end

-- The bytes read ahead are not used once the file changed under the reader.
function tests.a_file_written_between_reads_is_read_again()
   local path = os.tmpname()
   local w = torch.DiskFile(path, 'rw'):binary()
   w:writeObject(filepayload.Item(1))
   w:seek(1)
   local items = { w:readObject() }
   local second = w:position()
   w:seekEnd()
   w:writeObject(filepayload.Item(2))
   w:seek(second)
   items[2] = w:readObject()
   w:close()
   os.remove(path)
   checkItems(items, 2)
end

-- A file torch7 wrote with 4-byte longs (Windows, or mode 'b32') whose objects read their
-- own payloads loads without naming its long size, as other files do.
function tests.long_size_found_for_files_with_payloads()
   local path = os.tmpname()
   for _, value in ipairs({ itemList(3), filepayload.Item(1), { first = filepayload.Item(1), n = 5 } }) do
      for _, mode in ipairs({ 'b32', 'b64' }) do
         torch.save(path, value, mode)
         local loaded = torch.load(path)
         local expected = torch.load(path, mode)
         local items = loaded.first and { loaded.first } or loaded.i and { loaded } or loaded
         checkItems(items, #items)
         check.ok(#items > 0, mode .. ': items read')
         check.eq(torch.serialize(loaded, mode), torch.serialize(expected, mode), mode .. ': loads as with its mode')
         check.eq(torch.serialize(torch.deserialize(torch.serialize(value, mode)), mode),
                  torch.serialize(value, mode), mode .. ': deserialize finds the long size')
      end
   end
   os.remove(path)
end

-- Bytes after an object with payloads written with 8-byte longs: the reading with 4-byte
-- longs, made again from the object's start, does not get to the end either, so the
-- 8-byte reading stands, its payloads' objects included (Note [Long size] in t7/t7.h).
function tests.long_size_detection_keeps_the_8_byte_reading_before_other_bytes()
   local bytes = torch.serialize(itemList(3), 'b64') .. torch.serialize('after', 'b64')
   checkItems(torch.deserialize(bytes), 3)
   local path = os.tmpname()
   local f = io.open(path, 'wb')
   f:write(bytes)
   f:close()
   checkItems(torch.load(path), 3)
   os.remove(path)
end

-- A payload that cannot be read with either long size fails with the 8-byte attempt's error.
local Broken = torch.class('filepayload.Broken')
function Broken:write(file) file:writeInt(7) end
function Broken:read(file) error('a Broken reads no ' .. file:readInt()) end

function tests.long_size_detection_keeps_the_error()
   local bytes = torch.serialize(filepayload.Broken(), 'b32')
   check.raises(function() torch.deserialize(bytes) end, 'a Broken reads no 7', 'the error of the read method')
end

return tests
