-- Index functions with 1-based LongTensor indices against plain loops, on contiguous and
-- non-contiguous tensors; out-of-range indices raise and change nothing; the random
-- family (randperm against torch7's own stream, random ranges, multinomial).
local tests = {}

local function sample()  -- 3x4, and the same values transposed in memory
   local t = torch.Tensor(3, 4)
   local k = 0
   t:apply(function() k = k + 1; return k end)
   local s = torch.Tensor(4, 3)
   s:t():copy(t)
   return { contiguous = t, transposed = s:t() }
end

function tests.index_and_indexSelect()
   local idx = torch.LongTensor({ 3, 1, 3 })
   for what, t in pairs(sample()) do
      local r = t:index(1, idx)
      local s = torch.indexSelect(t, 2, idx)
      for i = 1, 3 do
         for j = 1, 4 do check.eq(r[i][j], t[idx[i]][j], what .. ' index dim 1') end
      end
      for i = 1, 3 do
         for j = 1, 3 do check.eq(s[i][j], t[i][idx[j]], what .. ' indexSelect dim 2') end
      end
      local res = torch.Tensor()
      res:index(t, 1, idx)
      check.ok(res:equal(r), 'res:index(src, dim, index)')
   end
end

function tests.indexCopy_indexAdd_indexFill_in_place()
   for what, t0 in pairs(sample()) do
      local t = t0:clone()
      local src = torch.Tensor({ { 10, 20, 30, 40 }, { 50, 60, 70, 80 } })
      check.eq(t:indexCopy(1, torch.LongTensor({ 3, 1 }), src), t, 'indexCopy returns self')
      check.tensor(t, { { 50, 60, 70, 80 }, { 5, 6, 7, 8 }, { 10, 20, 30, 40 } }, 0, what .. ' indexCopy')
      t = t0:clone()
      t:indexAdd(2, torch.LongTensor({ 2, 2 }), torch.Tensor(3, 2):fill(1))
      check.tensor(t, { { 1, 4, 3, 4 }, { 5, 8, 7, 8 }, { 9, 12, 11, 12 } }, 0, what .. ' indexAdd accumulates repeats')
      t = t0:clone()
      t:indexFill(2, torch.LongTensor({ 4, 1 }), -1)
      check.tensor(t, { { -1, 2, 3, -1 }, { -1, 6, 7, -1 }, { -1, 10, 11, -1 } }, 0, what .. ' indexFill')
   end
end

function tests.gather_scatter()
   for what, t in pairs(sample()) do
      local idx = torch.LongTensor({ { 4, 1 }, { 2, 2 }, { 1, 3 } })
      local g = t:gather(2, idx)
      for i = 1, 3 do for j = 1, 2 do check.eq(g[i][j], t[i][idx[i][j]], what .. ' gather') end end
      local r = torch.Tensor()
      torch.gather(r, t, 2, idx)
      check.ok(r:equal(g), 'torch.gather(res, ...)')
      local z = t:clone():zero()
      local back = z:scatter(2, idx:narrow(2, 1, 1), t:narrow(2, 1, 1))
      check.eq(back, z, 'scatter returns self')
      for i = 1, 3 do check.eq(z[i][idx[i][1]], t[i][1], what .. ' scatter') end
      check.eq(z:sum(), t:narrow(2, 1, 1):sum(), 'scatter writes nowhere else')
      z:zero():scatter(1, torch.LongTensor({ { 3, 1, 2, 3 } }), 7)
      check.tensor(z, { { 0, 7, 0, 0 }, { 0, 0, 7, 0 }, { 7, 0, 0, 7 } }, 0, what .. ' scatter a value')
   end
end

function tests.out_of_range_indices_change_nothing()
   local t = sample().contiguous
   local keep = t:clone()
   check.raises(function() t:index(1, torch.LongTensor({ 0 })) end, 'out of range')
   check.raises(function() t:index(1, torch.LongTensor({ 4 })) end, 'out of range')
   check.raises(function() t:index(3, torch.LongTensor({ 1 })) end, 'dimension 3 is out of range')
   check.raises(function() t:indexCopy(1, torch.LongTensor({ 1, 9 }), torch.Tensor(2, 4)) end, 'out of range')
   check.raises(function() t:indexAdd(2, torch.LongTensor({ 5 }), torch.Tensor(3, 1)) end, 'out of range')
   check.raises(function() t:indexFill(1, torch.LongTensor({ 2, 0 }), 5) end, 'out of range')
   check.raises(function() t:scatter(2, torch.LongTensor({ { 1 }, { 5 }, { 1 } }), 0) end, 'out of range')
   check.raises(function() t:gather(1, torch.LongTensor({ { 4, 1, 1, 1 } })) end, 'out of range')
   check.raises(function() t:index(1, torch.IntTensor({ 1 })) end, 'invalid arguments', 'indices are LongTensors')
   check.ok(t:equal(keep), 'a failing index function leaves the tensor unchanged')
end

function tests.randperm_matches_torch7()
   local ref = torch.load(FIXTURES .. '/rng.t7')
   torch.manualSeed(123)
   local p = torch.randperm(10)
   check.tensor(p, ref.randperm:totable(), 0, "torch7's randperm stream, 1-based")
   torch.manualSeed(123)
   local r = torch.Tensor(10)
   for i = 1, 10 do r[i] = torch.random() end
   check.tensor(r, ref.random:totable(), 0, "torch7's torch.random() stream")
end

function tests.random_ranges()
   torch.manualSeed(4)
   local t = torch.IntTensor(2000):random(3, 5)
   check.ok(t:min() == 3 and t:max() == 5, 'random(a, b) covers a..b inclusive')
   t:random(4)
   check.ok(t:min() == 1 and t:max() == 4, 'random(b) covers 1..b')
   local b = torch.ByteTensor(500):random()
   check.ok(b:max() > 200, 'random() spans the type')
   for _ = 1, 50 do
      local x = torch.random(2, 3)
      check.ok(x == 2 or x == 3, 'torch.random(a, b)')
      x = torch.random(6)
      check.ok(x >= 1 and x <= 6 and x == math.floor(x), 'torch.random(b)')
   end
   check.raises(function() torch.random(5, 1) end, 'lower bound')
   local g = torch.Tensor(1000):geometric(0.5)
   check.ok(g:min() >= 1, 'geometric counts from 1')
   local e = torch.Tensor(2000):exponential(2)
   check.ok(math.abs(e:mean() - 0.5) < 0.05, 'exponential mean 1/lambda')
   local p = torch.Tensor(1000):fill(0.2)
   local bern = torch.Tensor(1000):bernoulli(p)
   check.ok(math.abs(bern:mean() - 0.2) < 0.05, 'bernoulli with a tensor of probabilities')
   check.ok(torch.Tensor(100):logNormal(0, 0.5):min() > 0, 'logNormal is positive')
   check.ok(type(torch.cauchy()) == 'number' and type(torch.uniform()) == 'number', 'number forms')
end

function tests.multinomial_1_based()
   torch.manualSeed(5)
   local s = torch.multinomial(torch.Tensor({ 0, 0, 1, 0 }), 5, true)
   check.eq(torch.type(s), 'torch.LongTensor')
   check.tensor(s, { 3, 3, 3, 3, 3 }, 0, 'the only category with probability, 1-based')
   local w = torch.multinomial(torch.Tensor({ { 1, 1, 0 }, { 0, 1, 1 } }), 2)
   for i = 1, 2 do
      check.ok(w[i][1] ~= w[i][2], 'without replacement')
      for j = 1, 2 do check.ok(w[i][j] ~= (i == 1 and 3 or 1), 'never a zero-probability category') end
   end
   check.raises(function() torch.multinomial(torch.Tensor({ 1, 0 }), 2) end)
end

return tests
