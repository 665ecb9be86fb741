-- optim: each method's update written out by hand over plain Lua numbers and compared
-- with x after every step; convergence on a quadratic and on Rosenbrock; the state fields
-- under torch7's names; ConfusionMatrix against counts made in a loop; Logger's file.
require 'optim'
local tests = {}

-- Problems on plain tables: value and gradient.
-- Rosenbrock in 2-D, minimum 0 at (1, 1).
local function rosenbrock(x)
   local a, b = x[1], x[2]
   return (1 - a) ^ 2 + 100 * (b - a * a) ^ 2, { -2 * (1 - a) - 400 * a * (b - a * a), 200 * (b - a * a) }
end
-- 0.5 x'Ax - b'x with A symmetric positive definite; minimum at xstar = (1, -2, 3).
local A = { { 4, 1, 0 }, { 1, 3, -1 }, { 0, -1, 2 } }
local xstar = { 1, -2, 3 }
local bvec = {}
for i = 1, 3 do
   bvec[i] = 0
   for j = 1, 3 do bvec[i] = bvec[i] + A[i][j] * xstar[j] end
end
local function quadratic(x)
   local f, g = 0, {}
   for i = 1, 3 do
      local Ax = 0
      for j = 1, 3 do Ax = Ax + A[i][j] * x[j] end
      g[i] = Ax - bvec[i]
      f = f + 0.5 * x[i] * Ax - bvec[i] * x[i]
   end
   return f, g
end

-- opfunc for optim: a fresh gradient tensor each call (the methods may write into it)
local function opfuncOf(problem)
   return function(x)
      local f, g = problem(x:totable())
      return f, torch.Tensor(g)
   end
end

