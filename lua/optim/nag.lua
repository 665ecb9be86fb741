-- Nesterov's accelerated gradient in torch7's form (optim.nag): x first moves along the
-- momentum v, the gradient is taken there, then
--   x = x * (1 - weightDecay * lr)  (when weightDecay ~= 0)
--   v = momentum * v (v = 0 on the first step);  x = x - clr * g;  v = v - clr * g
-- with clr = lr / (1 + evalCounter * learningRateDecay) and g .* learningRates if given.
-- config: learningRate (1e-3), learningRateDecay (0), weightDecay (0), momentum (0.9),
--   learningRates.  state: evalCounter, dfdx (v), deltaParameters.
function optim.nag(opfunc, x, config, state)
   config = config or {}
   state = state or config
   local lr = config.learningRate or 1e-3
   local lrd = config.learningRateDecay or 0
   local wd = config.weightDecay or 0
   local mom = config.momentum or 0.9
   local lrs = config.learningRates
   state.evalCounter = state.evalCounter or 0
   local nevals = state.evalCounter
   if mom <= 0 then
      error('Momentum must be positive for Nesterov Accelerated Gradient', 2)
   end

   if state.dfdx then
      x:add(mom, state.dfdx)
   end
   local fx, dfdx = opfunc(x)

   if wd ~= 0 then
      x:add(-wd * lr, x)
   end

   local clr = lr / (1 + nevals * lrd)

   if not state.dfdx then
      state.dfdx = dfdx.new():resizeAs(dfdx):zero()
   else
      state.dfdx:mul(mom)
   end

   local step = dfdx
   if lrs then
      state.deltaParameters = state.deltaParameters or x.new():resizeAs(dfdx)
      step = state.deltaParameters:copy(lrs):cmul(dfdx)
   end
   x:add(-clr, step)
   state.dfdx:add(-clr, step)

   state.evalCounter = state.evalCounter + 1
   return x, { fx }
end
