"""nn.Parameter: a tensor that a Module registers as one of its parameters.

Note [Parameter is a Python subclass of the pybind Tensor]
A Parameter is an instance of a Python subclass of torch._C.Tensor, so isinstance checks
and Module registration work as in PyTorch. Its tensor is built empty and then pointed at
the data's memory with `.data = data` (the same memory and version counter, a fresh
autograd state): a leaf that is not an autograd view of `data`. Operations on a Parameter
return plain tensors (pybind builds their results as torch.Tensor), as PyTorch's do.
"""

from collections import OrderedDict

import torch


class Parameter(torch.Tensor):
    """Parameter(data=None, requires_grad=True): a tensor that is a module parameter.

    Assigned as a Module attribute, it is added to the module's parameters(). It shares
    data's memory and requires grad by default.
    """

    def __init__(self, data=None, requires_grad=True):
        super().__init__()
        if data is None:
            data = torch.empty(0)
        if not isinstance(data, torch.Tensor):
            raise TypeError("Parameter data has to be a tensor, but got %s" % type(data).__name__)
        self.data = data
        self.requires_grad_(requires_grad)

    def __repr__(self):
        return "Parameter containing:\n" + super().__repr__()

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __reduce_ex__(self, protocol):
        # The layout PyTorch pickles, so that state saved here loads there and back.
        return (torch._utils._rebuild_parameter, (self.data, self.requires_grad, OrderedDict()))


def __getattr__(name):
    # the lazy modules' placeholders live with them (torch/nn/modules/lazy.py)
    if name in ("UninitializedParameter", "UninitializedBuffer"):
        from torch.nn.modules import lazy

        return getattr(lazy, name)
    raise AttributeError(f"module 'torch.nn.parameter' has no attribute '{name}'")
