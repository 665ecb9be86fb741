"""What the methods share: the config/state convention, the weight-decayed gradient, Adam's
and AdaMax's first moment."""

import torch


def config_and_state(config, state):
    """torch7's `config = config or {}; state = state or config` (an explicit empty state
    dict is kept: it is the caller's)."""
    config = {} if config is None else config
    return config, config if state is None else state


def decayed_gradient(opfunc, x, weight_decay):
    """f(x) and df/dx + weight_decay * x (the gradient written into, as torch7 does)."""
    fx, dfdx = opfunc(x)
    if weight_decay != 0:
        dfdx.add_(x, alpha=weight_decay)
    return fx, dfdx


def first_moment(state, dfdx, beta1):
    """Adam's and AdaMax's t = t + 1;  m = beta1 * m + (1 - beta1) * g.  Returns the bias
    correction 1 - beta1^t."""
    state["t"] = state.get("t", 0) + 1
    if "m" not in state:
        state["m"] = torch.zeros_like(dfdx)
    state["m"].mul_(beta1).add_(dfdx, alpha=1 - beta1)
    return 1 - beta1 ** state["t"]
