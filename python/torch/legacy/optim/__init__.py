"""torch.legacy.optim: torch7's optim methods on torch tensors, as Lua's `require 'optim'`
has them (lua/optim/*.lua).

Every method has torch7's interface::

    x, fs = torch.legacy.optim.sgd(opfunc, x, config, state)

opfunc(x) returns f(x) and df/dx (a tensor shaped like x); x is updated in place and
returned with a list of f values; the method keeps its history in the dict state (config
when state is None) under torch7's key names (evalCounter, t, m, v, ...). Gradients may be
written into, as torch7 did. Indices are 0-based, but no method takes one.
"""

from torch.legacy.optim.sgd import sgd
from torch.legacy.optim.nag import nag
from torch.legacy.optim.asgd import asgd
from torch.legacy.optim.adagrad import adagrad
from torch.legacy.optim.adadelta import adadelta
from torch.legacy.optim.rmsprop import rmsprop
from torch.legacy.optim.adam import adam
from torch.legacy.optim.adamax import adamax
from torch.legacy.optim.rprop import rprop
from torch.legacy.optim.cg import cg
from torch.legacy.optim.polyinterp import polyinterp
from torch.legacy.optim.lswolfe import lswolfe
from torch.legacy.optim.lbfgs import lbfgs

__all__ = [
    "sgd",
    "nag",
    "asgd",
    "adagrad",
    "adadelta",
    "rmsprop",
    "adam",
    "adamax",
    "rprop",
    "cg",
    "polyinterp",
    "lswolfe",
    "lbfgs",
]
