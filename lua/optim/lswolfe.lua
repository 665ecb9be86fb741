-- optim.lswolfe(opfunc, x, t, d, f, g, gtd[, options]): a line search along d from x for
-- a step satisfying the strong Wolfe conditions (torch7's, after minFunc's WolfeLineSearch):
-- bracketing with cubic extrapolation, then zooming with cubic interpolation.
-- t: first step, f, g, gtd: f(x), df/dx and g.d at x.
-- options: c1 (1e-4, sufficient decrease), c2 (0.9, curvature), tolX (1e-9, smallest
--   bracket), maxIter (20), verbose.
-- Returns f, g at the new x (= x + t d, set in place), x, t and the number of evaluations.
function optim.lswolfe(opfunc, x, t, d, f, g, gtd, options)
   options = options or {}
   local c1 = options.c1 or 1e-4
   local c2 = options.c2 or 0.9
   local tolX = options.tolX or 1e-9
   local maxIter = options.maxIter or 20
   local verbose = options.verbose and function(...) print('<optim.lswolfe> ', ...) end or function() end
   local abs, min, max = math.abs, math.min, math.max

   local x_init = x:clone()
   local lsFuncEval = 0

   -- f, df/dx and the slope along d at x_init + step * d, where x is left
   local function evaluateAt(step)
      x:copy(x_init):add(step, d)
      local fStep, gStep = opfunc(x)
      lsFuncEval = lsFuncEval + 1
      return fStep, gStep, gStep:dot(d)
   end

   local f_new, g_new, gtd_new = evaluateAt(t)

   -- bracket: steps, values and gradients at its two ends (one point once done)
   local LSiter, t_prev, done = 0, 0, false
   local f_prev, g_prev, gtd_prev = f, g:clone(), gtd
   local bracket, bracketFval, bracketGval
   while LSiter < maxIter do
      if f_new > f + c1 * t * gtd or (LSiter > 1 and f_new >= f_prev) then
         bracket, bracketFval, bracketGval = { t_prev, t }, { f_prev, f_new }, { g_prev, g_new:clone() }
         break
      elseif abs(gtd_new) <= -c2 * gtd then
         bracket, bracketFval, bracketGval = { t }, { f_new }, { g_new:clone() }
         done = true
         break
      elseif gtd_new >= 0 then
         bracket, bracketFval, bracketGval = { t_prev, t }, { f_prev, f_new }, { g_prev, g_new:clone() }
         break
      end

      -- extrapolate between 1.01 t and 10 t
      local tmp = t_prev
      t_prev = t
      local minStep = t + 0.01 * (t - tmp)
      local maxStep = t * 10
      t = optim.polyinterp(torch.Tensor({ { tmp, f_prev, gtd_prev }, { t, f_new, gtd_new } }), minStep, maxStep)

      f_prev = f_new
      g_prev = g_new:clone()
      gtd_prev = gtd_new
      f_new, g_new, gtd_new = evaluateAt(t)
      LSiter = LSiter + 1
   end

   if LSiter == maxIter then
      bracket, bracketFval, bracketGval = { 0, t }, { f, f_new }, { g, g_new:clone() }
   end

   -- zoom: shrink the bracket until a point satisfies the conditions
   local insufProgress = false
   while not done and LSiter < maxIter do
      local LOpos = bracketFval[2] < bracketFval[1] and 2 or 1
      local HIpos = 3 - LOpos
      local f_LO = bracketFval[LOpos]

      t = optim.polyinterp(torch.Tensor({ { bracket[1], bracketFval[1], bracketGval[1]:dot(d) },
                                          { bracket[2], bracketFval[2], bracketGval[2]:dot(d) } }))

      -- too close to an end of the bracket: move it to 10% inside
      local bmax, bmin = max(bracket[1], bracket[2]), min(bracket[1], bracket[2])
      if min(bmax - t, t - bmin) / (bmax - bmin) < 0.1 then
         if insufProgress or t >= bmax or t <= bmin then
            if abs(t - bmax) < abs(t - bmin) then
               t = bmax - 0.1 * (bmax - bmin)
            else
               t = bmin + 0.1 * (bmax - bmin)
            end
            insufProgress = false
         else
            insufProgress = true
         end
      else
         insufProgress = false
      end

      f_new, g_new, gtd_new = evaluateAt(t)
      LSiter = LSiter + 1
      if f_new > f + c1 * t * gtd or f_new >= f_LO then
         -- not a sufficient decrease, or not below the low end: new high end
         bracket[HIpos], bracketFval[HIpos], bracketGval[HIpos] = t, f_new, g_new:clone()
      else
         if abs(gtd_new) <= -c2 * gtd then
            done = true
         elseif gtd_new * (bracket[HIpos] - bracket[LOpos]) >= 0 then
            -- the old low end becomes the high end
            bracket[HIpos], bracketFval[HIpos], bracketGval[HIpos] = bracket[LOpos], bracketFval[LOpos], bracketGval[LOpos]
         end
         bracket[LOpos], bracketFval[LOpos], bracketGval[LOpos] = t, f_new, g_new:clone()
      end

      if not done and abs((bracket[1] - bracket[2]) * gtd_new) < tolX then
         break
      end
   end

   if LSiter == maxIter then
      verbose('reached max number of iterations')
   end

   local LOpos = (bracketFval[2] or math.huge) < bracketFval[1] and 2 or 1
   t = bracket[LOpos]
   f_new = bracketFval[LOpos]
   g_new = bracketGval[LOpos]
   x:copy(x_init):add(t, d)
   return f_new, g_new, x, t, lsFuncEval
end
