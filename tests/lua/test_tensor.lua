-- Tensor construction, indexing, views, conversions and printing, against hand-computed
-- values (torch7's documented behaviour).
local tests = {}

function tests.constructors()
   local t = torch.Tensor(2, 3)
   check.eq(torch.typename(t), 'torch.DoubleTensor')
   check.eq(t:dim(), 2); check.eq(t:size(1), 2); check.eq(t:size(2), 3); check.eq(t:nElement(), 6)
   check.eq(t:stride(1), 3); check.eq(t:stride(2), 1); check.eq(t:storageOffset(), 1)
   local e = torch.Tensor()
   check.eq(e:dim(), 0); check.eq(e:nElement(), 0)
   local s = torch.LongStorage({ 4, 2 })
   local u = torch.FloatTensor(s)
   check.eq(u:size(1), 4); check.eq(u:size(2), 2); check.eq(torch.type(u), 'torch.FloatTensor')
   local sz = u:size()
   check.eq(torch.typename(sz), 'torch.LongStorage'); check.eq(#sz, 2); check.eq(sz[1], 4)
   local m = torch.Tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
   check.tensor(m, { { 1, 2, 3 }, { 4, 5, 6 } })
   check.raises(function() torch.Tensor({ { 1, 2 }, { 3 } }) end, 'inconsistent')
   check.raises(function() torch.Tensor(-1) end, 'non-negative')
end

function tests.every_type()
   for _, T in ipairs({ 'Byte', 'Char', 'Short', 'Int', 'Long', 'Float', 'Double' }) do
      local t = torch[T .. 'Tensor']({ 1, 2, 3 })
      check.eq(torch.typename(t), 'torch.' .. T .. 'Tensor')
      check.eq(torch.isTensor(t), true)
      check.eq(t[2], 2)
      check.eq(t:sum(), 6)
      local s = torch[T .. 'Storage'](5):fill(7)
      check.eq(#s, 5); check.eq(s[5], 7)
      check.eq(torch.isStorage(s), true)
   end
   check.eq(torch.ByteTensor({ 255 })[1], 255)
   check.eq(torch.CharTensor({ -5 })[1], -5)
   check.eq(torch.isTensor({}), false)
   check.eq(torch.isTensor(3), false)
end

function tests.storage_constructor()
   local s = torch.DoubleStorage({ 1, 2, 3, 4, 5, 6 })
   local t = torch.DoubleTensor(s, 2, torch.LongStorage({ 2, 2 }))
   check.tensor(t, { { 2, 3 }, { 4, 5 } })
   t[1][1] = 20
   check.eq(s[2], 20, 'a view writes through to the storage')
   local st = torch.DoubleTensor(s, 1, torch.LongStorage({ 3, 2 }), torch.LongStorage({ 1, 3 }))
   check.tensor(st, { { 1, 4 }, { 20, 5 }, { 3, 6 } })
   check.raises(function() torch.DoubleTensor(s, 4, torch.LongStorage({ 2, 2 })) end, 'does not fit')
   check.raises(function() torch.DoubleTensor(torch.FloatStorage(3)) end, 'DoubleStorage')
end

function tests.indexing_read_write()
   local t = torch.Tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
   check.eq(t[2][3], 6)
   check.eq(t[{ 2, 3 }], 6)
   check.eq(t[{ -1, -1 }], 6)
   check.tensor(t[1], { 1, 2, 3 })
   check.tensor(t[{ {}, 2 }], { 2, 5 })
   check.tensor(t[{ { 1, 2 }, { 2, 3 } }], { { 2, 3 }, { 5, 6 } })
   check.tensor(t[{ 2, { 1, 2 } }], { 4, 5 })
   t[{ 1, 2 }] = 20
   t[2][1] = 40
   check.tensor(t, { { 1, 20, 3 }, { 40, 5, 6 } })
   t[{ {}, 3 }] = 0
   check.tensor(t, { { 1, 20, 0 }, { 40, 5, 0 } })
   t[1] = torch.Tensor({ 7, 8, 9 })
   check.tensor(t, { { 7, 8, 9 }, { 40, 5, 0 } })
   check.raises(function() return t[3] end, 'out of range')
   check.raises(function() return t[{ 1, 4 }] end, 'out of range')
   check.raises(function() t[{ 1, 2, 3 }] = 1 end, 'too many indices')
   check.tensor(t, { { 7, 8, 9 }, { 40, 5, 0 } }, 0, 'failed writes leave the tensor unchanged')
end

function tests.views()
   local t = torch.Tensor({ { 1, 2, 3, 4 }, { 5, 6, 7, 8 }, { 9, 10, 11, 12 } })
   check.tensor(t:narrow(2, 2, 2), { { 2, 3 }, { 6, 7 }, { 10, 11 } })
   check.tensor(t:select(1, 3), { 9, 10, 11, 12 })
   check.tensor(t:sub(2, 3, 1, 2), { { 5, 6 }, { 9, 10 } })
   check.tensor(t:sub(-1, -1), { { 9, 10, 11, 12 } })
   local tt = t:t()
   check.tensor(tt, { { 1, 5, 9 }, { 2, 6, 10 }, { 3, 7, 11 }, { 4, 8, 12 } })
   check.eq(tt:stride(1), 1); check.eq(tt:stride(2), 4); check.eq(tt:isContiguous(), false)
   check.tensor(t:transpose(1, 2), tt:totable())
   check.tensor(t:view(2, 6), { { 1, 2, 3, 4, 5, 6 }, { 7, 8, 9, 10, 11, 12 } })
   check.tensor(t:view(4, -1):select(1, 4), { 10, 11, 12 })
   check.tensor(torch.Tensor({ 1, 2, 3, 4, 5 }):unfold(1, 2, 2), { { 1, 2 }, { 3, 4 } })
   check.tensor(torch.Tensor({ { 1 }, { 2 } }):expand(2, 3), { { 1, 1, 1 }, { 2, 2, 2 } })
   local sq = torch.Tensor(1, 3, 1):fill(4):squeeze()
   check.eq(sq:dim(), 1); check.eq(sq:size(1), 3)
   -- torch7's squeeze gives the element of a one-element tensor
   check.eq(torch.Tensor(1, 1):fill(5):squeeze(), 5)
   local v = t:narrow(1, 2, 1)
   v:fill(0)
   check.tensor(t[2], { 0, 0, 0, 0 }, 0, 'narrow is a view')
   check.eq(torch.pointer(v:storage()), torch.pointer(t:storage()))
   check.eq(v:storageOffset(), 5)
   check.raises(function() tt:view(12) end)
   check.raises(function() t:narrow(1, 3, 2) end, 'out of range')
   check.raises(function() t:select(3, 1) end, 'dimension')
   check.raises(function() t:transpose(1, 3) end, 'dimension')
   check.raises(function() torch.Tensor(3):t() end, 'matrix')
end

function tests.resize_copy_clone()
   local t = torch.Tensor(2, 2):fill(3)
   t:resize(4)
   check.eq(t:dim(), 1); check.eq(t:size(1), 4)
   local u = torch.Tensor():resizeAs(torch.Tensor(3, 2))
   check.eq(u:size(1), 3); check.eq(u:size(2), 2)
   local a = torch.Tensor({ { 1, 2 }, { 3, 4 } })
   local b = a:t():clone()
   check.tensor(b, { { 1, 3 }, { 2, 4 } }); check.eq(b:isContiguous(), true)
   b[1][1] = 100
   check.eq(a[1][1], 1, 'clone copies')
   local c = a:t():contiguous()
   check.tensor(c, { { 1, 3 }, { 2, 4 } })
   local f = torch.FloatTensor(2, 2):copy(a)
   check.tensor(f, { { 1, 2 }, { 3, 4 } })
   local i = torch.IntTensor(4):copy(a)
   check.tensor(i, { 1, 2, 3, 4 }, 0, 'copy walks both in row-major order')
   check.raises(function() torch.Tensor(3):copy(a) end, 'sizes')
   check.tensor(torch.Tensor(3):zero(), { 0, 0, 0 })
end

function tests.type_conversions()
   local a = torch.Tensor({ 1.5, -2.5, 3 })
   check.eq(torch.type(a:float()), 'torch.FloatTensor')
   check.tensor(a:float(), { 1.5, -2.5, 3 })
   check.eq(torch.type(a:long()), 'torch.LongTensor')
   check.tensor(a:int(), { 1, -2, 3 }, 0, 'truncation towards zero')
   check.eq(a:type(), 'torch.DoubleTensor')
   check.eq(a:type('torch.DoubleTensor'), a)
   check.eq(torch.type(a:type('torch.ShortTensor')), 'torch.ShortTensor')
   check.eq(torch.type(a:typeAs(torch.ByteTensor())), 'torch.ByteTensor')
end

function tests.default_tensor_type()
   check.eq(torch.getdefaulttensortype(), 'torch.DoubleTensor')
   torch.setdefaulttensortype('torch.FloatTensor')
   local ok, err = pcall(function()
      check.eq(torch.type(torch.Tensor(2)), 'torch.FloatTensor')
      check.eq(torch.type(torch.rand(2)), 'torch.FloatTensor')
   end)
   torch.setdefaulttensortype('torch.DoubleTensor')
   assert(ok, err)
   check.eq(torch.type(torch.Tensor(2)), 'torch.DoubleTensor')
   check.raises(function() torch.setdefaulttensortype('torch.FooTensor') end)
end

function tests.totable_apply_map()
   local t = torch.Tensor({ { 1, 2 }, { 3, 4 } })
   local tb = t:totable()
   check.eq(#tb, 2); check.eq(tb[2][1], 3)
   t:apply(function(x) return x * 10 end)
   check.tensor(t, { { 10, 20 }, { 30, 40 } })
   local seen = {}
   t:t():apply(function(x) seen[#seen + 1] = x end)
   check.eq(table.concat(seen, ','), '10,30,20,40', 'apply visits a view in its own order')
   local u = torch.Tensor({ { 1, 1 }, { 2, 2 } })
   t:map(u, function(x, y) return x + y end)
   check.tensor(t, { { 11, 21 }, { 32, 42 } })
   t:map2(u, u, function(x, y, z) return x - y * z end)
   check.tensor(t, { { 10, 20 }, { 28, 38 } })
end

function tests.printing()
   check.eq(tostring(torch.Tensor({ { 1, 2 }, { 3, 4 } })), ' 1  2\n 3  4\n[torch.DoubleTensor of size 2x2]\n')
   check.eq(tostring(torch.LongTensor({ 10, -3 })), ' 10\n -3\n[torch.LongTensor of size 2]\n')
   check.eq(tostring(torch.Tensor({ 0.5, 1.25 })), ' 0.5000\n 1.2500\n[torch.DoubleTensor of size 2]\n')
   check.eq(tostring(torch.Tensor()), '[torch.DoubleTensor with no dimension]\n')
   -- torch7 prints the slices one space in (see test_print)
   check.eq(tostring(torch.Tensor(2, 1, 2):fill(1)),
            '(1,.,.) = \n  1  1\n\n(2,.,.) = \n  1  1\n[torch.DoubleTensor of size 2x1x2]\n')
end

function tests.class_system()
   local Animal = torch.class('test.Animal')
   function Animal:__init(n) self.n = n end
   function Animal:legs() return self.n end
   local Dog, parent = torch.class('test.Dog', 'test.Animal')
   check.eq(parent, torch.getmetatable('test.Animal'))
   function Dog:__init() parent.__init(self, 4) end
   local d = test.Dog()
   check.eq(d:legs(), 4)
   check.eq(torch.typename(d), 'test.Dog')
   check.eq(torch.type(d), 'test.Dog')
   check.eq(torch.type({}), 'table')
   check.eq(torch.isTypeOf(d, 'test.Animal'), true)
   check.eq(torch.isTypeOf(test.Animal(2), 'test.Dog'), false)
   check.raises(function() torch.class('test.Cat', 'test.Nothing') end, 'does not exist')
end

function tests.random_matches_torch7()
   -- torch7's values after torch.manualSeed(123) (README of the t7 fixtures, rng.txt)
   torch.manualSeed(123)
   check.near(torch.rand(20)[1], 0.69646918727084994, 1e-15)
   torch.manualSeed(123)
   local n = torch.randn(20)
   check.near(n[1], -0.52144306271244167, 1e-15)
   check.near(n[2], -1.4914194359815409, 1e-15)
   torch.manualSeed(123)
   check.eq(torch.random(), 2991312382)
   torch.manualSeed(123)
   local again = torch.randn(20)
   check.ok(again:equal(n), 'the same seed gives the same stream')
end

function tests.new_is_the_constructor()
   local x = torch.FloatTensor(4):fill(1)
   local fresh = x.new(2, 3)
   check.eq(torch.typename(fresh), 'torch.FloatTensor')
   check.eq(fresh:dim(), 2); check.eq(fresh:size(1), 2); check.eq(fresh:size(2), 3)
   check.eq(x.new():nElement(), 0, 'input.new() is empty')
   local view = x:new()
   view[2] = 5
   check.eq(x[2], 5, 'x:new() views x')
end

-- set with a storage, sizes and strides in a loop hot enough for LuaJIT to compile it
function tests.set_in_a_hot_loop()
   local p = torch.Tensor(3, 4)
   local s = torch.DoubleStorage(14)
   for i = 1, 200 do
      local t = torch.Tensor():set(s, i % 3 + 1, p:size(), p:stride())
      check.eq(t:dim(), 2, 'iteration ' .. i)
      check.eq(t:size(1), 3, 'iteration ' .. i)
      check.eq(t:stride(1), 4, 'iteration ' .. i)
      check.eq(t:storageOffset(), i % 3 + 1, 'iteration ' .. i)
   end
end

function tests.long_tensor_views_a_long_storage()
   local s = torch.LongStorage({ 5, 6, 7 })
   local t = torch.LongTensor(s)
   check.eq(t:dim(), 1); check.eq(t:size(1), 3); check.eq(t[3], 7)
   t[1] = 9
   check.eq(s[1], 9, 'the tensor views the storage')
   local sized = torch.DoubleTensor(torch.LongStorage({ 2, 3 }))
   check.eq(sized:size(1), 2); check.eq(sized:size(2), 3)
   for i = 1, 100 do
      local r = torch.DoubleTensor(torch.LongStorage({ 2, 3 }), torch.LongStorage({ 1, 2 }))
      check.eq(r:stride(1), 1, 'strides at ' .. i); check.eq(r:stride(2), 2, 'strides at ' .. i)
   end
end

return tests
