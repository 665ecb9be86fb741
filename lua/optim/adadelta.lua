-- Adadelta (Zeiler), torch7's optim.adadelta (no learning rate):
--   g = df/dx + weightDecay * x;  paramVariance = rho * paramVariance + (1 - rho) * g .* g
--   delta = sqrt(accDelta + eps) ./ sqrt(paramVariance + eps) .* g;  x = x - delta
--   accDelta = rho * accDelta + (1 - rho) * delta .* delta
-- config: rho (0.9), eps (1e-6), weightDecay (0).
-- state: evalCounter, paramVariance, paramStd, delta, accDelta.
function optim.adadelta(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local rho = config.rho or 0.9
   local eps = config.eps or 1e-6
   local wd = config.weightDecay or 0
   state.evalCounter = state.evalCounter or 0

   local fx, dfdx = optim._decayedGradient(opfunc, x, wd)

   if not state.paramVariance then
      state.paramVariance = x.new():resizeAs(dfdx):zero()
      state.paramStd = x.new():resizeAs(dfdx):zero()
      state.delta = x.new():resizeAs(dfdx):zero()
      state.accDelta = x.new():resizeAs(dfdx):zero()
   end
   optim._addcmul(state.paramVariance:mul(rho), 1 - rho, dfdx, dfdx)
   state.paramStd:resizeAs(state.paramVariance):copy(state.paramVariance):add(eps):sqrt()
   state.delta:resizeAs(state.paramVariance):copy(state.accDelta):add(eps):sqrt():cdiv(state.paramStd):cmul(dfdx)
   x:add(-1, state.delta)
   optim._addcmul(state.accDelta:mul(rho), 1 - rho, state.delta, state.delta)

   state.evalCounter = state.evalCounter + 1
   return x, { fx }
end
