-- What torch7's own test file (torch7/test/test.lua) needs of the torch package beyond the
-- rest of the suites: HalfTensor, views with results first, split/chunk/repeatTensor,
-- masks as indices, generators, isTypeOf, storage views, and LAPACK's column-major
-- results; each against values computed by hand or by plain loops.
local tests = {}

function tests.half_stores_ieee_half_and_converts()
   local h = torch.HalfTensor(3)
   h[1], h[2], h[3] = 1, 1 / 3, 65504
   check.eq(h[1], 1)
   -- 1/3 in half precision: 0x3555 = 1365 / 4096
   check.eq(h[2], 1365 / 4096)
   check.eq(h[3], 65504)
   check.eq(h:elementSize(), 2)
   check.eq(torch.HalfStorage():elementSize(), 2)
   local d = torch.Tensor({ { 1, 2 }, { 3, 4 } })
   local hd = d:half()
   check.eq(torch.typename(hd), 'torch.HalfTensor')
   check.tensor(hd, { { 1, 2 }, { 3, 4 } })
   check.eq(torch.typename(hd:real()), torch.getdefaulttensortype())
   check.tensor(hd:t():float(), { { 1, 3 }, { 2, 4 } })
   hd:fill(2.5)
   check.tensor(hd, { { 2.5, 2.5 }, { 2.5, 2.5 } })
   hd:zero()
   check.tensor(hd, { { 0, 0 }, { 0, 0 } })
   check.eq(torch.getmetatable('torch.HalfTensor').real, hd.real)
end

function tests.methods_defined_on_the_class_table_reach_tensors()
   local called = false
   function torch.HalfTensor:__unm() called = true; return self end
   local h = torch.HalfTensor(2)
   local _ = -h
   check.ok(called, 'a metamethod defined on torch.HalfTensor is used')
end

function tests.select_and_squeeze_give_numbers()
   local v = torch.Tensor({ 5, 6, 7 })
   check.eq(v:select(1, 2), 6)
   check.eq(torch.Tensor({ { 9 } }):squeeze(), 9)
   check.eq(torch.typename(torch.Tensor(2, 1):squeeze()), 'torch.DoubleTensor')
end

function tests.handles_on_one_tensor_are_equal()
   local a = torch.Tensor(3)
   local b = torch.Tensor():set(a)
   local c = a:clone()
   check.ok(a == a:zero(), 'a and a:zero() are one tensor')
   check.ok(a ~= b, 'a view is another tensor')
   check.ok(a ~= c, 'a clone is another tensor')
end

function tests.byte_masks_index()
   local t = torch.Tensor({ 1, -2, 3, -4 })
   local m = t:lt(0)
   check.tensor(t[m], { -2, -4 })
   t[m] = 0
   check.tensor(t, { 1, 0, 3, 0 })
   t[t:gt(2)] = torch.Tensor({ 7 })
   check.tensor(t, { 1, 0, 7, 0 })
end

function tests.views_with_a_result_first()
   local src = torch.range(1, 6)
   local r = torch.Tensor()
   check.eq(r:view(src, 2, -1), r)
   check.tensor(r, { { 1, 2, 3 }, { 4, 5, 6 } })
   check.tensor(src:view(-1, 2), { { 1, 2 }, { 3, 4 }, { 5, 6 } })
   local col = torch.Tensor({ { 1 }, { 2 } })
   r:expand(col, 2, 3)
   check.tensor(r, { { 1, 1, 1 }, { 2, 2, 2 } })
   r:expandAs(col, torch.Tensor(2, 2))
   check.tensor(r, { { 1, 1 }, { 2, 2 } })
   r:viewAs(src, torch.Tensor(3, 2))
   check.tensor(r, { { 1, 2 }, { 3, 4 }, { 5, 6 } })
end

function tests.repeatTensor_against_loops()
   local x = torch.Tensor({ { 1, 2 }, { 3, 4 } })
   local r = x:repeatTensor(3, 2, 1)
   check.eq(r:dim(), 3)
   for i = 1, 3 do
      for j = 1, 4 do
         for k = 1, 2 do check.eq(r[i][j][k], x[(j - 1) % 2 + 1][k]) end
      end
   end
   local res = torch.Tensor()
   res:repeatTensor(x, torch.LongStorage({ 1, 2 }))
   check.tensor(res, { { 1, 2, 1, 2 }, { 3, 4, 3, 4 } })
