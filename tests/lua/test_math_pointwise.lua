-- Pointwise functions against Lua's math on contiguous and non-contiguous tensors, with
-- torch7's three forms: x:fn() in place, torch.fn(x) new, torch.fn(res, x) / res:fn(x).
local tests = {}

local function trunc(x) return x >= 0 and math.floor(x) or math.ceil(x) end
local unary = {
   exp = math.exp, log = math.log, sqrt = math.sqrt, tanh = math.tanh, sin = math.sin, cos = math.cos,
   tan = math.tan, asin = math.asin, acos = math.acos, atan = math.atan, sinh = math.sinh,
   cosh = math.cosh, floor = math.floor, ceil = math.ceil, abs = math.abs, trunc = trunc,
   log1p = function(x) return math.log(1 + x) end,
   expm1 = function(x) return math.exp(x) - 1 end,
   round = function(x) return x >= 0 and math.floor(x + 0.5) or math.ceil(x - 0.5) end,
   frac = function(x) return x - trunc(x) end,
   rsqrt = function(x) return 1 / math.sqrt(x) end,
   sigmoid = function(x) return 1 / (1 + math.exp(-x)) end,
   cinv = function(x) return 1 / x end,
   neg = function(x) return -x end,
   sign = function(x) return x > 0 and 1 or (x < 0 and -1 or 0) end,
}
-- inputs in every function's domain ((0, 1) suits asin, acos, log, sqrt) except sign/neg/
-- abs/round, which also get negatives
local function inputs(T, signed)
   local base = T(3, 4)
   local k = 0
   base:apply(function() k = k + 1; return signed and (k - 6.5) / 4 or k / 13 end)
   local tr = T(4, 3)
   tr:t():copy(base)
   local wide = T(3, 8):zero()
   wide:narrow(2, 3, 4):copy(base)
   return { contiguous = base, transposed = tr:t(), narrowed = wide:narrow(2, 3, 4) }
end
local function forEach(t, fn)
   for i = 1, t:size(1) do for j = 1, t:size(2) do fn(i, j) end end
end

function tests.unary_three_forms()
   for _, T in ipairs({ 'Float', 'Double' }) do
      local tol = T == 'Float' and 1e-6 or 1e-13
      for name, ref in pairs(unary) do
         local signed = name == 'sign' or name == 'neg' or name == 'abs' or name == 'round' or name == 'trunc'
            or name == 'frac' or name == 'floor' or name == 'ceil'
         for what, x in pairs(inputs(torch[T .. 'Tensor'], signed)) do
            local keep = x:clone()
            local new = torch[name](x)
            check.ok(x:equal(keep), name .. ': torch.fn leaves its input')
            forEach(x, function(i, j) check.near(new[i][j], ref(x[i][j]), tol, T .. ' ' .. name .. ' ' .. what) end)
            local res = torch[T .. 'Tensor']()
            check.eq(torch[name](res, x), res, 'torch.fn(res, x) returns res')
            check.ok(res:equal(new), name .. ' into res')
            local r2 = torch[T .. 'Tensor'](12)
            r2[name](r2, x)
            check.ok(r2:equal(new), name .. ': res:fn(x)')
            local back = x[name](x)
            check.eq(back, x, 'x:fn() returns x')
            check.ok(x:equal(new), name .. ': x:fn() in place on a ' .. what .. ' tensor')
         end
      end
      check.near(torch.log(2), math.log(2), 1e-15, 'number forms')
      check.near(torch.sigmoid(0), 0.5, 1e-15)
   end
end

function tests.integer_types()
   local ints = torch.IntTensor({ -3, 0, 5 })
   check.tensor(torch.abs(ints), { 3, 0, 5 })
   check.tensor(torch.LongTensor({ -2, 2 }):abs(), { 2, 2 })
   check.tensor(torch.sign(torch.ShortTensor({ -4, 0, 9 })), { -1, 0, 1 })
   check.tensor(torch.CharTensor({ 1, -2 }):neg(), { -1, 2 })
   check.eq(torch.IntTensor.exp, nil, 'floating functions are Float/Double only')
   check.raises(function() torch.exp(torch.IntTensor(2)) end, 'invalid arguments')
