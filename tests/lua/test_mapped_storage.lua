-- Storages over a mapped file or POSIX shared memory, torch7's Storage(filename, shared,
-- size, sharedMem): writes reach the file only when shared, shared memory is the file
-- /dev/shm/<name> and goes away with its storage.
local tests = {}

function tests.file_mapping_shared_and_private()
   local name = os.tmpname()
   local f = torch.DiskFile(name, 'w'):binary()
   f:writeDouble(torch.DoubleStorage({ 1, 2, 3 }))
   f:close()
   local whole = torch.DoubleStorage(name)
   check.eq(whole:size(), 3, 'size 0 maps the whole file')
   check.eq(whole[3], 3)
   local private = torch.DoubleStorage(name, false, 3)
   private[1] = 10
   local shared = torch.DoubleStorage(name, true, 3)
   check.eq(shared[1], 1, 'a private mapping keeps its writes')
   shared[2] = 20
   check.eq(torch.DoubleStorage(name, false)[2], 20, 'a shared mapping writes the file')
   check.raises(function() torch.DoubleStorage(name, false, 4) end, 'only 24 bytes')
   os.remove(name)
end

function tests.shared_memory_is_named_and_removed_with_its_storage()
   local name = 'torch_lua_test_' .. tostring(os.time()) .. '_' .. tostring(math.random(1e9))
   local s = torch.FloatStorage(name, true, 4, true)
   s:fill(7)
   check.ok(paths.filep('/dev/shm/' .. name), 'the memory has a name')
   local same = torch.FloatTensor(torch.FloatStorage('/dev/shm/' .. name, true, 4))
   check.eq(same:sum(), 28)
   same:fill(1)
   check.eq(s[4], 1, 'both map one memory')
   s, same = nil, nil
   collectgarbage(); collectgarbage()
   check.ok(not paths.filep('/dev/shm/' .. name), 'freeing the storage removes the name')
end

return tests
