-- Nonlinear conjugate gradients (Polak-Ribiere directions with a line search by cubic
-- interpolation and extrapolation under the Wolfe-Powell conditions), torch7's optim.cg,
-- itself a rewrite of Carl E. Rasmussen's minimize.m. One call runs until maxEval function
-- evaluations are spent or a line search fails.
-- config: rho (0.01), sig (0.5), int (0.1), ext (3.0), maxIter (20: line-search steps per
--   direction), ratio (100), maxEval (maxIter * 1.25).
-- state: df0, df1, df2, df3, s, x0 (buffers, reused when present).
-- Returns x, the table of f at the start and after each successful line search, and the
-- number of function evaluations.
function optim.cg(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local rho = config.rho or 0.01
   local sig = config.sig or 0.5
   local int = config.int or 0.1
   local ext = config.ext or 3.0
   local maxIter = config.maxIter or 20
   local ratio = config.ratio or 100
   local maxEval = config.maxEval or maxIter * 1.25
   local red = 1

   local i = 0
   local fx = {}

   -- three points (step z, value f, slope d) for the interpolation
   local z1, z2, z3 = 0, 0, 0
   local d1, d2, d3 = 0, 0, 0
   local f1, f2, f3 = 0, 0, 0

   local df1 = state.df1 or x.new()
   local df2 = state.df2 or x.new()
   local df3 = state.df3 or x.new()
   local s = state.s or x.new()
   local x0 = state.x0 or x.new()
   local df0 = state.df0 or x.new()
   for _, buf in ipairs({ df0, df1, df2, df3, s, x0 }) do buf:resizeAs(x) end
   local tdf

   f1, tdf = opfunc(x)
   fx[#fx + 1] = f1
   df1:copy(tdf)
   i = i + 1

   -- steepest descent to begin with
   s:copy(df1):mul(-1)
   d1 = -s:dot(s)
   z1 = red / (1 - d1)

   local function notFinite(v) return v ~= v or v == math.huge or v == -math.huge end

   -- x moved by z along s and evaluated there: f and the slope along s (df2 holds the gradient)
   local function stepBy(z)
      x:add(z, s)
      local f, grad = opfunc(x)
      df2:copy(grad)
      return f, df2:dot(s)
   end

   while i < math.abs(maxEval) do
      x0:copy(x)
      df0:copy(df1)

      f2, d2 = stepBy(z1)
      i = i + 1
      f3, d3, z3 = f1, d1, -z1
      local m = math.min(maxIter, maxEval - i)
      local success = 0
      local limit = -1

      while true do
         -- while the point is too far (too high or too steep): interpolate back
         while (f2 > f1 + z1 * rho * d1 or d2 > -sig * d1) and m > 0 do
            limit = z1
            if f2 > f1 then
               z2 = z3 - (0.5 * d3 * z3 * z3) / (d3 * z3 + f2 - f3)
            else
               local A = 6 * (f2 - f3) / z3 + 3 * (d2 + d3)
               local B = 3 * (f3 - f2) - z3 * (d3 + 2 * d2)
               z2 = (math.sqrt(B * B - A * d2 * z3 * z3) - B) / A
            end
            if notFinite(z2) then
               z2 = z3 / 2
            end
            z2 = math.max(math.min(z2, int * z3), (1 - int) * z3)
            z1 = z1 + z2
            f2, d2 = stepBy(z2)
            i = i + 1
            m = m - 1
            z3 = z3 - z2
         end
         if f2 > f1 + z1 * rho * d1 or d2 > -sig * d1 then
            break
         elseif d2 > sig * d1 then
            success = 1
            break
         elseif m == 0 then
            break
         end
         -- extrapolate with a cubic
         local A = 6 * (f2 - f3) / z3 + 3 * (d2 + d3)
         local B = 3 * (f3 - f2) - z3 * (d3 + 2 * d2)
         z2 = -d2 * z3 * z3 / (B + math.sqrt(B * B - A * d2 * z3 * z3))
         if notFinite(z2) or z2 < 0 then
            if limit < -0.5 then
               z2 = z1 * (ext - 1)
            else
               z2 = (limit - z1) / 2
            end
         elseif limit > -0.5 and z2 + z1 > limit then
            z2 = (limit - z1) / 2
         elseif limit < -0.5 and z2 + z1 > z1 * ext then
            z2 = z1 * (ext - 1)
         elseif z2 < -z3 * int then
            z2 = -z3 * int
         elseif limit > -0.5 and z2 < (limit - z1) * (1 - int) then
            z2 = (limit - z1) * (1 - int)
         end
         f3 = f2; d3 = d2; z3 = -z2
         z1 = z1 + z2
         f2, d2 = stepBy(z2)
         i = i + 1
         m = m - 1
      end

      if success == 1 then
         f1 = f2
         fx[#fx + 1] = f1
         -- Polak-Ribiere direction
         local ss = (df2:dot(df2) - df2:dot(df1)) / df1:dot(df1)
         s:mul(ss)
         s:add(-1, df2)
         local tmp = df1:clone()
         df1:copy(df2)
         df2:copy(tmp)
         d2 = df1:dot(s)
         if d2 > 0 then
            s:copy(df1):mul(-1)
            d2 = -s:dot(s)
         end
         z1 = z1 * math.min(ratio, d1 / (d2 - 1e-320))
         d1 = d2
      else
         -- back to the last good point; torch7 tests `if ls_failed` with ls_failed a
         -- number, always true in Lua, so one failed line search ends the call
         x:copy(x0)
         df1:copy(df0)
         break
      end
   end
   state.df0 = df0
   state.df1 = df1
   state.df2 = df2
   state.df3 = df3
   state.x0 = x0
   state.s = s
   return x, fx, i
end
