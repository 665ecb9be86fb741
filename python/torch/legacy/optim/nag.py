"""Nesterov's accelerated gradient in torch7's form, optim.nag (lua/optim/nag.lua): x first
moves along the momentum v, the gradient is taken there, then

    x = x * (1 - weightDecay * lr)  (when weightDecay != 0)
    v = momentum * v (v = 0 on the first step);  x = x - clr * g;  v = v - clr * g

with clr = lr / (1 + evalCounter * learningRateDecay) and g * learningRates if given.
config: learningRate (1e-3), learningRateDecay (0), weightDecay (0), momentum (0.9),
learningRates.  state: evalCounter, dfdx (v), deltaParameters.
"""

import torch

from torch.legacy.optim._state import config_and_state


def nag(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-3)
    lrd = config.get("learningRateDecay", 0)
    wd = config.get("weightDecay", 0)
    mom = config.get("momentum", 0.9)
    lrs = config.get("learningRates")
    state["evalCounter"] = state.get("evalCounter", 0)
    nevals = state["evalCounter"]
    if mom <= 0:
        raise ValueError("Momentum must be positive for Nesterov Accelerated Gradient")

    if "dfdx" in state:
        x.add_(state["dfdx"], alpha=mom)
    fx, dfdx = opfunc(x)

    if wd != 0:
        x.add_(x, alpha=-wd * lr)

    clr = lr / (1 + nevals * lrd)

    if "dfdx" not in state:
        state["dfdx"] = torch.zeros_like(dfdx)
    else:
        state["dfdx"].mul_(mom)

    step = dfdx
    if lrs is not None:
        if "deltaParameters" not in state:
            state["deltaParameters"] = torch.empty_like(dfdx)
        step = state["deltaParameters"].copy_(lrs).mul_(dfdx)
    x.add_(step, alpha=-clr)
    state["dfdx"].add_(step, alpha=-clr)

    state["evalCounter"] += 1
    return x, [fx]
