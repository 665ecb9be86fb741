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
