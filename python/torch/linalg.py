"""torch.linalg: PyTorch 1.13's linear algebra namespace, the real-valued part (and eig/eigvals,
whose results are complex).

The factorizations and solvers live in torch._C._linalg (python/csrc/Linalg.cpp); the norms,
ranks, condition numbers, triangular and tensor solves, matrix exponential and the *_ex
variants are composed here from them, so autograd runs through them. eig and eigvals are LAPACK's
geev through torch.eig, turned into complex results as PyTorch does (no gradient yet).
"""

import builtins
import collections
import math
import numbers
import sys  # noqa: F401  (a public name of PyTorch's module)

import torch
from torch import _C
from torch._C import Tensor
from torch.functional import _formula, _no_derivative
from torch._C._linalg import (
    cholesky,
    det,
    eigh,
    eigvalsh,
    inv,
    lu_factor,
    matmul,
    matrix_power,
    multi_dot,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
)
from torch.amp.autocast_mode import float32_under_autocast

# in float32 under autocast, as PyTorch 1.13's float32 list has them (Note [Autocast])
cholesky, eigh, eigvalsh, inv, qr, svd, svdvals = (
    float32_under_autocast(f) for f in (cholesky, eigh, eigvalsh, inv, qr, svd, svdvals)
)

__all__ = [
    "LinAlgError",
    "cholesky",
    "cholesky_ex",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "householder_product",
    "inv",
    "inv_ex",
    "ldl_factor",
    "ldl_factor_ex",
    "ldl_solve",
    "lstsq",
    "lu",
    "lu_factor",
    "lu_factor_ex",
    "lu_solve",
    "matmul",
    "matrix_exp",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "multi_dot",
    "norm",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "solve_ex",
    "solve_triangular",
    "svd",
    "svdvals",
    "tensorinv",
    "tensorsolve",
    "vander",
    "vecdot",
    "vector_norm",
]


# the notes PyTorch's docstrings share (a public name of its module)
common_notes = {
    "experimental_warning": 'This function is "experimental" and it may change in a future PyTorch release.',
    "sync_note": "When inputs are on a CUDA device, this function synchronizes that device with the CPU.",
    "sync_note_ex": "When the inputs are on a CUDA device, this function synchronizes only when "
    ":attr:`check_errors`\\ `= True`.",
    "sync_note_has_ex": "When inputs are on a CUDA device, this function synchronizes that device with the CPU. For a "
    "version of this function that does not synchronize, see :func:`{}`.",
}


class _LinAlgError(RuntimeError):
    """A linear algebra function met a matrix it cannot handle (singular, not positive definite)."""


_LinAlgError.__module__ = "torch._C"
LinAlgError = _LinAlgError  # PyTorch's class has the private name too


def _result_type(name, fields):
    t = collections.namedtuple(name, fields)
    t.__module__ = "torch.return_types"
    setattr(torch.return_types, name, t)
    return t


_inv_ex = _result_type("linalg_inv_ex", ["inverse", "info"])
_cholesky_ex = _result_type("linalg_cholesky_ex", ["L", "info"])
_solve_ex = _result_type("linalg_solve_ex", ["result", "info"])
_lu_factor_ex = _result_type("linalg_lu_factor_ex", ["LU", "pivots", "info"])
_lu = _result_type("linalg_lu", ["P", "L", "U"])
_ldl_factor = _result_type("linalg_ldl_factor", ["LD", "pivots"])
_ldl_factor_ex = _result_type("linalg_ldl_factor_ex", ["LD", "pivots", "info"])
_lstsq = _result_type("linalg_lstsq", ["solution", "residuals", "rank", "singular_values"])
_eig_result = _result_type("linalg_eig", ["eigenvalues", "eigenvectors"])


def _check_float(fname, A):
    if not isinstance(A, Tensor):
        raise TypeError("linalg.%s(): argument 'input' must be Tensor, not %s" % (fname, type(A).__name__))
    if not A.is_floating_point():
        raise RuntimeError(
            "linalg.%s: Expected a floating point or complex tensor as input. Got %s"
            % (fname, str(A.dtype).replace("torch.", "").capitalize().replace("Int64", "Long"))
        )


