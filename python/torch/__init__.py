"""torch: tensors over the TH kernels (index base 0), with PyTorch 1.x's Python API.

The native part is torch._C, a thin pybind11 layer over the Python-free core library in
core/ (with the autograd engine in autograd/). This file gathers the public names; the
pieces written in Python live in the modules beside it.
"""

import builtins as _builtins
import operator as _operator

# What 1.13's torch/__init__.py imports, which its namespace therefore holds (torch.os, ...).
import builtins  # noqa: F401
import ctypes  # noqa: F401
import inspect  # noqa: F401
import os  # noqa: F401
import platform  # noqa: F401
import sys  # noqa: F401
import textwrap  # noqa: F401
from typing import TYPE_CHECKING, Any, Callable, Set, Union  # noqa: F401

from torch import _C
from torch._C import Tensor, dtype, from_numpy, get_default_dtype

# ---- dtypes ----
uint8, int8, int16, int32, int64 = _C.uint8, _C.int8, _C.int16, _C.int32, _C.int64
float16, float32, float64, bool = _C.float16, _C.float32, _C.float64, _C.bool
bfloat16 = _C.bfloat16
half, float, double = float16, float32, float64
short, int, long = int16, int32, int64


class Size(tuple):
    """The shape of a tensor: a tuple of ints."""

    def __new__(cls, sizes=()):
        t = tuple.__new__(cls, sizes)
        for s in t:
            if type(s) is not _builtins.int:
                return tuple.__new__(cls, [_size_item(i, x) for i, x in enumerate(t)])
        return t

    def __repr__(self):
        return "torch.Size([" + ", ".join(str(s) for s in self) + "])"

    def numel(self):
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, key):
        result = tuple.__getitem__(self, key)
        return Size(result) if isinstance(key, slice) else result

    def __add__(self, other):
        return Size(tuple.__add__(self, other))

    def __reduce__(self):
        return (Size, (tuple(self),))


def _size_item(i, s):
    """Item i of torch.Size(...): an int, or what has __index__ (a one-element integer tensor)."""
    if isinstance(s, _builtins.bool):
        return _builtins.int(s)
    try:
        return _operator.index(s)
    except TypeError:
        name = "torch.dtype" if isinstance(s, dtype) else _builtins.type(s).__name__
        raise TypeError("torch.Size() takes an iterable of 'int' (item %d is '%s')" % (i, name)) from None


class device:
    """Where a tensor lives. Only the CPU exists in this build."""

    def __init__(self, type="cpu", index=None):
        if isinstance(type, device):
            type, index = type.type, type.index
        elif isinstance(type, _builtins.int) and not isinstance(type, _builtins.bool) and index is None:
            type, index = "cuda", type  # torch.device(1) is a CUDA device, as in PyTorch
        if not isinstance(type, str):
            raise TypeError("Device(): argument 'type' (position 1) must be str, not " + _builtins.type(type).__name__)
        if index is not None:
            if ":" in type:
                raise RuntimeError(
                    "type (string) must not include an index because index was passed explicitly: " + type
                )
            if isinstance(index, _builtins.bool) or not hasattr(index, "__index__"):
                raise TypeError(
                    "Device(): argument 'index' (position 2) must be int, not " + _builtins.type(index).__name__
                )
            index = _operator.index(index)
        elif ":" in type:
            type, text = type.split(":", 1)
            if not text.isdigit() or not text.isascii() or (len(text) > 1 and text[0] == "0"):
                raise RuntimeError("Invalid device string: '%s:%s'" % (type, text))
            index = _builtins.int(text)
        if type not in ("cpu", "cuda"):
            raise RuntimeError("Expected one of cpu, cuda device type at start of device string: " + type)
        if index is not None:
            # PyTorch keeps the index in a small integer: larger ones cannot name a device
            if index >= 2**63:
                raise RuntimeError("Overflow when unpacking long")
            if index < 0:
                raise RuntimeError("Device index must not be negative")
            if index > 127:
                raise RuntimeError("Device index %d is too large (at most 127)" % index)
        self.type = type
        self.index = index

    def __repr__(self):
        return "device(type='%s'%s)" % (self.type, "" if self.index is None else ", index=%d" % self.index)

    def __str__(self):
        return self.type if self.index is None else "%s:%d" % (self.type, self.index)

    def __eq__(self, other):
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self):
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (str(self),))


