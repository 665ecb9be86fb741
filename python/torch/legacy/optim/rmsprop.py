"""RMSprop, torch7's optim.rmsprop (lua/optim/rmsprop.lua):

    g = df/dx + weightDecay * x;  m = alpha * m + (1 - alpha) * g * g
    x = x - lr * g / (sqrt(m) + epsilon)

config: learningRate (1e-2), alpha (0.99), epsilon (1e-8), weightDecay (0),
initialMean (0, the first value of m).  state: m, tmp (sqrt(m) + epsilon).
torch.optim.RMSprop (not centered, no momentum) is the same rule; it has no initialMean.
"""

import torch

from torch.legacy.optim._state import config_and_state, decayed_gradient


def rmsprop(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-2)
    alpha = config.get("alpha", 0.99)
    epsilon = config.get("epsilon", 1e-8)
    wd = config.get("weightDecay", 0)
    mfill = config.get("initialMean", 0)

    fx, dfdx = decayed_gradient(opfunc, x, wd)

    if "m" not in state:
        state["m"] = torch.empty_like(dfdx).fill_(mfill)
        state["tmp"] = torch.empty_like(dfdx)
    state["m"].mul_(alpha).addcmul_(dfdx, dfdx, value=1.0 - alpha)
    state["tmp"].copy_(state["m"]).sqrt_().add_(epsilon)
    x.addcdiv_(dfdx, state["tmp"], value=-lr)

    return x, [fx]
