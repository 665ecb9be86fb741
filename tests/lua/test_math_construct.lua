-- Constructors and structure: zeros/ones/eye/range/linspace/logspace, diag, tril/triu,
-- cross, trace, histc, reshape, cat, against hand-computed values and plain loops.
local tests = {}

function tests.zeros_ones_sizes()
   local z = torch.zeros(2, 3)
   check.eq(torch.type(z), 'torch.DoubleTensor')
   check.tensor(z, { { 0, 0, 0 }, { 0, 0, 0 } })
   check.tensor(torch.ones(torch.LongStorage({ 2, 1 })), { { 1 }, { 1 } })
   local r = torch.FloatTensor(5):fill(7)
   check.eq(torch.ones(r, 3), r, 'torch.ones(res, sizes) fills res')
   check.tensor(r, { 1, 1, 1 })
   local x = torch.IntTensor()
   x:zeros(2, 2)
   check.tensor(x, { { 0, 0 }, { 0, 0 } })
end

function tests.eye_range_linspace_logspace()
   check.tensor(torch.eye(2), { { 1, 0 }, { 0, 1 } })
   check.tensor(torch.eye(2, 3), { { 1, 0, 0 }, { 0, 1, 0 } })
   check.tensor(torch.range(1, 4), { 1, 2, 3, 4 })
   check.tensor(torch.range(0, 1, 0.25), { 0, 0.25, 0.5, 0.75, 1 })
   check.tensor(torch.range(5, 1, -2), { 5, 3, 1 })
   local r = torch.IntTensor()
   torch.range(r, 2, 6, 2)
   check.tensor(r, { 2, 4, 6 })
   check.tensor(torch.linspace(-1, 1, 5), { -1, -0.5, 0, 0.5, 1 }, 1e-15)
   check.eq(torch.linspace(0, 1):size(1), 100, '100 points by default')
   check.tensor(torch.logspace(0, 3, 4), { 1, 10, 100, 1000 }, 1e-9)
   check.raises(function() torch.range(1, 5, 0) end, 'step')
   check.raises(function() torch.range(5, 1, 1) end, 'step')
   check.raises(function() torch.eye(0) end, 'positive')
end

function tests.diag_tril_triu_trace()
   local m = torch.Tensor({ { 1, 2, 3 }, { 4, 5, 6 }, { 7, 8, 9 } })
   local mt = m:t()
   check.tensor(torch.diag(m), { 1, 5, 9 })
   check.tensor(m:diag(1), { 2, 6 })
   check.tensor(mt:diag(-1), { 2, 6 }, 0, 'diagonal below the main one of a transposed view')
   check.tensor(torch.diag(torch.Tensor({ 1, 2 })), { { 1, 0 }, { 0, 2 } })
   check.tensor(torch.Tensor({ 1, 2 }):diag(1), { { 0, 1, 0 }, { 0, 0, 2 }, { 0, 0, 0 } })
   for k = -2, 2 do
      local lo, up = torch.tril(mt, k), mt:triu(k)
      for i = 1, 3 do
         for j = 1, 3 do
            check.eq(lo[i][j], j - i <= k and mt[i][j] or 0, 'tril')
            check.eq(up[i][j], j - i >= k and mt[i][j] or 0, 'triu')
         end
      end
   end
   check.eq(m:trace(), 15)
   check.eq(torch.trace(mt:narrow(1, 2, 2)), 2 + 6)
end

function tests.cross_products()
   local a = torch.Tensor({ { 1, 0, 0 }, { 1, 2, 3 } })
   local b = torch.Tensor({ { 0, 1, 0 }, { 4, 5, 6 } })
   local c = torch.cross(a, b, 2)
   check.tensor(c, { { 0, 0, 1 }, { 2 * 6 - 3 * 5, 3 * 4 - 1 * 6, 1 * 5 - 2 * 4 } })
   check.tensor(torch.cross(a:t(), b:t()), c:t():totable(), 0, 'the first dimension of size 3 by default')
   check.raises(function() torch.cross(a, b, 1) end, 'size 3')
end

function tests.histc()
   local h = torch.histc(torch.Tensor({ 1, 2, 2, 3, 3, 3 }), 3)
   check.tensor(h, { 1, 2, 3 }, 0, 'the data range by default')
   check.tensor(torch.histc(torch.Tensor({ 0.5, 1.5, 1.6, 9 }), 2, 0, 2), { 1, 2 }, 0, 'values outside are left out')
   check.eq(torch.Tensor(10):fill(1):histc():size(1), 100, '100 bins by default')
end

function tests.reshape_and_cat()
   local a = torch.Tensor({ { 1, 2, 3 }, { 4, 5, 6 } })
   local r = a:t():reshape(3, 2)
   check.tensor(r, { { 1, 4 }, { 2, 5 }, { 3, 6 } }, 0, 'row-major order of the view')
   r[1][1] = 99
   check.eq(a[1][1], 1, 'reshape copies')
   check.tensor(torch.reshape(a, 6), { 1, 2, 3, 4, 5, 6 })
   local res = torch.Tensor()
   torch.reshape(res, a, torch.LongStorage({ 3, 2 }))
   check.tensor(res, { { 1, 2 }, { 3, 4 }, { 5, 6 } })
   check.raises(function() a:reshape(4) end, 'cannot take sizes 4')
   check.tensor(torch.cat(a, a, 1), { { 1, 2, 3 }, { 4, 5, 6 }, { 1, 2, 3 }, { 4, 5, 6 } })
   check.tensor(a:cat(torch.Tensor({ { 7 }, { 8 } })), { { 1, 2, 3, 7 }, { 4, 5, 6, 8 } }, 0, 'the last dimension by default')
   check.tensor(torch.cat({ a:t(), torch.Tensor(), torch.Tensor({ { 0, 0 } }) }, 1), { { 1, 4 }, { 2, 5 }, { 3, 6 }, { 0, 0 } })
   local out = torch.Tensor(1)
   check.eq(torch.cat(out, { a, a }, 2), out, 'torch.cat(res, {...}, dim) writes res')
   check.tensor(out, { { 1, 2, 3, 1, 2, 3 }, { 4, 5, 6, 4, 5, 6 } })
   check.raises(function() torch.cat(a, torch.Tensor(3, 1), 2) end, 'sizes')
   check.raises(function() torch.cat({ a, torch.FloatTensor(2, 3) }) end, 'FloatTensor')
   check.raises(function() torch.cat(a, a, 3) end, 'out of range')
   check.tensor(out, { { 1, 2, 3, 1, 2, 3 }, { 4, 5, 6, 4, 5, 6 } }, 0, 'failures leave results alone')
end

return tests
