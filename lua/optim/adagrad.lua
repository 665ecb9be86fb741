-- Adagrad, torch7's optim.adagrad:
--   g = df/dx + weightDecay * x;  paramVariance = paramVariance + g .* g
--   x = x - clr * g ./ (sqrt(paramVariance) + 1e-10),  clr = lr / (1 + evalCounter * lrd)
-- config: learningRate (1e-3), learningRateDecay (0), weightDecay (0).
-- state: evalCounter, paramVariance, paramStd (sqrt(paramVariance) + 1e-10).
function optim.adagrad(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local lr = config.learningRate or 1e-3
   local lrd = config.learningRateDecay or 0
   local wd = config.weightDecay or 0
   state.evalCounter = state.evalCounter or 0
   local nevals = state.evalCounter

   local fx, dfdx = optim._decayedGradient(opfunc, x, wd)

   local clr = lr / (1 + nevals * lrd)

   if not state.paramVariance then
      state.paramVariance = x.new():resizeAs(dfdx):zero()
      state.paramStd = x.new():resizeAs(dfdx)
   end
   optim._addcmul(state.paramVariance, 1, dfdx, dfdx)
   state.paramStd:resizeAs(state.paramVariance):copy(state.paramVariance):sqrt():add(1e-10)
   optim._addcdiv(x, -clr, dfdx, state.paramStd)

   state.evalCounter = state.evalCounter + 1
   return x, { fx }
end
