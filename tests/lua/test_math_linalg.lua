-- LAPACK functions (Float, Double) checked by their defining properties: A X = B, Q'Q = I,
-- U S V' = A, A V = V diag(e), inverse times A = I, Cholesky factors; torch7's result
-- layouts and option letters; failures raise and leave their inputs unchanged.
local tests = {}

local function maxAbsDiff(a, b)
   return (a - b):abs():max()
end
local function spd(n)  -- a symmetric positive definite matrix
   local a = torch.randn(n, n)
   return a * a:t() + torch.eye(n) * n
end
local function isIdentity(m, tol, msg)
   check.ok(maxAbsDiff(m, torch.eye(m:size(1))) < tol, msg)
end

function tests.gesv_solves_and_returns_lu()
   torch.manualSeed(11)
   local A, B = torch.randn(4, 4) + torch.eye(4) * 4, torch.randn(4, 2)
   local keepA, keepB = A:clone(), B:clone()
   local X, LU = torch.gesv(B, A)
   check.ok(maxAbsDiff(A * X, B) < 1e-12, 'A X = B')
   check.ok(A:equal(keepA) and B:equal(keepB), 'torch.gesv leaves its inputs')
   check.eq(LU:size(1), 4)
   -- result-first form writes the given tensors, on a transposed (non-contiguous) A
   local rb, ra = torch.Tensor(), torch.Tensor()
   local x2, lu2 = torch.gesv(rb, ra, B, A:t())
   check.eq(x2, rb); check.eq(lu2, ra)
   check.ok(maxAbsDiff(A:t() * rb, B) < 1e-12, "A' X = B")
   -- a single right-hand side as a vector is solved too
   local xf = torch.gesv(torch.FloatTensor({ { 1 }, { 2 } }), torch.FloatTensor({ { 2, 0 }, { 0, 4 } }))
   check.tensor(xf, { { 0.5 }, { 0.5 } }, 1e-6)
end

function tests.gels_least_squares()
   torch.manualSeed(12)
   local A, B = torch.randn(6, 3), torch.randn(6, 2)
   local X = torch.gels(B, A)
   check.eq(X:size(1), 3)
   -- the residual is orthogonal to A's columns: A' (A X - B) = 0
   local R = A * X:narrow(1, 1, 3) - B
   check.ok((A:t() * R):abs():max() < 1e-10, 'normal equations hold')
end

function tests.trtrs_triangular_solves()
   torch.manualSeed(13)
   local A = torch.randn(4, 4) + torch.eye(4) * 5
   local B = torch.randn(4, 2)
   for _, case in ipairs({ { 'U', 'N', 'N' }, { 'L', 'N', 'N' }, { 'U', 'T', 'N' }, { 'L', 'N', 'U' } }) do
      local uplo, trans, diag = case[1], case[2], case[3]
      local X = torch.trtrs(B, A, uplo, trans, diag)
      local tri = uplo == 'U' and torch.triu(A) or torch.tril(A)
      if diag == 'U' then for i = 1, 4 do tri[i][i] = 1 end end
      if trans == 'T' then tri = tri:t() end
      check.ok(maxAbsDiff(tri * X, B) < 1e-12, 'trtrs ' .. table.concat(case))
   end
   check.raises(function() torch.trtrs(B, A, 'X') end, "option 'X'")
end

function tests.inverse()
   torch.manualSeed(14)
   for _, T in ipairs({ 'Float', 'Double' }) do
      local A = torch.randn(5, 5):type('torch.' .. T .. 'Tensor') + torch.eye(5):type('torch.' .. T .. 'Tensor') * 5
      local inv = torch.inverse(A)
      isIdentity((inv * A):double(), T == 'Float' and 1e-5 or 1e-12, T .. ' inverse * A = I')
      local r = A.new()
      torch.inverse(r, A:t())
      isIdentity((r * A:t()):double(), T == 'Float' and 1e-5 or 1e-12, 'into a given result, transposed input')
   end
   local singular = torch.Tensor({ { 1, 2 }, { 2, 4 } })
   local r = torch.Tensor({ 9 })
   check.raises(function() torch.inverse(r, singular) end, 'singular')
   check.tensor(r, { 9 }, 0, 'a failing inverse leaves the result')
   check.raises(function() torch.inverse(torch.Tensor(2, 3)) end, 'square')
end

function tests.cholesky_potrf_potrs_potri()
   torch.manualSeed(15)
   local A = spd(4)
   local U = torch.potrf(A)  -- 'U' by default
   check.ok(maxAbsDiff(U:t() * U, A) < 1e-10, "U'U = A")
   check.ok(maxAbsDiff(U, torch.triu(U)) == 0, 'U is upper triangular')
   local Lo = torch.potrf(A, 'L')
   check.ok(maxAbsDiff(Lo * Lo:t(), A) < 1e-10, "L L' = A")
   check.ok(maxAbsDiff(Lo, torch.tril(Lo)) == 0, 'L is lower triangular')
   local B = torch.randn(4, 3)
   check.ok(maxAbsDiff(A * torch.potrs(B, U), B) < 1e-10, 'potrs with U')
   check.ok(maxAbsDiff(A * torch.potrs(B, Lo, 'L'), B) < 1e-10, 'potrs with L')
   isIdentity(torch.potri(U) * A, 1e-10, 'potri with U')
   isIdentity(torch.potri(Lo, 'L') * A, 1e-10, 'potri with L')
   local notPD = torch.Tensor({ { 1, 2 }, { 2, 1 } })
   check.raises(function() torch.potrf(notPD) end, 'positive definite')
   check.tensor(notPD, { { 1, 2 }, { 2, 1 } }, 0, 'input unchanged')
