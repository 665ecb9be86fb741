-- Matrix products with torch7's argument orders (optional factors, result-first forms,
-- methods writing self) and the operators, against plain Lua loops, on contiguous and
-- non-contiguous operands.
local tests = {}

local function randn(...) return torch.randn(...) end
-- the same values as a non-contiguous view
local function transposedCopy(t)
   local s = torch.Tensor(t:size(2), t:size(1))
   s:t():copy(t)
   return s:t()
end
local function refMM(a, b)
   local r = {}
   for i = 1, a:size(1) do
      r[i] = {}
      for j = 1, b:size(2) do
         local s = 0
         for k = 1, a:size(2) do s = s + a[i][k] * b[k][j] end
         r[i][j] = s
      end
   end
   return r
end
local function refMV(a, v)
   local r = {}
   for i = 1, a:size(1) do
      local s = 0
      for k = 1, a:size(2) do s = s + a[i][k] * v[k] end
      r[i] = s
   end
   return r
end
-- beta * t + alpha * p elementwise over nested tables
local function axpby(beta, t, alpha, p)
   if type(p) == 'number' then return beta * t + alpha * p end
   local r = {}
   for i = 1, #p do r[i] = axpby(beta, t[i], alpha, p[i]) end
   return r
end

function tests.dot_mv_mm_bmm_ger()
   torch.manualSeed(1)
   local a, b, v, w = randn(3, 4), randn(4, 2), randn(4), randn(3)
   for what, x in pairs({ contiguous = a, transposed = transposedCopy(a) }) do
      check.tensor(torch.mm(x, b), refMM(x, b), 1e-12, what .. ' mm')
      check.tensor(torch.mv(x, v), refMV(x, v), 1e-12, what .. ' mv')
      local r = torch.Tensor(9):fill(7)
      check.eq(r:mm(x, b), r, 'r:mm returns r')
      check.tensor(r, refMM(x, b), 1e-12, what .. ' r:mm ignores old values')
      local s = 0
      for k = 1, 4 do s = s + x[2][k] * v[k] end
      check.near(x[2]:dot(v), s, 1e-12, 'dot')
      check.near(torch.dot(v, x[2]), s, 1e-12, 'torch.dot')
   end
   local g = torch.ger(w, v)
   for i = 1, 3 do for j = 1, 4 do check.near(g[i][j], w[i] * v[j], 1e-12, 'ger') end end
   local b1, b2 = randn(2, 3, 4), randn(2, 4, 5)
   local bm = torch.bmm(b1, b2)
   for k = 1, 2 do check.tensor(bm[k], refMM(b1[k], b2[k]), 1e-12, 'bmm') end
   -- integer types multiply too
   check.tensor(torch.IntTensor({ { 1, 2 }, { 3, 4 } }):mm(torch.IntTensor({ { 1, 2 }, { 3, 4 } }), torch.IntTensor({ { 1 }, { 1 } })),
                { { 3 }, { 7 } })
end

function tests.addmm_argument_orders()
   torch.manualSeed(2)
   local M, m1, m2 = randn(3, 2), randn(3, 4), randn(4, 2)
   local p = refMM(m1, m2)
   local Mv = M:totable()
   check.tensor(torch.addmm(M, m1, m2), axpby(1, Mv, 1, p), 1e-12, 'torch.addmm(M, m1, m2)')
   check.tensor(torch.addmm(2, M, m1, m2), axpby(2, Mv, 1, p), 1e-12, 'torch.addmm(beta, M, m1, m2)')
   check.tensor(torch.addmm(M, 3, m1, m2), axpby(1, Mv, 3, p), 1e-12, 'torch.addmm(M, alpha, m1, m2)')
   check.tensor(torch.addmm(2, M, 3, m1, m2), axpby(2, Mv, 3, p), 1e-12, 'torch.addmm(beta, M, alpha, m1, m2)')
   local res = torch.Tensor()
   check.eq(torch.addmm(res, 2, M, 3, m1, m2), res, 'torch.addmm(res, ...) returns res')
   check.tensor(res, axpby(2, Mv, 3, p), 1e-12)
   check.tensor(M, Mv, 0, 'torch.addmm leaves M alone')
   -- methods: M:addmm([alpha,] m1, m2) and M:addmm(beta, alpha, m1, m2) write M
   local A = M:clone()
   check.eq(A:addmm(m1, m2), A)
   check.tensor(A, axpby(1, Mv, 1, p), 1e-12, 'M:addmm(m1, m2)')
   A = M:clone(); A:addmm(3, m1, m2)
   check.tensor(A, axpby(1, Mv, 3, p), 1e-12, 'M:addmm(alpha, m1, m2)')
   A = M:clone(); A:addmm(2, 3, m1, m2)
   check.tensor(A, axpby(2, Mv, 3, p), 1e-12, 'M:addmm(beta, alpha, m1, m2)')
   local r = torch.Tensor()
   r:addmm(2, M, 3, m1, m2)
   check.tensor(r, axpby(2, Mv, 3, p), 1e-12, 'r:addmm(beta, M, alpha, m1, m2)')
   r = torch.Tensor(); r:addmm(M, 3, m1, m2)
   check.tensor(r, axpby(1, Mv, 3, p), 1e-12, 'r:addmm(M, alpha, m1, m2)')
   -- non-contiguous result in place
   local Mt = transposedCopy(M)
   Mt:addmm(0.5, transposedCopy(m1), m2)
   check.tensor(Mt, axpby(1, Mv, 0.5, p), 1e-12, 'a transposed M')
