"""scatter_reduce and index_reduce (PyTorch 1.13): reduce the values of src into the places of
input that index names along dim, by sum, prod, mean, amax or amin, with or without input's own
value (include_self). Written over index_add and index_put: the values reduced into one place
are combined in rounds, each round taking at most one of them per place; the gradients are
PyTorch's (amax/amin's shared evenly among the values equal to the result, prod's the product
of the others)."""

import torch

__all__ = ["scatter_reduce", "index_reduce"]

_REDUCES = ("sum", "prod", "mean", "amax", "amin")


def _targets(input, dim, index):
    """The flat positions in input (contiguous) that each element of index names."""
    shape = index.shape
    strides = []
    stride = 1
    for size in reversed(input.shape):
        strides.append(stride)
        stride *= size
    strides.reverse()
    lin = torch.zeros(shape, dtype=torch.int64)
    for d in range(index.dim()):
        if d == dim:
            coord = index
        else:
            view = [1] * index.dim()
            view[d] = shape[d]
            coord = torch.arange(shape[d]).view(view)
        lin = lin + coord * strides[d]
    return lin.reshape(-1)


def _rounds(lin):
    """Each element's rank among the elements with its target (0 for the first), and the
    number of ranks."""
    if lin.numel() == 0:
        return lin, 0
    order = torch.argsort(lin, stable=True)
    sorted_lin = lin[order]
    _, counts = torch.unique_consecutive(sorted_lin, return_counts=True)
    starts = torch.cumsum(counts, 0) - counts
    rank_sorted = torch.arange(lin.numel()) - torch.repeat_interleave(starts, counts)
    rank = torch.empty_like(rank_sorted)
    rank[order] = rank_sorted
    return rank, int(counts.max())


def _combine(reduce, a, b):
    if reduce == "prod":
        return a * b
    if reduce == "amax":
        return torch.maximum(a, b)
    return torch.minimum(a, b)


def _identity(reduce, dtype):
    if reduce == "prod":
        return 1
    if dtype.is_floating_point:
        return -float("inf") if reduce == "amax" else float("inf")
    info = torch.iinfo(dtype)
    return info.min if reduce == "amax" else info.max


def _forward(flat_self, lin, flat_src, reduce, include_self):
    """The reduced flat result, the scattered count per place, and the mask of touched places."""
    n = flat_self.numel()
    count = torch.zeros(n, dtype=torch.int64).index_add(0, lin, torch.ones_like(lin))
    touched = count > 0
    if reduce in ("sum", "mean"):
        start = flat_self if include_self else torch.where(touched, torch.zeros_like(flat_self), flat_self)
        out = start.index_add(0, lin, flat_src)
        if reduce == "mean":
            divisor = count + (1 if include_self else 0)
            divisor = torch.where(touched, divisor, torch.ones_like(divisor)).to(out.dtype)
            if out.dtype.is_floating_point:
                out = out / divisor
            else:
                out = torch.div(out, divisor, rounding_mode="floor")
        return out, count, touched
    fill = torch.full_like(flat_self, _identity(reduce, flat_self.dtype))
    out = flat_self.clone() if include_self else torch.where(touched, fill, flat_self)
    rank, rounds = _rounds(lin)
    for r in range(rounds):
        sel = rank == r
        places = lin[sel]
        out[places] = _combine(reduce, out[places], flat_src[sel])
    return out, count, touched