end

function tests.binary_and_value_ops()
   local a, b = torch.Tensor({ { 1, -2 }, { 3.5, -4 } }), torch.Tensor({ { 2, 3 }, { -1, 0.5 } })
   local at = a:t():contiguous():t()
   local function each2(fn, r, x, y)
      for i = 1, 2 do for j = 1, 2 do check.near(r[i][j], fn(x[i][j], y and y[i][j]), 1e-12) end end
   end
   each2(function(x) return x * 3 end, torch.mul(at, 3), a)
   each2(function(x) return x / 4 end, torch.div(at, 4), a)
   each2(function(x) return x - 2 end, torch.csub(at, 2), a)
   each2(function(x, y) return x - 2 * y end, torch.csub(a, 2, b), a, b)
   each2(function(x, y) return x * y end, torch.cmul(at, b), a, b)
   each2(function(x, y) return x / y end, torch.cdiv(at, b), a, b)
   each2(function(x, y) return math.max(x, y) end, torch.cmax(at, b), a, b)
   each2(function(x, y) return math.min(x, y) end, torch.cmin(a, b), a, b)
   each2(function(x) return math.max(x, 0) end, torch.cmax(a, 0), a)
   each2(function(x) return math.min(x, 0) end, a:clone():cmin(0), a)
   each2(function(x) return math.fmod(x, 1.5) end, torch.fmod(at, 1.5), a)
   each2(function(x) return x % 1.5 end, torch.remainder(at, 1.5), a)
   each2(function(x, y) return math.fmod(x, y) end, torch.cfmod(a, b), a, b)
   each2(function(x, y) return x % y end, torch.cremainder(a, b), a, b)
   each2(function(x) return x ^ 2 end, torch.pow(at, 2), a)
   each2(function(x) return 2 ^ x end, torch.pow(2, at), a)
   each2(function(x, y) return math.abs(x) ^ y end, torch.cpow(torch.abs(a), b), a, b)
   each2(function(x) return math.min(math.max(x, -1), 2) end, torch.clamp(at, -1, 2), a)
   each2(function(x, y) return x + 0.25 * (y - x) end, torch.lerp(at, b, 0.25), a, b)
   each2(function(x, y) return math.atan2(x, y) end, torch.atan2(at, b), a, b)
   local c = torch.Tensor({ { 1, 2 }, { 3, 4 } })
   local cv = c:totable()
   each2(function(x, y) return x + 0.5 * y * cv[1][1] end, torch.addcmul(at, 0.5, b, torch.Tensor(2, 2):fill(1)), a, b)
   local r = at:clone()
   r:addcdiv(2, a, b)
   each2(function(x, y) return x + 2 * x / y end, r, a, b)
   r = torch.Tensor()
   r:addcmul(a, b, c)
   for i = 1, 2 do for j = 1, 2 do check.near(r[i][j], a[i][j] + b[i][j] * c[i][j], 1e-12) end end
   -- methods write self
   local x = a:clone()
   check.eq(x:mul(2), x)
   check.tensor(x, { { 2, -4 }, { 7, -8 } })
   x:clamp(-5, 5)
   check.tensor(x, { { 2, -4 }, { 5, -5 } })
   check.raises(function() a:clamp(2, 1) end, 'min must not exceed max')
   check.raises(function() a:cmul(torch.Tensor(5)) end)
   check.tensor(a, { { 1, -2 }, { 3.5, -4 } }, 0, 'failed calls leave a')
end

