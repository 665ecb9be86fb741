-- torch.save / torch.load through t7/: the fixtures torch7 wrote load with their
-- exact values (../shared/fixtures/t7/README.md, rng.txt), and round trips keep values,
-- types and shared storages.
local tests = {}

-- torch7's streams after torch.manualSeed(123), from rng.txt (written by torch7)
local function stream(name)
   for line in io.lines(FIXTURES .. '/rng.txt') do
      local key, rest = line:match('^(%S+)%s+(.*)$')
      if key == name then
         local values = {}
         for v in rest:gmatch('%S+') do values[#values + 1] = tonumber(v) end
         return values
      end
   end
   error('no stream ' .. name .. ' in rng.txt')
end

function tests.tensors_fixture()
   local t = torch.load(FIXTURES .. '/tensors.t7')
   check.eq(type(t), 'table')
   -- double_3x4 = torch.randn(3, 4) right after torch.manualSeed(123)
   local d = t.double_3x4
   check.eq(torch.typename(d), 'torch.DoubleTensor')
   check.eq(d:size(1), 3); check.eq(d:size(2), 4)
   local normal = stream('normal')
   for i = 1, 3 do
      for j = 1, 4 do check.eq(d[i][j], normal[(i - 1) * 4 + j], 'double_3x4') end
   end
   check.eq(torch.typename(t.float_2x3x4), 'torch.FloatTensor')
   check.eq(t.float_2x3x4:nElement(), 24)
   check.eq(torch.typename(t.long_123), 'torch.LongTensor')
   check.tensor(t.long_123, { 1, 2, 3 })
   check.eq(torch.typename(t.byte_2x5), 'torch.ByteTensor')
   check.tensor(t.byte_2x5, { { 0, 1, 2, 127, 128 }, { 200, 250, 253, 254, 255 } })
   local tr = t.transposed_5x3
   check.eq(tr:size(1), 5); check.eq(tr:size(2), 3)
   check.eq(tr:stride(1), 1); check.eq(tr:stride(2), 5)
   check.eq(tr:storageOffset(), 1); check.eq(#tr:storage(), 15)
   check.eq(tr:isContiguous(), false)
   local a, n = t.shared_a, t.shared_a_narrow
   check.eq(a:size(1), 4); check.eq(a:size(2), 3)
   check.eq(n:size(1), 2); check.eq(n:size(2), 3); check.eq(n:storageOffset(), 4)
   check.eq(torch.pointer(a:storage()), torch.pointer(n:storage()), 'one storage after loading')
   check.ok(n:equal(a:narrow(1, 2, 2)))
   a[2][1] = 1234
   check.eq(n[1][1], 1234, 'writes through the shared storage')
   local misc = t.misc
   check.eq(misc.str, 'hello t7'); check.eq(misc.num, 3.25); check.eq(misc.int, 42)
   check.eq(misc.neg, -7); check.eq(misc.flag, true); check.eq(misc.off, false)
   check.eq(#misc.arr, 3); check.eq(misc.arr[3], 30)
end

function tests.tensors_fixture_regenerated()
   -- the generator's draws, repeated with our generator (which matches torch7's, see
   -- test_tensor's random_matches_torch7), give every random tensor of the fixture exactly
   local t = torch.load(FIXTURES .. '/tensors.t7')
   torch.manualSeed(123)
   local d = torch.randn(3, 4)
   local f = torch.FloatTensor(2, 3, 4):normal()
   local base = torch.randn(3, 5)
   local a = torch.randn(4, 3)
   check.ok(t.double_3x4:equal(d), 'double_3x4')
   check.ok(t.float_2x3x4:equal(f), 'float_2x3x4')
   check.ok(t.transposed_5x3:equal(base:t()), 'transposed_5x3')
   check.ok(t.shared_a:equal(a), 'shared_a')
end

function tests.round_trip()
   local path = os.tmpname()
   local a = torch.Tensor({ { 1.5, 2 }, { 3, 4 } })
   local obj = {
      a = a,
      at = a:t(),
      f = torch.FloatTensor({ 0.25, -1 }),
      b = torch.ByteTensor({ 0, 255 }),
      l = torch.LongTensor({ -(2 ^ 40), 7 }),
      s = torch.IntStorage({ 1, 2, 3 }),
      empty = torch.Tensor(),
      n = 42.5, str = 'bytes\0and more', yes = true,
      nested = { 1, 2, { x = 'y' } },
   }
   for _, format in ipairs({ 'binary', 'ascii' }) do
      torch.save(path, obj, format)
      local o = torch.load(path)
      check.tensor(o.a, { { 1.5, 2 }, { 3, 4 } })
      check.tensor(o.at, { { 1.5, 3 }, { 2, 4 } })
      check.eq(torch.pointer(o.a:storage()), torch.pointer(o.at:storage()), format .. ': shared storage')
      check.eq(torch.type(o.f), 'torch.FloatTensor'); check.tensor(o.f, { 0.25, -1 })
      check.tensor(o.b, { 0, 255 }); check.tensor(o.l, { -(2 ^ 40), 7 })
      check.eq(torch.type(o.s), 'torch.IntStorage'); check.eq(o.s[3], 3)
      check.eq(o.empty:dim(), 0)
      check.eq(o.n, 42.5); check.eq(o.str, 'bytes\0and more'); check.eq(o.yes, true)
      check.eq(o.nested[3].x, 'y'); check.eq(#o.nested, 3)
   end
   os.remove(path)
   local bytes = torch.serialize(a)
   check.ok(torch.deserialize(bytes):equal(a), 'serialize/deserialize')
end

function tests.loaded_tensor_serializes_again()
   -- a tensor read from a torch7 file saves and loads back equal
   local d = torch.load(FIXTURES .. '/tensors.t7').long_123
   local again = torch.deserialize(torch.serialize(d))
   check.ok(again:equal(d))
end

function tests.nn_fixtures_load()
   -- no nn package yet: modules load as objects that keep their class names and fields
   local m = torch.load(FIXTURES .. '/mlp.t7')
   check.eq(torch.typename(m), 'nn.Sequential')
   check.eq(#m.modules, 4)
   local names = {}
   for i = 1, 4 do names[i] = torch.typename(m.modules[i]) end
   check.eq(table.concat(names, ' '), 'nn.Linear nn.Tanh nn.Linear nn.LogSoftMax')
   local l1, l3 = m.modules[1], m.modules[3]
   check.eq(l1.weight:size(1), 20); check.eq(l1.weight:size(2), 10); check.eq(l1.bias:size(1), 20)
   check.eq(l3.weight:size(1), 5); check.eq(l3.weight:size(2), 20)
   check.eq(l1.gradWeight:sum(), 0, 'gradWeight saved as zeros')
   check.eq(l1.output:dim(), 0, 'empty buffers load as empty tensors')
   -- nn's default init: uniform in [-1/sqrt(fanIn), 1/sqrt(fanIn)]
   local bound = 1 / math.sqrt(10)
   check.ok(l1.weight:max() <= bound and l1.weight:min() >= -bound, 'Linear(10,20) init range')
   local ma = torch.load(FIXTURES .. '/mlp_ascii.t7')
   for _, i in ipairs({ 1, 3 }) do
      check.ok(ma.modules[i].weight:equal(m.modules[i].weight), 'ascii and binary files hold the same weights')
      check.ok(ma.modules[i].bias:equal(m.modules[i].bias))
   end
   -- saved and loaded again, the object keeps its classes and values
   local again = torch.deserialize(torch.serialize(m))
   check.eq(torch.typename(again.modules[3]), 'nn.Linear')
   check.ok(again.modules[3].weight:equal(l3.weight))
   local c = torch.load(FIXTURES .. '/cnn.t7')
   check.eq(torch.typename(c.modules[1].weight), 'torch.FloatTensor')
   local idx = c.modules[3].indices
   check.eq(torch.typename(idx), 'torch.LongTensor')
   -- THNN's max-pooling indices: 1-based flat positions in the 8x8 input plane, each one
   -- inside the 2x2 window of its output
   check.eq(idx:size(3), 4); check.eq(idx:size(4), 4)
   for i = 1, 4 do
      for j = 1, 4 do
         local p = idx[1][1][i][j] - 1
         check.eq(math.floor(math.floor(p / 8) / 2), i - 1, 'window row')
         check.eq(math.floor((p % 8) / 2), j - 1, 'window column')
      end
   end
   check.ok(idx:min() >= 1 and idx:max() <= 64)
   local io = torch.load(FIXTURES .. '/cnn_io.t7')
   check.ok(io.bn_running_mean:equal(c.modules[4].running_mean), 'cnn_io copies the running mean')
end

function tests.errors()
   check.raises(function() torch.load('/nonexistent/file.t7') end)
   check.raises(function() torch.save(os.tmpname(), { f = print }) end, 'cannot write a C function')
   check.raises(function() torch.deserialize('garbage') end)
   check.raises(function() torch.save(os.tmpname(), 1, 'xml') end, 'format')
   -- torch7's messages say where the value is
   check.raises(function() torch.serialize({ a = { b = { print } } }) end, 'cannot write a C function at <?>.a.b.1')
end

-- A torch object's field that torch7 would not write (a coroutine) is skipped with a warning.
function tests.unwritable_field_of_an_object_is_skipped()
   local classes = {}
   torch.class('test_serialize.Holder', classes)
   local holder = classes.Holder()
   holder.thread, holder.kept = coroutine.create(function() end), 1
   local printed = {}
   local print_ = print
   print = function(s) printed[#printed + 1] = s end
   local ok, copy = pcall(function() return torch.deserialize(torch.serialize(holder)) end)
   print = print_
   check.ok(ok, tostring(copy))
   check.eq(copy.kept, 1); check.eq(copy.thread, nil)
   check.eq(printed[1], '$ Warning: cannot write object field <thread> of <test_serialize.Holder> <?>')
end

-- writeObject(object, name, hook) writes hook(value) for each value; a value written twice
-- is still one object when read.
function tests.write_hook_and_half_tensors()
   local h = torch.rand(3):half()
   local f = torch.MemoryFile():binary()
   local shared = { h }
   f:writeObject({ shared, shared }, nil, function(v) return torch.isTensor(v) and v:double() or v end)
   f:seek(1)
   local r = f:readObject()
   check.ok(r[1] == r[2])
   check.eq(torch.type(r[1][1]), 'torch.DoubleTensor')
   check.tensor(r[1][1], h:double():totable())
   local copy = torch.deserialize(torch.serialize({ h, h }))
   check.eq(torch.type(copy[1]), 'torch.HalfTensor')
   check.ok(copy[1] == copy[2])
   check.tensor(copy[1]:double(), h:double():totable())
end

return tests
