"""torch.jit: TorchScript's eager-mode surface.

There is no TorchScript compiler here. What PyTorch's own eager mode does is done: the
decorators that only mark code for the compiler (ignore, unused, export, interface) return
what they mark, is_scripting() and is_tracing() are False, annotate gives its value. script
and trace compile, so they raise a clear error -- unless PYTORCH_JIT=0 is set, which in
PyTorch too turns every script and trace into the object it was given (for debugging), so a
program written for TorchScript runs eagerly."""

import os
import typing

__all__ = [
    "Final",
    "annotate",
    "export",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "load",
    "save",
    "script",
    "trace",
    "trace_module",
    "unused",
    "freeze",
    "optimize_for_inference",
    "enable_onednn_fusion",
    "fork",
    "wait",
]

Final = typing.Final


def _enabled():
    return os.environ.get("PYTORCH_JIT", "1") != "0"


def _refuse(name):
    raise RuntimeError(
        "torch.jit.%s: this PyTorch has no TorchScript compiler; set PYTORCH_JIT=0 to run the "
        "program eagerly (script and trace then return the object they are given, as in PyTorch)" % name
    )


def is_scripting():
    """False: code runs in Python, never as TorchScript."""
    return False


def is_tracing():
    """False: nothing is being traced."""
    return False


def annotate(the_type, the_value):
    """The value (a type hint for the compiler only)."""
    return the_value


def ignore(drop=False, **kwargs):
    """Leaves a function to Python (every function here is): the function itself."""
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn):
    """Marks a method the compiler should skip: the method itself."""
    return fn


def export(fn):
    """Marks a method for compilation: the method itself."""
    return fn


def interface(obj):
    """Marks a class as a TorchScript interface: the class itself."""
    return obj


def script(obj, optimize=None, _frames_up=0, _rcb=None, example_inputs=None):
    if _enabled():
        _refuse("script")
    return obj


def trace(
    func,
    example_inputs=None,
    optimize=None,
    check_trace=True,
    check_inputs=None,
    check_tolerance=1e-5,
    strict=True,
    _force_outplace=False,
    _module_class=None,
    _compilation_unit=None,
):
    if _enabled():
        _refuse("trace")
    return func


def trace_module(mod, inputs, *args, **kwargs):
    if _enabled():
        _refuse("trace_module")
    return mod


def freeze(mod, preserved_attrs=None, optimize_numerics=True):
    _refuse("freeze")


def optimize_for_inference(mod, other_methods=None):
    _refuse("optimize_for_inference")


def save(m, f, _extra_files=None):
    _refuse("save")


def load(f, map_location=None, _extra_files=None):
    raise RuntimeError(
        "torch.jit.load: TorchScript archives cannot be loaded here (there is no TorchScript "
        "runtime); save the model's state_dict with torch.save and load it into the Python module"
    )


def enable_onednn_fusion(enabled):
    """A fuser switch of the compiler: accepted, with nothing to fuse."""
    if not isinstance(enabled, bool):
        raise TypeError("enable_onednn_fusion expects a bool, got %s" % type(enabled).__name__)


class ScriptModule:
    """The type of compiled modules; none exist here (isinstance checks are False)."""


class ScriptFunction:
    """The type of compiled functions; none exist here (isinstance checks are False)."""


def fork(func, *args, **kwargs):
    """func(*args, **kwargs) as a torch.futures.Future; run at once, in eager mode."""
    from torch.futures import Future

    fut = Future()
    try:
        fut.set_result(func(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001  (delivered by wait)
        fut.set_exception(exc)
    return fut


def wait(future):
    """The value of a Future that fork returned (waiting for it)."""
    return future.wait()
