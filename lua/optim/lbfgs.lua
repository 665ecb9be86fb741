-- Limited-memory BFGS, torch7's optim.lbfgs (after minFunc): the direction is the two-loop
-- recursion over the last nCorrection steps s and gradient changes y; the step is
-- learningRate (min(1, 1/|g|_1) * learningRate on the very first iteration), or whatever
-- config.lineSearch (e.g. optim.lswolfe) finds. x must be a vector.
-- config: maxIter (20), maxEval (maxIter * 1.25), tolFun (1e-5), tolX (1e-9),
--   nCorrection (100), lineSearch, lineSearchOptions, learningRate (1), verbose (false).
-- state: funcEval, nIter, d, t, old_dirs, old_stps, Hdiag, g_old, f_old, and the buffers
--   tmp1, dir_bufs, stp_bufs, ro, al. A later call continues from this state.
-- Returns x, the table of f values (before the first step, after each step) and the
-- number of function evaluations of this call.
function optim.lbfgs(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local maxIter = tonumber(config.maxIter) or 20
   local maxEval = tonumber(config.maxEval) or maxIter * 1.25
   local tolFun = config.tolFun or 1e-5
   local tolX = config.tolX or 1e-9
   local nCorrection = config.nCorrection or 100
   local lineSearch = config.lineSearch
   local lineSearchOpts = config.lineSearchOptions
   local learningRate = config.learningRate or 1
   local verbose = config.verbose and function(...) print('<optim.lbfgs> ', ...) end or function() end

   state.funcEval = state.funcEval or 0
   state.nIter = state.nIter or 0

   local f, g = opfunc(x)
   local f_hist = { f }
   local currentFuncEval = 1
   state.funcEval = state.funcEval + 1
   local p = g:size(1)

   state.tmp1 = state.tmp1 or g.new():resizeAs(g):zero()
   local tmp1 = state.tmp1
   if tmp1:copy(g):abs():sum() <= tolFun then
      verbose('optimality condition below tolFun')
      return x, f_hist, currentFuncEval
   end

   if not state.dir_bufs then
      -- nCorrection + 1 rows each for the y's and s's, recycled as the history moves on
      local dirs, stps = g.new():resize(nCorrection + 1, p), g.new():resize(nCorrection + 1, p)
      state.dir_bufs, state.stp_bufs = {}, {}
      for i = 1, nCorrection + 1 do
         state.dir_bufs[i] = dirs[i]
         state.stp_bufs[i] = stps[i]
      end
   end

   local d = state.d
   local t = state.t
   local old_dirs = state.old_dirs
   local old_stps = state.old_stps
   local Hdiag = state.Hdiag
   local g_old = state.g_old
   local f_old = state.f_old

   local nIter = 0
   while nIter < maxIter do
      nIter = nIter + 1
      state.nIter = state.nIter + 1

      if state.nIter == 1 then
         d = g:clone():mul(-1)
         old_dirs = {}
         old_stps = {}
         Hdiag = 1
      else
         -- update the memory with y = g - g_old, s = d * t when the curvature y.s is positive
         local y = table.remove(state.dir_bufs)
         local s = table.remove(state.stp_bufs)
         y:add(g, -1, g_old)
         s:mul(d, t)
         local ys = y:dot(s)
         if ys > 1e-10 then
            if #old_dirs == nCorrection then
               table.insert(state.dir_bufs, table.remove(old_dirs, 1))
               table.insert(state.stp_bufs, table.remove(old_stps, 1))
            end
            -- torch7's names: old_dirs holds the steps s, old_stps the gradient changes y
            table.insert(old_dirs, s)
            table.insert(old_stps, y)
            Hdiag = ys / y:dot(y)
         else
            table.insert(state.dir_bufs, y)
            table.insert(state.stp_bufs, s)
         end

         -- two-loop recursion: d = -H g with H the L-BFGS inverse Hessian
         local k = #old_dirs
         state.ro = state.ro or torch.Tensor(nCorrection)
         local ro = state.ro
         for i = 1, k do
            ro[i] = 1 / old_stps[i]:dot(old_dirs[i])
         end
         state.al = state.al or torch.zeros(nCorrection)
         local al = state.al
         local q = tmp1:mul(g, -1)
         for i = k, 1, -1 do
            al[i] = old_dirs[i]:dot(q) * ro[i]
            q:add(-al[i], old_stps[i])
         end
         local r = d:mul(q, Hdiag)
         for i = 1, k do
            local be_i = old_stps[i]:dot(r) * ro[i]
            r:add(al[i] - be_i, old_dirs[i])
         end
      end
      g_old = g_old or g:clone()
      g_old:copy(g)
      f_old = f

      local gtd = g:dot(d)
      if gtd > -tolX then
         -- not a descent direction
         break
      end

      if state.nIter == 1 then
         t = math.min(1, 1 / tmp1:copy(g):abs():sum()) * learningRate
      else
         t = learningRate
      end

      local lsFuncEval = 0
      if lineSearch and type(lineSearch) == 'function' then
         f, g, x, t, lsFuncEval = lineSearch(opfunc, x, t, d, f, g, gtd, lineSearchOpts)
         table.insert(f_hist, f)
      else
         x:add(t, d)
         if nIter ~= maxIter then
            -- the last iteration does not re-evaluate: its value is of no use here
            f, g = opfunc(x)
            lsFuncEval = 1
            table.insert(f_hist, f)
         end
      end
      currentFuncEval = currentFuncEval + lsFuncEval
      state.funcEval = state.funcEval + lsFuncEval

      if nIter == maxIter then
         verbose('reached max number of iterations')
         break
      end
      if currentFuncEval >= maxEval then
         verbose('max nb of function evals')
         break
      end
      if tmp1:copy(g):abs():sum() <= tolFun then
         verbose('optimality condition below tolFun')
         break
      end
      if tmp1:copy(d):mul(t):abs():sum() <= tolX then
         verbose('step size below tolX')
         break
      end
      if math.abs(f - f_old) < tolX then
         verbose('function value changing less than tolX')
         break
      end
   end

   state.old_dirs = old_dirs
   state.old_stps = old_stps
   state.Hdiag = Hdiag
   state.g_old = g_old
   state.f_old = f_old
   state.t = t
   state.d = d

   return x, f_hist, currentFuncEval
end
