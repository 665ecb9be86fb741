"""torch.cuda as a build without CUDA tensors has it (Note [No CUDA tensors yet] in
python/csrc/Bind.h): is_available() is False and device_count() 0, so that programs choosing
their device (`'cuda' if torch.cuda.is_available() else 'cpu'`) run on the CPU. What only
reads the state of a GPU that is not there (memory statistics, seeding, emptying the cache)
does nothing, as in PyTorch; what needs a GPU raises AssertionError("Torch not compiled with
CUDA enabled ..."), PyTorch's error, never a crash. The GPU issues fill this module in."""

import contextlib

import torch
from torch import _C
from torch.cuda import amp  # noqa: F401

__all__ = [
    "is_available",
    "device_count",
    "is_initialized",
    "init",
    "current_device",
    "set_device",
    "device",
    "device_of",
    "get_device_name",
    "get_device_capability",
    "get_device_properties",
    "get_arch_list",
    "synchronize",
    "Stream",
    "Event",
    "stream",
    "current_stream",
    "default_stream",
    "memory_allocated",
    "max_memory_allocated",
    "memory_reserved",
    "max_memory_reserved",
    "reset_peak_memory_stats",
    "empty_cache",
    "memory_summary",
    "mem_get_info",
    "manual_seed",
    "manual_seed_all",
    "seed",
    "seed_all",
    "initial_seed",
    "get_rng_state",
    "set_rng_state",
    "get_rng_state_all",
    "set_rng_state_all",
]


def _unavailable(*args, **kwargs):
    raise AssertionError(_C._no_cuda)


def is_available():
    """Whether CUDA tensors can be made: False in this build."""
    return False


def device_count():
    return 0


def is_initialized():
    return False


init = _unavailable
current_device = _unavailable
set_device = _unavailable
get_device_name = _unavailable
get_device_capability = _unavailable
get_device_properties = _unavailable
synchronize = _unavailable
current_stream = _unavailable
default_stream = _unavailable
mem_get_info = _unavailable
initial_seed = _unavailable
get_rng_state = _unavailable
set_rng_state = _unavailable
get_rng_state_all = _unavailable
set_rng_state_all = _unavailable
ipc_collect = _unavailable


def get_arch_list():
    return []


class device:
    """Context manager that makes a GPU current: entering it needs one. torch.cuda.device(None)
    and device(-1) select nothing and do nothing, as in PyTorch."""

    def __init__(self, device):
        self.idx = -1 if device is None else _device_index(device)

    def __enter__(self):
        if self.idx >= 0:
            _unavailable()

    def __exit__(self, *exc):
        return False


def device_of(obj):
    """torch.cuda.device for a tensor's device: a CPU tensor selects nothing."""
    return device(obj.get_device() if obj.device.type == "cuda" else -1)


def _device_index(d):
    if isinstance(d, int):
        return d
    d = torch.device(d)
    if d.type != "cuda":
        raise ValueError("Expected a cuda device, but got: %s" % d)
    return 0 if d.index is None else d.index


class Stream:
    def __new__(cls, *args, **kwargs):
        _unavailable()


class Event:
    def __new__(cls, *args, **kwargs):
        _unavailable()


@contextlib.contextmanager
def stream(s):
    """Selects stream s: with no GPU, only stream(None) can be entered (it selects nothing)."""
    if s is not None:
        _unavailable()
    yield


# ---- memory: nothing is allocated on a GPU ----
def memory_allocated(device=None):
    return 0


def max_memory_allocated(device=None):
    return 0


def memory_reserved(device=None):
    return 0


def max_memory_reserved(device=None):
    return 0


def reset_peak_memory_stats(device=None):
    pass


def empty_cache():
    pass


def memory_summary(device=None, abbreviated=False):
    return "No CUDA devices: nothing is allocated on a GPU.\n"


# ---- seeding: programs seed every device unconditionally; with none there is nothing to seed ----
def manual_seed(seed):
    int(seed)  # what torch.manual_seed accepts


def manual_seed_all(seed):
    int(seed)


def seed():
    pass


def seed_all():
    pass


# ---- the typed classes of 0.x-era scripts: torch.cuda.FloatTensor, ... ----
class _CudaTensorType(type):
    def __call__(cls, *args, **kwargs):
        raise TypeError("type torch.cuda.%s not available. %s." % (cls.__name__, _C._no_cuda))

    def __instancecheck__(cls, obj):
        return False  # no tensor is a CUDA tensor

    def __repr__(cls):
        return "<class 'torch.cuda.%s'>" % cls.__name__


for _name in (
    "ByteTensor",
    "CharTensor",
    "ShortTensor",
    "IntTensor",
    "LongTensor",
    "HalfTensor",
    "FloatTensor",
    "DoubleTensor",
    "BoolTensor",
):
    globals()[_name] = _CudaTensorType(_name, (), {"is_cuda": True, "__module__": "torch.cuda"})
del _name
