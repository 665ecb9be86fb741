-- AdaMax (Adam with the infinity norm), torch7's optim.adamax:
--   g = df/dx + weightDecay * x;  t = t + 1;  m = beta1 * m + (1 - beta1) * g
--   u = max(beta2 * u, |g| + epsilon);  x = x - lr / (1 - beta1^t) * m ./ u
-- config: learningRate (2e-3), beta1 (0.9), beta2 (0.999), epsilon (1e-38),
--   weightDecay (0).  state: t, m, u, max (the two rows compared: beta2 * u, |g| + eps).
function optim.adamax(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local lr = config.learningRate or 0.002
   local beta1 = config.beta1 or 0.9
   local beta2 = config.beta2 or 0.999
   local epsilon = config.epsilon or 1e-38
   local wd = config.weightDecay or 0

   local fx, dfdx = optim._decayedGradient(opfunc, x, wd)

   state.u = state.u or x.new():resizeAs(dfdx):zero()
   if not state.max then
      local sizes = dfdx:size():totable()
      table.insert(sizes, 1, 2)
      state.max = x.new():resize(torch.LongStorage(sizes)):zero()
   end

   local biasCorrection1 = optim._firstMoment(state, x, dfdx, beta1)
   state.max[1]:copy(state.u):mul(beta2)
   state.max[2]:copy(dfdx):abs():add(epsilon)
   state.u:cmax(state.max[1], state.max[2])

   local stepSize = lr / biasCorrection1
   optim._addcdiv(x, -stepSize, state.m, state.u)

   return x, { fx }
end
