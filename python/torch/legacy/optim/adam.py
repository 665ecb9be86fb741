"""Adam (Kingma & Ba), torch7's optim.adam (lua/optim/adam.lua):

    g = df/dx + weightDecay * x;  clr = lr / (1 + t * learningRateDecay);  t = t + 1
    m = beta1 * m + (1 - beta1) * g;  v = beta2 * v + (1 - beta2) * g * g
    x = x - clr * sqrt(1 - beta2^t) / (1 - beta1^t) * m / (sqrt(v) + epsilon)

config: learningRate (1e-3), learningRateDecay (0), beta1 (0.9), beta2 (0.999),
epsilon (1e-8), weightDecay (0).  state: t, m, v, denom (sqrt(v) + epsilon).
torch.optim.Adam adds eps to sqrt(v) / sqrt(1 - beta2^t), after the bias correction:
the two agree exactly only with epsilon = 0.
"""

import math

import torch

from torch.legacy.optim._state import config_and_state, decayed_gradient, first_moment


def adam(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-3)
    lrd = config.get("learningRateDecay", 0)
    beta1 = config.get("beta1", 0.9)
    beta2 = config.get("beta2", 0.999)
    epsilon = config.get("epsilon", 1e-8)
    wd = config.get("weightDecay", 0)

    fx, dfdx = decayed_gradient(opfunc, x, wd)

    clr = lr / (1 + state.get("t", 0) * lrd)
    bias_correction1 = first_moment(state, dfdx, beta1)
    if "v" not in state:
        state["v"] = torch.zeros_like(dfdx)
        state["denom"] = torch.zeros_like(dfdx)

    state["v"].mul_(beta2).addcmul_(dfdx, dfdx, value=1 - beta2)
    state["denom"].copy_(state["v"]).sqrt_().add_(epsilon)

    bias_correction2 = 1 - beta2 ** state["t"]
    step_size = clr * math.sqrt(bias_correction2) / bias_correction1
    x.addcdiv_(state["m"], state["denom"], value=-step_size)

    return x, [fx]
