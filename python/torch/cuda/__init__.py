"""torch.cuda over THC (Note [CUDA in the bindings] in python/csrc/Bind.h): devices, the caching
allocator's figures, the GPU generator's seed. Without a GPU is_available() is False and
device_count() 0, so that programs choosing their device (`'cuda' if
torch.cuda.is_available() else 'cpu'`) run on the CPU; what only reads the state of a GPU
that is not there (memory statistics, seeding, emptying the cache) does nothing, as in
PyTorch; what needs a GPU raises PyTorch's error ("No CUDA GPUs are available", or in a
build without the CUDA toolkit "Torch not compiled with CUDA enabled"), never a crash.
Streams and events: torch/cuda/streams.py."""

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


def _require(index=-1):
    """Raises PyTorch's error unless a CUDA device (index, -1 for the current one) is there."""
    _C._cuda_require(index)


def _not_bound(what):
    def call(*args, **kwargs):
        _require()
        raise RuntimeError("torch.cuda.%s is not supported yet" % what)

    return call


def is_available():
    """Whether CUDA tensors can be made: a GPU and its driver are there."""
    return _C._cuda_is_available()


def device_count():
    return _C._cuda_device_count() if _C._cuda_is_available() else 0


def is_initialized():
    return _C._cuda_is_available()


def init():
    _require()


def _is_in_bad_fork():
    """Whether this process was forked after CUDA started in its parent, and so cannot use
    CUDA (Note [CUDA after fork] in python/csrc/Cuda.cpp)."""
    return _C._cuda_is_in_bad_fork()


def current_device():
    return _C._cuda_current_device()


def set_device(device):
    idx = _device_index(device, optional=True)
    if idx >= 0:
        _C._cuda_set_device(idx)


def get_device_properties(device=None):
    idx = _device_index(device, optional=True)
    name, major, minor, total, sms = _C._cuda_device_properties(current_device() if idx < 0 else idx)
    return _CudaDeviceProperties(name, major, minor, total, sms)


class _CudaDeviceProperties:
    def __init__(self, name, major, minor, total_memory, multi_processor_count):
        self.name, self.major, self.minor = name, major, minor
        self.total_memory, self.multi_processor_count = total_memory, multi_processor_count

    def __repr__(self):
        return "_CudaDeviceProperties(name='%s', major=%d, minor=%d, total_memory=%dMB, multi_processor_count=%d)" % (
            self.name,
            self.major,
            self.minor,
            self.total_memory // 2**20,
            self.multi_processor_count,
        )


def get_device_name(device=None):
    return get_device_properties(device).name


def get_device_capability(device=None):
    p = get_device_properties(device)
    return (p.major, p.minor)


def get_arch_list():
    """The architectures this build's kernels were compiled for; [] without a GPU, as in PyTorch."""
    return ["sm_80", "sm_90"] if is_available() else []


def synchronize(device=None):
    """Waits for the work queued on the current stream."""
    with torch.cuda.device(device):
        _C._cuda_synchronize()


def mem_get_info(device=None):
    _require()
    raise RuntimeError("torch.cuda.mem_get_info is not supported yet")


ipc_collect = _not_bound("ipc_collect")


class device:
    """Context manager that makes a GPU current: entering it needs one. torch.cuda.device(None)
    and device(-1) select nothing and do nothing, as in PyTorch."""

    def __init__(self, device):
        self.idx = _device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self):
        if self.idx >= 0:
            self.prev_idx = current_device()
            if self.prev_idx != self.idx:
                _C._cuda_set_device(self.idx)

    def __exit__(self, *exc):
        if self.idx >= 0 and self.prev_idx != self.idx:
            _C._cuda_set_device(self.prev_idx)
        return False


def device_of(obj):
    """torch.cuda.device for a tensor's device: a CPU tensor selects nothing."""
    return device(obj.get_device() if obj.device.type == "cuda" else -1)


def _device_index(d, optional=False):
    """The index of a CUDA device given as an int, a str or a torch.device; -1 for None (and
    for a device without an index when optional: the current one)."""
    if d is None:
        return -1
    if isinstance(d, int):
        return d
    d = torch.device(d)
    if d.type != "cuda":
        raise ValueError("Expected a cuda device, but got: %s" % d)
    if d.index is None:
        return -1 if optional else 0
    return d.index


