"""Randomised low-rank SVD and PCA (PyTorch 1.13's torch.svd_lowrank and torch.pca_lowrank),
after Halko, Martinsson and Tropp, "Finding structure with randomness" (2009): a Gaussian
sketch of A's range, sharpened by niter subspace iterations, then the exact SVD of the small
projected matrix. Dense real matrices, batched."""

import torch

__all__ = ["get_approximate_basis", "svd_lowrank", "pca_lowrank"]


def _orthonormal(X):
    return torch.linalg.qr(X).Q


def get_approximate_basis(A, q, niter=2, M=None):
    """An m x q matrix with orthonormal columns whose span approximates the range of A - M."""
    niter = 2 if niter is None else niter
    m, n = A.shape[-2:]
    R = torch.randn(n, q, dtype=A.dtype)

    def apply(X):
        return torch.matmul(A, X) if M is None else torch.matmul(A, X) - torch.matmul(M, X)

    def apply_t(X):
        At = A.transpose(-2, -1)
        return torch.matmul(At, X) if M is None else torch.matmul(At, X) - torch.matmul(M.transpose(-2, -1), X)

    Q = _orthonormal(apply(R))
    for _ in range(niter):
        Q = _orthonormal(apply_t(Q))
        Q = _orthonormal(apply(Q))
    return Q


def svd_lowrank(A, q=6, niter=2, M=None):
    """(U, S, V) with A - M ~ U diag(S) V^T, U (..., m, q), S (..., q), V (..., n, q): exact
    when A - M has rank at most q. q=None takes 6 (at most min(m, n))."""
    m, n = A.shape[-2:]
    q = 6 if q is None else q
    if M is not None:
        M = M.broadcast_to(A.shape)
    if m < n:
        # sketch the wider side's transpose: the basis then has the smaller dimension
        V, S, U = _svd_lowrank_tall(A.transpose(-2, -1), q, niter, None if M is None else M.transpose(-2, -1))
        return U, S, V
    return _svd_lowrank_tall(A, q, niter, M)


def _svd_lowrank_tall(A, q, niter, M):
    Q = get_approximate_basis(A, q, niter=niter, M=M)
    B = torch.matmul(Q.transpose(-2, -1), A)
    if M is not None:
        B = B - torch.matmul(Q.transpose(-2, -1), M)
    U, S, Vh = torch.linalg.svd(B, full_matrices=False)
    return torch.matmul(Q, U), S, Vh.transpose(-2, -1)


def pca_lowrank(A, q=None, center=True, niter=2):
    """(U, S, V) of the rank-q SVD of A with its columns' means removed (center): V's columns
    are the principal directions, S**2 / (m - 1) the variances along them."""
    if not isinstance(A, torch.Tensor):
        raise TypeError("expected a tensor for A")
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError("q(={}) must be non-negative integer and not greater than min(m, n)={}".format(q, min(m, n)))
    if not niter >= 0:
        raise ValueError("niter(={}) must be non-negative integer".format(niter))
    if not center:
        return svd_lowrank(A, q, niter=niter)
    return svd_lowrank(A - A.mean(dim=-2, keepdim=True), q, niter=niter)
