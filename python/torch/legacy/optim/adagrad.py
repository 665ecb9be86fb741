"""Adagrad, torch7's optim.adagrad (lua/optim/adagrad.lua):

    g = df/dx + weightDecay * x;  paramVariance = paramVariance + g * g
    x = x - clr * g / (sqrt(paramVariance) + 1e-10),  clr = lr / (1 + evalCounter * lrd)

config: learningRate (1e-3), learningRateDecay (0), weightDecay (0).
state: evalCounter, paramVariance, paramStd (sqrt(paramVariance) + 1e-10).
torch.optim.Adagrad is the same rule (eps=1e-10, initial_accumulator_value=0).
"""

import torch

from torch.legacy.optim._state import config_and_state, decayed_gradient


def adagrad(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-3)
    lrd = config.get("learningRateDecay", 0)
    wd = config.get("weightDecay", 0)
    state["evalCounter"] = state.get("evalCounter", 0)
    nevals = state["evalCounter"]

    fx, dfdx = decayed_gradient(opfunc, x, wd)

    clr = lr / (1 + nevals * lrd)

    if "paramVariance" not in state:
        state["paramVariance"] = torch.zeros_like(dfdx)
        state["paramStd"] = torch.empty_like(dfdx)
    state["paramVariance"].addcmul_(dfdx, dfdx, value=1)
    state["paramStd"].copy_(state["paramVariance"]).sqrt_().add_(1e-10)
    x.addcdiv_(dfdx, state["paramStd"], value=-clr)

    state["evalCounter"] += 1
    return x, [fx]