from torch.cuda.streams import Event, Stream, StreamContext, current_stream, default_stream, stream  # noqa: E402


# ---- memory: the caching allocator's figures (all 0 without a GPU) ----
def _stat(device, key):
    if not is_available():
        return 0
    return _C._cuda_memory_stats(_device_index(device, optional=True))[key]


def memory_stats(device=None):
    return _C._cuda_memory_stats(_device_index(device, optional=True)) if is_available() else {}


def memory_allocated(device=None):
    return _stat(device, "allocated_bytes.all.current")


def max_memory_allocated(device=None):
    return _stat(device, "allocated_bytes.all.peak")


def memory_reserved(device=None):
    return _stat(device, "reserved_bytes.all.current")


def max_memory_reserved(device=None):
    return _stat(device, "reserved_bytes.all.peak")


def reset_peak_memory_stats(device=None):
    if is_available():
        _C._cuda_reset_peak_memory_stats(_device_index(device, optional=True))


def empty_cache():
    """Gives the blocks the caching allocator keeps but nobody uses back to the driver."""
    _C._cuda_empty_cache()


def memory_summary(device=None, abbreviated=False):
    if not is_available():
        return "No CUDA devices: nothing is allocated on a GPU.\n"
    s = memory_stats(device)
    return "".join(
        "%-28s %d\n" % (k, s[k])
        for k in (
            "allocated_bytes.all.current",
            "allocated_bytes.all.peak",
            "reserved_bytes.all.current",
            "reserved_bytes.all.peak",
            "num_device_alloc",
            "num_device_free",
        )
    )


# ---- the GPU generator: programs seed every device unconditionally; with none there is nothing to seed ----
def manual_seed(seed):
    _C._cuda_manual_seed(int(seed) & (2**64 - 1))


def manual_seed_all(seed):
    manual_seed(seed)


def seed():
    """Seeds the GPU generator from a random number."""
    if is_available():
        import random

        manual_seed(random.getrandbits(63))


def seed_all():
    seed()


def initial_seed():
    return _C._cuda_rng_state()[0]


def get_rng_state(device="cuda"):
    """The GPU generator's state: its seed and offset as 16 bytes (a ByteTensor)."""
    seed_, offset = _C._cuda_rng_state()
    return torch.tensor(list(seed_.to_bytes(8, "little") + offset.to_bytes(8, "little")), dtype=torch.uint8)


def set_rng_state(new_state, device="cuda"):
    data = bytes(new_state.tolist())
    if len(data) != 16:
        raise RuntimeError("torch.cuda.set_rng_state: expected a state of 16 bytes, got %d" % len(data))
    _C._cuda_set_rng_state(int.from_bytes(data[:8], "little"), int.from_bytes(data[8:], "little"))


def get_rng_state_all():
    return [get_rng_state()]


def set_rng_state_all(new_states):
    for s in new_states:
        set_rng_state(s)


# ---- the typed classes of 0.x-era scripts: torch.cuda.FloatTensor, ... ----
class _CudaTensorType(type):
    """torch.cuda.FloatTensor and friends: calling one builds a CUDA tensor of its type (as
    torch.FloatTensor(...) would, then moved), and isinstance checks type and device."""

    def __call__(cls, *args, **kwargs):
        if kwargs:
            raise TypeError("%s() takes no keyword arguments" % cls.__name__)
        _require()
        return _C._legacy_new(cls.dtype, *args).cuda()

    def __instancecheck__(cls, obj):
        return isinstance(obj, torch.Tensor) and obj.is_cuda and obj.dtype is cls.dtype

    def __repr__(cls):
        return "<class 'torch.cuda.%s'>" % cls.__name__


for _name, _dtype in (
    ("ByteTensor", torch.uint8),
    ("CharTensor", torch.int8),
    ("ShortTensor", torch.int16),
    ("IntTensor", torch.int32),
    ("LongTensor", torch.int64),
    ("HalfTensor", torch.float16),
    ("FloatTensor", torch.float32),
    ("DoubleTensor", torch.float64),
    ("BoolTensor", torch.bool),
):
    globals()[_name] = _CudaTensorType(_name, (), {"is_cuda": True, "dtype": _dtype, "__module__": "torch.cuda"})
del _name, _dtype
