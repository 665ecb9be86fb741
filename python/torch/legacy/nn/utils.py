"""Helpers shared by the legacy modules: THNN's kernels for an input, the buffers they
write, argument checks, gradient-free methods, element types by torch7 name, conversion and
clearing of the tensors held in fields."""

import functools
import math

import torch
from torch._C import _thnn

# Methods that compute with tensors: they never record autograd history, whatever the
# caller's grad mode (legacy modules compute their gradients themselves).
GRAD_FREE = (
    "updateOutput",
    "updateGradInput",
    "accGradParameters",
    "accUpdateGradParameters",
    "forward",
    "backward",
    "updateParameters",
    "zeroGradParameters",
    "reset",
    "getParameters",
    "type",
    "share",
    "clearState",
)


def no_grad(fn):
    if getattr(fn, "_legacy_grad_free", False):
        return fn

    @functools.wraps(fn)
    def wrapped(*args, **kwargs):
        if not torch.is_grad_enabled():
            return fn(*args, **kwargs)
        with torch.no_grad():
            return fn(*args, **kwargs)

    wrapped._legacy_grad_free = True
    return wrapped


def make_grad_free(cls):
    for name in GRAD_FREE:
        fn = cls.__dict__.get(name)
        if callable(fn):
            setattr(cls, name, no_grad(fn))


# Note [Modules over THNN]: as Lua nn's modules call input.THNN.<kernel>, a legacy module
# calls THNN's kernel of its input's element type, thnn(self, input).<kernel> (a TypeError
# for anything but a Float or Double tensor), with its parameters and tensors for the
# results; the kernels check every argument before they write and resize the results.
# - Results (output, gradInput) are new tensors on every call, as they always were in this
#   package: a result the caller holds is not overwritten by the next call (torch7 reused
#   them), and a module computes in its input's element type whatever the type of the
#   results it holds (built under another default type, or loaded). In-place modules return
#   their input (gradOutput) itself.
#   Max pooling's indices are new at every forward too.
# - Scratch buffers the kernels keep between calls (a Linear's addBuffer, a convolution's
#   finput, a criterion's output_tensor) are fields of torch7's names, reused while their
#   element type fits (buffer()).
# - Targets and weights of criterions go to the kernels in the input's type (of_type()).
#   Parameters are not converted: a module whose weight is of another type than its input
#   raises TypeError (call .float() / .double() first).
_KERNELS = {torch.float32: _thnn.Float, torch.float64: _thnn.Double}


def thnn(module, input):
    """THNN's kernels for input's element type: torch._C._thnn.Float or .Double."""
    kernels = _KERNELS.get(getattr(input, "dtype", None))
    if kernels is None:
        raise TypeError(
            "%s: input must be a torch.FloatTensor or torch.DoubleTensor, got %s"
            % (module.torch_typename(), describe(input))
        )
    return kernels


def buffer(t, like):
    """t if it is a tensor of like's element type, else a new empty tensor of that type."""
    if isinstance(t, torch.Tensor) and t.dtype is like.dtype:
        return t
    return torch.empty(0, dtype=like.dtype)


def of_type(t, like):
    """t (a target, weights, a gradient) in like's element type, as THNN's kernels of that
    type take it; anything but a tensor (None) as it is, for the kernel to take or refuse."""
    return t.to(like.dtype) if isinstance(t, torch.Tensor) and t.dtype is not like.dtype else t


def describe(x):
    if isinstance(x, torch.Tensor):
        return typename_of(x.dtype) if x.dtype in _NAMES else "a tensor of %s" % x.dtype
    return type(x).__name__


def check_grad_output(module, input, gradOutput):
    """gradOutput must have input's size (torch7's kernels only count the elements)."""
    if not isinstance(gradOutput, torch.Tensor):
        raise TypeError("%s: gradOutput must be a tensor, got %s" % (module.torch_typename(), describe(gradOutput)))
    if gradOutput.shape != input.shape:
        raise RuntimeError(
            "%s: input of size %s and gradOutput of size %s must have the same size"
            % (module.torch_typename(), tuple(input.shape), tuple(gradOutput.shape))
        )


def check(cond, exc, message, *args):
    """Raises exc(message % args) unless cond: called before a method writes anything."""
    if not cond:
        raise exc(message % args)


def check_tensor(x, what, dims=None):
    check(torch.is_tensor(x), TypeError, "%s must be a tensor, got %s", what, type(x).__name__)
    if dims is not None:
        check(
            x.dim() in dims,
            RuntimeError,
            "%s must have %s dimensions, got a tensor of size %s",
            what,
            " or ".join(map(str, dims)),
            tuple(x.shape),
        )


def same_size(a, b, what_a, what_b):
    check(torch.is_tensor(b), TypeError, "%s must be a tensor, got %s", what_b, type(b).__name__)
    check(
        a.shape == b.shape,
        RuntimeError,
        "%s of size %s and %s of size %s must have the same size",
        what_a,
        tuple(a.shape),
        what_b,
        tuple(b.shape),
    )


_NAMES = {torch.float64: "torch.DoubleTensor", torch.float32: "torch.FloatTensor", torch.float16: "torch.HalfTensor"}


