-- Reductions against plain Lua loops: numbers without a dimension, tensors keeping the
-- reduced (1-based) dimension with a dimension, 1-based indices, on contiguous and
-- non-contiguous inputs; torch7's result-first forms; errors leave inputs unchanged.
local tests = {}

-- 3x4 matrices: contiguous, a transpose and a narrowed view, all with the same values
local function matrices(T)
   T = T or torch.DoubleTensor
   local base = T(3, 4)
   local k = 0
   base:apply(function() k = k + 1; return (k * 7) % 11 - 3 end)  -- repeats, for ties
   local transposed = T(4, 3)
   transposed:t():copy(base)
   local wide = T(3, 6):zero()
   wide:narrow(2, 2, 4):copy(base)
   return { contiguous = base, transposed = transposed:t(), narrowed = wide:narrow(2, 2, 4) }
end

local function rows(t)  -- plain table of rows
   return t:totable()
end

-- reference reductions along d (1 or 2) of a 3x4 table: a 1x4 or 3x1 table
local function reduceRef(v, d, fn)
   local r = {}
   if d == 1 then
      r[1] = {}
      for j = 1, #v[1] do
         local col = {}
         for i = 1, #v do col[i] = v[i][j] end
         r[1][j] = fn(col)
      end
   else
      for i = 1, #v do r[i] = { fn(v[i]) } end
   end
   return r
