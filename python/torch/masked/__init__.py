"""torch.masked: reductions and normalizations that see only the elements where mask is True,
as PyTorch 1.13's (without its prototype MaskedTensor class).

Note [Masked operations by identities]: each function fills the masked-out elements with its
reduction's identity (0 for sum, 1 for prod, -inf for amax, logsumexp and softmax, ...) and
runs the ordinary op, so the kernels and their gradients are the plain ones. A slice with no
element left gives what the identity gives: sum 0, amax -inf, and mean, var, median, softmax
nan (0/0), as in 1.13. mask broadcasts to input's shape; mask=None keeps every element.
"""

import torch

__all__ = [
    "amax",
    "amin",
    "argmax",
    "argmin",
    "cumprod",
    "cumsum",
    "log_softmax",
    "logaddexp",
    "logsumexp",
    "mean",
    "median",
    "norm",
    "normalize",
    "prod",
    "softmax",
    "softmin",
    "std",
    "sum",
    "var",
]


def _mask_of(input, mask):
    if mask is None:
        return torch.ones(input.shape, dtype=torch.bool)
    if mask.dtype != torch.bool:
        raise ValueError("masked: mask must be a bool tensor, got %s" % mask.dtype)
    return mask.expand(input.shape)


def _filled(input, mask, identity):
    """input with its masked-out elements replaced by identity."""
    return torch.where(_mask_of(input, mask), input, torch.full_like(input, identity))


def _dims(input, dim):
    """dim as a tuple of dimensions (all of them for None)."""
    if dim is None:
        return tuple(range(input.dim()))
    return tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)


def _largest(dtype):
    return float("inf") if dtype.is_floating_point else torch.iinfo(dtype).max


def _smallest(dtype):
    return float("-inf") if dtype.is_floating_point else torch.iinfo(dtype).min


def sum(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    return torch.sum(_filled(input, mask, 0), _dims(input, dim), keepdim=bool(keepdim), dtype=dtype)


def prod(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    result = _filled(input, mask, 1)
    for d in sorted((d % max(input.dim(), 1) for d in _dims(input, dim)), reverse=True):
        result = torch.prod(result, d, keepdim=bool(keepdim), dtype=dtype)
    return result


def amax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    result = torch.amax(_filled(input, mask, _smallest(input.dtype)), _dims(input, dim), bool(keepdim))
    return result if dtype is None else result.to(dtype)


def amin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    result = torch.amin(_filled(input, mask, _largest(input.dtype)), _dims(input, dim), bool(keepdim))
    return result if dtype is None else result.to(dtype)


def argmax(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    """The index of the largest unmasked element, in dtype (default input's, as 1.13 gives)."""
    result = torch.argmax(_filled(input, mask, _smallest(input.dtype)), dim, keepdim=bool(keepdim))
    return result.to(input.dtype if dtype is None else dtype)


def argmin(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    result = torch.argmin(_filled(input, mask, _largest(input.dtype)), dim, keepdim=bool(keepdim))
    return result.to(input.dtype if dtype is None else dtype)


def _count(input, dim, keepdim, mask):
    return torch.sum(_mask_of(input, mask), _dims(input, dim), keepdim=bool(keepdim))


def mean(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    total = sum(input, dim, keepdim=keepdim, dtype=dtype, mask=mask)
    return total / _count(input, dim, keepdim, mask)


def median(input, dim=-1, *, keepdim=False, dtype=None, mask=None):
    """The lower median of the unmasked elements along dim (nan where there is none)."""
    values = input if dtype is None else input.to(dtype)
    return torch.nanmedian(_filled(values, mask, float("nan")), dim, keepdim=bool(keepdim)).values


def logsumexp(input, dim=None, *, keepdim=False, dtype=None, mask=None):
    values = input if dtype is None else input.to(dtype)
    return torch.logsumexp(_filled(values, mask, float("-inf")), _dims(input, dim), keepdim=bool(keepdim))


def norm(input, ord=2.0, dim=None, *, keepdim=False, dtype=None, mask=None):
    identity = float("inf") if ord == float("-inf") else 0.0
    values = input if dtype is None else input.to(dtype)
    return torch.linalg.vector_norm(_filled(values, mask, identity), ord, _dims(input, dim), bool(keepdim))


def var(input, dim=None, unbiased=False, *, keepdim=False, dtype=None, mask=None):
    values = input if dtype is None else input.to(dtype)
    count = _count(values, dim, True, mask)
    centred = values - sum(values, dim, keepdim=True, mask=mask) / count
    squares = sum(centred * centred, dim, keepdim=keepdim, mask=mask)
    # no degree of freedom left (every element masked, or one with unbiased) gives 0/0 = nan
    return squares / torch.clamp(_count(values, dim, keepdim, mask) - int(bool(unbiased)), min=0)


def std(input, dim=None, unbiased=False, *, keepdim=False, dtype=None, mask=None):
    return torch.sqrt(var(input, dim, unbiased, keepdim=keepdim, dtype=dtype, mask=mask))


def cumsum(input, dim, *, dtype=None, mask=None):
    return torch.cumsum(_filled(input, mask, 0), dim, dtype=dtype)


def cumprod(input, dim, *, dtype=None, mask=None):
    return torch.cumprod(_filled(input, mask, 1), dim, dtype=dtype)


def softmax(input, dim, *, dtype=None, mask=None):
    return torch.softmax(_filled(input, mask, float("-inf")), dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None, mask=None):
    return torch.log_softmax(_filled(input, mask, float("-inf")), dim, dtype=dtype)


def softmin(input, dim, *, dtype=None, mask=None):
    return torch.softmax(-_filled(input, mask, float("inf")), dim, dtype=dtype)


def normalize(input, ord, dim, *, eps=1e-12, dtype=None, mask=None):
    """input over its masked norm along dim (at least eps); masked-out elements give 0."""
    values = input if dtype is None else input.to(dtype)
    scale = norm(values, ord, dim, keepdim=True, mask=mask).clamp(min=eps)
    return _filled(values, mask, 0) / scale


def logaddexp(input, other, *, dtype=None, input_mask=None, other_mask=None):
    values, others = (input, other) if dtype is None else (input.to(dtype), other.to(dtype))
    return torch.logaddexp(_filled(values, input_mask, float("-inf")), _filled(others, other_mask, float("-inf")))
