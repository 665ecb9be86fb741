-- Stochastic gradient descent, torch7's optim.sgd:
--   g = df/dx + weightDecay * x            (or + weightDecays .* x)
--   momentum: v = g on the first step, then v = momentum * v + (1 - dampening) * g;
--             g = v, or g + momentum * v with nesterov
--   x = x - lr / (1 + evalCounter * learningRateDecay) * g   (.* learningRates if given)
-- config: learningRate (1e-3), learningRateDecay (0), weightDecay (0), weightDecays,
--   momentum (0), dampening (= momentum), nesterov (false), learningRates.
-- state: evalCounter, dfdx (the momentum buffer), decayParameters, deltaParameters.
function optim.sgd(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local lr = config.learningRate or 1e-3
   local lrd = config.learningRateDecay or 0
   local wd = config.weightDecay or 0
   local mom = config.momentum or 0
   local damp = config.dampening or mom
   local nesterov = config.nesterov or false
   local lrs = config.learningRates
   local wds = config.weightDecays
   state.evalCounter = state.evalCounter or 0
   local nevals = state.evalCounter
   assert(not nesterov or (mom > 0 and damp == 0), 'Nesterov momentum requires a momentum and zero dampening')
   assert(wd == 0 or not wds, 'only one of weightDecay and weightDecays can be given')

   local fx, dfdx = opfunc(x)

   if wd ~= 0 then
      dfdx:add(wd, x)
   elseif wds then
      state.decayParameters = state.decayParameters or x.new():resizeAs(dfdx)
      state.decayParameters:copy(wds):cmul(x)
      dfdx:add(state.decayParameters)
   end

   if mom ~= 0 then
      if not state.dfdx then
         state.dfdx = dfdx.new():resizeAs(dfdx):copy(dfdx)
      else
         state.dfdx:mul(mom):add(1 - damp, dfdx)
      end
      if nesterov then
         dfdx:add(mom, state.dfdx)
      else
         dfdx = state.dfdx
      end
   end

   local clr = lr / (1 + nevals * lrd)

   if lrs then
      state.deltaParameters = state.deltaParameters or x.new():resizeAs(dfdx)
      state.deltaParameters:copy(lrs):cmul(dfdx)
      x:add(-clr, state.deltaParameters)
   else
      x:add(-clr, dfdx)
   end

   state.evalCounter = state.evalCounter + 1
   return x, { fx }
end