def reset_uniform(stdv, fan_in, *tensors):
    """torch7's reset(stdv): each tensor (None: skipped) uniform in +-stdv*sqrt(3), or in
    +-1/sqrt(fan_in) without stdv; drawn in the order given."""
    bound = stdv * math.sqrt(3) if stdv is not None else 1 / math.sqrt(fan_in)
    for t in tensors:
        if t is not None:
            t.uniform_(-bound, bound)


class OptionalBias:
    """Layers whose bias noBias() removes (bias and gradBias leave the fields)."""

    __slots__ = ()

    def _has_bias(self):
        return getattr(self, "bias", None) is not None

    def noBias(self):
        self.__dict__.pop("bias", None)
        self.__dict__.pop("gradBias", None)
        return self


def typename_of(dtype):
    return _NAMES[dtype]


def dtype_of(type):
    """A floating element type from a torch7 type name ('torch.FloatTensor'), a dtype or a tensor class."""
    if isinstance(type, torch.dtype):
        dtype = type
    elif isinstance(type, str):
        cls = getattr(torch, type[len("torch.") :], None) if type.startswith("torch.") else None
        dtype = getattr(cls, "dtype", None)
    else:
        dtype = getattr(type, "dtype", None)
    if dtype not in _NAMES:
        raise TypeError(
            "legacy nn modules hold floating tensors (torch.FloatTensor, torch.DoubleTensor, "
            "torch.HalfTensor), got %r" % (type,)
        )
    return dtype


def tensor_on(storage, offset, size, stride, dtype):
    return torch.empty(0, dtype=dtype).set_(storage, offset, tuple(size), tuple(stride))


def convert(value, dtype, cache):
    """value with its floating tensors converted to dtype, in place for lists, dicts and
    objects. Tensors that shared a storage share the converted one (cache: storage key ->
    new storage, id(tensor) -> new tensor), as torch7's nn.utils.recursiveType does.
    Integer tensors (indices) are left alone."""
    from torch.legacy.nn._object import TorchObject

    if isinstance(value, list):
        for i, v in enumerate(value):
            value[i] = convert(v, dtype, cache)
    elif isinstance(value, dict):
        for k, v in list(value.items()):
            value[k] = convert(v, dtype, cache)
    elif isinstance(value, TorchObject):
        if hasattr(value, "type") and callable(value.type):
            value.type(dtype, cache)
    elif torch.is_tensor(value) and value.is_floating_point() and value.dtype != dtype:
        done = cache.get(id(value))
        if done is not None:
            return done[1]
        storage = value.storage()
        key = ("storage", storage._cdata, storage.data_ptr())
        new_storage = cache.get(key)
        if new_storage is None:
            whole = tensor_on(storage, 0, (storage.size(),), (1,), value.dtype)
            new_storage = whole.to(dtype).storage()
            cache[key] = new_storage
        new = tensor_on(new_storage, value.storage_offset(), value.shape, value.stride(), dtype)
        cache[id(value)] = (value, new)  # keeps value alive so that its id stays its own
        return new
    return value


def clear(obj, *names):
    """Replaces the tensors (and tables) held in obj's fields `names` by empty ones, as
    nn.utils.clear. Replaced rather than emptied in place: a field may hold the caller's
    own tensor (Identity's output is its input)."""
    for name in names:
        v = obj.__dict__.get(name)
        if torch.is_tensor(v):
            obj.__dict__[name] = v.new_empty(0)
        elif isinstance(v, list):
            obj.__dict__[name] = []
        elif isinstance(v, dict):
            obj.__dict__[name] = {}


def _is_compact(size, stride):
    dims = sorted(((st, sz) for sz, st in zip(size, stride) if st > 0 and sz > 1), reverse=True)
    expected = 1
    for st, sz in reversed(dims):
        if st != expected:
            return False
        expected *= sz
    return True


def flatten(tensors):
    """torch7's Module.flatten: one new tensor holding every storage the tensors view (a
    storage viewed twice is copied once), the tensors made views of it with their offsets
    and strides; parts of storages that no tensor views are squeezed out."""
    if not tensors:
        return torch.empty(0, dtype=torch.get_default_dtype())
    dtype = tensors[0].dtype
    for t in tensors:
        check(
            t.dtype == dtype,
            TypeError,
            "getParameters: parameters of types %s and %s cannot share one tensor",
            dtype,
            t.dtype,
        )
    storages, metas, total = {}, [], 0
    for t in tensors:
        s = t.storage()
        key = (s._cdata, s.data_ptr())
        if key not in storages:
            storages[key] = (s, total)
            total += s.size()
        metas.append((t.storage_offset() + storages[key][1], tuple(t.shape), t.stride()))
    used = torch.zeros(total, dtype=torch.bool)
    compact = True
    for off, size, stride in metas:
        if all(size):
            used.as_strided(size, stride, off).fill_(True)
        compact = compact and _is_compact(size, stride)
    flat = torch.empty(total, dtype=dtype)
    for s, off in storages.values():
        if s.size():
            flat.narrow(0, off, s.size()).copy_(tensor_on(s, 0, (s.size(),), (1,), dtype))
    n_used = int(used.sum())
    if n_used != total:
        check(compact, RuntimeError, "getParameters: cannot gather tensors that are not compact")
        new_offset = used.long().cumsum(0) - 1
        flat = flat[used].clone()
        metas = [(int(new_offset[off]) if off < total else n_used, size, stride) for off, size, stride in metas]
    for t, (off, size, stride) in zip(tensors, metas):
        t.set_(flat.storage(), off, size, stride)
    return flat
