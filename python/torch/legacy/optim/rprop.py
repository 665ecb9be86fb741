"""Resilient backpropagation, torch7's optim.rprop (lua/optim/rprop.lua): per coordinate,
the step size grows by etaplus while the gradient keeps its sign and shrinks by etaminus
when it flips (and that coordinate then does not move); x = x - sign(g) * stepsize.

config: stepsize (0.1, the first step size), etaplus (1.2), etaminus (0.5),
stepsizemax (50), stepsizemin (1e-6), niter (1: opfunc calls per rprop call).
state: delta (the last gradient used), stepsize, sign.
Like torch7, the gradient that opfunc returned is zeroed where its sign flipped.
Returns x and the list of the niter values of f. torch.optim.Rprop is the same rule
(lr is stepsize, etas (etaminus, etaplus), step_sizes (stepsizemin, stepsizemax)).
"""

import torch

from torch.legacy.optim._state import config_and_state


def rprop(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    stepsize = config.get("stepsize", 0.1)
    etaplus = config.get("etaplus", 1.2)
    etaminus = config.get("etaminus", 0.5)
    stepsizemax = config.get("stepsizemax", 50.0)
    stepsizemin = config.get("stepsizemin", 1e-06)
    niter = config.get("niter", 1)

    hfx = []
    for _ in range(niter):
        fx, dfdx = opfunc(x)

        if "delta" not in state:
            state["delta"] = torch.zeros_like(dfdx)
            state["stepsize"] = torch.empty_like(dfdx).fill_(stepsize)
            state["sign"] = torch.empty_like(dfdx)

        # sign of g * (last g): > 0 same direction, < 0 flipped, 0 after a flip or at start
        sign = state["sign"]
        torch.mul(dfdx, state["delta"], out=sign)
        sign.sign_()
        grew, flipped, kept = sign.gt(0), sign.lt(0), sign.eq(0)
        dfdx.masked_fill_(flipped, 0)
        sign.masked_fill_(grew, etaplus).masked_fill_(flipped, etaminus).masked_fill_(kept, 1)
        state["stepsize"].mul_(sign).clamp_(stepsizemin, stepsizemax)

        torch.sign(dfdx, out=sign)
        x.addcmul_(sign, state["stepsize"], value=-1)
        state["delta"].copy_(dfdx)
        hfx.append(fx)
    return x, hfx
