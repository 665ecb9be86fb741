"""Context managers (also usable as decorators) that switch gradient recording."""

import functools

from torch import _C


class _GradModeContext:
    enabled = None

    def __enter__(self):
        self.previous = _C.is_grad_enabled()
        _C._set_grad_enabled(self.enabled)
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.previous)
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__():
                return fn(*args, **kwargs)

        return wrapper


class no_grad(_GradModeContext):
    """Operations inside record no graph: results do not require grad."""

    enabled = False


class enable_grad(_GradModeContext):
    """Turns recording back on inside a no_grad block."""

    enabled = True


class set_grad_enabled:
    """set_grad_enabled(mode): switches recording now; as a context manager, restores on exit."""

    def __init__(self, mode):
        self.previous = _C.is_grad_enabled()
        _C._set_grad_enabled(bool(mode))

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.previous)
        return False


_inference = {"enabled": False}


def is_inference_mode_enabled():
    return _inference["enabled"]


class inference_mode:
    """inference_mode(mode=True): as no_grad inside (nothing records a graph), and
    torch.is_inference_mode_enabled() is True; inference_mode(False) turns recording back on, as
    PyTorch's does. Also a decorator. Tensors made inside are ordinary tensors here, not
    PyTorch's "inference tensors" (Tensor.is_inference() is missing)."""

    def __init__(self, mode=True):
        self.mode = bool(mode)

    def __enter__(self):
        self.previous = (_C.is_grad_enabled(), _inference["enabled"])
        _C._set_grad_enabled(not self.mode)
        _inference["enabled"] = self.mode
        return self

    def __exit__(self, *exc):
        _C._set_grad_enabled(self.previous[0])
        _inference["enabled"] = self.previous[1]
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with inference_mode(self.mode):
                return fn(*args, **kwargs)

        return wrapper
