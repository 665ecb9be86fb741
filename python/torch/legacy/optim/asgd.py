"""Averaged SGD (Bottou), torch7's optim.asgd (lua/optim/asgd.lua):

    x = x * (1 - lambda * eta_t) - eta_t * df/dx
    ax = x when mu_t == 1, else ax + mu_t * (x - ax)
    t = t + 1;  eta_t = eta0 / (1 + lambda * eta0 * t)^alpha;  mu_t = 1 / max(1, t - t0)

config: eta0 (1e-4), lambda (1e-4), alpha (0.75), t0 (1e6), written back into config as
torch7 did.  state: eta_t, mu_t, t, ax (the average), tmp.
Returns x, [f(x)], ax.
"""

import torch

from torch.legacy.optim._state import config_and_state


def asgd(opfunc, x, config=None, state=None):
    config, state = config_and_state(config, state)
    config.setdefault("eta0", 1e-4)
    config.setdefault("lambda", 1e-4)
    config.setdefault("alpha", 0.75)
    config.setdefault("t0", 1e6)

    state.setdefault("eta_t", config["eta0"])
    state.setdefault("mu_t", 1)
    state.setdefault("t", 0)

    fx, dfdx = opfunc(x)

    x.mul_(1 - config["lambda"] * state["eta_t"])
    x.add_(dfdx, alpha=-state["eta_t"])

    if "ax" not in state:
        state["ax"] = torch.zeros_like(x)
        state["tmp"] = torch.empty_like(x)
    if state["mu_t"] != 1:
        state["tmp"].copy_(x).add_(state["ax"], alpha=-1).mul_(state["mu_t"])
        state["ax"].add_(state["tmp"])
    else:
        state["ax"].copy_(x)

    state["t"] += 1
    state["eta_t"] = config["eta0"] / (1 + config["lambda"] * config["eta0"] * state["t"]) ** config["alpha"]
    state["mu_t"] = 1 / max(1, state["t"] - config["t0"])

    return x, [fx], state["ax"]