# ---- typed tensor classes (torch.FloatTensor, ...) ----
class _TensorType(type):
    """Metaclass of torch.FloatTensor and friends: calling the class builds a tensor of its
    type, and isinstance checks the element type."""

    def __call__(cls, *args, **kwargs):
        if kwargs:
            raise TypeError("%s() takes no keyword arguments" % cls.__name__)
        return _C._legacy_new(cls.dtype, *args)

    def __instancecheck__(cls, obj):
        return isinstance(obj, Tensor) and obj.dtype is cls.dtype

    def __repr__(cls):
        return "<class 'torch.%s'>" % cls.__name__


def _make_tensor_type(name, dt):
    return _TensorType(name, (), {"dtype": dt, "is_cuda": False, "__module__": "torch"})


ByteTensor = _make_tensor_type("ByteTensor", uint8)
CharTensor = _make_tensor_type("CharTensor", int8)
ShortTensor = _make_tensor_type("ShortTensor", int16)
IntTensor = _make_tensor_type("IntTensor", int32)
LongTensor = _make_tensor_type("LongTensor", int64)
HalfTensor = _make_tensor_type("HalfTensor", float16)
FloatTensor = _make_tensor_type("FloatTensor", float32)
DoubleTensor = _make_tensor_type("DoubleTensor", float64)
BoolTensor = _make_tensor_type("BoolTensor", bool)
BFloat16Tensor = _make_tensor_type("BFloat16Tensor", bfloat16)
_tensor_classes = [
    ByteTensor,
    CharTensor,
    ShortTensor,
    IntTensor,
    LongTensor,
    HalfTensor,
    FloatTensor,
    DoubleTensor,
    BoolTensor,
    BFloat16Tensor,
]


def set_default_dtype(d):
    """Sets the element type of torch.tensor(1.5), torch.zeros(...), torch.Tensor(...), and
    torch.Storage to its storage class."""
    global Storage
    _C._set_default_dtype(d)
    Storage = _storage_classes[d]


def set_default_tensor_type(t):
    """Sets the default floating type, and with a CUDA type (torch.cuda.FloatTensor or its name)
    the device of the tensors the creation functions make without device=, as PyTorch 1.13 does."""
    if isinstance(t, str):
        on_gpu = t.startswith("torch.cuda.")
        t = {c.__name__: c for c in _tensor_classes}[t.split(".")[-1]]
    else:
        on_gpu = getattr(t, "is_cuda", False) is True
    if not t.dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    _C._set_default_factory_device("cuda" if on_gpu else "cpu")
    set_default_dtype(t.dtype)


def is_tensor(obj):
    return isinstance(obj, Tensor)


def is_floating_point(t):
    return t.is_floating_point()


def numel(t):
    return t.numel()


# Every function the native module defines for tensors (torch.add, torch.zeros, ...).
for _name in dir(_C):
    if not _name.startswith("_") and _name not in globals():
        globals()[_name] = getattr(_C, _name)
for _name in _C._nn._torch_functions:  # torch.relu, torch.softmax, ...
    globals()[_name] = getattr(_C._nn, _name)
del _name

from torch import _tensor  # noqa: E402  (Python-side Tensor methods)
from torch._tensor_str import set_printoptions  # noqa: E402

# ---- storages and serialization ----
from torch import _utils  # noqa: E402  (rebuild functions that pickles name)
from torch.storage import (  # noqa: E402
    BFloat16Storage,
    BoolStorage,
    ByteStorage,
    CharStorage,
    ComplexDoubleStorage,
    ComplexFloatStorage,
    DoubleStorage,
    FloatStorage,
    HalfStorage,
    IntStorage,
    LongStorage,
    ShortStorage,
    TypedStorage,
    UntypedStorage,
    is_storage,
)
from torch.storage import _storage_classes  # noqa: E402

