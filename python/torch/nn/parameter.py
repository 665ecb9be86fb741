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


class UninitializedParameter(Parameter):
    """A parameter of a lazy module before its first forward: its shape is not known yet.
    materialize(shape) gives it memory (uninitialized values) and makes it a Parameter, in place,
    so that an optimizer holding it already sees the real one."""

    def __init__(self, requires_grad=True, device=None, dtype=None):
        super().__init__(torch.empty(0, dtype=dtype, device=device), requires_grad)

    def materialize(self, shape, device=None, dtype=None):
        # where .cuda()/.to() put the placeholder, as PyTorch's does
        self.data = torch.empty(shape, dtype=dtype or self.data.dtype, device=device or self.data.device)
        self.__class__ = Parameter

    def __repr__(self):
        return "<UninitializedParameter>"

    def __reduce_ex__(self, protocol):
        raise ValueError(
            "Attempted to use an uninitialized parameter in pickle. This error happens when you are "
            "using a `LazyModule`; run a forward pass through the module first."
        )


class UninitializedBuffer(torch.Tensor):
    """A buffer of a lazy module before its first forward; the module replaces it with a real
    tensor (materialize(shape) gives that tensor)."""

    def __init__(self, requires_grad=False, device=None, dtype=None):
        super().__init__()
        self.data = torch.empty(0, dtype=dtype, device=device)
        self.requires_grad_(requires_grad)

    def materialize(self, shape, device=None, dtype=None):
        return torch.empty(shape, dtype=dtype or self.dtype, device=device or self.device)

    def __repr__(self):
        return "<UninitializedBuffer>"
