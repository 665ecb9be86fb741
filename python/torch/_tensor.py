"""Tensor methods written in Python, attached to torch._C.Tensor (which is torch.Tensor)."""

from collections import OrderedDict

import torch
from torch import _tensor_str
from torch._C import Tensor
from torch.utils.hooks import RemovableHandle


def _is_shared_placeholder(self):
    return False


def __iter__(self):
    if self.dim() == 0:
        raise TypeError("iteration over a 0-d tensor")
    return iter(self.unbind(0))


def __repr__(self):
    return _tensor_str._str(self)


def __str__(self):
    # through repr() so that a subclass's own __repr__ is used, as object.__str__ would
    return repr(self)


def __hash__(self):
    return id(self)


def __format__(self, spec):
    if self.dim() == 0:
        return self.item().__format__(spec)
    return object.__format__(self, spec)


def __reversed__(self):
    if self.dim() == 0:
        return self
    return self.flip(0)


def __contains__(self, element):
    if isinstance(element, (Tensor, int, float, bool)):
        return bool((self == element).any().item())
    raise RuntimeError("Tensor.__contains__ only supports Tensor or scalar, but you passed in a %s." % type(element))


def new_tensor(self, data, dtype=None):
    return torch.tensor(data, dtype=dtype or self.dtype)


for _name, _fn in list(globals().items()):
    if (
        _name.startswith("__")
        and _name.endswith("__")
        and callable(_fn)
        and _name
        not in (
            "__builtins__",
            "__loader__",
            "__spec__",
            "__name__",
            "__doc__",
            "__file__",
            "__package__",
            "__cached__",
        )
    ):
        setattr(Tensor, _name, _fn)
Tensor.new_tensor = new_tensor
Tensor.__array_priority__ = 1000  # numpy defers `ndarray op tensor` to the tensor


def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates the gradient of this tensor into the leaves' .grad (see torch.autograd.backward)."""
    torch.autograd.backward(self, gradient, retain_graph, create_graph, inputs)


Tensor.backward = backward

_register_hook = Tensor.register_hook


def register_hook(self, hook):
    """Calls hook(grad) when this tensor's gradient is computed; what it returns (a tensor)
    replaces the gradient. The handle's remove() takes the hook out."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    hooks = OrderedDict()
    handle = RemovableHandle(hooks)
    hooks[handle.id] = hook
    _register_hook(self, lambda grad: hooks[handle.id](grad) if handle.id in hooks else None)
    return handle


Tensor.register_hook = register_hook


# ---- devices: every tensor is on the CPU (Note [No CUDA tensors yet] in python/csrc/Bind.h) ----
def cuda(self, device=None, non_blocking=False, memory_format=None):
    raise AssertionError(torch._C._no_cuda)


def get_device(self):
    """The GPU index of a CUDA tensor; -1 for a CPU tensor."""
    return -1


def pin_memory(self):
    """A copy in page-locked memory, for fast copies to a GPU: needs CUDA."""
    raise AssertionError(torch._C._no_cuda)


def is_pinned(self):
    return False


Tensor.cuda = cuda
Tensor.get_device = get_device
Tensor.pin_memory = pin_memory
Tensor.is_pinned = is_pinned