# ---- norms ----


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None, out=None):
    """The ord-norm of x's elements along dim (all of them by default): (sum |x|^ord)^(1/ord),
    the largest or smallest |x| for +-inf, the number of non-zeros for 0."""
    if isinstance(x, Tensor) and x.is_complex():
        # the norm of complex numbers is the norm of their moduli (whose gradient is z / |z|)
        if dtype is not None and not dtype.is_complex:
            raise RuntimeError("linalg.vector_norm: dtype should be complex for a complex input, got %s" % dtype)
        x = (x if dtype is None else x.to(dtype)).abs()
        dtype = None
    _check_float("vector_norm", x)
    if dtype is not None:
        x = x.to(dtype)
    if dim is None:
        dims = tuple(range(x.dim()))
    else:
        dims = (dim,) if isinstance(dim, numbers.Integral) else tuple(dim)
    a = x.abs()
    if x.dim() == 0:
        a, dims = a.reshape(1), (0,)
    if ord == math.inf:
        r = a.amax(dims, keepdim=keepdim)
    elif ord == -math.inf:
        r = a.amin(dims, keepdim=keepdim)
    elif ord == 0:
        r = (a != 0).sum(dims, keepdim=keepdim).to(a.dtype)
    elif ord == 1:
        r = a.sum(dims, keepdim=keepdim)
    elif ord == 2:
        r = x.reshape(a.shape).norm(2, dims, keepdim=keepdim)
    else:
        r = a.pow(ord).sum(dims, keepdim=keepdim).pow(1.0 / ord)
    if x.dim() == 0 and not keepdim:
        r = r.reshape(())
    return r if out is None else out.resize_(r.shape).copy_(r)


def _matrix_dims(A, dim):
    d0, d1 = (d % A.dim() for d in dim)
    if d0 == d1:
        raise RuntimeError("linalg.matrix_norm: dims must be different. Got (%d, %d)" % tuple(dim))
    return d0, d1


@float32_under_autocast
def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    """The ord-norm of the matrices in dims dim of A: 'fro' (Frobenius), 'nuc' (sum of the
    singular values), +-2 (largest, smallest singular value), +-1 (largest, smallest column
    sum of |A|), +-inf (largest, smallest row sum)."""
    _check_float("matrix_norm", A)
    if A.dim() < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    if dtype is not None:
        A = A.to(dtype)
    d0, d1 = _matrix_dims(A, dim)
    if ord == "fro":
        r = vector_norm(A, 2, (d0, d1), keepdim)
    elif ord in ("nuc", 2, -2):
        s = svdvals(A.movedim((d0, d1), (-2, -1)))
        r = s.sum(-1) if ord == "nuc" else (s.amax(-1) if ord == 2 else s.amin(-1))
        if keepdim:
            for d in sorted((d0, d1)):
                r = r.unsqueeze(d)
    elif ord in (1, -1, math.inf, -math.inf):
        summed, across = (d0, d1) if ord in (1, -1) else (d1, d0)
        sums = A.abs().sum(summed, keepdim=True)
        r = sums.amax(across, keepdim=True) if ord > 0 else sums.amin(across, keepdim=True)
        if not keepdim:
            r = r.squeeze(builtins.max(d0, d1)).squeeze(builtins.min(d0, d1))
    else:
        raise RuntimeError("linalg.matrix_norm: Order %s not supported." % (ord,))
    return r if out is None else out.resize_(r.shape).copy_(r)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None, out=None):
    """vector_norm or matrix_norm, chosen by dim (an int or a pair) or by A's dimensions."""
    if isinstance(dim, numbers.Integral):
        dim = (dim,)
    if dim is not None and len(dim) == 2 or dim is None and ord is not None and A.dim() == 2:
        return matrix_norm(
            A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype, out=out
        )
    if dim is None and ord is not None and A.dim() != 1:
        raise RuntimeError(
            "linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got %dD." % A.dim()
        )
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)


