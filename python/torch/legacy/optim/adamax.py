"""AdaMax (Adam with the infinity norm), torch7's optim.adamax (lua/optim/adamax.lua):

    g = df/dx + weightDecay * x;  t = t + 1;  m = beta1 * m + (1 - beta1) * g
    u = max(beta2 * u, |g| + epsilon);  x = x - lr / (1 - beta1^t) * m / u

config: learningRate (2e-3), beta1 (0.9), beta2 (0.999), epsilon (1e-38), weightDecay (0).
state: t, m, u, max (the two rows compared: beta2 * u and |g| + epsilon).
torch.optim.Adamax is the same rule (its default eps is 1e-8).
"""

import torch

from torch.legacy.optim._state import config_and_state, decayed_gradient, first_moment


def adamax(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 0.002)
    beta1 = config.get("beta1", 0.9)
    beta2 = config.get("beta2", 0.999)
    epsilon = config.get("epsilon", 1e-38)
    wd = config.get("weightDecay", 0)

    fx, dfdx = decayed_gradient(opfunc, x, wd)

    bias_correction1 = first_moment(state, dfdx, beta1)
    if "u" not in state:
        state["u"] = torch.zeros_like(dfdx)
        state["max"] = dfdx.new_zeros((2,) + tuple(dfdx.shape))

    state["max"][0].copy_(state["u"]).mul_(beta2)
    state["max"][1].copy_(dfdx).abs_().add_(epsilon)
    torch.max(state["max"][0], state["max"][1], out=state["u"])

    x.addcdiv_(state["m"], state["u"], value=-lr / bias_correction1)

    return x, [fx]