end

function tests.symeig_eig()
   torch.manualSeed(16)
   local A = spd(4)
   local e, V = torch.symeig(A, 'V')
   check.eq(e:size(1), 4)
   for i = 2, 4 do check.ok(e[i - 1] <= e[i], 'ascending eigenvalues') end
   check.ok(maxAbsDiff(A * V, V * torch.diag(e)) < 1e-10, 'A V = V diag(e)')
   isIdentity(V:t() * V, 1e-12, 'orthonormal eigenvectors')
   local eL = torch.symeig(A, 'N', 'L')
   check.ok(maxAbsDiff(eL, e) < 1e-10, 'the lower triangle gives the same eigenvalues')
   -- eig: [n, 2] real and imaginary parts; a rotation has eigenvalues +-i
   local er = torch.eig(torch.Tensor({ { 0, -1 }, { 1, 0 } }))
   check.eq(er:size(2), 2)
   check.tensor(er:select(2, 1), { 0, 0 }, 1e-12)
   check.near(math.abs(er[1][2]), 1, 1e-12, 'imaginary parts')
   local G = torch.Tensor({ { 2, 1 }, { 0, 3 } })
   local ge, gv = torch.eig(G, 'V')
   for j = 1, 2 do
      local v = gv:select(2, j)
      check.ok(maxAbsDiff(G * v, v * ge[j][1]) < 1e-12, 'G v = lambda v')
   end
end

function tests.svd_and_qr()
   torch.manualSeed(17)
   for _, size in ipairs({ { 5, 3 }, { 3, 5 } }) do
      local A = torch.randn(size[1], size[2]):t():contiguous():t()  -- non-contiguous
      local U, S, V = torch.svd(A)
      local k = math.min(size[1], size[2])
      check.ok(U:size(2) == k and V:size(2) == k and S:size(1) == k, "'S': thin factors")
      check.ok(maxAbsDiff(U * torch.diag(S) * V:t(), A) < 1e-12, "U S V' = A")
      for i = 2, k do check.ok(S[i - 1] >= S[i], 'descending singular values') end
      local Ua, Sa, Va = torch.svd(A, 'A')
      check.ok(Ua:size(1) == size[1] and Ua:size(2) == size[1] and Va:size(2) == size[2], "'A': full factors")
      isIdentity(Ua:t() * Ua, 1e-12, 'U orthogonal')
      isIdentity(Va:t() * Va, 1e-12, 'V orthogonal')
      local Q, R = torch.qr(A)
      check.ok(maxAbsDiff(Q * R, A) < 1e-12, 'Q R = A')
      isIdentity(Q:t() * Q, 1e-12, 'orthonormal columns')
      check.ok(maxAbsDiff(R, torch.triu(R)) == 0, 'R upper triangular')
   end
   local rq, rr = torch.Tensor(), torch.Tensor()
   torch.qr(rq, rr, torch.eye(3))
   check.ok(maxAbsDiff((rq * rr), torch.eye(3)) < 1e-12, 'torch.qr(q, r, a) writes q and r')
   check.raises(function() torch.svd(torch.eye(2), 'X') end, "option 'X'")
end

-- LAPACK returns at once for an empty matrix without writing U or V: 'A' must still give
-- orthogonal (identity) factors, not uninitialized memory (issue 14, finding 4).
function tests.svd_of_empty_matrices()
   for _, T in ipairs({ 'DoubleTensor', 'FloatTensor' }) do
      for _, size in ipairs({ { 0, 3 }, { 3, 0 }, { 0, 0 } }) do
         local m, n = size[1], size[2]
         local U, S, V = torch.svd(torch[T](m, n), 'A')
         check.eq(S:nElement(), 0, 'no singular values')
         for _, f in ipairs({ { U, m }, { V, n } }) do
            local q, k = f[1], f[2]
            check.eq(q:nElement(), k * k, 'square factor')
            if k > 0 then check.ok(q:double():equal(torch.eye(k)), T .. ' ' .. m .. 'x' .. n .. ': identity factor') end
         end
         local Us, Ss, Vs = torch.svd(torch[T](m, n))
         check.ok(Us:nElement() == 0 and Ss:nElement() == 0 and Vs:nElement() == 0, "'S': empty factors")
      end
   end
end

function tests.linalg_is_floating_only()
   check.raises(function() torch.inverse(torch.IntTensor(2, 2)) end, 'invalid arguments')
   check.raises(function() torch.gesv(torch.Tensor(2, 1), torch.FloatTensor(2, 2)) end, 'invalid arguments')
end

return tests
