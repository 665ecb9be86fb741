"""Adadelta (Zeiler), torch7's optim.adadelta (lua/optim/adadelta.lua), no learning rate:

    g = df/dx + weightDecay * x;  paramVariance = rho * paramVariance + (1 - rho) * g * g
    delta = sqrt(accDelta + eps) / sqrt(paramVariance + eps) * g;  x = x - delta
    accDelta = rho * accDelta + (1 - rho) * delta * delta

config: rho (0.9), eps (1e-6), weightDecay (0).
state: evalCounter, paramVariance, paramStd, delta, accDelta.
torch.optim.Adadelta is the same rule with its lr=1.
"""

import torch

from torch.legacy.optim._state import config_and_state, decayed_gradient


def adadelta(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    rho = config.get("rho", 0.9)
    eps = config.get("eps", 1e-6)
    wd = config.get("weightDecay", 0)
    state["evalCounter"] = state.get("evalCounter", 0)

    fx, dfdx = decayed_gradient(opfunc, x, wd)

    if "paramVariance" not in state:
        state["paramVariance"] = torch.zeros_like(dfdx)
        state["paramStd"] = torch.zeros_like(dfdx)
        state["delta"] = torch.zeros_like(dfdx)
        state["accDelta"] = torch.zeros_like(dfdx)
    state["paramVariance"].mul_(rho).addcmul_(dfdx, dfdx, value=1 - rho)
    state["paramStd"].copy_(state["paramVariance"]).add_(eps).sqrt_()
    state["delta"].copy_(state["accDelta"]).add_(eps).sqrt_().div_(state["paramStd"]).mul_(dfdx)
    x.add_(state["delta"], alpha=-1)
    state["accDelta"].mul_(rho).addcmul_(state["delta"], state["delta"], value=1 - rho)

    state["evalCounter"] += 1
    return x, [fx]
