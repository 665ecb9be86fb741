"""torch.backends.cudnn: cuDNN runs the GPU's convolutions and batch normalization
(core/ops/cuda/Cudnn*.cpp). The switches reach those kernels as programs set them
(`torch.backends.cudnn.benchmark = True`): benchmark times the algorithms once per shape and
keeps the fastest, deterministic takes only algorithms that give the same bits every run,
allow_tf32 (PyTorch's default, True) lets Float convolutions use TF32 tensor cores.
enabled=False is kept but changes nothing yet: there is no other GPU convolution to fall
back to. is_available() and version() answer for the GPU that is there (False and None
without one)."""

import contextlib
import sys
import types

import torch
from torch import _C

_SWITCHES = ("enabled", "benchmark", "deterministic", "allow_tf32")


def is_available():
    return torch.cuda.is_available() and _C._cuda_is_built


def version():
    """The loaded cuDNN's version as cudnnGetVersion() gives it (91400 for 9.14.0); None
    without a GPU."""
    return _C._cudnn_version() if torch.cuda.is_available() else None


def is_acceptable(tensor):
    return is_available() and tensor.is_cuda and tensor.dtype in (torch.float16, torch.float32, torch.float64)


@contextlib.contextmanager
def flags(enabled=False, benchmark=False, deterministic=False, allow_tf32=True):
    """Sets the switches for the block, then puts the old ones back."""
    module = sys.modules[__name__]
    saved = {name: getattr(module, name) for name in _SWITCHES}
    for name, value in zip(_SWITCHES, (enabled, benchmark, deterministic, allow_tf32)):
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


class _CudnnModule(types.ModuleType):
    """The module itself, so that assigning a switch tells the kernels."""

    _values = {"enabled": True, "benchmark": False, "deterministic": False, "allow_tf32": True}

    def __getattr__(self, name):
        values = type(self)._values
        if name in values:
            return values[name]
        raise AttributeError("module 'torch.backends.cudnn' has no attribute '%s'" % name)

    def __setattr__(self, name, value):
        values = type(self)._values
        if name in values:
            values[name] = bool(value)
            _C._cudnn_set_flags(values["benchmark"], values["deterministic"], values["allow_tf32"])
        else:
            super().__setattr__(name, value)


sys.modules[__name__].__class__ = _CudnnModule
