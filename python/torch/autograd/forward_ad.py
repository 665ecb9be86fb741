"""torch.autograd.forward_ad: forward-mode differentiation as PyTorch 1.13 offers it.

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)
        y = f(x)
        value, jvp = forward_ad.unpack_dual(y)   # jvp = J_f(primal) @ tangent

Note [Forward mode from reverse-mode rows]: the engine is reverse mode only, so a dual tensor
is its primal recorded by the reverse-mode engine (a leaf that requires grad, or a view of the
primal where that already requires grad) with its tangent attached, and a tangent is computed
when unpack_dual asks for it, not op by op: for an output y of the duals x_i with tangents t_i,
element k of J t = sum_i (dy/dx_i) t_i is <(dy/dx_i)^T e_k, t_i>, one reverse pass per element
of y with the one-hot e_k as its gradient. The double-backward trick (the gradient of
<(dy/dx)^T u, t> with respect to u, two passes in all) would be cheaper, but it needs every op's
backward to be recorded with create_graph, and the NN kernels' backwards (linear, convolutions,
activations, losses) are not: their part of the tangent would silently be zero. Rows need only
first-order derivatives, so every op with a reverse-mode derivative has its forward-mode one,
equal to PyTorch's; the cost is y.numel() reverse passes per unpacked output. Differences from
1.13: a dual made from a primal that does not require grad does require grad (the engine
records it), and its unpacked primal is detached; nothing is recorded under torch.no_grad(), so
results computed there have no tangent; only one level exists at a time, as in 1.13.
"""

from collections import namedtuple

import torch

__all__ = ["UnpackedDualTensor", "dual_level", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual"]

_current_level = -1
# the duals made at the current level, held until it is exited: a result's graph keeps a dual's
# value but not the Python tensor whose gradient the reverse passes ask for
_duals = []


def enter_dual_level():
    """Opens the (single) forward AD level and returns its index, 0."""
    global _current_level
    if _current_level >= 0:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _current_level = 0
    return _current_level


def exit_dual_level(*, level=None):
    """Closes the level: the duals made in it lose their tangents."""
    global _current_level
    level = _current_level if level is None else level
    if level < 0:
        raise RuntimeError("Dual level must be a positive number.")
    if level != _current_level:
        raise RuntimeError(
            "Trying to exit a forward AD level that was not the last one that was created. This is not supported."
        )
    for dual in _duals:
        del dual._fw_tangent
    _duals.clear()
    _current_level = -1


def _level(level):
    return _current_level if level is None else level


def make_dual(tensor, tangent, *, level=None):
    """A tensor whose value is tensor's and whose forward gradient is tangent, at the level."""
    level = _level(level)
    if level < 0 or level != _current_level:
        raise RuntimeError(
            "Trying to create a dual Tensor for forward AD but no level exists, make sure to enter_dual_level() first."
        )
    for name, t in (("primal", tensor), ("tangent", tangent)):
        if not isinstance(t, torch.Tensor):
            raise TypeError("make_dual(): argument '%s' must be Tensor, not %s" % (name, type(t).__name__))
        if not t.is_floating_point():
            raise ValueError("Expected %s to be floating point or complex, but got: %s" % (name, t.dtype))
    if tuple(tangent.shape) != tuple(tensor.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
            "not supported. Tensor is of size %s while the given forward gradient is of size %s."
            % (list(tensor.shape), list(tangent.shape))
        )
    with torch.enable_grad():
        dual = tensor.view_as(tensor) if tensor.requires_grad else tensor.detach().requires_grad_()
    dual._fw_tangent = tangent.detach()
    _duals.append(dual)
    return dual


_UnpackedDualTensor = namedtuple("_UnpackedDualTensor", ["primal", "tangent"])


class UnpackedDualTensor(_UnpackedDualTensor):
    """unpack_dual's result: the primal and the tangent (None where there is none) of a tensor."""


def _jvp_rows(outputs, inputs, tangents):
    """J t for each output over inputs with tangents (Note [Forward mode from reverse-mode
    rows]): one reverse pass per output element; None for an output that no input reaches."""
    results = []
    with torch.enable_grad():
        for output in outputs:
            if output is None or not output.requires_grad or not output.is_floating_point():
                results.append(None)
                continue
            flat = torch.zeros(output.numel(), dtype=torch.float64)
            reached = False
            one_hot = torch.zeros(output.numel(), dtype=output.dtype, device=output.device)
            for k in range(output.numel()):
                one_hot.zero_()
                one_hot[k] = 1
                rows = torch.autograd.grad(
                    output, inputs, one_hot.reshape(output.shape), retain_graph=True, allow_unused=True
                )
                for row, tangent in zip(rows, tangents):
                    if row is not None:
                        reached = True
                        flat[k] += (row.detach().to(torch.float64) * tangent.detach().to(torch.float64)).sum().item()
            results.append(flat.to(output.dtype).reshape(output.shape).to(output.device) if reached else None)
    return results


def _tangent(tensor):
    """tensor's Jacobian-vector product over the current level's duals, or None where it
    depends on none of them."""
    if not _duals:
        return None
    return _jvp_rows([tensor], _duals, [d._fw_tangent for d in _duals])[0]


def unpack_dual(tensor, *, level=None):
    """(primal, tangent) of tensor at the level: tangent is None for a tensor that depends on no
    dual of the level (and outside every level)."""
    if not isinstance(tensor, torch.Tensor):
        raise TypeError("unpack_dual(): argument 'tensor' must be Tensor, not %s" % type(tensor).__name__)
    level = _level(level)
    if level < 0 or level != _current_level:
        return UnpackedDualTensor(tensor, None)
    own = getattr(tensor, "_fw_tangent", None)
    if own is not None:
        return UnpackedDualTensor(tensor.detach(), own)
    return UnpackedDualTensor(tensor.detach() if tensor.requires_grad else tensor, _tangent(tensor))


class dual_level:
    """Context manager (and decorator) of a forward AD level: entered on entry, exited (the
    duals losing their tangents) on exit; the level's index is what `as` binds."""

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, *exc):
        exit_dual_level()
        return False

    def __call__(self, fn):
        def wrapped(*args, **kwargs):
            with dual_level():
                return fn(*args, **kwargs)

        wrapped.__name__ = getattr(fn, "__name__", "wrapped")
        wrapped.__doc__ = getattr(fn, "__doc__", None)
        return wrapped
