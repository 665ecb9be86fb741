"""Tensor methods written in Python, attached to torch._C.Tensor (which is torch.Tensor)."""

from collections import OrderedDict

import warnings

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


def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
    return torch.tensor(data, dtype=dtype or self.dtype, device=device or self.device, requires_grad=requires_grad)


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

    def run(grad):
        return hooks[handle.id](grad) if handle.id in hooks else None

    run.__name__ = getattr(hook, "__name__", "<unknown>")  # for the errors about what it returns
    _register_hook(self, run)
    return handle


Tensor.register_hook = register_hook


# ---- devices (Note [CUDA in the bindings] in python/csrc/Bind.h) ----
def get_device(self):
    """The GPU index of a CUDA tensor; -1 for a CPU tensor."""
    return self.device.index if self.is_cuda else -1


def pin_memory(self):
    """A copy in page-locked memory, for fast copies to a GPU (self if it is pinned already)."""
    torch._C._cuda_require()
    return self if self.is_pinned() else torch._C._pin_memory(self)


def is_pinned(self):
    return torch._C._is_pinned(self)


Tensor.get_device = get_device
Tensor.pin_memory = pin_memory
Tensor.is_pinned = is_pinned


# ---- legacy constructors and resizes ----
def new(self, *args):
    """A tensor of self's type built as the legacy constructors build one (torch.FloatTensor(2, 3),
    torch.FloatTensor([1, 2]), ...), on self's device."""
    return torch._C._legacy_new(self.dtype, *args).to(self.device)


def new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False, **kwargs):
    t = torch.empty_strided(size, stride, dtype=dtype or self.dtype, device=device or self.device)
    return t.requires_grad_(requires_grad) if requires_grad else t


def resize(self, *sizes):
    """Deprecated: self reshaped to sizes, which must hold as many elements."""
    import warnings

    warnings.warn("non-inplace resize is deprecated")
    shape = sizes[0] if len(sizes) == 1 and isinstance(sizes[0], (list, tuple, torch.Size)) else sizes
    return self.reshape(shape)


def resize_as(self, tensor):
    """Deprecated: self reshaped to tensor's shape."""
    import warnings

    warnings.warn("non-inplace resize_as is deprecated")
    return self.reshape(tensor.shape)


def sum_to_size(self, *size):
    """self summed over the dims in which size (to which self broadcasts) is 1 or absent."""
    shape = tuple(size[0]) if len(size) == 1 and isinstance(size[0], (list, tuple, torch.Size)) else tuple(size)
    try:
        torch.broadcast_shapes(shape, self.shape)
        ok = torch.broadcast_shapes(shape, self.shape) == tuple(self.shape)
    except RuntimeError:
        ok = False
    if not ok:
        raise RuntimeError(
            "size {%s} is not expandable to size {%s}." % (", ".join(map(str, shape)), ", ".join(map(str, self.shape)))
        )
    lead = self.dim() - len(shape)
    result = self.sum(tuple(range(lead))) if lead else self
    dims = tuple(i for i, s in enumerate(shape) if s == 1 and result.shape[i] != 1)
    return result.sum(dims, keepdim=True) if dims else result


def fill_diagonal_(self, fill_value, wrap=False):
    """Writes fill_value on the main diagonal (of a matrix, or of a tensor whose dims are all
    equal); for a tall matrix with wrap, the diagonal starts again N + 1 rows further down."""
    if self.dim() < 2:
        raise RuntimeError("dimensions must larger than 1")
    if self.dim() > 2 and len(set(self.shape)) != 1:
        raise RuntimeError("all dimensions of input must be of equal length")
    numel = self.numel()
    if self.dim() == 2:
        rows, cols = self.shape
        step = cols + 1
        end = numel if wrap and rows > cols + 1 else min(rows, cols) * cols
    else:
        n = self.shape[0]
        step = sum(n**k for k in range(self.dim()))
        end = numel
    positions = torch.arange(0, end, step, device=self.device)
    mask = torch.zeros(numel, dtype=torch.bool, device=self.device)
    mask[positions] = True
    return self.masked_fill_(mask.reshape(self.shape), fill_value)


