-- Adam (Kingma & Ba), torch7's optim.adam:
--   g = df/dx + weightDecay * x;  clr = lr / (1 + t * learningRateDecay);  t = t + 1
--   m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g .* g
--   x = x - clr * sqrt(1 - beta2^t) / (1 - beta1^t) * m ./ (sqrt(v) + epsilon)
-- config: learningRate (1e-3), learningRateDecay (0), beta1 (0.9), beta2 (0.999),
--   epsilon (1e-8), weightDecay (0).  state: t, m, v, denom (sqrt(v) + epsilon).
function optim.adam(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local lr = config.learningRate or 1e-3
   local lrd = config.learningRateDecay or 0
   local beta1 = config.beta1 or 0.9
   local beta2 = config.beta2 or 0.999
   local epsilon = config.epsilon or 1e-8
   local wd = config.weightDecay or 0

   local fx, dfdx = optim._decayedGradient(opfunc, x, wd)

   state.v = state.v or x.new():resizeAs(dfdx):zero()
   state.denom = state.denom or x.new():resizeAs(dfdx):zero()

   local clr = lr / (1 + (state.t or 0) * lrd)
   local biasCorrection1 = optim._firstMoment(state, x, dfdx, beta1)
   optim._addcmul(state.v:mul(beta2), 1 - beta2, dfdx, dfdx)
   state.denom:copy(state.v):sqrt():add(epsilon)

   local biasCorrection2 = 1 - beta2 ^ state.t
   local stepSize = clr * math.sqrt(biasCorrection2) / biasCorrection1
   optim._addcdiv(x, -stepSize, state.m, state.denom)

   return x, { fx }
end