class _ScatterReduce(torch.autograd.Function):
    @staticmethod
    def forward(ctx, flat_self, flat_src, lin, reduce, include_self):
        with torch.no_grad():
            out, count, touched = _forward(flat_self, lin, flat_src, reduce, include_self)
        ctx.reduce, ctx.include_self = reduce, include_self
        ctx.save_for_backward(flat_self, flat_src, lin, out, count, touched)
        return out

    @staticmethod
    def backward(ctx, g):
        flat_self, flat_src, lin, out, count, touched = ctx.saved_tensors
        reduce, include_self = ctx.reduce, ctx.include_self
        keep = torch.ones_like(g) if include_self else (~touched).to(g.dtype)

        def kept(grad):
            # nothing (a true zero) for the own values that include_self=False leaves out
            return torch.where(keep > 0, grad, torch.zeros_like(grad))

        if reduce == "sum":
            return kept(g), g[lin], None, None, None
        if reduce == "mean":
            divisor = (count + (1 if include_self else 0)).clamp(min=1).to(g.dtype)
            per = g / divisor
            grad_self = torch.where(touched, kept(per), g)
            return grad_self, per[lin], None, None, None
        if reduce in ("amax", "amin"):
            # shared evenly among the values (own included) equal to the result
            self_hit = (flat_self == out).to(g.dtype)
            self_hit = torch.where(touched, kept(self_hit), torch.ones_like(self_hit))
            src_hit = (flat_src == out[lin]).to(g.dtype)
            ties = self_hit.index_add(0, lin, src_hit)
            per = g / ties.clamp(min=1)
            return per * self_hit, per[lin] * src_hit, None, None, None
        # prod: the product of the others, counting zeros apart so that none is divided by
        zero_src = flat_src == 0
        nonzero_src = torch.where(zero_src, torch.ones_like(flat_src), flat_src)
        zero_self = (flat_self == 0) & (keep > 0)
        nonzero_self = torch.where(zero_self | (keep == 0), torch.ones_like(flat_self), flat_self)
        zeros = zero_self.to(torch.int64).index_add(0, lin, zero_src.to(torch.int64))
        # product of the nonzero factors of each place, own value included where it counts
        prod_nonzero = nonzero_self.clone()
        rank, rounds = _rounds(lin)
        for r in range(rounds):
            sel = rank == r
            places = lin[sel]
            prod_nonzero[places] = prod_nonzero[places] * nonzero_src[sel]

        def others(is_zero, nonzero_value, z, p):
            # product of the other factors: p / x without zeros; p where x is the only zero
            return torch.where(z == 0, p / nonzero_value, torch.where(is_zero & (z == 1), p, torch.zeros_like(p)))

        grad_self = kept(g * others(zero_self, nonzero_self, zeros, prod_nonzero))
        grad_self = torch.where(touched, grad_self, g)
        grad_src = g[lin] * others(zero_src, nonzero_src, zeros[lin], prod_nonzero[lin])
        return grad_self, grad_src, None, None, None


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True, out=None):
    if reduce not in _REDUCES:
        raise RuntimeError("reduce argument must be either sum, prod, mean, amax or amin, got " + str(reduce))
    if index.dtype != torch.int64:
        raise RuntimeError("scatter_reduce(): Expected dtype int64 for index")
    if input.dtype != src.dtype:
        raise RuntimeError("scatter_reduce(): Expected self.dtype to be equal to src.dtype")
    dim = dim + input.dim() if dim < 0 else dim
    if not (input.dim() == index.dim() == src.dim()) and index.numel() > 0:
        raise RuntimeError("Index tensor must have the same number of dimensions as self tensor")
    for d in range(index.dim()):
        if index.shape[d] > src.shape[d] or (d != dim and index.shape[d] > input.shape[d]):
            raise RuntimeError(
                "Size does not match at dimension %d expected index %s to be smaller than self %s apart from "
                "dimension %d and to be smaller size than src %s"
                % (d, list(index.shape), list(input.shape), dim, list(src.shape))
            )
    if index.numel() and (bool((index < 0).any()) or bool((index >= input.shape[dim]).any())):
        raise RuntimeError("index out of bounds for dimension %d with size %d" % (dim, input.shape[dim]))
    piece = src
    for d in range(index.dim()):
        piece = piece.narrow(d, 0, index.shape[d])
    lin = _targets(input, dim, index)
    flat = _ScatterReduce.apply(input.reshape(-1), piece.reshape(-1), lin, reduce, include_self)
    result = flat.reshape(input.shape)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result


def index_reduce(input, dim, index, source, reduce, *, include_self=True, out=None):
    """source's slice i along dim reduced into input's slice index[i] (reduce: prod, mean,
    amax or amin)."""
    if reduce not in ("prod", "mean", "amax", "amin"):
        raise RuntimeError(
            "index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got " + str(reduce)
        )
    if index.dim() > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector")
    if index.dtype not in (torch.int64, torch.int32):
        raise RuntimeError("index_reduce_(): Expected dtype int32/int64 for index")
    dim = dim + input.dim() if dim < 0 else dim
    source_shape = list(input.shape)
    if input.dim():
        source_shape[dim] = index.numel()
    if list(source.shape) != source_shape and not (input.dim() == 0 and source.numel() == 1):
        raise RuntimeError(
            "index_reduce_(): Source/destination tensor must have same slice shapes. Destination slice shape: "
            "%s at dimension %d and source slice shape: %s at dimension 0."
            % (list(input.shape), dim, list(source.shape))
        )
    if input.dim() == 0:
        input_, source_ = input.reshape(1), source.reshape(1)
        r = index_reduce(input_, 0, index.reshape(1).long(), source_, reduce, include_self=include_self)
        result = r.reshape(())
    else:
        view = [1] * source.dim()
        view[dim] = -1
        full_index = index.long().view(view).expand(source.shape)
        result = scatter_reduce(input, dim, full_index, source, reduce, include_self=include_self)
    if out is not None:
        out.resize_(result.shape)
        out.copy_(result)
        return out
    return result


def _scatter_reduce_method(self, dim, index, src, reduce, *, include_self=True):
    return scatter_reduce(self, dim, index, src, reduce, include_self=include_self)


def _scatter_reduce_(self, dim, index, src, reduce, *, include_self=True):
    return self.copy_(scatter_reduce(self, dim, index, src, reduce, include_self=include_self))


def _index_reduce_method(self, dim, index, source, reduce, *, include_self=True):
    return index_reduce(self, dim, index, source, reduce, include_self=include_self)


def _index_reduce_(self, dim, index, source, reduce, *, include_self=True):
    return self.copy_(index_reduce(self, dim, index, source, reduce, include_self=include_self))


torch.Tensor.scatter_reduce = _scatter_reduce_method
torch.Tensor.scatter_reduce_ = _scatter_reduce_
torch.Tensor.index_reduce = _index_reduce_method
torch.Tensor.index_reduce_ = _index_reduce_
