"""torch.segment_reduce: a reduction of consecutive segments of data along an axis, the
segments given by their lengths (or offsets), written over the core's ops (so differentiable,
with amax's even split of the gradient among tied maxima, as PyTorch 1.13's backward)."""

import itertools
import math

import torch

__all__ = ["segment_reduce"]

_REDUCTIONS = ("max", "mean", "min", "sum", "prod")
# the value of an empty segment without initial
_EMPTY = {"max": -math.inf, "min": math.inf, "sum": 0.0, "prod": 1.0, "mean": math.nan}


def _reduce(piece, reduce, initial):
    """piece [length, ...] reduced over dim 0 (length > 0)."""
    if reduce == "sum":
        r = piece.sum(0)
        return r if initial is None else r + initial
    if reduce == "prod":
        r = piece.prod(0)
        return r if initial is None else r * initial
    if reduce == "mean":
        # as 1.13: initial joins the sum, the count stays the segment's length
        total = piece.sum(0) if initial is None else piece.sum(0) + initial
        return total / piece.shape[0]
    r = piece.amax(0) if reduce == "max" else piece.amin(0)
    if initial is None:
        return r
    # a maximum tied with initial keeps its whole gradient, as in 1.13
    wins = r >= initial if reduce == "max" else r <= initial
    return torch.where(wins, r, torch.full_like(r, initial))


def segment_reduce(data, reduce, *, lengths=None, indices=None, offsets=None, axis=0, unsafe=False, initial=None):
    """For each segment of data along axis (lengths [*data.shape[:axis], segments], or offsets
    with one more column), its reduce ('sum', 'mean', 'max', 'min' or 'prod'); an empty
    segment gives initial, or 0, 1, NaN, -inf, inf for sum, prod, mean, max, min."""
    if not isinstance(data, torch.Tensor):
        raise TypeError("segment_reduce(): argument 'data' (position 1) must be Tensor, not %s" % type(data).__name__)
    if reduce not in _REDUCTIONS:
        raise RuntimeError("unsupported reduction given! %s" % reduce)
    if indices is not None:
        raise RuntimeError("segment_reduce(): indices based reduction is not supported yet.")
    if lengths is None and offsets is None:
        raise RuntimeError("segment_reduce(): Either lengths or offsets must be defined.")
    if data.dtype not in (torch.float32, torch.float64, torch.float16):
        name = {torch.int64: "Long", torch.int32: "Int", torch.bool: "Bool"}.get(data.dtype, str(data.dtype))
        raise RuntimeError("\"_segment_reduce_cpu\" not implemented for '%s'" % name)
    axis = axis % data.dim()
    if lengths is None:
        lengths = offsets[..., 1:] - offsets[..., :-1]
    if lengths.dim() != axis + 1 or tuple(lengths.shape[:-1]) != tuple(data.shape[:axis]):
        raise RuntimeError(
            "segment_reduce(): Expected lengths (or offsets) of shape %s + [segments], got %s"
            % (list(data.shape[:axis]), list(lengths.shape))
        )
    if bool((lengths < 0).any()):
        raise RuntimeError("lengths contains negative value!")
    if not unsafe and bool((lengths.sum(-1) != data.shape[axis]).any()):
        raise RuntimeError(
            "segment_reduce(): Expected all rows of lengths along axis to sum to data.size(lengths.dim()-1) when !unsafe."
        )
    batches = []
    for batch in itertools.product(*(range(s) for s in data.shape[:axis])):
        rows = data[batch] if batch else data
        results, start = [], 0
        for length in lengths[batch].tolist() if batch else lengths.tolist():
            if length == 0:
                fill = _EMPTY[reduce] if initial is None else initial
                results.append(torch.full(rows.shape[1:], fill, dtype=data.dtype))
            else:
                results.append(_reduce(rows.narrow(0, start, length), reduce, initial))
            start += length
        batches.append(torch.stack(results) if results else rows.new_zeros((0,) + tuple(rows.shape[1:])))
    return torch.stack(batches).reshape(tuple(data.shape[:axis]) + tuple(batches[0].shape))