StorageBase = _C._StorageBase
from torch import types  # noqa: E402,F401

Storage = _storage_classes[get_default_dtype()]  # the default dtype's, as set_default_dtype keeps it
from torch.serialization import load, save  # noqa: E402

# ---- autograd ----
from torch import overrides  # noqa: E402,F401
from torch.overrides import DisableTorchFunction  # noqa: E402,F401
from torch import autograd  # noqa: E402
from torch.autograd import enable_grad, inference_mode, no_grad, set_grad_enabled  # noqa: E402
from torch.autograd.anomaly_mode import is_anomaly_check_nan_enabled, is_anomaly_enabled  # noqa: E402
from torch.autograd.grad_mode import is_inference_mode_enabled  # noqa: E402
from torch.functional import *  # noqa: E402,F401,F403  (dtype rules, nan-aware and shape functions)
from torch._scatter_reduce import index_reduce, scatter_reduce  # noqa: E402,F401  (and their Tensor methods)
from torch._householder import *  # noqa: E402,F401,F403  (geqrf, orgqr, ormqr)
from torch._lowrank import pca_lowrank, svd_lowrank  # noqa: E402,F401
from torch._native_ops import *  # noqa: E402,F401,F403  (what torch's modules call underneath)
from torch._segment_reduce import segment_reduce  # noqa: E402,F401
from torch._lobpcg import lobpcg  # noqa: E402,F401
from torch.utils.dlpack import from_dlpack, to_dlpack  # noqa: E402,F401  (and Tensor.__dlpack__)
from torch import special  # noqa: E402
from torch.special import digamma, erfinv, i0, igamma, igammac, lgamma, mvlgamma, polygamma, sinc  # noqa: E402,F401
from torch import linalg  # noqa: E402
from torch import fft  # noqa: E402
from torch import _spectral  # noqa: E402,F401  (torch.stft, torch.istft)
from torch import nn  # noqa: E402
from torch import _aliases  # noqa: E402,F401  (other names of the functions above)
from torch._complex import cdouble, cfloat, complex64, complex128  # noqa: E402,F401  (and complex functions)
from torch._flags import *  # noqa: E402,F401,F403  (build facts and global switches)
from torch import amp, cpu  # noqa: E402
from torch.amp import autocast  # noqa: E402
from torch import optim  # noqa: E402
from torch import multiprocessing  # noqa: E402
from torch import utils  # noqa: E402
import torch.utils.checkpoint  # noqa: E402,F401  (needs torch.autograd, so not imported by torch.utils)
from torch import testing  # noqa: E402
from torch import onnx  # noqa: E402  (the onnx library itself loads on first export)
from torch import backends, cuda, hub, jit, random, version  # noqa: E402
from torch import distributions  # noqa: E402
from torch import futures  # noqa: E402
from torch import quasirandom  # noqa: E402

from torch._ops import ops  # noqa: E402
from torch import library  # noqa: E402
from torch import masked  # noqa: E402,F401
from torch import fx, package  # noqa: E402,F401  (importable; using them raises NotImplementedError)

USE_GLOBAL_DEPS = True  # 1.13's build flags (it loads its libraries globally, not with RTLD_GLOBAL)
USE_RTLD_GLOBAL_WITH_LIBTORCH = False
legacy_contiguous_format = contiguous_format  # noqa: F405  (1.13 keeps both names for one format)
from torch.futures import Future  # noqa: E402,F401
from torch.jit import fork, wait  # noqa: E402,F401

jit.Future = Future
from torch import profiler  # noqa: E402
from torch import __config__  # noqa: E402,F401
from torch.version import __version__  # noqa: E402


def __getattr__(name):
    # torch.lua (the embedded LuaJIT bridge) is imported on first use: it loads its own
    # shared object, which most programs never need.
    if name == "lua":
        import importlib

        return importlib.import_module("torch.lua")
    raise AttributeError("module 'torch' has no attribute %r" % (name,))
