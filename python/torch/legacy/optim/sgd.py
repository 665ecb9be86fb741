"""Stochastic gradient descent, torch7's optim.sgd (lua/optim/sgd.lua):

    g = df/dx + weightDecay * x            (or + weightDecays * x)
    momentum: v = g on the first step, then v = momentum * v + (1 - dampening) * g;
              g = v, or g + momentum * v with nesterov
    x = x - lr / (1 + evalCounter * learningRateDecay) * g   (* learningRates if given)

config: learningRate (1e-3), learningRateDecay (0), weightDecay (0), weightDecays,
momentum (0), dampening (= momentum), nesterov (False), learningRates.
state: evalCounter, dfdx (the momentum buffer), decayParameters, deltaParameters.
"""

import torch

from torch.legacy.optim._state import config_and_state


def sgd(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    lr = config.get("learningRate", 1e-3)
    lrd = config.get("learningRateDecay", 0)
    wd = config.get("weightDecay", 0)
    mom = config.get("momentum", 0)
    damp = config.get("dampening", mom)
    nesterov = config.get("nesterov", False)
    lrs = config.get("learningRates")
    wds = config.get("weightDecays")
    state["evalCounter"] = state.get("evalCounter", 0)
    nevals = state["evalCounter"]
    if nesterov and (mom <= 0 or damp != 0):
        raise ValueError("Nesterov momentum requires a momentum and zero dampening")
    if wd != 0 and wds is not None:
        raise ValueError("only one of weightDecay and weightDecays can be given")

    fx, dfdx = opfunc(x)

    if wd != 0:
        dfdx.add_(x, alpha=wd)
    elif wds is not None:
        if "decayParameters" not in state:
            state["decayParameters"] = torch.empty_like(dfdx)
        state["decayParameters"].copy_(wds).mul_(x)
        dfdx.add_(state["decayParameters"])

    if mom != 0:
        if "dfdx" not in state:
            state["dfdx"] = dfdx.clone()
        else:
            state["dfdx"].mul_(mom).add_(dfdx, alpha=1 - damp)
        if nesterov:
            dfdx.add_(state["dfdx"], alpha=mom)
        else:
            dfdx = state["dfdx"]

    clr = lr / (1 + nevals * lrd)

    if lrs is not None:
        if "deltaParameters" not in state:
            state["deltaParameters"] = torch.empty_like(dfdx)
        state["deltaParameters"].copy_(lrs).mul_(dfdx)
        x.add_(state["deltaParameters"], alpha=-clr)
    else:
        x.add_(dfdx, alpha=-clr)

    state["evalCounter"] += 1
    return x, [fx]
