"""torch.autocast: a context manager (and decorator) turning on a device's automatic mixed
precision, as PyTorch 1.13's does. The casts themselves happen in the core's ops (Note
[Autocast] in core/Autocast.h); the float32 ops written in Python (the losses) take
float32_under_autocast below."""

import functools
import warnings

import torch

__all__ = ["autocast"]


class autocast:
    """with torch.autocast("cpu"): products and convolutions compute in bfloat16, losses in
    float32, the other ops in their inputs' types."""

    def __init__(self, device_type, dtype=None, enabled=True, cache_enabled=None):
        self.device = device_type
        if device_type == "cuda":
            self.fast_dtype = torch.get_autocast_gpu_dtype()
        elif device_type == "cpu":
            self.fast_dtype = torch.get_autocast_cpu_dtype()
        else:
            raise RuntimeError(
                "User specified autocast device_type must be 'cuda' or 'cpu', but got " + str(device_type)
            )
        self._cache_enabled = torch.is_autocast_cache_enabled()
        if dtype is not None:
            self.fast_dtype = dtype
        if cache_enabled is not None:
            self._cache_enabled = cache_enabled
        if enabled and device_type == "cuda":
            if not torch.cuda.is_available():
                warnings.warn("User provided device_type of 'cuda', but CUDA is not available. Disabling")
            else:
                # THC computes in float16 only through float32 kernels it does not have yet
                warnings.warn("torch.autocast('cuda'): mixed precision on the GPU is not supported yet. Disabling")
            enabled = False
        if enabled and device_type == "cpu" and self.fast_dtype != torch.bfloat16:
            warnings.warn(
                "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                "CPU Autocast only supports dtype of torch.bfloat16 currently."
            )
            enabled = False
        self._enabled = enabled

    def __enter__(self):
        self.prev_cache_enabled = torch.is_autocast_cache_enabled()
        if self.device == "cpu":
            self.prev = torch.is_autocast_cpu_enabled()
            self.prev_fastdtype = torch.get_autocast_cpu_dtype()
            torch.set_autocast_cpu_enabled(self._enabled)
            torch.set_autocast_cpu_dtype(self.fast_dtype)
        else:
            self.prev = torch.is_autocast_enabled()
            self.prev_fastdtype = torch.get_autocast_gpu_dtype()
            torch.set_autocast_gpu_dtype(self.fast_dtype)
            torch.set_autocast_enabled(self._enabled)
        torch.autocast_increment_nesting()
        torch.set_autocast_cache_enabled(self._cache_enabled)
        return self

    def __exit__(self, *exc):
        if torch.autocast_decrement_nesting() == 0:
            torch.clear_autocast_cache()
        if self.device == "cpu":
            torch.set_autocast_cpu_enabled(self.prev)
            torch.set_autocast_cpu_dtype(self.prev_fastdtype)
        else:
            torch.set_autocast_enabled(self.prev)
            torch.set_autocast_gpu_dtype(self.prev_fastdtype)
        torch.set_autocast_cache_enabled(self.prev_cache_enabled)
        return False

    def __call__(self, func):
        @functools.wraps(func)
        def decorate_autocast(*args, **kwargs):
            with self:
                return func(*args, **kwargs)

        return decorate_autocast


def _to_float32(value):
    # floating tensors of a device under autocast, Double excepted (as the core's casts)
    if isinstance(value, torch.Tensor) and value.is_floating_point() and value.dtype != torch.float64:
        on = torch.is_autocast_cpu_enabled() if value.device.type == "cpu" else torch.is_autocast_enabled()
        if on:
            return value.float()
    return value


def float32_under_autocast(fn):
    """fn (an op of PyTorch 1.13's float32 list written in Python, such as a loss) with its
    floating arguments in float32 while autocast is on, and autocast off inside, as the core's
    ops of that list have them."""

    @functools.wraps(fn)
    def run(*args, **kwargs):
        if not (torch.is_autocast_cpu_enabled() or torch.is_autocast_enabled()):
            return fn(*args, **kwargs)
        args = [_to_float32(a) for a in args]
        kwargs = {k: _to_float32(v) for k, v in kwargs.items()}
        cpu, gpu = torch.is_autocast_cpu_enabled(), torch.is_autocast_enabled()
        torch.set_autocast_cpu_enabled(False)
        torch.set_autocast_enabled(False)
        try:
            return fn(*args, **kwargs)
        finally:
            torch.set_autocast_cpu_enabled(cpu)
            torch.set_autocast_enabled(gpu)

    return run
