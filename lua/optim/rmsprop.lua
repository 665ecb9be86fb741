-- RMSprop, torch7's optim.rmsprop:
--   g = df/dx + weightDecay * x;  m = alpha * m + (1 - alpha) * g .* g
--   x = x - lr * g ./ (sqrt(m) + epsilon)
-- config: learningRate (1e-2), alpha (0.99), epsilon (1e-8), weightDecay (0),
--   initialMean (0, the first value of m).  state: m, tmp (sqrt(m) + epsilon).
function optim.rmsprop(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local lr = config.learningRate or 1e-2
   local alpha = config.alpha or 0.99
   local epsilon = config.epsilon or 1e-8
   local wd = config.weightDecay or 0
   local mfill = config.initialMean or 0

   local fx, dfdx = optim._decayedGradient(opfunc, x, wd)

   if not state.m then
      state.m = x.new():resizeAs(dfdx):fill(mfill)
      state.tmp = x.new():resizeAs(dfdx)
   end
   state.m:mul(alpha)
   optim._addcmul(state.m, 1 - alpha, dfdx, dfdx)
   state.tmp:sqrt(state.m):add(epsilon)
   optim._addcdiv(x, -lr, dfdx, state.tmp)

   return x, { fx }
end