end

function tests.split_chunk_permute()
   local x = torch.range(1, 7)
   local parts = x:split(3)
   check.eq(#parts, 3)
   check.tensor(parts[3], { 7 })
   local result = { 'stale' }
   torch.chunk(result, x, 2)
   check.eq(#result, 2)
   check.tensor(result[1], { 1, 2, 3, 4 })
   check.tensor(result[2], { 5, 6, 7 })
   local t = torch.Tensor(2, 3, 4)
   local p = t:permute(3, 1, 2)
   check.eq(table.concat(p:size():totable(), 'x'), '4x2x3')
   check.eq(p:stride(1), 1)
   check.raises(function() t:permute(1, 1, 2) end, 'twice')
end

function tests.isSetTo_isSize()
   local a = torch.Tensor(2, 3)
   check.ok(a:isSetTo(torch.Tensor():set(a)))
   check.ok(not a:isSetTo(a:view(3, 2)))
   check.ok(not torch.Tensor():isSetTo(torch.Tensor()))
   check.ok(a:isSize(torch.LongStorage({ 2, 3 })))
   check.ok(not a:isSize(torch.LongStorage({ 3, 2 })))
end

function tests.storage_views_share_memory()
   local s = torch.LongStorage({ 3, 4, 5 })
   local v = torch.LongStorage(s, 2)
   check.eq(#v, 2)
   check.eq(v[1], 4)
   v[2] = 13
   check.eq(s[3], 13)
   local w = torch.LongStorage(s, 1, 1)
   s = nil
   collectgarbage()
   check.eq(w[1], 3)
   check.raises(function() torch.LongStorage(v, 2, 2) end, 'out of bounds')
end

function tests.isTypeOf_constructors_and_patterns()
   local t = torch.LongTensor()
   check.ok(torch.isTypeOf(t, torch.LongTensor))
   check.ok(not torch.isTypeOf(t, torch.IntTensor))
   check.ok(torch.isTypeOf(t, 'torch.*Tensor'))
   check.ok(not torch.isTypeOf(t, 'torch.Long'))
   check.ok(torch.isTypeOf(t, '.*Long'))
end

function tests.class_with_a_parent_constructor()
   local Base = torch.class('t7suite.Base')
   function Base:hello() return 'base' end
   torch.class('t7suite.Child', Base)
   check.eq(t7suite.Child():hello(), 'base')
   check.ok(torch.isTypeOf(t7suite.Child(), Base))
   -- a plain table as second argument is the module the class goes in, under the last part
   -- of its name (luaT's classrootname)
   local module = {}
   torch.class('t7suite.InModule', module)
   check.eq(torch.typename(module.InModule()), 't7suite.InModule')
end

function tests.generators_are_independent_streams()
   local g = torch.Generator()
   torch.manualSeed(g, 5)
   torch.manualSeed(5)
   local a = torch.rand(10)
   torch.manualSeed(99)
   local b = torch.rand(g, 10)
   check.tensor(b, a:totable(), 0, 'a generator seeded alike draws alike')
   -- a serialized generator carries its state
   torch.manualSeed(g, 123)
   local copy = torch.deserialize(torch.serialize(g))
   check.eq(torch.random(g), torch.random(copy))
end

function tests.linspace_range_into_a_non_contiguous_view()
   for _, fill in ipairs({
      function(y) y:linspace(0, 3, 4) end,
      function(y) y:range(0, 3) end,
   }) do
      local x = torch.zeros(2, 3)
      fill(x:narrow(2, 2, 2))
      check.tensor(x, { { 0, 0, 1 }, { 0, 2, 3 } })
   end
   local x = torch.zeros(2, 3)
   x:narrow(2, 2, 2):logspace(0, 3, 4)
   check.tensor(x, { { 0, 1, 10 }, { 0, 100, 1000 } }, 1e-9)
   check.raises(function() torch.linspace(0, 1, 1) end, '2 points')
   check.tensor(torch.linspace(0, 0, 1), { 0 })
end

function tests.lapack_results_are_column_major()
   local m = torch.Tensor({ { 4, 7 }, { 2, 6 } })
   local inv = torch.inverse(m)
   check.ok(not inv:isContiguous(), 'a fresh inverse is column-major')
   check.eq(inv:stride(1), 1)
   check.tensor(inv, { { 0.6, -0.7 }, { -0.2, 0.4 } }, 1e-12)
   local given = torch.Tensor(2, 2)
   torch.inverse(given, m)
   check.eq(given:stride(1), 1)
   check.tensor(given, { { 0.6, -0.7 }, { -0.2, 0.4 } }, 1e-12)
   local e, v = torch.symeig(torch.Tensor({ { 2, 0 }, { 0, 3 } }), 'V')
   check.tensor(e, { 2, 3 }, 1e-12)
   check.eq(v:stride(1), 1)
end

function tests.conv2_xcorr2_against_loops()
   local x = torch.Tensor({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 10 } })
   local k = torch.Tensor({ { 1, -1 }, { 2, 0.5 } })
   local function ref(flip, full)
      local kh, kw, xh, xw = 2, 2, 3, 3
      local off = full and 1 or 0
      local oh = full and 4 or 2
      local out = {}
      for i = 1, oh do
         out[i] = {}
         for j = 1, oh do
            local s = 0
            for a = 1, kh do
               for b = 1, kw do
                  local xi, xj = i - off + a - 1, j - off + b - 1
                  if xi >= 1 and xi <= xh and xj >= 1 and xj <= xw then
                     local kv = flip and k[kh + 1 - a][kw + 1 - b] or k[a][b]
                     s = s + x[xi][xj] * kv
                  end
               end
            end
            out[i][j] = s
         end
      end
      return out
   end
   check.tensor(torch.xcorr2(x, k), ref(false, false), 1e-12)
   check.tensor(torch.conv2(x, k), ref(true, false), 1e-12)
   check.tensor(torch.xcorr2(x, k, 'F'), ref(false, true), 1e-12)
   check.tensor(torch.conv2(x, k, 'F'), ref(true, true), 1e-12)
   -- planes: each with its own kernel
   local xx, kk = torch.Tensor(2, 3, 3), torch.Tensor(2, 2, 2)
   xx[1]:copy(x); xx[2]:copy(x); kk[1]:copy(k); kk[2]:copy(k):mul(2)
   local r = torch.conv2(xx, kk)
   check.tensor(r[1], ref(true, false), 1e-12)
   check.tensor(r[2], torch.Tensor(ref(true, false)):mul(2):totable(), 1e-12)
   -- conv3 of a depth-1 volume is conv2
   check.tensor(torch.conv3(x:view(1, 3, 3), k:view(1, 2, 2))[1], ref(true, false), 1e-12)
   check.raises(function() torch.conv2(k, x) end, 'smaller than the kernel')
end

function tests.bhistc_counts_each_row()
   local x = torch.Tensor({ { 2, 4, 2, 2, 5, 4 }, { 3, 5, 1, 5, 3, 5 } })
   check.tensor(torch.bhistc(x, 5, 1, 5), { { 0, 3, 0, 2, 1 }, { 1, 0, 2, 0, 3 } })
end

function tests.alias_multinomial_draws_the_distribution()
   torch.manualSeed(7)
   local probs = torch.Tensor({ 0.1, 0, 0.6, 0.3 })
   local state = torch.multinomialAliasSetup(probs)
   check.eq(torch.typename(state[1]), 'torch.LongTensor')
   local out = torch.multinomialAlias(torch.LongTensor(20000), state)
   local counts = { 0, 0, 0, 0 }
   for i = 1, out:size(1) do counts[out[i]] = counts[out[i]] + 1 end
   check.eq(counts[2], 0, 'a category of probability 0 is never drawn')
   for c, p in ipairs({ 0.1, 0, 0.6, 0.3 }) do check.near(counts[c] / 20000, p, 0.02) end
end

function tests.pstrf_rebuilds_the_permuted_matrix()
   local a = torch.Tensor({ { 4, 2, 2 }, { 2, 5, 1 }, { 2, 1, 6 } })
   local u, piv = torch.pstrf(a)
   check.eq(torch.typename(piv), 'torch.IntTensor')
   -- complete pivoting takes the largest diagonal first: 6 (index 3)
   check.eq(piv[1], 3)
   local p = piv:long()
   local rebuilt = torch.mm(u:t(), u)
   local permuted = a:index(1, p):index(2, p)
   for i = 1, 3 do
      for j = 1, 3 do check.near(rebuilt[i][j], permuted[i][j], 1e-12) end
   end
   local l = torch.pstrf(a, 'L')
   check.eq(l[1][2], 0, 'L is lower triangular')
end

return tests