@float32_under_autocast
def cond(A, p=None, *, out=None):
    """The condition number of A in the p-norm (2 by default: the ratio of the extreme singular values)."""
    _check_float("cond", A)
    if p in (None, 2, -2):
        s = svdvals(A)
        r = s.amax(-1) / s.amin(-1) if p != -2 else s.amin(-1) / s.amax(-1)
    else:
        r = matrix_norm(A, p) * matrix_norm(inv(A), p)
    return r if out is None else out.resize_(r.shape).copy_(r)


def matrix_rank(A, tol=None, hermitian=False, *, atol=None, rtol=None, out=None):
    """The number of singular values of A above max(atol, rtol * the largest one); rtol is
    eps * max(m, n) when neither tolerance is given."""
    _check_float("matrix_rank", A)
    if tol is not None:
        atol, rtol = tol, 0.0
    s = eigvalsh(A).abs() if hermitian else svdvals(A)
    if rtol is None:
        rtol = 0.0 if atol is not None else torch.finfo(A.dtype).eps * builtins.max(A.shape[-2], A.shape[-1])
    atol = 0.0 if atol is None else atol
    largest = (
        s.amax(-1, keepdim=True) if s.shape[-1] else torch.zeros(s.shape[:-1] + (1,), dtype=s.dtype, device=s.device)
    )
    bound = torch.maximum(torch.as_tensor(atol, dtype=s.dtype), rtol * largest)
    r = (s > bound).sum(-1)
    return r if out is None else out.resize_(r.shape).copy_(r)


# ---- products and views ----


def cross(input, other, *, dim=-1, out=None):
    """The cross product of the 3-vectors along dim, after broadcasting."""
    a, b = torch.broadcast_tensors(input, other)
    if a.shape[dim] != 3:
        raise RuntimeError(
            "linalg.cross: inputs dimension %d must have length 3. Got %d and %d"
            % (dim, input.shape[dim], other.shape[dim])
        )
    r = torch.cross(a, b, dim % a.dim())
    return r if out is None else out.resize_(r.shape).copy_(r)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The diagonal of the matrices in dims dim1, dim2 (a view)."""
    return torch.diagonal(A, offset, dim1, dim2)


def vecdot(x, y, *, dim=-1, out=None):
    """The dot products of the vectors along dim, after broadcasting."""
    r = (x * y).sum(dim)
    return r if out is None else out.resize_(r.shape).copy_(r)


def vander(x, *, N=None):
    """The Vandermonde matrices of the last dim of x: x ** 0, x ** 1, ..., x ** (N - 1) along a new last dim."""
    if x.dim() < 1:
        raise RuntimeError("linalg.vander: x must have at least 1 dimension")
    n = x.shape[-1] if N is None else N
    if n <= 1 and N is not None and N < 1:
        raise RuntimeError("N must be greater than 1.")
    columns = [torch.ones_like(x)]
    for _ in range(1, n):
        columns.append(columns[-1] * x)
    return torch.stack(columns[:n], -1)


def matrix_exp(A):
    """exp(A) = sum A^k / k!, by scaling and squaring: A / 2^s has norm below 1/2, where 18
    terms of the series reach float64's precision, and the result is squared s times."""
    if A.dim() < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            "linalg.matrix_exp: A must be batches of square matrices, but they are %s" % (tuple(A.shape[-2:]),)
        )
    _check_float("matrix_exp", A)
    X = A.to(torch.float64)
    size = X.abs().sum(-2).amax(-1).max().item() if X.numel() else 0.0
    steps = builtins.max(0, math.ceil(math.log2(size / 0.5))) if size > 0.5 else 0
    X = X / (2.0**steps)
    eye = torch.eye(A.shape[-1], dtype=torch.float64, device=A.device).expand(X.shape)
    E = eye
    for k in range(18, 0, -1):
        E = eye + torch.matmul(X, E) / k
    for _ in range(steps):
        E = torch.matmul(E, E)
    return E.to(A.dtype)


