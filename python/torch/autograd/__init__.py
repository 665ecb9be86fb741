"""torch.autograd: gradients of tensor computations, on the C++ engine in autograd/.

x = torch.randn(3, requires_grad=True)
y = (x * x).sum()
y.backward()           # x.grad == 2 * x
(g,) = torch.autograd.grad((x ** 3).sum(), x)
"""

import warnings  # noqa: F401  (1.13's module holds these imports too)
from typing import Any, Callable, List, Optional, Sequence, Tuple, Union, cast  # noqa: F401

import torch
from torch import _C
from torch.autograd import anomaly_mode, forward_ad, functional, graph, profiler, profiler_util  # noqa: F401
from torch.autograd.profiler import ProfilerActivity  # noqa: F401
from torch.autograd.anomaly_mode import detect_anomaly, set_detect_anomaly
from torch.autograd.function import Function, NestedIOFunction
from torch.autograd.grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from torch.autograd.gradcheck import gradcheck, gradgradcheck
from torch.overrides import handle_torch_function, has_torch_function, is_tensor_like  # noqa: F401

__all__ = [
    "Variable",
    "Function",
    "backward",
    "grad",
    "no_grad",
    "enable_grad",
    "set_grad_enabled",
    "inference_mode",
    "detect_anomaly",
    "set_detect_anomaly",
    "functional",
    "gradcheck",
    "gradgradcheck",
]


def _as_tuple(x):
    if x is None:
        return ()
    if isinstance(x, torch.Tensor):
        return (x,)
    return tuple(x)


def _seeds(tensors, grad_tensors):
    grads = _as_tuple(grad_tensors)
    if not grads:
        grads = (None,) * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError("grad_tensors has %d elements but tensors has %d" % (len(grads), len(tensors)))
    return tuple(g if g is None or isinstance(g, torch.Tensor) else torch.tensor(g) for g in grads)


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, inputs=None):
    """Accumulates the gradients of tensors (seeded with grad_tensors) into the .grad of the
    leaves they depend on (or of `inputs` only)."""
    tensors = _as_tuple(tensors)
    if retain_graph is None:
        retain_graph = create_graph
    seeds = _seeds(tensors, grad_tensors)
    anomaly_mode._arm(tensors)
    if inputs is not None:
        inputs = _as_tuple(inputs)
        grads = _C._run_backward(tensors, seeds, retain_graph, create_graph, inputs, True)
        for x, g in zip(inputs, grads):
            if g is None:
                continue
            if x.grad is None:
                x.grad = g if create_graph else g.detach().clone()
            else:
                x.grad = x.grad + g if create_graph else x.grad.add_(g)
        return
    _C._run_backward(tensors, seeds, retain_graph, create_graph, (), False)


def grad(
    outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True, allow_unused=False
):
    """The gradients of outputs with respect to inputs, returned (no .grad changes)."""
    outputs = _as_tuple(outputs)
    inputs = _as_tuple(inputs)
    if retain_graph is None:
        retain_graph = create_graph
    anomaly_mode._arm(outputs)
    return _C._run_backward(outputs, _seeds(outputs, grad_outputs), retain_graph, create_graph, inputs, allow_unused)


def Variable(data, requires_grad=False, volatile=False):
    """The 0.1-era wrapper: a tensor that shares data's memory, with requires_grad set."""
    if not isinstance(data, torch.Tensor):
        raise TypeError("Variable data has to be a tensor, but got %s" % type(data).__name__)
    v = data.detach()
    if requires_grad:
        v.requires_grad_(True)
    return v


Variable.__doc__ = "Variable(tensor, requires_grad=False): see torch.Tensor; kept for old scripts."


def kineto_available():
    """Whether the Kineto profiler backs torch.profiler: never, here."""
    return False


from torch.autograd import variable  # noqa: E402,F401  (where old programs import Variable from)
