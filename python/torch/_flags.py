"""PyTorch 1.13's global switches and facts about the build (torch.has_cuda,
torch.use_deterministic_algorithms, torch.set_float32_matmul_precision, ...), answered for this
package: a CPU build over TH, with OpenMP and LAPACK, whose kernels are deterministic."""

import builtins
import warnings

import torch

# ---- what this build has ----
has_cuda = False
has_cudnn = False
has_mps = False
has_mkl = False
has_mkldnn = False
has_spectral = True  # torch.fft on pocketfft
has_lapack = True
has_openmp = True


def compiled_with_cxx11_abi():
    return True


def is_vulkan_available():
    return False


# ---- switches: remembered and reported; none changes a result here ----
_state = {
    "deterministic": False,
    "warn_only": False,
    "warn_always": False,
    "matmul_precision": "highest",
    "interop_threads": None,
}


def use_deterministic_algorithms(mode, *, warn_only=False):
    """Asks for deterministic kernels: every kernel here already is (no atomics, no
    nondeterministic reductions), so this only records the request."""
    _state["deterministic"], _state["warn_only"] = builtins.bool(mode), builtins.bool(warn_only)


def are_deterministic_algorithms_enabled():
    return _state["deterministic"]


def is_deterministic_algorithms_warn_only_enabled():
    return _state["warn_only"]


def set_deterministic_debug_mode(debug_mode):
    modes = {"default": 0, "warn": 1, "error": 2}
    if isinstance(debug_mode, str):
        if debug_mode not in modes:
            raise RuntimeError(
                "invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got " + debug_mode
            )
        debug_mode = modes[debug_mode]
    if debug_mode not in (0, 1, 2):
        raise RuntimeError("invalid value of debug_mode, expected 0, 1, or 2, but got %d" % debug_mode)
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def get_deterministic_debug_mode():
    if not _state["deterministic"]:
        return 0
    return 1 if _state["warn_only"] else 2


def set_warn_always(b):
    """Whether warnings PyTorch gives once per process are given every time."""
    _state["warn_always"] = builtins.bool(b)


def is_warn_always_enabled():
    return _state["warn_always"]


def set_float32_matmul_precision(precision):
    """float32 matrix products here always use full float32 precision; the setting is recorded."""
    if precision not in ("highest", "high", "medium"):
        warnings.warn(
            "%s is not one of 'highest', 'high', or 'medium'; the current setFloat32MatmulPrecision call has no effect."
            % precision
        )
        return
    _state["matmul_precision"] = precision


def get_float32_matmul_precision():
    return _state["matmul_precision"]


def set_num_interop_threads(num):
    """The threads for running independent operations at once: this package runs them one after
    another, so the number is only recorded (it can be set once, as in PyTorch)."""
    if num <= 0:
        raise RuntimeError("Expected positive number of threads")
    if _state["interop_threads"] is not None:
        raise RuntimeError(
            "Error: cannot set number of interop threads after parallel work has started or set_num_interop_threads called"
        )
    _state["interop_threads"] = num


def get_num_interop_threads():
    return _state["interop_threads"] or torch.get_num_threads()


def set_flush_denormal(mode):
    """Whether denormal floats are flushed to zero: not supported by this build (False)."""
    return False


def typename(o):
    """The name of o's type: 'torch.FloatTensor' and the like for tensors."""
    if isinstance(o, torch.Tensor):
        for cls in torch._tensor_classes:
            if o.dtype is cls.dtype:
                return "torch." + cls.__name__
    module = getattr(type(o), "__module__", "")
    name = type(o).__qualname__
    return name if module in ("builtins", "", None) else module + "." + name


__all__ = [n for n in dir() if not n.startswith("_") and n not in ("builtins", "warnings", "torch")]
