"""QR in LAPACK's compact Householder form (PyTorch 1.13's torch.geqrf, torch.orgqr /
torch.linalg.householder_product and torch.ormqr), written over matmul. A reflector
H = I - tau v v^T has v[i] = 1 above its diagonal entry's zeros and the rest of v below the
diagonal of column i of the compact matrix; Q = H_0 H_1 ... H_{k-1}. Real dtypes only."""

import collections

import torch

_geqrf_type = collections.namedtuple("geqrf", ["a", "tau"])
_geqrf_type.__module__ = "torch.return_types"
torch.return_types.geqrf = _geqrf_type

__all__ = ["geqrf", "orgqr", "ormqr"]


def _reflector(a, tau, i):
    """The i-th Householder vector, (..., m), from the compact matrix's column i."""
    m = a.shape[-2]
    col = a[..., :, i]
    rows = torch.arange(m)
    one = torch.ones_like(col)
    return torch.where(rows > i, col, torch.where(rows == i, one, torch.zeros_like(col)))


def _apply(a, tau, x, reverse):
    """H_0 ... H_{k-1} x (reverse: H_{k-1} ... H_0 x) for x of shape (..., m, p)."""
    k = tau.shape[-1]
    order = range(k) if reverse else reversed(range(k))
    for i in order:
        v = _reflector(a, tau, i).unsqueeze(-1)
        x = x - tau[..., i, None, None] * torch.matmul(v, torch.matmul(v.transpose(-2, -1), x))
    return x


def _check(fname, a, tau):
    if a.dim() < 2:
        raise RuntimeError(fname + ": input must have at least 2 dimensions.")
    if tau.shape[-1] > a.shape[-1]:
        raise RuntimeError(fname + ": input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if a.shape[-2] < a.shape[-1]:
        raise RuntimeError(fname + ": input.shape[-2] must be greater than or equal to input.shape[-1]")
    if tau.shape[:-1] != a.shape[:-2]:
        raise RuntimeError(fname + ": Expected batch dimensions of tau to be equal to input.shape[:-2]")


def householder_product(A, tau, *, out=None):
    """The first n columns of H_0 ... H_{k-1}: the Q of a QR factorisation in compact form."""
    _check("torch.linalg.householder_product", A, tau)
    m, n = A.shape[-2], A.shape[-1]
    eye = torch.eye(m, n, dtype=A.dtype).expand(A.shape[:-2] + (m, n))
    result = _apply(A, tau, eye, reverse=False)
    if out is not None:
        out.resize_(result.shape)
        return out.copy_(result)
    return result


def orgqr(input, tau):
    return householder_product(input, tau)


def ormqr(input, tau, other, left=True, transpose=False, *, out=None):
    """Q other (left) or other Q (right), Q transposed where transpose, Q = H_0 ... H_{k-1}
    of the compact form (input, tau) as a full m x m matrix."""
    if input.dim() < 2:
        raise RuntimeError("torch.ormqr: input must have at least 2 dimensions.")
    if left:
        result = _apply(input, tau, other, reverse=transpose)
    else:
        # other Q = (Q^T other^T)^T, other Q^T = (Q other^T)^T
        result = _apply(input, tau, other.transpose(-2, -1), reverse=not transpose).transpose(-2, -1)
    if out is not None:
        out.resize_(result.shape)
        return out.copy_(result)
    return result


def geqrf(input, *, out=None):
    """(a, tau): R on and above a's diagonal, the Householder vectors below it, LAPACK's
    dgeqrf conventions (beta = -sign(alpha) |x|, tau = (beta - alpha) / beta, tau = 0 where
    the column below the diagonal is already zero). Not differentiable, as in PyTorch."""
    if input.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    with torch.no_grad():
        a = input.detach().clone()
        m, n = a.shape[-2], a.shape[-1]
        k = min(m, n)
        taus = []
        rows = torch.arange(m)
        for i in range(k):
            alpha = a[..., i, i]
            below = torch.where(rows > i, a[..., :, i], torch.zeros_like(a[..., :, i]))
            xnorm = below.norm(dim=-1)
            norm = torch.sqrt(alpha * alpha + xnorm * xnorm)
            beta = -torch.where(alpha >= 0, norm, -norm)
            trivial = xnorm == 0
            safe_beta = torch.where(trivial, torch.ones_like(beta), beta)
            tau = torch.where(trivial, torch.zeros_like(beta), (beta - alpha) / safe_beta)
            scale = torch.where(trivial, torch.zeros_like(alpha), 1 / (alpha - safe_beta))
            v_below = below * scale.unsqueeze(-1)
            v = torch.where(rows == i, torch.ones_like(v_below), v_below)
            # apply H = I - tau v v^T to the remaining columns
            rest = a[..., :, i + 1 :]
            if rest.shape[-1]:
                w = torch.matmul(v.unsqueeze(-2), rest)
                a[..., :, i + 1 :] = rest - tau[..., None, None] * v.unsqueeze(-1) * w
            a[..., :, i] = torch.where(
                rows > i, v, torch.where(rows == i, torch.where(trivial, alpha, beta).unsqueeze(-1), a[..., :, i])
            )
            taus.append(tau)
        tau = torch.stack(taus, -1) if taus else a.new_zeros(a.shape[:-2] + (0,))
    if out is not None:
        out[0].resize_(a.shape)
        out[0].copy_(a)
        out[1].resize_(tau.shape)
        out[1].copy_(tau)
        return out
    return _geqrf_type(a, tau)


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)

    method.__name__ = fn.__name__
    return method


torch.Tensor.geqrf = _method(geqrf)
torch.Tensor.orgqr = _method(orgqr)
torch.Tensor.ormqr = _method(ormqr)