end
local function sum(l) local s = 0 for _, x in ipairs(l) do s = s + x end return s end
local function prod(l) local s = 1 for _, x in ipairs(l) do s = s * x end return s end
local function var(l, biased)
   local m = sum(l) / #l
   local s = 0
   for _, x in ipairs(l) do s = s + (x - m) ^ 2 end
   return s / (biased and #l or #l - 1)
end
local function flat(v)
   local l = {}
   for _, row in ipairs(v) do for _, x in ipairs(row) do l[#l + 1] = x end end
   return l
end

function tests.sum_prod_mean_all_and_by_dim()
   for what, t in pairs(matrices()) do
      local v = rows(t)
      check.eq(t:sum(), sum(flat(v)), what .. ' sum')
      check.eq(torch.sum(t), sum(flat(v)), what .. ' torch.sum')
      check.eq(t:prod(), prod(flat(v)), what .. ' prod')
      check.near(t:mean(), sum(flat(v)) / 12, 1e-12, what .. ' mean')
      for d = 1, 2 do
         check.tensor(t:sum(d), reduceRef(v, d, sum), 0, what .. ' sum dim')
         check.tensor(torch.prod(t, d), reduceRef(v, d, prod), 0, what .. ' prod dim')
         check.tensor(t:mean(d), reduceRef(v, d, function(l) return sum(l) / #l end), 1e-12, what .. ' mean dim')
      end
   end
   -- integer types sum in a wider accumulator and keep their type by dimension
   local b = torch.ByteTensor({ { 200, 100 }, { 1, 2 } })
   check.eq(b:sum(), 303)
   check.eq(torch.type(b:sum(1)), 'torch.ByteTensor')
   check.eq(torch.IntTensor({ { 1, 2 }, { 3, 4 } }):prod(), 24)
end

function tests.result_first_forms()
   local t = matrices().transposed
   local r = torch.Tensor(7)
   local back = torch.sum(r, t, 2)
   check.eq(back, r, 'torch.sum(res, t, dim) returns res')
   check.tensor(r, reduceRef(rows(t), 2, sum))
   local s = torch.Tensor()
   s:sum(t, 1)
   check.tensor(s, reduceRef(rows(t), 1, sum), 0, 'res:sum(t, dim) writes res')
   local before = t:clone()
   local n = t:sum(1)
   check.ok(t:equal(before), 'a reduction leaves its input alone')
   check.ok(n ~= t, 'x:sum(dim) is a new tensor')
end

function tests.var_std_unbiased_flag()
   for what, t in pairs(matrices()) do
      local v = rows(t)
      check.near(t:var(), var(flat(v)), 1e-12, what .. ' var')
      check.near(t:std(), math.sqrt(var(flat(v))), 1e-12, what .. ' std')
      check.near(t:var(true), var(flat(v), true), 1e-12, what .. ' biased var')
      for d = 1, 2 do
         check.tensor(t:var(d), reduceRef(v, d, var), 1e-12, what .. ' var dim')
         check.tensor(torch.std(t, d, true), reduceRef(v, d, function(l) return math.sqrt(var(l, true)) end), 1e-12)
      end
   end
   check.raises(function() torch.var(torch.IntTensor(3)) end, 'invalid arguments', 'var is floating only')
end

function tests.norm_dist_renorm()
   for what, t in pairs(matrices()) do
      local l = flat(rows(t))
      local function pnorm(xs, p)
         local s = 0
         for _, x in ipairs(xs) do s = s + math.abs(x) ^ p end
         return s ^ (1 / p)
      end
      check.near(t:norm(), pnorm(l, 2), 1e-12, what .. ' 2-norm')
      check.near(t:norm(1), pnorm(l, 1), 1e-12, what .. ' 1-norm')
      check.near(torch.norm(t, 3), pnorm(l, 3), 1e-12, what .. ' 3-norm')
      check.tensor(t:norm(2, 2), reduceRef(rows(t), 2, function(xs) return pnorm(xs, 2) end), 1e-12)
      local u = t:clone():fill(1)
      local diff = {}
      for i, x in ipairs(l) do diff[i] = x - 1 end
      check.near(t:dist(u), pnorm(diff, 2), 1e-12, what .. ' dist')
      check.near(torch.dist(t, u, 1), pnorm(diff, 1), 1e-12, what .. ' dist p=1')
   end
   -- renorm: rows (dim 1 sub-tensors) with a 2-norm above 5 are scaled to norm 5
   local t = torch.Tensor({ { 3, 4 }, { 6, 8 }, { 1, 0 } })
   local r = torch.renorm(t, 2, 1, 5)
   check.tensor(r, { { 3, 4 }, { 3, 4 }, { 1, 0 } }, 1e-6)  -- torch7 divides by norm + 1e-7
   check.tensor(t, { { 3, 4 }, { 6, 8 }, { 1, 0 } }, 0, 'torch.renorm leaves t')
   t:renorm(2, 1, 5)
   check.tensor(t, { { 3, 4 }, { 3, 4 }, { 1, 0 } }, 1e-6, 'the method renorms in place')
end

function tests.max_min_with_1_based_indices()
   for what, t in pairs(matrices()) do
      local v = rows(t)
      local all = flat(v)
      check.eq(t:max(), math.max(unpack(all)), what)
      check.eq(torch.min(t), math.min(unpack(all)), what)
      for d = 1, 2 do
         local vals, idx = t:max(d)
         check.eq(torch.type(idx), 'torch.LongTensor')
         local lines = d == 1 and 4 or 3
         for k = 1, lines do
            local line = d == 1 and t:select(2, k) or t:select(1, k)
            local best, at = -math.huge, nil
            for i = 1, line:size(1) do
               if line[i] > best then best, at = line[i], i end  -- first occurrence
            end
            local pos = d == 1 and { 1, k } or { k, 1 }
            check.eq(vals[pos], best, what .. ' max value')
            check.eq(idx[pos], at, what .. ' max 1-based index (first of ties)')
         end
         local mv, mi = torch.min(t, d)
         for k = 1, lines do
            local pos = d == 1 and { 1, k } or { k, 1 }
            local line = d == 1 and t:select(2, k) or t:select(1, k)
            check.eq(line[mi[pos]], mv[pos], what .. ' min index points at the min')
         end
      end
   end
   local v, i = torch.Tensor(), torch.LongTensor()
   torch.max(v, i, torch.Tensor({ { 1, 5, 2 } }), 2)
   check.tensor(v, { { 5 } }); check.tensor(i, { { 2 } })
end

function tests.cumsum_cumprod()
   for what, t in pairs(matrices()) do
      local v = rows(t)
      local c2 = t:cumsum(2)
      local c1 = torch.cumsum(t)  -- dimension 1 by default
      local p2 = t:cumprod(2)
      for i = 1, 3 do
         local s, p = 0, 1
         for j = 1, 4 do
            s, p = s + v[i][j], p * v[i][j]
            check.eq(c2[i][j], s, what .. ' cumsum')
            check.eq(p2[i][j], p, what .. ' cumprod')
         end
      end
      for j = 1, 4 do
         local s = 0
         for i = 1, 3 do s = s + v[i][j]; check.eq(c1[i][j], s, what .. ' cumsum dim 1') end
      end
   end
end

function tests.sort_ascending_descending()
   for what, t in pairs(matrices()) do
      local v = rows(t)
      local sv, si = t:sort()  -- the last dimension
      local dv, di = torch.sort(t, 2, true)
      local cv, ci = t:sort(1)
      for i = 1, 3 do
         for j = 1, 4 do
            check.eq(sv[i][j], v[i][si[i][j]], what .. ' sorted values are where the indices say')
            check.eq(dv[i][j], v[i][di[i][j]], what .. ' descending')
            if j > 1 then
               check.ok(sv[i][j - 1] <= sv[i][j], what .. ' ascending')
               check.ok(dv[i][j - 1] >= dv[i][j], what .. ' descending order')
            end
         end
      end
      for j = 1, 4 do
         for i = 1, 3 do check.eq(cv[i][j], v[ci[i][j]][j], what .. ' sort along dim 1') end
      end
   end
   local v, i = torch.Tensor({ 3, 1, 2 }):sort(true)
   check.tensor(v, { 3, 2, 1 }); check.tensor(i, { 1, 3, 2 })
end

function tests.topk_kthvalue_median_mode()
   local t = torch.Tensor({ { 5, 1, 4, 1, 3 }, { 2, 2, 9, 0, 2 } })
   local v, i = t:topk(2)  -- the 2 smallest, in no particular order
   for r = 1, 2 do
      local got = { v[r][1], v[r][2] }
      table.sort(got)
      local row = t[r]:totable()
      table.sort(row)
      check.eq(got[1], row[1]); check.eq(got[2], row[2])
      check.eq(t[r][i[r][1]], v[r][1], 'topk indices are 1-based')
   end
   v, i = t:topk(3, 2, true, true)  -- the 3 largest, sorted
   check.tensor(v, { { 5, 4, 3 }, { 9, 2, 2 } })
   check.tensor(i:narrow(2, 1, 1), { { 1 }, { 3 } })
   v, i = torch.topk(t:t(), 1, 1, true)
   check.tensor(v, { { 5, 9 } }); check.tensor(i, { { 1, 3 } })
   v, i = t:kthvalue(2)
   check.tensor(v, { { 1 }, { 2 } })
   check.eq(t[1][i[1][1]], 1); check.eq(t[2][i[2][1]], 2)
   v, i = torch.kthvalue(t, 1, 1)
   check.tensor(v, { { 2, 1, 4, 0, 2 } }); check.tensor(i, { { 2, 1, 1, 2, 2 } })
   v, i = t:median()
   check.tensor(v, { { 3 }, { 2 } }); check.tensor(i, { { 5 }, { 2 } }, 0, 'median index where a stable sort puts it')
   v, i = t:mode()
   check.tensor(v, { { 1 }, { 2 } })
   check.eq(t[1][i[1][1]], 1); check.eq(t[2][i[2][1]], 2)
   check.raises(function() t:kthvalue(6) end, 'out of range')
   check.raises(function() t:topk(6) end, 'out of range')
end

function tests.errors_leave_inputs_unchanged()
   local t = matrices().contiguous
   local before = t:clone()
   check.raises(function() t:sum(3) end, 'dimension 3 is out of range')
   check.raises(function() t:sum(3) end, 'test_math_reduce.lua:', "the error points at the caller's line")
   check.raises(function() torch.mm(t, t) end, 'test_math_reduce.lua:', 'so do the errors of TH')
   check.raises(function() t:max(0) end, 'dimension 0 is out of range')
   check.raises(function() torch.sort(t, 5) end, 'out of range')
   check.raises(function() t:cumsum(-1) end, 'out of range')
   local res = torch.Tensor({ 1, 2, 3 })
   check.raises(function() torch.sum(res, t, 9) end, 'out of range')
   check.tensor(res, { 1, 2, 3 }, 0, 'a failing call writes no result')
   check.raises(function() t:sum('x') end, 'invalid arguments')
   check.raises(function() torch.sum(torch.FloatTensor(2), t, 1) end, 'invalid arguments', 'a result of another type')
   check.ok(t:equal(before), 'inputs unchanged')
end

return tests