# ---- solvers and factorizations ----


def _info(A):
    return torch.zeros(A.shape[:-2], dtype=torch.int32, device=A.device)


def _failed(A, error, check_errors, result):
    if check_errors:
        raise LinAlgError(str(error)) from error
    return torch.full_like(result, math.nan), torch.ones(A.shape[:-2], dtype=torch.int32, device=A.device)


@float32_under_autocast
def inv_ex(A, *, check_errors=False, out=None):
    """(inv(A), info): info is 0 for each invertible matrix (not raising unless check_errors)."""
    try:
        return _inv_ex(inv(A), _info(A))
    except RuntimeError as error:
        return _inv_ex(*_failed(A, error, check_errors, A))


@float32_under_autocast
def cholesky_ex(A, *, upper=False, check_errors=False, out=None):
    """(cholesky(A), info): info is 0 for each positive definite matrix."""
    try:
        L = cholesky(A)
        return _cholesky_ex(L.transpose(-2, -1) if upper else L, _info(A))
    except RuntimeError as error:
        return _cholesky_ex(*_failed(A, error, check_errors, A))


def solve_ex(A, B, *, left=True, check_errors=False, out=None):
    """(solve(A, B), info): info is 0 for each invertible A."""
    try:
        X = solve(A, B) if left else solve(A.transpose(-2, -1), B.transpose(-2, -1)).transpose(-2, -1)
        return _solve_ex(X, _info(A))
    except RuntimeError as error:
        return _solve_ex(*_failed(A, error, check_errors, B))


def lu_factor_ex(A, *, pivot=True, check_errors=False, out=None):
    """(LU, pivots, info), as lu_factor."""
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    LU, pivots = lu_factor(A)
    return _lu_factor_ex(LU, pivots, _info(A))


def _type_name(dtype):
    return {torch.int64: "Long", torch.int32: "Int", torch.int16: "Short", torch.int8: "Char", torch.uint8: "Byte"}.get(
        dtype, str(dtype).replace("torch.", "").capitalize()
    )


def _write_results(out, results):
    """results written into the tensors of out (resized to them), or results where out is None."""
    if out is None:
        return results
    if not isinstance(out, (tuple, list)) or len(out) != len(results) or not all(isinstance(o, Tensor) for o in out):
        raise TypeError("out must be a tuple of %d tensors" % len(results))
    with torch.no_grad():
        for o, r in zip(out, results):
            if o.dtype != r.dtype:
                raise RuntimeError("Expected out tensor to have dtype %s, but got %s instead" % (r.dtype, o.dtype))
            o.resize_(r.shape).copy_(r)
    return tuple(out)


def ldl_factor_ex(A, *, hermitian=False, check_errors=False, out=None):
    """(LD, pivots, info): the Bunch-Kaufman factorization A = P L D L^T P^T of each symmetric
    matrix of A (its lower triangle read), as LAPACK's sytrf packs it (core/ops/Ldl.h); info
    is i > 0 where D[i-1][i-1] is exactly zero. For real A, hermitian changes nothing."""
    fname = "torch.linalg.ldl_factor_ex"
    if not isinstance(A, Tensor):
        raise TypeError(
            "linalg_ldl_factor_ex(): argument 'self' (position 1) must be Tensor, not %s" % type(A).__name__
        )
    if A.dim() < 2:
        raise RuntimeError("%s: The input tensor A must have at least 2 dimensions." % fname)
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            "%s: A must be batches of square matrices, but they are %d by %d matrices"
            % (fname, A.shape[-2], A.shape[-1])
        )
    if not A.is_floating_point():
        raise RuntimeError(
            "%s: Expected a floating point or complex tensor as input. Got %s" % (fname, _type_name(A.dtype))
        )
    if A.dtype not in (torch.float32, torch.float64):
        raise RuntimeError("\"ldl_factor_kernel_cpu\" not implemented for '%s'" % _type_name(A.dtype))
    factored = torch._C._ldl_factor(A.detach())
    # PyTorch 1.13 records the factorization but has no derivative for it
    LD = _formula(lambda a: factored[0], _no_derivative("linalg_ldl_factor_ex"), A)
    info = factored[2]
    failed = (info.reshape(-1) > 0).nonzero().reshape(-1)
    if check_errors and failed.numel():
        first = int(failed[0])
        zero = int(info.reshape(-1)[first]) - 1
        where = " (batch element %d)" % first if A.dim() > 2 else ""
        raise LinAlgError(
            "torch.linalg.ldl_factor%s: the factorization could not be completed because D[%d][%d] is exactly zero"
            % (where, zero, zero)
        )
    return _ldl_factor_ex(*_write_results(out, (LD, factored[1], info)))


