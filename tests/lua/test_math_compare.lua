-- Comparisons (value and tensor forms, ByteTensor or same-type results), all/any, masks and
-- nonzero, against plain Lua loops on contiguous and non-contiguous inputs.
local tests = {}

local ops = {
   lt = function(a, b) return a < b end, le = function(a, b) return a <= b end,
   gt = function(a, b) return a > b end, ge = function(a, b) return a >= b end,
   eq = function(a, b) return a == b end, ne = function(a, b) return a ~= b end,
}

-- a 3x4 tensor of type T with small repeating values, and a transposed view of the same values
local function pair(T)
   local a = T(3, 4)
   local k = 0
   a:apply(function() k = k + 1; return (k * 5) % 7 end)
   local t = T(4, 3)
   t:t():copy(a)
   return a, t:t()
end

local function each(t, fn)
   for i = 1, t:size(1) do
      for j = 1, t:size(2) do fn(i, j) end
   end
end

function tests.value_and_tensor_forms_all_types()
   for _, T in ipairs({ 'Byte', 'Char', 'Short', 'Int', 'Long', 'Float', 'Double' }) do
      local ctor = torch[T .. 'Tensor']
      local a, at = pair(ctor)
      local b = ctor(3, 4):fill(3)
      for name, ref in pairs(ops) do
         for _, x in ipairs({ a, at }) do
            local m = x[name](x, 3)
            check.eq(torch.type(m), 'torch.ByteTensor', T .. ' ' .. name)
            each(x, function(i, j) check.eq(m[i][j], ref(x[i][j], 3) and 1 or 0, T .. ' ' .. name .. ' value') end)
            local mt = torch[name](x, b)
            each(x, function(i, j) check.eq(mt[i][j], ref(x[i][j], 3) and 1 or 0, T .. ' ' .. name .. ' tensor') end)
            -- a result of the tensor's own type: r:lt(a, b)
            local r = ctor()
            local back = r[name](r, x, 3)
            check.eq(back, r, 'the given result is returned')
            check.eq(torch.type(r), 'torch.' .. T .. 'Tensor')
            each(x, function(i, j) check.eq(r[i][j], ref(x[i][j], 3) and 1 or 0, T .. ' ' .. name .. 'ValueT') end)
            local rb = torch.ByteTensor()
            torch[name](rb, x, b)
            each(x, function(i, j) check.eq(rb[i][j], ref(x[i][j], 3) and 1 or 0, T .. ' ' .. name .. ' into ByteTensor') end)
         end
      end
      local before = a:clone()
      a:lt(5)
      check.ok(a:equal(before), 'a:lt(v) makes a new mask, a is unchanged')
   end
end

function tests.all_any()
   check.eq(torch.ByteTensor({ 1, 1, 1 }):all(), true)
   check.eq(torch.ByteTensor({ 1, 0, 1 }):all(), false)
   check.eq(torch.ByteTensor({ 0, 0, 1 }):any(), true)
   check.eq(torch.ByteTensor({ 0, 0, 0 }):any(), false)
   local a = torch.Tensor({ { 1, 2 }, { 3, 4 } })
   check.eq(a:gt(0):all(), true)
   check.eq(a:t():gt(3):any(), true)
   check.eq(torch.all(a:gt(1)), false)
   check.eq(torch.DoubleTensor.all, nil, 'all and any are ByteTensor methods')
end

function tests.masked_fill_copy_select()
   local a, at = pair(torch.DoubleTensor)
   for what, x in pairs({ contiguous = a, transposed = at }) do
      local mask = x:gt(3)
      local expect, values = {}, {}
      each(x, function(i, j) if x[i][j] > 3 then expect[#expect + 1] = x[i][j] end end)
      local sel = x:maskedSelect(mask)
      check.tensor(sel, expect, 0, what .. ' maskedSelect in row-major order')
      local r = torch.Tensor()
      torch.maskedSelect(r, x, mask)
      check.tensor(r, expect, 0, what .. ' torch.maskedSelect(res, ...)')
      local filled = x:clone()
      local back = filled:maskedFill(mask, -1)
      check.eq(back, filled, 'maskedFill returns self')
      each(x, function(i, j) check.eq(filled[i][j], x[i][j] > 3 and -1 or x[i][j], what .. ' maskedFill') end)
      local src = torch.range(101, 112)
      local copied = x:clone():maskedCopy(mask, src)
      local k = 0
      each(x, function(i, j)
         if x[i][j] > 3 then k = k + 1; values[#values + 1] = 100 + k end
         check.eq(copied[i][j], x[i][j] > 3 and 100 + k or x[i][j], what .. ' maskedCopy takes src in order')
      end)
   end
   check.raises(function() a:maskedFill(torch.ByteTensor(5), 0) end)
   check.raises(function() a:maskedFill(a, 0) end, 'invalid arguments', 'a mask is a ByteTensor')
end

function tests.nonzero_1_based_n_by_d()
   local a, at = pair(torch.IntTensor)
   for what, x in pairs({ contiguous = a, transposed = at }) do
      local nz = x:nonzero()
      check.eq(torch.type(nz), 'torch.LongTensor')
      local expect = {}
      each(x, function(i, j) if x[i][j] ~= 0 then expect[#expect + 1] = { i, j } end end)
      check.tensor(nz, expect, 0, what .. ' nonzero')
   end
   check.tensor(torch.nonzero(torch.Tensor({ 0, 3, 0, 4 })), { { 2 }, { 4 } })
   local r = torch.LongTensor()
   torch.nonzero(r, torch.ByteTensor({ { 0, 1 }, { 1, 0 } }))
   check.tensor(r, { { 1, 2 }, { 2, 1 } })
end

function tests.errors()
   local a = torch.Tensor(3, 4):fill(1)
   local r = torch.ByteTensor({ 7 })
   check.raises(function() torch.lt(r, a, torch.Tensor(5)) end)
   check.tensor(r, { 7 }, 0, 'a failing comparison writes no result')
   check.raises(function() a:lt('x') end, 'invalid arguments')
   check.raises(function() a:lt(torch.FloatTensor(3, 4)) end, 'invalid arguments')
end

return tests