# ---- element-wise Python functions (CPU tensors only, as in PyTorch) ----
def _cpu_only(self, name):
    if self.device.type != "cpu":
        raise TypeError("%s is only implemented on CPU tensors" % name)


def apply_(self, callable):
    """Replaces each element x with callable(x)."""
    _cpu_only(self, "apply_")
    values = [callable(v) for v in self.reshape(-1).tolist()]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


def map_(self, tensor, callable):
    """Replaces each element x with callable(x, y), y the element of tensor (broadcast) there."""
    _cpu_only(self, "map_")
    other = tensor.expand(self.shape).reshape(-1).tolist()
    values = [callable(a, b) for a, b in zip(self.reshape(-1).tolist(), other)]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


def map2_(self, x, y, callable):
    """Replaces each element a with callable(a, b, c), b and c the elements of x and y there."""
    _cpu_only(self, "map2_")
    xs, ys = x.expand(self.shape).reshape(-1).tolist(), y.expand(self.shape).reshape(-1).tolist()
    values = [callable(a, b, c) for a, b, c in zip(self.reshape(-1).tolist(), xs, ys)]
    return self.copy_(torch.tensor(values, dtype=self.dtype).reshape(self.shape))


# ---- logical operations in place: the result (0 or 1) written in self's type ----
def _logical_inplace(name):
    fn = getattr(torch, name)

    def method(self, *other):
        return self.copy_(fn(self, *other))

    method.__name__ = name + "_"
    method.__doc__ = "self = torch.%s(self, ...), in self's type." % name
    return method


# ---- named tensors: no tensor here has names ----
def names(self):
    return (None,) * self.dim()


def has_names(self):
    return False


def rename(self, *names, **rename_map):
    """Only dropping names (rename(None)) is possible: tensors here have none."""
    if (names and names != (None,)) or rename_map:
        raise RuntimeError("named tensors are not supported by this package")
    return self.view_as(self)


def to_dense(self, dtype=None):
    """self: every tensor here is dense."""
    return self if dtype is None else self.to(dtype)


def prelu(self, weight):
    return torch.nn.functional.prelu(self, weight)


for _fn in (
    new,
    new_empty_strided,
    resize,
    resize_as,
    sum_to_size,
    fill_diagonal_,
    apply_,
    map_,
    map2_,
    has_names,
    rename,
    to_dense,
    prelu,
):
    setattr(Tensor, _fn.__name__, _fn)
for _name in ("logical_and", "logical_or", "logical_xor", "logical_not"):
    setattr(Tensor, _name + "_", _logical_inplace(_name))
Tensor.names = property(names)
Tensor.rename_ = rename
Tensor.is_distributed = lambda self: False


def as_strided_(self, size, stride, storage_offset=None):
    """self restrided in place over its own storage."""
    offset = self.storage_offset() if storage_offset is None else storage_offset
    return self.set_(self.storage(), offset, tuple(size), tuple(stride))


_REINFORCE_REMOVED = """reinforce() was removed.
Use torch.distributions instead.
See https://pytorch.org/docs/master/distributions.html

Instead of:

probs = policy_network(state)
action = probs.multinomial()
next_state, reward = env.step(action)
action.reinforce(reward)
action.backward()

Use:

probs = policy_network(state)
# NOTE: categorical is equivalent to what used to be called multinomial
m = torch.distributions.Categorical(probs)
action = m.sample()
next_state, reward = env.step(action)
loss = -m.log_prob(action) * reward
loss.backward()
"""


def reinforce(self, reward):
    """Removed in PyTorch 0.4: raises, with the torch.distributions way instead."""
    raise RuntimeError(_REINFORCE_REMOVED)


def _volatile(self):
    warnings.warn("volatile was removed (Variable.volatile is always False)", stacklevel=2)
    return False


def _set_volatile(self, value):
    warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.", stacklevel=2)


Tensor.as_strided_ = as_strided_
Tensor.reinforce = reinforce
Tensor.volatile = property(_volatile, _set_volatile)
