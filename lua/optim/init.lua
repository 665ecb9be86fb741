-- `require 'optim'`: torch7's optim package. Every method has torch7's interface
--   x, {f(x), ...} = optim.method(opfunc, x[, config[, state]])
-- where opfunc(x) returns f(x) and df/dx, x is updated in place, and the method keeps its
-- history (counters, moving averages) in state, which is config when no state is given.
require 'torch'

optim = optim or {}

-- TensorMath has no addcmul/addcdiv yet: x + value * a .* b (and ./ b) through a
-- temporary tensor; the product is rounded before the scaling, TH's kernels scale first.
function optim._addcmul(x, value, a, b)
   return x:add(value, torch.cmul(a, b))
end
function optim._addcdiv(x, value, a, b)
   return x:add(value, torch.cdiv(a, b))
end

-- f(x) and df/dx + weightDecay * x, the gradient most methods step along.
function optim._decayedGradient(opfunc, x, weightDecay)
   local fx, dfdx = opfunc(x)
   if weightDecay ~= 0 then
      dfdx:add(weightDecay, x)
   end
   return fx, dfdx
end

-- Adam's and AdaMax's first moment: t = t + 1;  m = beta1 * m + (1 - beta1) * g.
-- Returns its bias correction 1 - beta1^t.
function optim._firstMoment(state, x, dfdx, beta1)
   state.t = (state.t or 0) + 1
   state.m = state.m or x.new():resizeAs(dfdx):zero()
   state.m:mul(beta1):add(1 - beta1, dfdx)
   return 1 - beta1 ^ state.t
end

require 'optim.sgd'
require 'optim.nag'
require 'optim.asgd'
require 'optim.adagrad'
require 'optim.adadelta'
require 'optim.rmsprop'
require 'optim.adam'
require 'optim.adamax'
require 'optim.rprop'
require 'optim.cg'
require 'optim.lbfgs'
require 'optim.polyinterp'
require 'optim.lswolfe'
require 'optim.ConfusionMatrix'
require 'optim.Logger'

return optim