-- torch7's bitwise methods on the integer types, against LuaJIT's bit library (32-bit, so
-- values and results stay in that range), and its shifts of floating types by powers of 2.
function tests.bitwise_ops()
   local bit = require 'bit'
   for _, T in ipairs({ 'Byte', 'Char', 'Short', 'Int', 'Long' }) do
      local lo = T == 'Byte' and 0 or -60
      local av, bv, nv = {}, {}, {}
      for i = 1, 12 do
         av[i] = lo + (i * 37) % 60
         bv[i] = lo + (i * 23 + 5) % 60
         nv[i] = (i * 5) % 7
      end
      local C = torch[T .. 'Tensor']
      local a, b, n = C(av):view(3, 4), C(bv):view(4, 3):t(), C(nv):view(3, 4)
      local bt = b:contiguous()
      local function expect(r, fn, what)
         for i = 1, 3 do
            for j = 1, 4 do
               local want = fn(a[i][j], bt[i][j], n[i][j])
               if T == 'Byte' then want = want % 256 elseif T == 'Char' then want = (want + 128) % 256 - 128 end
               check.eq(r[i][j], want, T .. ' ' .. what)
            end
         end
      end
      expect(torch.cbitand(a, b), function(x, y) return bit.band(x, y) end, 'cbitand')
      expect(torch.cbitor(a, b), function(x, y) return bit.bor(x, y) end, 'cbitor')
      expect(torch.cbitxor(a, b), function(x, y) return bit.bxor(x, y) end, 'cbitxor')
      expect(torch.bitand(a, 6), function(x) return bit.band(x, 6) end, 'bitand')
      expect(torch.bitor(a, 6), function(x) return bit.bor(x, 6) end, 'bitor')
      expect(torch.bitxor(a, 6), function(x) return bit.bxor(x, 6) end, 'bitxor')
      expect(torch.clshift(a, n), function(x, _, k) return bit.lshift(x, k) end, 'clshift')
      expect(torch.crshift(a, n), function(x, _, k) return bit.arshift(x, k) end, 'crshift')
      expect(torch.lshift(a, 2), function(x) return bit.lshift(x, 2) end, 'lshift')
      expect(torch.rshift(a, 2), function(x) return bit.arshift(x, 2) end, 'rshift')
      expect(torch.bitnot(a), function(x) return bit.bnot(x) end, 'bitnot')
      local x = a:clone()
      check.eq(x:bitand(6), x, 'x:bitand() returns x')
      expect(x, function(v) return bit.band(v, 6) end, 'x:bitand() in place')
   end
   check.eq(torch.FloatTensor.bitand, nil, 'bitand is for integer types')
   check.tensor(torch.lshift(torch.DoubleTensor({ 1.5, -3 }), 2), { 6, -12 })
   check.tensor(torch.rshift(torch.FloatTensor({ 6, -3 }), 1), { 3, -1.5 })
   local a = torch.IntTensor({ 1, 2, 3 })
   check.raises(function() a:cbitand(torch.IntTensor(5)) end)
   check.tensor(a, { 1, 2, 3 }, 0, 'a failed call leaves a')
end

-- The most negative integer divided by -1 wraps to itself (two's complement) instead of
-- trapping (SIGFPE); zero divisors raise (issue 14, finding 2).
function tests.integer_division_edges()
   local cases = { LongTensor = -2 ^ 63, IntTensor = -2 ^ 31, ShortTensor = -2 ^ 15, CharTensor = -128 }
   for T, min in pairs(cases) do
      local a = torch[T]({ min, -7, 7 })  -- (Lua's numbers hold -2^63 but not -2^63 + 1)
      local m1 = torch[T](3):fill(-1)
      local negated = { min, 7, -7 }  -- -MIN wraps to MIN
      check.tensor(torch.div(a, -1), negated, 0, T .. ' div')
      check.tensor(torch.cdiv(a, m1), negated, 0, T .. ' cdiv')
      check.tensor(a:clone():div(-1), negated, 0, T .. ' :div')
      for _, f in ipairs({ 'fmod', 'remainder' }) do
         check.tensor(torch[f](a, -1), { 0, 0, 0 }, 0, T .. ' ' .. f)
         check.tensor(torch['c' .. f](a, m1), { 0, 0, 0 }, 0, T .. ' c' .. f)
      end
      local zeros = torch[T](3):zero()
      for _, f in ipairs({ 'div', 'fmod', 'remainder' }) do
         check.raises(function() torch[f](a, 0) end, 'integer division by zero')
         check.raises(function() torch['c' .. f](a, zeros) end, 'integer division by zero')
      end
      local keep = a:clone()
      check.raises(function() a:cdiv(zeros) end, 'integer division by zero')
      check.ok(a:equal(keep), 'a failed in-place division leaves self')
   end
end

return tests
