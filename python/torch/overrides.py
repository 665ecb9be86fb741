"""torch.overrides: the __torch_function__ protocol's helpers, as library code calls them.

This package's own operations do not dispatch to __torch_function__; these helpers let Python
code written against PyTorch's protocol (if has_torch_function(args): return
handle_torch_function(...)) run, and dispatch when an argument's type defines the method.
"""

import threading

from torch._C import Tensor

__all__ = ["has_torch_function", "handle_torch_function", "is_tensor_like"]

_disabled = threading.local()  # depth of DisableTorchFunction blocks on this thread


class DisableTorchFunction:
    """torch.DisableTorchFunction: inside the block no argument has a __torch_function__ to
    dispatch to, so code written against the protocol runs its plain path (as a subclass's own
    __torch_function__ does to call the original function)."""

    def __enter__(self):
        _disabled.depth = getattr(_disabled, "depth", 0) + 1

    def __exit__(self, *exc):
        _disabled.depth -= 1


def _overloaded(args):
    """The arguments whose type defines __torch_function__, one per type, subclasses first."""
    found = []
    for a in args:
        t = type(a)
        if getattr(t, "__torch_function__", None) is None or any(type(f) is t for f in found):
            continue
        at = next((i for i, f in enumerate(found) if issubclass(t, type(f))), len(found))
        found.insert(at, a)
    return found


def has_torch_function(relevant_args):
    """Whether any of relevant_args has a __torch_function__ to dispatch to."""
    return not getattr(_disabled, "depth", 0) and bool(_overloaded(relevant_args))


def has_torch_function_unary(arg):
    return has_torch_function((arg,))


def has_torch_function_variadic(*args):
    return has_torch_function(args)


def handle_torch_function(public_api, relevant_args, *args, **kwargs):
    """Calls __torch_function__(public_api, types, args, kwargs) of the overloaded arguments in
    turn, until one returns something other than NotImplemented."""
    overloaded = _overloaded(relevant_args)
    types = tuple(type(a) for a in overloaded)
    for a in overloaded:
        result = type(a).__torch_function__(public_api, types, args, kwargs)
        if result is not NotImplemented:
            return result
    raise TypeError(
        "no implementation found for '%s' on types that implement __torch_function__: %s"
        % (getattr(public_api, "__name__", public_api), [t.__name__ for t in types])
    )


def is_tensor_like(inp):
    """Whether inp is a tensor or behaves as one (its type defines __torch_function__)."""
    return type(inp) is Tensor or isinstance(inp, Tensor) or hasattr(type(inp), "__torch_function__")
