"""Anomaly detection: torch.autograd.detect_anomaly() and set_detect_anomaly(mode).

While it is on, a backward function that returns NaN fails with PyTorch's message
("Function 'DivBackward0' returned nan values in its 0th output."), and an error raised in
the backward of a node is preceded by a warning naming that node, "Error detected in
<name>. Traceback of forward call that caused the error: ...". The traceback is the one
recorded when the node was made: custom Functions record it in their apply(); nodes of the
C++ engine record none here (Note [Anomaly tracebacks]), so their warning names the node,
which names the forward operation (MulBackward0 for a mul), and says that no traceback was
recorded.

Note [Anomaly tracebacks]: PyTorch stores a Python traceback in every node's metadata when
the node is created. Nodes of this engine are created in C++ with no call back into Python, so
only the nodes that Python creates (custom Functions, torch.utils.checkpoint) carry one.
"""

import traceback
import warnings
import weakref

import torch

__all__ = ["detect_anomaly", "set_detect_anomaly", "is_anomaly_enabled", "is_anomaly_check_nan_enabled"]

_state = {"enabled": False, "check_nan": True}
# Nodes given the NaN check already: a graph kept with retain_graph is walked again.
_armed = weakref.WeakSet()


def is_anomaly_enabled():
    return _state["enabled"]


def is_anomaly_check_nan_enabled():
    return _state["check_nan"]


def _set(enabled, check_nan):
    previous = (_state["enabled"], _state["check_nan"])
    _state["enabled"], _state["check_nan"] = bool(enabled), bool(check_nan)
    return previous


class detect_anomaly:
    """Context manager (and decorator) that turns anomaly detection on inside it."""

    def __init__(self, check_nan=True):
        self.check_nan = check_nan
        warnings.warn(
            "Anomaly Detection has been enabled. This mode will increase the runtime and should only be enabled "
            "for debugging.",
            stacklevel=2,
        )

    def __enter__(self):
        self.previous = _set(True, self.check_nan)

    def __exit__(self, *exc):
        _set(*self.previous)
        return False

    def __call__(self, fn):
        def wrapper(*args, **kwargs):
            with self.__class__(self.check_nan):
                return fn(*args, **kwargs)

        wrapper.__name__ = fn.__name__
        wrapper.__doc__ = fn.__doc__
        return wrapper


class set_detect_anomaly:
    """set_detect_anomaly(mode, check_nan=True): switches anomaly detection now; as a context
    manager, restores the previous setting on exit."""

    def __init__(self, mode, check_nan=True):
        self.previous = _set(mode, check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        _set(*self.previous)
        return False


def _error_detected(name, stack):
    if stack is None:
        detail = "No traceback of the forward call was recorded for this node (Note [Anomaly tracebacks])."
    else:
        detail = "Traceback of forward call that caused the error:\n" + "".join(stack)
    warnings.warn("Error detected in {}. {}".format(name, detail), UserWarning)


def _nan_check(node):
    name = node.name()

    def hook(grad_inputs, grad_outputs):
        for i, g in enumerate(grad_inputs):
            if g is not None and g.is_floating_point() and bool(torch.isnan(g).any()):
                _error_detected(name, None)
                raise RuntimeError("Function '{}' returned nan values in its {}th output.".format(name, i))

    return hook


def _arm(roots):
    """Before a backward pass: the NaN check on every node reachable from roots."""
    if not (_state["enabled"] and _state["check_nan"]):
        return
    pending = [t.grad_fn for t in roots if isinstance(t, torch.Tensor) and t.grad_fn is not None]
    while pending:
        node = pending.pop()
        if node in _armed:
            continue
        _armed.add(node)
        if node.name() != "AccumulateGrad":
            node.register_hook(_nan_check(node))
        pending.extend(fn for fn, _ in node.next_functions if fn is not None)


def _forward_stack():
    """The traceback a custom Function records when anomaly detection is on (else None)."""
    if not _state["enabled"]:
        return None
    return traceback.format_stack()[:-2]


def _checked_backward(name, stack, backward):
    """backward of a custom Function, with the anomaly checks when a stack was recorded."""
    if stack is None:
        return backward

    def run(*grads):
        try:
            result = backward(*grads)
            if _state["check_nan"]:
                for i, g in enumerate(result):
                    if isinstance(g, torch.Tensor) and g.is_floating_point() and bool(torch.isnan(g).any()):
                        raise RuntimeError("Function '{}' returned nan values in its {}th output.".format(name, i))
            return result
        except Exception:
            _error_detected(name, stack)
            raise

    return run