end

function tests.addmv_addr_addbmm_baddbmm()
   torch.manualSeed(3)
   local y, A, x = randn(3), randn(3, 4), randn(4)
   local yv, mv = y:totable(), refMV(A, x)
   check.tensor(torch.addmv(y, A, x), axpby(1, yv, 1, mv), 1e-12)
   check.tensor(torch.addmv(0.5, y, 2, A, x), axpby(0.5, yv, 2, mv), 1e-12)
   local y2 = y:clone(); y2:addmv(2, A, x)
   check.tensor(y2, axpby(1, yv, 2, mv), 1e-12, 'y:addmv(alpha, A, x)')
   local M, u, v = randn(3, 4), randn(3), randn(4)
   local outer = {}
   for i = 1, 3 do outer[i] = {} for j = 1, 4 do outer[i][j] = u[i] * v[j] end end
   check.tensor(torch.addr(M, u, v), axpby(1, M:totable(), 1, outer), 1e-12, 'addr')
   local M2 = M:clone(); M2:addr(0, 2, u, v)
   check.tensor(M2, axpby(0, M:totable(), 2, outer), 1e-12, 'M:addr(beta, alpha, u, v)')
   local b1, b2, C = randn(3, 2, 4), randn(3, 4, 5), randn(2, 5)
   local sum = { {}, {} }
   for i = 1, 2 do for j = 1, 5 do sum[i][j] = 0 end end
   for k = 1, 3 do sum = axpby(1, sum, 1, refMM(b1[k], b2[k])) end
   check.tensor(torch.addbmm(C, b1, b2), axpby(1, C:totable(), 1, sum), 1e-12, 'addbmm')
   local B = randn(3, 2, 5)
   local bb = torch.baddbmm(2, B, 3, b1, b2)
   for k = 1, 3 do check.tensor(bb[k], axpby(2, B[k]:totable(), 3, refMM(b1[k], b2[k])), 1e-12, 'baddbmm') end
end

function tests.size_errors_leave_inputs_unchanged()
   local M, m1 = torch.Tensor(3, 2):fill(1), torch.Tensor(3, 4):fill(2)
   check.raises(function() torch.mm(m1, M) end, 'size mismatch')
   check.raises(function() M:addmm(m1, torch.Tensor(3, 2)) end, 'size mismatch')
   check.raises(function() M:addmm(m1, torch.Tensor(4, 3)) end)
   check.tensor(M, { { 1, 1 }, { 1, 1 }, { 1, 1 } }, 0, 'a failing addmm leaves M')
   check.raises(function() torch.mv(m1, torch.Tensor(3)) end, 'size mismatch')
   check.raises(function() torch.bmm(torch.Tensor(2, 3, 4), torch.Tensor(3, 4, 2)) end, 'size mismatch')
   check.raises(function() torch.dot(torch.Tensor(3), torch.Tensor(4)) end)
   check.raises(function() torch.ger(m1, m1) end, 'vectors')
   check.raises(function() M:addmm(m1) end, 'invalid arguments')
end

function tests.operators_every_case()
   local a = torch.Tensor({ { 1, 2 }, { 3, 4 } })
   local b = torch.Tensor({ { 10, 20 }, { 30, 40 } })
   local keep = a:clone()
   check.tensor(a + b, { { 11, 22 }, { 33, 44 } })
   check.tensor(a + 1, { { 2, 3 }, { 4, 5 } })
   check.tensor(1 + a, { { 2, 3 }, { 4, 5 } })
   check.tensor(b - a, { { 9, 18 }, { 27, 36 } })
   check.tensor(a - 1, { { 0, 1 }, { 2, 3 } })
   check.tensor(10 - a, { { 9, 8 }, { 7, 6 } })
   check.tensor(-a, { { -1, -2 }, { -3, -4 } })
   check.tensor(a * 2, { { 2, 4 }, { 6, 8 } })
   check.tensor(2 * a, { { 2, 4 }, { 6, 8 } })
   check.tensor(a * b, refMM(a, b), 0, 'matrix * matrix')
   check.tensor(a:t() * b, refMM(a:t(), b), 0, 'transposed * matrix')
   check.tensor(a * torch.Tensor({ 1, 1 }), { 3, 7 }, 0, 'matrix * vector')
   check.eq(torch.Tensor({ 1, 2 }) * torch.Tensor({ 3, 4 }), 11, 'vector * vector is a number')
   check.tensor(a / 2, { { 0.5, 1 }, { 1.5, 2 } })
   check.tensor(torch.Tensor({ -3, 3, 5 }) % 2, { 1, 1, 1 }, 0, '% as Lua: the sign of the divisor')
   check.tensor(torch.IntTensor({ 7, -7 }) / 2, { 3, -3 })
   check.tensor(torch.IntTensor({ 1, 2 }) + torch.IntTensor({ 3, 4 }), { 4, 6 })
   check.ok(a:equal(keep), 'operators make new tensors')
   check.raises(function() return a / b end, 'number only')
   check.raises(function() return 2 / a end, 'number only')
   check.raises(function() return a % b end, 'number only')
   check.raises(function() return torch.Tensor(2, 2, 2) * a end, '3D and 2D')
   check.raises(function() return a + torch.Tensor(3) end)
end

return tests