def ldl_factor(A, *, hermitian=False, out=None):
    """(LD, pivots) of ldl_factor_ex, raising LinAlgError where a D is singular."""
    LD, pivots, _ = ldl_factor_ex(A, hermitian=hermitian, check_errors=True)
    return _ldl_factor(*_write_results(out, (LD, pivots)))


def ldl_solve(LD, pivots, B, *, hermitian=False, out=None):
    """X with A X = B for the A whose factors ldl_factor gave (LD, pivots); batches broadcast."""
    fname = "torch.linalg.ldl_solve"
    for name, t in (("LD", LD), ("pivots", pivots), ("B", B)):
        if not isinstance(t, Tensor):
            raise TypeError("linalg_ldl_solve(): argument '%s' must be Tensor, not %s" % (name, type(t).__name__))
    if LD.dim() < 2:
        raise RuntimeError("%s: The input tensor LD must have at least 2 dimensions." % fname)
    if B.dim() < 2:
        raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got -2)")
    if pivots.is_floating_point() or pivots.dtype == torch.bool:
        raise RuntimeError("%s: Expected pivots to be integers. Got %s" % (fname, _type_name(pivots.dtype)))
    if LD.shape[-1] != LD.shape[-2]:
        raise RuntimeError(
            "%s: A must be batches of square matrices, but they are %d by %d matrices"
            % (fname, LD.shape[-2], LD.shape[-1])
        )
    if LD.shape[-1] != B.shape[-2]:
        raise RuntimeError(
            "Incompatible matrix sizes for %s: each A matrix is %d by %d but each b matrix is %d by %d"
            % (fname, LD.shape[-2], LD.shape[-1], B.shape[-2], B.shape[-1])
        )
    if B.dtype != LD.dtype:
        raise RuntimeError(
            "Expected b and A to have the same dtype, but found b of type %s and A of type %s instead."
            % (_type_name(B.dtype), _type_name(LD.dtype))
        )
    if tuple(pivots.shape) != tuple(LD.shape[:-1]):
        raise RuntimeError(
            "%s: Expected LD.shape[:-1] and pivots.shape to be the same, but got pivots with shape %s instead"
            % (fname, list(pivots.shape))
        )
    if LD.dtype not in (torch.float32, torch.float64):
        raise RuntimeError("\"ldl_solve_kernel_cpu\" not implemented for '%s'" % _type_name(LD.dtype))
    batch = torch.broadcast_shapes(LD.shape[:-2], B.shape[:-2])
    n, k = LD.shape[-1], B.shape[-1]
    X = torch._C._ldl_solve(
        LD.detach().expand(batch + (n, n)), pivots.expand(batch + (n,)), B.detach().expand(batch + (n, k))
    )
    X = _formula(lambda ld, b: X, _no_derivative("linalg_ldl_solve"), LD, B)
    return X if out is None else _write_results((out,), (X,))[0]


def _permutation(pivots, m, dtype):
    """The permutation matrix P with A = P L U for LAPACK's (1-based) row interchanges."""
    flat = pivots.reshape(-1, pivots.shape[-1]).tolist()
    mats = []
    for row in flat:
        order = list(range(m))
        for i, p in enumerate(row):
            order[i], order[p - 1] = order[p - 1], order[i]
        mats.append(torch.eye(m, dtype=dtype, device=pivots.device)[order].t())
    return (
        torch.stack(mats).reshape(pivots.shape[:-1] + (m, m))
        if mats
        else torch.zeros(pivots.shape[:-1] + (m, m), dtype=dtype, device=pivots.device)
    )


