-- optim.polyinterp(points[, xminBound, xmaxBound]): the minimiser of the polynomial that
-- interpolates values and derivatives at the points, after minFunc's polyinterp.
-- points: a tensor of rows {x, f(x), f'(x)}. Without bounds and with two points, the
-- closed form of the cubic's minimiser; with bounds (or more points), the polynomial of
-- degree 2n-1 through the 2n conditions, minimised over the bounds, the points and its
-- real critical points inside the bounds. Returns the position (and, in the general case,
-- the polynomial's value there).
-- torch7 finds the critical points with torch.eig on the companion matrix and solves with
-- torch.gels; here the system is solved by Gaussian elimination and the derivative's roots
-- in closed form, which limits the general case to two points (a quadratic derivative).

-- A x = b by Gaussian elimination with partial pivoting (A, b plain tables, changed);
-- a singular system gives NaNs, so that the caller falls back to bisection.
local function solve(A, b)
   local n = #b
   for c = 1, n do
      local pivot = c
      for r = c + 1, n do
         if math.abs(A[r][c]) > math.abs(A[pivot][c]) then pivot = r end
      end
      A[c], A[pivot] = A[pivot], A[c]
      b[c], b[pivot] = b[pivot], b[c]
      for r = c + 1, n do
         local factor = A[r][c] / A[c][c]
         for k = c, n do A[r][k] = A[r][k] - factor * A[c][k] end
         b[r] = b[r] - factor * b[c]
      end
   end
   local xs = {}
   for r = n, 1, -1 do
      local v = b[r]
      for k = r + 1, n do v = v - A[r][k] * xs[k] end
      xs[r] = v / A[r][r]
   end
   return xs
end

-- real roots of c[1] x^2 + c[2] x + c[3] (coefficients below 1e-12 count as 0)
local function realRoots(c)
   local a, b, k = c[1], c[2], c[3]
   if math.abs(a) < 1e-12 then a = 0 end
   if math.abs(b) < 1e-12 then b = 0 end
   if math.abs(k) < 1e-12 then k = 0 end
   if a == 0 then
      if b == 0 then return {} end
      return { -k / b }
   end
   local disc = b * b - 4 * a * k
   if disc < 0 then return {} end
   local sq = math.sqrt(disc)
   return { (-b - sq) / (2 * a), (-b + sq) / (2 * a) }
end

-- p[1] x^(n-1) + ... + p[n]
local function polyval(p, x)
   local v = 0
   for i = 1, #p do v = v + p[i] * x ^ (#p - i) end
   return v
end

function optim.polyinterp(points, xminBound, xmaxBound)
   local nPoints = points:size(1)
   local order = nPoints * 2 - 1

   if nPoints == 2 and not xminBound and not xmaxBound then
      -- with point 1 the one of smaller x:
      --   d1 = g1 + g2 - 3 (f1 - f2) / (x1 - x2);  d2 = sqrt(d1^2 - g1 g2)
      --   x2 - (x2 - x1) (g2 + d2 - d1) / (g2 - g1 + 2 d2), clamped to [x1, x2]
      local lo = points[2][1] < points[1][1] and 2 or 1
      local hi = 3 - lo
      local x1, f1, g1 = points[lo][1], points[lo][2], points[lo][3]
      local x2, f2, g2 = points[hi][1], points[hi][2], points[hi][3]
      local d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2)
      local d2 = math.sqrt(d1 ^ 2 - g1 * g2)
      if d2 == d2 then
         local t = x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
         return math.min(math.max(t, x1), x2)
      end
      return (x1 + x2) / 2
   end

   if order > 3 then
      error('optim.polyinterp: only two points are supported with bounds', 2)
   end

   local xs = {}
   for i = 1, nPoints do xs[i] = points[i][1] end
   local xmin, xmax = math.min(unpack(xs)), math.max(unpack(xs))
   xminBound = xminBound or xmin
   xmaxBound = xmaxBound or xmax

   -- value and derivative conditions on the coefficients, highest power first
   local A, b = {}, {}
   for i = 1, nPoints do
      local xi = points[i][1]
      local valueRow, slopeRow = {}, {}
      for j = 1, order + 1 do
         local power = order + 1 - j
         valueRow[j] = xi ^ power
         slopeRow[j] = power > 0 and power * xi ^ (power - 1) or 0
      end
      A[i], b[i] = valueRow, points[i][2]
      A[nPoints + i], b[nPoints + i] = slopeRow, points[i][3]
   end
   local params = solve(A, b)
   for i = 1, #params do
      if math.abs(params[i]) <= 1e-12 then params[i] = 0 end
   end

   local candidates = { xminBound, xmaxBound }
   for i = 1, nPoints do candidates[#candidates + 1] = xs[i] end
   local dParams = {}
   for i = 1, order do dParams[i] = params[i] * (order - i + 1) end
   while #dParams < 3 do table.insert(dParams, 1, 0) end
   local finite = true
   for _, v in ipairs(dParams) do
      if v ~= v or v == math.huge or v == -math.huge then finite = false end
   end
   if finite then
      for _, r in ipairs(realRoots(dParams)) do candidates[#candidates + 1] = r end
   end

   -- bisection when no candidate is valid
   local minPos, fmin = (xminBound + xmaxBound) / 2, math.huge
   for _, xc in ipairs(candidates) do
      if xc >= xminBound and xc <= xmaxBound then
         local fc = polyval(params, xc)
         if fc < fmin then
            minPos, fmin = xc, fc
         end
      end
   end
   return minPos, fmin
end