local function checkVector(t, expected, tol, msg)
   check.eq(t:nElement(), #expected, msg .. ': size')
   for i = 1, #expected do check.near(t[i], expected[i], tol or 1e-12, msg .. '[' .. i .. ']') end
end

-- Runs `steps` steps of optim.<name> from x0 with config, and of `reference` (a function
-- (x, g, step, memo) -> new x on tables, memo its own state), comparing x after each step.
local function compare(name, problem, x0, config, reference, steps)
   local x = torch.Tensor(x0)
   local xr = { unpack(x0) }
   local memo = {}
   local opfunc = opfuncOf(problem)
   for step = 1, steps or 5 do
      local fr, gr = problem(xr)
      local xnew, fs = optim[name](opfunc, x, config)
      check.eq(xnew, x, name .. ' returns x, updated in place')
      check.near(fs[1], fr, 1e-12, name .. ' returns f before the step')
      xr = reference(xr, gr, step, memo)
      checkVector(x, xr, 1e-12, string.format('%s step %d', name, step))
   end
   return x, config, memo
end

local function zeros(n) local z = {} for i = 1, n do z[i] = 0 end return z end

function tests.sgd_plain_with_decay()
   local lr, lrd = 1e-3, 0.1
   compare('sgd', rosenbrock, { -1.2, 1 }, { learningRate = lr, learningRateDecay = lrd }, function(x, g, step)
      local clr = lr / (1 + (step - 1) * lrd)
      return { x[1] - clr * g[1], x[2] - clr * g[2] }
   end)
end

function tests.sgd_momentum_dampening_weightdecay()
   local lr, mom, damp, wd = 1e-3, 0.9, 0.3, 0.05
   local x, config = compare('sgd', rosenbrock, { -1.2, 1 },
      { learningRate = lr, momentum = mom, dampening = damp, weightDecay = wd }, function(x, g, step, v)
      local out = {}
      for i = 1, 2 do
         local gi = g[i] + wd * x[i]
         v[i] = step == 1 and gi or mom * v[i] + (1 - damp) * gi
         out[i] = x[i] - lr * v[i]
      end
      return out
   end)
   check.eq(config.evalCounter, 5, 'state.evalCounter')
   check.ok(torch.isTensor(config.dfdx), 'state.dfdx holds the momentum')
end

function tests.sgd_nesterov()
   local lr, mom = 1e-3, 0.9
   compare('sgd', rosenbrock, { -1.2, 1 }, { learningRate = lr, momentum = mom, dampening = 0, nesterov = true },
      function(x, g, step, v)
      local out = {}
      for i = 1, 2 do
         v[i] = step == 1 and g[i] or mom * v[i] + g[i]
         out[i] = x[i] - lr * (g[i] + mom * v[i])
      end
      return out
   end)
   check.raises(function() optim.sgd(opfuncOf(rosenbrock), torch.Tensor({ 1, 1 }), { momentum = 0.9, nesterov = true }) end,
                'Nesterov')
end

function tests.sgd_individual_rates_and_decays()
   local lr, lrs, wds = 1e-3, { 1, 0.5 }, { 0.1, 0 }
   local config = { learningRate = lr, learningRates = torch.Tensor(lrs), weightDecays = torch.Tensor(wds) }
   compare('sgd', rosenbrock, { -1.2, 1 }, config, function(x, g)
      return { x[1] - lr * lrs[1] * (g[1] + wds[1] * x[1]), x[2] - lr * lrs[2] * (g[2] + wds[2] * x[2]) }
   end)
   check.ok(torch.isTensor(config.decayParameters) and torch.isTensor(config.deltaParameters), 'sgd buffers')
   check.raises(function()
      optim.sgd(opfuncOf(rosenbrock), torch.Tensor({ 1, 1 }), { weightDecay = 1, weightDecays = torch.Tensor({ 1, 1 }) })
   end, 'only one of')
end

function tests.nag()
   local lr, mom, wd = 1e-4, 0.8, 0.01
   local x = torch.Tensor({ -1.2, 1 })
   local xr, v = { -1.2, 1 }, nil
   local config = { learningRate = lr, momentum = mom, weightDecay = wd }
   for step = 1, 5 do
      optim.nag(opfuncOf(rosenbrock), x, config)
      -- look ahead along v, take the gradient there, decay, then step
      if v then for i = 1, 2 do xr[i] = xr[i] + mom * v[i] end end
      local _, g = rosenbrock(xr)
      for i = 1, 2 do xr[i] = xr[i] - wd * lr * xr[i] end
      v = v or { 0, 0 }
      for i = 1, 2 do
         v[i] = mom * v[i] - lr * g[i]
         xr[i] = xr[i] - lr * g[i]
      end
      checkVector(x, xr, 1e-12, 'nag step ' .. step)
   end
   check.eq(config.evalCounter, 5, 'state.evalCounter')
   checkVector(config.dfdx, v, 1e-12, 'state.dfdx')
   check.raises(function() optim.nag(opfuncOf(rosenbrock), torch.Tensor({ 1, 1 }), { momentum = 0 }) end, 'Momentum')
end

function tests.asgd()
   local eta0, lambda, alpha, t0 = 1e-3, 1e-2, 0.75, 2
   local config = { eta0 = eta0, lambda = lambda, alpha = alpha, t0 = t0 }
   local x = torch.Tensor({ -1.2, 1 })
   local xr, ax = { -1.2, 1 }, nil
   local eta, mu = eta0, 1
   for step = 1, 6 do
      local _, _, axt = optim.asgd(opfuncOf(rosenbrock), x, config)
      local _, g = rosenbrock(xr)
      for i = 1, 2 do xr[i] = xr[i] * (1 - lambda * eta) - eta * g[i] end
      if mu ~= 1 then
         for i = 1, 2 do ax[i] = ax[i] + mu * (xr[i] - ax[i]) end
      else
         ax = { xr[1], xr[2] }
      end
      eta = eta0 / (1 + lambda * eta0 * step) ^ alpha
      mu = 1 / math.max(1, step - t0)
      checkVector(x, xr, 1e-12, 'asgd x step ' .. step)
      checkVector(axt, ax, 1e-12, 'asgd average step ' .. step)
   end
   check.eq(config.t, 6, 'state.t')
   check.near(config.eta_t, eta, 1e-12, 'state.eta_t')
   check.near(config.mu_t, mu, 1e-12, 'state.mu_t')
   check.ok(mu < 1, 'the averaging was exercised')
end

function tests.adagrad()
   local lr, lrd, wd = 0.1, 0.05, 0.01
   local x, config, sum = compare('adagrad', rosenbrock, { -1.2, 1 }, { learningRate = lr, learningRateDecay = lrd, weightDecay = wd },
      function(x, g, step, sum)
      local out = {}
      local clr = lr / (1 + (step - 1) * lrd)
      for i = 1, 2 do
         local gi = g[i] + wd * x[i]
         sum[i] = (sum[i] or 0) + gi * gi
         out[i] = x[i] - clr * gi / (math.sqrt(sum[i]) + 1e-10)
      end
      return out
   end)
   check.eq(config.evalCounter, 5, 'state.evalCounter')
   checkVector(config.paramVariance, sum, 1e-12, 'state.paramVariance')
   check.ok(torch.isTensor(config.paramStd), 'state.paramStd')
end

function tests.adadelta()
   local rho, eps = 0.95, 1e-4
   local _, config, memo = compare('adadelta', rosenbrock, { -1.2, 1 }, { rho = rho, eps = eps }, function(x, g, step, m)
      m.var, m.acc = m.var or zeros(2), m.acc or zeros(2)
      local out = {}
      for i = 1, 2 do
         m.var[i] = rho * m.var[i] + (1 - rho) * g[i] * g[i]
         local delta = math.sqrt(m.acc[i] + eps) / math.sqrt(m.var[i] + eps) * g[i]
         out[i] = x[i] - delta
         m.acc[i] = rho * m.acc[i] + (1 - rho) * delta * delta
      end
      return out
   end)
   check.eq(config.evalCounter, 5, 'state.evalCounter')
   checkVector(config.paramVariance, memo.var, 1e-12, 'state.paramVariance')
   checkVector(config.accDelta, memo.acc, 1e-12, 'state.accDelta')
   check.ok(torch.isTensor(config.paramStd) and torch.isTensor(config.delta), 'adadelta buffers')
end

function tests.rmsprop()
   -- torch7's epsilon is added to sqrt(m) (so is torch.optim.RMSprop's)
   local lr, alpha, eps, wd, m0 = 1e-2, 0.9, 1e-6, 0.02, 0.5
   local _, config, m = compare('rmsprop', rosenbrock, { -1.2, 1 },
      { learningRate = lr, alpha = alpha, epsilon = eps, weightDecay = wd, initialMean = m0 }, function(x, g, step, m)
      local out = {}
      for i = 1, 2 do
         local gi = g[i] + wd * x[i]
         m[i] = alpha * (m[i] or m0) + (1 - alpha) * gi * gi
         out[i] = x[i] - lr * gi / (math.sqrt(m[i]) + eps)
      end
      return out
   end)
   checkVector(config.m, m, 1e-12, 'state.m')
   check.ok(torch.isTensor(config.tmp), 'state.tmp')
