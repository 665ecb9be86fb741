"""Helpers shared by the distributions: broadcasting of parameters, conversions between
probabilities and logits, lazily computed attributes."""

from functools import update_wrapper
from numbers import Number

import torch
import torch.nn.functional as F

euler_constant = 0.57721566490153286060  # the Euler-Mascheroni constant


def broadcast_all(*values):
    """values (tensors or numbers) broadcast to one shape; numbers become tensors of the
    first tensor's dtype (the default dtype when there is none)."""
    if not all(isinstance(v, (torch.Tensor, Number)) for v in values):
        raise ValueError(
            "Input arguments must all be instances of numbers.Number, "
            "torch.Tensor or objects implementing __torch_function__."
        )
    if not all(isinstance(v, torch.Tensor) for v in values):
        dtype, device = torch.get_default_dtype(), None
        for value in values:
            if isinstance(value, torch.Tensor):
                dtype, device = value.dtype, value.device  # numbers join the first tensor's device
                break
        values = [v if isinstance(v, torch.Tensor) else torch.tensor(v, dtype=dtype, device=device) for v in values]
    # as PyTorch's broadcast_tensors: a tensor that already has the shape is returned itself
    shape = torch.broadcast_shapes(*(v.shape for v in values))
    return tuple(v if v.shape == shape else v.expand(shape) for v in values)


def _standard_normal(shape, dtype, device=None):
    return torch.randn(shape, dtype=dtype, device=device)


def _sum_rightmost(value, dim):
    """value with its dim rightmost dimensions summed out."""
    if dim == 0:
        return value
    required_shape = value.shape[: value.dim() - dim] + (-1,)
    return value.reshape(required_shape).sum(-1)


def logits_to_probs(logits, is_binary=False):
    if is_binary:
        return torch.sigmoid(logits)
    return F.softmax(logits, dim=-1)


def expand_probs_or_logits(source, new, shape):
    """Gives new (an instance being made by expand) source's probs and/or logits, whichever
    source holds, expanded to shape; _param is the last of them, as in __init__."""
    for name in ("probs", "logits"):
        if name in source.__dict__:
            value = getattr(source, name).expand(shape)
            setattr(new, name, value)
            new._param = value


def clamp_probs(probs):
    eps = torch.finfo(probs.dtype).eps
    return probs.clamp(min=eps, max=1 - eps)


def probs_to_logits(probs, is_binary=False):
    ps_clamped = clamp_probs(probs)
    if is_binary:
        return torch.log(ps_clamped) - torch.log1p(-ps_clamped)
    return torch.log(ps_clamped)


class lazy_property:
    """An attribute computed on first use (with gradients recorded) and then stored on the
    instance: logits from probs, scale_tril from covariance_matrix."""

    def __init__(self, wrapped):
        self.wrapped = wrapped
        update_wrapper(self, wrapped)

    def __get__(self, instance, obj_type=None):
        if instance is None:
            return self
        with torch.enable_grad():
            value = self.wrapped(instance)
        setattr(instance, self.wrapped.__name__, value)
        return value


def tril_matrix_to_vec(mat, diag=0):
    """The lower triangle of (a batch of) square matrices, row by row."""
    n = mat.shape[-1]
    if diag < -n or diag >= n:
        raise ValueError(f"diag ({diag}) provided is outside [{-n}, {n - 1}].")
    arange = torch.arange(n, device=mat.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    return mat[..., tril_mask]


def vec_to_tril_matrix(vec, diag=0):
    """The inverse of tril_matrix_to_vec."""
    n = (-(1 + 2 * diag) + ((1 + 2 * diag) ** 2 + 8 * vec.shape[-1] + 4 * abs(diag) * (diag + 1)) ** 0.5) / 2
    eps = torch.finfo(vec.dtype).eps
    if round(n) - n > eps:
        raise ValueError(
            f"The size of last dimension is {vec.shape[-1]} which cannot be expressed as "
            + "the lower triangular part of a square D x D matrix."
        )
    n = round(n)
    mat = vec.new_zeros(vec.shape[:-1] + torch.Size((n, n)))
    arange = torch.arange(n, device=vec.device)
    tril_mask = arange < arange.view(-1, 1) + (diag + 1)
    mat[..., tril_mask] = vec
    return mat