def _unpack(LU, pivots):
    m, n = LU.shape[-2], LU.shape[-1]
    k = builtins.min(m, n)
    L = torch.tril(LU[..., :, :k], -1) + torch.eye(m, k, dtype=LU.dtype, device=LU.device)
    U = torch.triu(LU[..., :k, :])
    return _permutation(pivots, m, LU.dtype), L, U


def lu(A, *, pivot=True, out=None):
    """(P, L, U) with A = P L U, L unit lower triangular and U upper triangular."""
    LU, pivots = lu_factor(A)
    return _lu(*_unpack(LU, pivots))


def solve_triangular(A, B, *, upper, left=True, unitriangular=False, out=None):
    """The solution X of A X = B (X A = B when not left) for triangular A (only its upper or
    lower triangle is read; its diagonal is taken as ones when unitriangular)."""
    T = torch.triu(A) if upper else torch.tril(A)
    if unitriangular:
        T = T - torch.diag_embed(torch.diagonal(T, 0, -2, -1)) + torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    X = solve(T, B) if left else solve(T.transpose(-2, -1), B.transpose(-2, -1)).transpose(-2, -1)
    return X if out is None else out.resize_(X.shape).copy_(X)


def lu_solve(LU, pivots, B, *, left=True, adjoint=False, out=None):
    """The solution of A X = B (X A = B when not left; with A's transpose when adjoint) for
    A = P L U as lu_factor gives it."""
    P, L, U = _unpack(LU, pivots)
    if adjoint:
        # A^T = U^T L^T P^T
        if left:
            Y = solve_triangular(U.transpose(-2, -1), B, upper=False)
            X = torch.matmul(P, solve_triangular(L.transpose(-2, -1), Y, upper=True, unitriangular=True))
        else:
            Y = torch.matmul(B, P)
            Y = solve_triangular(L.transpose(-2, -1), Y, upper=True, left=False, unitriangular=True)
            X = solve_triangular(U.transpose(-2, -1), Y, upper=False, left=False)
    elif left:
        Y = solve_triangular(L, torch.matmul(P.transpose(-2, -1), B), upper=False, unitriangular=True)
        X = solve_triangular(U, Y, upper=True)
    else:
        Y = solve_triangular(U, B, upper=True, left=False)
        X = torch.matmul(solve_triangular(L, Y, upper=False, left=False, unitriangular=True), P.transpose(-2, -1))
    return X if out is None else out.resize_(X.shape).copy_(X)


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares solution of A X = B (through the pseudo-inverse), with the rank of A;
    residuals and singular values are empty, as from PyTorch's default CPU driver, gelsy.

    pinv records no gradient for A: where A's gradient is wanted (and A has full column rank)
    the solution is that of the normal equations A^T A X = A^T B instead."""
    if driver not in (None, "gelsy", "gelsd", "gelss", "gels"):
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    vector = B.dim() == A.dim() - 1
    b = B.unsqueeze(-1) if vector else B
    if torch.is_grad_enabled() and A.requires_grad and A.shape[-2] >= A.shape[-1]:
        At = A.transpose(-2, -1)
        X = solve(torch.matmul(At, A), torch.matmul(At, b))
    else:
        X = torch.matmul(pinv(A, rcond=rcond) if rcond is not None else pinv(A), b)
    X = X.squeeze(-1) if vector else X
    empty = torch.zeros(0, dtype=A.dtype, device=A.device)
    return _lstsq(X, empty, matrix_rank(A, rtol=rcond), empty)


def tensorinv(A, ind=2, *, out=None):
    """The inverse of A as a linear map from its first ind dims to the others."""
    if ind <= 0:
        raise RuntimeError("Expected a strictly positive integer for 'ind', but got %d" % ind)
    outer, inner = list(A.shape[:ind]), list(A.shape[ind:])
    rows = math.prod(outer)
    r = inv(A.reshape(rows, -1)).reshape(inner + outer)
    return r if out is None else out.resize_(r.shape).copy_(r)


def tensorsolve(A, B, dims=None, *, out=None):
    """X with tensordot(A, X, X.dim()) = B (dims of A moved to the end first)."""
    if dims is not None:
        A = A.movedim(tuple(dims), tuple(range(A.dim() - len(dims), A.dim())))
    rest = list(A.shape[B.dim() :])
    r = solve(A.reshape(B.numel(), -1), B.reshape(-1)).reshape(rest)
    return r if out is None else out.resize_(r.shape).copy_(r)


def householder_product(A, tau, *, out=None):
    """The first n columns of the product of the Householder reflectors that (A, tau) hold in
    LAPACK's compact form (torch.geqrf's): the Q of a QR factorisation."""
    from torch._householder import householder_product as _householder_product

    return _householder_product(A, tau, out=out)


# ---- eigenvalues of general matrices ----


def _eig(fname, A, vectors):
    """geev of each matrix of A: complex eigenvalues (in LAPACK's order) and unit eigenvectors."""
    if not isinstance(A, Tensor):
        raise TypeError("linalg.%s(): argument 'input' must be Tensor, not %s" % (fname, type(A).__name__))
    if A.is_complex():
        raise RuntimeError("linalg.%s is not implemented for complex inputs here" % fname)
    if not A.is_floating_point():
        raise RuntimeError("Unknown Complex ScalarType for %s" % torch.Tensor.type(A).split(".")[-1][:-6])
    if A.dim() < 2 or A.shape[-1] != A.shape[-2]:
        raise RuntimeError(
            "linalg.%s: A must be batches of square matrices, but they are %s by %s matrices"
            % (fname, A.shape[-2] if A.dim() >= 2 else 1, A.shape[-1] if A.dim() >= 1 else 1)
        )
    if torch.is_grad_enabled() and A.requires_grad:
        raise RuntimeError("linalg.%s: the derivative is not implemented in this build" % fname)
    if not torch.isfinite(A).all():
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")
    n = A.shape[-1]
    complex_type = torch.complex128 if A.dtype == torch.float64 else torch.complex64
    batch = A.shape[:-2]
    values, vecs = [], []
    for m in A.reshape(-1, n, n):
        e, v = _C.eig(m, vectors)
        values.append(torch.complex(e[:, 0].contiguous(), e[:, 1].contiguous()))
        if vectors:
            # LAPACK's real form: a complex pair (wi > 0 first) keeps re and im in two columns
            re, im = v.clone(), torch.zeros_like(v)
            j = 0
            while j < n:
                if e[j, 1] != 0 and j + 1 < n:
                    re[:, j + 1] = v[:, j]
                    im[:, j] = v[:, j + 1]
                    im[:, j + 1] = -v[:, j + 1]
                    j += 2
                else:
                    j += 1
            vecs.append(torch.complex(re, im))
    if not values:
        values = [torch.zeros(0, n, dtype=complex_type)]
        vecs = [torch.zeros(0, n, n, dtype=complex_type)]
        return values[0].reshape(batch + (n,)), vecs[0].reshape(batch + (n, n))
    w = torch.stack(values).reshape(batch + (n,))
    return w, (torch.stack(vecs).reshape(batch + (n, n)) if vectors else None)


@float32_under_autocast
def eig(A, *, out=None):
    """Eigenvalues and eigenvectors of a square (batch of) real matrix: complex, LAPACK's order."""
    w, v = _eig("eig", A, True)
    if out is not None:
        out[0].resize_(w.shape).copy_(w)
        out[1].resize_(v.shape).copy_(v)
        return _eig_result(out[0], out[1])
    return _eig_result(w, v)


@float32_under_autocast
def eigvals(A, *, out=None):
    """Eigenvalues of a square (batch of) real matrix: complex, LAPACK's order."""
    w, _ = _eig("eigvals", A, False)
    return w if out is None else out.resize_(w.shape).copy_(w)