end

function tests.adam()
   local lr, lrd, b1, b2, eps, wd = 1e-2, 0.1, 0.8, 0.9, 1e-6, 0.05
   local _, config, memo = compare('adam', rosenbrock, { -1.2, 1 },
      { learningRate = lr, learningRateDecay = lrd, beta1 = b1, beta2 = b2, epsilon = eps, weightDecay = wd },
      function(x, g, t, s)
      s.m, s.v = s.m or zeros(2), s.v or zeros(2)
      local clr = lr / (1 + (t - 1) * lrd)
      local out = {}
      for i = 1, 2 do
         local gi = g[i] + wd * x[i]
         s.m[i] = b1 * s.m[i] + (1 - b1) * gi
         s.v[i] = b2 * s.v[i] + (1 - b2) * gi * gi
         local mhat, vhat = s.m[i] / (1 - b1 ^ t), s.v[i] / (1 - b2 ^ t)
         -- torch7 puts epsilon on sqrt(v) before the bias correction
         out[i] = x[i] - clr * math.sqrt(1 - b2 ^ t) / (1 - b1 ^ t) * s.m[i] / (math.sqrt(s.v[i]) + eps)
         check.ok(mhat == mhat and vhat == vhat)
      end
      return out
   end)
   check.eq(config.t, 5, 'state.t')
   checkVector(config.m, memo.m, 1e-12, 'state.m')
   checkVector(config.v, memo.v, 1e-12, 'state.v')
   check.ok(torch.isTensor(config.denom), 'state.denom')
end

function tests.adamax()
   local lr, b1, b2, eps = 2e-2, 0.9, 0.99, 1e-8
   local _, config, memo = compare('adamax', rosenbrock, { -1.2, 1 }, { learningRate = lr, beta1 = b1, beta2 = b2, epsilon = eps },
      function(x, g, t, s)
      s.m, s.u = s.m or zeros(2), s.u or zeros(2)
      local out = {}
      for i = 1, 2 do
         s.m[i] = b1 * s.m[i] + (1 - b1) * g[i]
         s.u[i] = math.max(b2 * s.u[i], math.abs(g[i]) + eps)
         out[i] = x[i] - lr / (1 - b1 ^ t) * s.m[i] / s.u[i]
      end
      return out
   end)
   check.eq(config.t, 5, 'state.t')
   checkVector(config.m, memo.m, 1e-12, 'state.m')
   checkVector(config.u, memo.u, 1e-12, 'state.u')
   check.eq(config.max:dim(), 2, 'state.max holds the two rows compared')
end

function tests.rprop()
   local step0, up, down, smax, smin = 0.1, 1.3, 0.4, 0.35, 0.02
   local function sign(v) return v > 0 and 1 or (v < 0 and -1 or 0) end
   local _, config, memo = compare('rprop', rosenbrock, { -1.2, 1 },
      { stepsize = step0, etaplus = up, etaminus = down, stepsizemax = smax, stepsizemin = smin }, function(x, g, _, s)
      s.step, s.prev = s.step or { step0, step0 }, s.prev or { 0, 0 }
      local out = {}
      for i = 1, 2 do
         local gi = g[i]
         local dir = sign(gi * s.prev[i])
         local factor = dir > 0 and up or (dir < 0 and down or 1)
         s.step[i] = math.min(math.max(s.step[i] * factor, smin), smax)
         if dir < 0 then gi = 0 end
         out[i] = x[i] - sign(gi) * s.step[i]
         s.prev[i] = gi
      end
      return out
   end, 8)
   checkVector(config.stepsize, memo.step, 1e-12, 'state.stepsize')
   checkVector(config.delta, memo.prev, 0, 'state.delta')
   check.ok(torch.isTensor(config.sign), 'state.sign')
   -- niter evaluations in one call, all values returned
   local _, fs = optim.rprop(opfuncOf(rosenbrock), torch.Tensor({ 0, 0 }), { niter = 3 })
   check.eq(#fs, 3, 'rprop returns niter values')
end

-- L-BFGS without a line search, one iteration per call, against the two-loop recursion
-- written out over tables.
function tests.lbfgs_against_two_loop()
   local lr, m = 0.1, 2
   local config = { maxIter = 1, learningRate = lr, nCorrection = m }
   local x = torch.Tensor({ 0, 0, 0 })
   local xr = { 0, 0, 0 }
   local function dot(a, b) return a[1] * b[1] + a[2] * b[2] + a[3] * b[3] end
   local S, Y, gold, d, t, H = {}, {}, nil, nil, nil, 1
   for iter = 1, 6 do
      optim.lbfgs(opfuncOf(quadratic), x, config)
      local _, g = quadratic(xr)
      if iter == 1 then
         d = { -g[1], -g[2], -g[3] }
         t = math.min(1, 1 / (math.abs(g[1]) + math.abs(g[2]) + math.abs(g[3]))) * lr
      else
         local y, s = {}, {}
         for i = 1, 3 do y[i], s[i] = g[i] - gold[i], d[i] * t end
         if dot(y, s) > 1e-10 then
            if #S == m then table.remove(S, 1); table.remove(Y, 1) end
            S[#S + 1], Y[#Y + 1] = s, y
            H = dot(y, s) / dot(y, y)
         end
         local q, al = { -g[1], -g[2], -g[3] }, {}
         for k = #S, 1, -1 do
            al[k] = dot(S[k], q) / dot(Y[k], S[k])
            for i = 1, 3 do q[i] = q[i] - al[k] * Y[k][i] end
         end
         for i = 1, 3 do q[i] = q[i] * H end
         for k = 1, #S do
            local be = dot(Y[k], q) / dot(Y[k], S[k])
            for i = 1, 3 do q[i] = q[i] + (al[k] - be) * S[k][i] end
         end
         d, t = q, lr
      end
      gold = g
      for i = 1, 3 do xr[i] = xr[i] + t * d[i] end
      checkVector(x, xr, 1e-12, 'lbfgs iteration ' .. iter)
   end
   check.eq(config.nIter, 6, 'state.nIter')
   check.eq(config.funcEval, 6, 'state.funcEval')
   check.eq(#config.old_dirs, m, 'the history keeps nCorrection pairs')
   check.near(config.Hdiag, H, 1e-12, 'state.Hdiag')
   check.near(config.t, lr, 0, 'state.t')
   checkVector(config.d, d, 1e-12, 'state.d')
   checkVector(config.g_old, gold, 1e-12, 'state.g_old')
end

function tests.lbfgs_and_cg_reach_the_minimum_of_a_quadratic()
   local fstar = quadratic(xstar)
   for _, run in ipairs({
      { 'lbfgs', { maxIter = 100, lineSearch = optim.lswolfe, tolFun = 1e-10, tolX = 1e-14 } },
      { 'lbfgs', { maxIter = 200, learningRate = 0.2, tolFun = 1e-12, tolX = 1e-14 } },
      { 'cg', { maxEval = 100 } },
   }) do
      local name, config = run[1], run[2]
      local x = torch.Tensor({ 5, 5, -5 })
      local _, fs = optim[name](opfuncOf(quadratic), x, config)
      check.near(fs[1], quadratic({ 5, 5, -5 }), 1e-12, name .. ': f[1] is f at the start')
      checkVector(x, xstar, 1e-5, name .. ' minimum')
      check.near(fs[#fs], fstar, 1e-8, name .. ' final value')
      for i = 2, #fs do check.ok(fs[i] <= fs[1], name .. ': no value above the start') end
   end
end

function tests.lbfgs_with_linesearch_and_cg_on_rosenbrock()
   for _, run in ipairs({ { 'lbfgs', { maxIter = 200, lineSearch = optim.lswolfe, tolFun = 1e-10 } },
                          { 'cg', { maxEval = 300, maxIter = 50 } } }) do
      local x = torch.Tensor({ -1.2, 1 })
      local _, fs = optim[run[1]](opfuncOf(rosenbrock), x, run[2])
      checkVector(x, { 1, 1 }, 1e-4, run[1] .. ' on Rosenbrock')
      check.ok(fs[#fs] < 1e-8, run[1] .. ' final value')
   end
end

function tests.lswolfe_finds_a_strong_wolfe_step()
   -- along d = (1) from x = 0 on f(x) = (x - 3)^2 + x^4 / 10
   local function f1(x)
      local v = x[1]
      return (v - 3) ^ 2 + v ^ 4 / 10, torch.Tensor({ 2 * (v - 3) + 0.4 * v ^ 3 })
   end
   local x = torch.Tensor({ 0 })
   local d = torch.Tensor({ 1 })
   local f0, g0 = f1(x)
   local gtd = g0:dot(d)
   for _, t0 in ipairs({ 0.01, 1, 50 }) do
      x:zero()
      local f, g, xs, t, n = optim.lswolfe(f1, x, t0, d, f0, g0, gtd)
      check.eq(xs, x, 'x updated in place')
      check.near(x[1], t, 1e-15, 'x = x0 + t d')
      local fx, gx = f1(x)
      check.near(f, fx, 1e-12, 'f at the step')
      check.near(g[1], gx[1], 1e-12, 'g at the step')
      check.ok(f <= f0 + 1e-4 * t * gtd, 'sufficient decrease from t0 = ' .. t0)
      check.ok(math.abs(g:dot(d)) <= 0.9 * math.abs(gtd), 'curvature condition from t0 = ' .. t0)
      check.ok(n >= 1, 'evaluations counted')
   end
end

function tests.polyinterp()
   -- exact on a cubic: p(x) = x^3 - 3x has its local minimum at 1
   local function p(x) return x ^ 3 - 3 * x, 3 * x * x - 3 end
   local function row(x) local f, g = p(x) return { x, f, g } end
   check.near(optim.polyinterp(torch.Tensor({ row(0), row(2) })), 1, 1e-12, 'two points')
   check.near(optim.polyinterp(torch.Tensor({ row(2), row(0) })), 1, 1e-12, 'either order')
   -- extrapolation within bounds
   check.near(optim.polyinterp(torch.Tensor({ row(-0.5), row(0.2) }), 0.3, 4), 1, 1e-10, 'bounded')
   -- the minimum over the bounds when the critical point lies outside
   check.near(optim.polyinterp(torch.Tensor({ row(-0.5), row(0.2) }), 0.3, 0.6), 0.6, 1e-12, 'clamped')
end

function tests.convergence_of_first_order_methods()
   local runs = {
      { 'sgd', { learningRate = 0.1, momentum = 0.5 }, quadratic, 300 },
      { 'sgd', { learningRate = 1e-3, momentum = 0.9, dampening = 0, nesterov = true }, rosenbrock, 20000 },
      { 'nag', { learningRate = 0.05 }, quadratic, 500 },
      { 'asgd', { eta0 = 0.1, lambda = 0 }, quadratic, 500 },
      { 'adagrad', { learningRate = 0.5 }, quadratic, 2000 },
      { 'adadelta', { rho = 0.99, eps = 1e-4 }, quadratic, 2000 },
      { 'rmsprop', { learningRate = 1e-2 }, quadratic, 3000 },
      { 'adam', { learningRate = 0.02 }, rosenbrock, 6000 },
      { 'adamax', { learningRate = 0.02 }, quadratic, 3000 },
      { 'rprop', {}, rosenbrock, 5000 },
   }
   for _, run in ipairs(runs) do
      local name, config, problem, steps = unpack(run)
      local start = problem == quadratic and { 5, 5, -5 } or { -1.2, 1 }
      local goal = problem == quadratic and xstar or { 1, 1 }
      local x = torch.Tensor(start)
      local opfunc = opfuncOf(problem)
      for _ = 1, steps do optim[name](opfunc, x, config) end
      checkVector(x, goal, 2e-2, name .. ' converges')
   end
end

function tests.confusion_matrix_counts()
   local n = 4
   local conf = optim.ConfusionMatrix(n)
   local counts = {}
   for t = 1, n do counts[t] = zeros(n) end
   -- a fixed pseudo-random sequence of (prediction, target)
   local state = 7
   local function nextClass() state = (state * 1103515245 + 12345) % 2147483648; return state % n + 1 end
   local preds, targs = torch.Tensor(30, n), torch.LongTensor(30)
   for i = 1, 30 do
      local p, t = nextClass(), nextClass()
      for c = 1, n do preds[i][c] = c == p and 0.9 or 0.1 * c / n end
      targs[i] = t
      counts[t][p] = counts[t][p] + 1
   end
   -- score vectors one at a time, then the same batch again as a score matrix
   for i = 1, 15 do conf:add(preds[i], targs[i]) end
   for i = 16, 30 do
      local onehot = torch.Tensor(n):zero()
      onehot[targs[i]] = 1
      conf:add(preds[i], onehot)
   end
   conf:batchAdd(preds, targs)
   conf:add(2, 0) -- a missing target is not counted
   local total, diag = 0, 0
   for t = 1, n do
      for p = 1, n do
         check.eq(conf.mat[t][p], 2 * counts[t][p], string.format('mat[%d][%d]', t, p))
         total = total + 2 * counts[t][p]
      end
      diag = diag + 2 * counts[t][t]
   end
   conf:updateValids()
   check.near(conf.totalValid, diag / total, 1e-12, 'totalValid')
   local sum, nvalid = 0, 0
   for t = 1, n do
      local row = 0
      for p = 1, n do row = row + counts[t][p] end
      if row > 0 then
         check.near(conf.valids[t], counts[t][t] / row, 1e-6, 'valids[' .. t .. ']')
         sum, nvalid = sum + conf.valids[t], nvalid + 1
      end
   end
   check.near(conf.averageValid, sum / nvalid, 1e-12, 'averageValid')
   conf:zero()
   check.eq(conf.mat:sum(), 0, 'zero')
   check.eq(conf.totalValid, 0, 'zero resets totalValid')
   check.raises(function() conf:add(5, 1) end, 'out of range')
   check.raises(function() conf:batchAdd(torch.Tensor(2, 2, 2), torch.Tensor(2)) end, 'invalid number of dimensions')
end

function tests.confusion_matrix_tostring()
   local conf = optim.ConfusionMatrix({ 'cat', 'dog' })
   conf:batchAdd(torch.Tensor({ 1, 1, 2, 2 }), torch.Tensor({ 1, 2, 2, 2 }))
   -- rows: cat 1 of 1 right, dog 2 of 3; valids are float32 as in torch7
   local twoThirds = torch.FloatTensor({ 2 / 3 })[1]
   local expected = 'ConfusionMatrix:\n'
      .. '[[       1       0]   100.000% \t[class: cat]\n'
      .. ' [       1       2]]  66.667% \t[class: dog]\n'
      .. ' + average row correct: ' .. ((1 + twoThirds) / 2 * 100) .. '% \n'
      .. ' + average rowUcol correct (VOC measure): ' .. ((0.5 + twoThirds) / 2 * 100) .. '% \n'
      .. ' + global correct: 75%'
   check.eq(tostring(conf), expected, 'tostring')
   check.near(conf.averageUnionValid, (0.5 + twoThirds) / 2, 1e-15, 'averageUnionValid')
   local plain = optim.ConfusionMatrix(2)
   plain:add(1, 1)
   check.ok(tostring(plain):find('[[       1       0]   100.000% \n', 1, true), 'without class names')
end

function tests.logger_writes_header_and_rows()
   local dir = os.tmpname()
   os.remove(dir)
   local path = dir .. '/sub/train.log'
   local logger = optim.Logger(path)
   logger:setNames({ 'training error', 'test error' })
   logger:add({ 0.5, 1.25e-3 })
   logger:add({ 12345.678, 'n/a' })
   logger:style({ '-', '+' })
   local f = io.open(path)
   check.ok(f, 'the log file (and its folder) exists')
   local text = f:read('*a')
   f:close()
   check.eq(text, 'training error\ttest error\t\n'
      .. string.format('%11.4e\t%11.4e\t\n', 0.5, 1.25e-3)
      .. string.format('%11.4e\tn/a\t\n', 12345.678), 'file contents')
   check.eq(text:match('\n(.-)\t'), ' 5.0000e-01', 'numbers as %11.4e')
   check.eq(#logger.symbols[1], 2, 'values kept for plotting')
   check.raises(function() logger:add({ {} , 1 }) end, 'numbers and strings')

   -- without setNames: the first add's keys make the header
   local path2 = dir .. '/keys.log'
   local keyed = optim.Logger(path2)
   keyed:add({ loss = 2, acc = 0.5 })
   keyed:add({ loss = 1, acc = 0.75 })
   f = io.open(path2)
   text = f:read('*a')
   f:close()
   check.eq(text, 'acc\tloss\t\n'
      .. string.format('%11.4e\t%11.4e\t\n', 0.5, 2) .. string.format('%11.4e\t%11.4e\t\n', 0.75, 1), 'keyed rows')
   os.execute('rm -rf "' .. dir .. '"')
end

return tests
