"""torch.linalg: PyTorch 1.13's linear algebra namespace, the real-valued part.

The functions live in torch._C._linalg (python/csrc/Linalg.cpp); eig and eigvals, which
need complex tensors, are not here.
"""

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

__all__ = [
    "cholesky",
    "det",
    "eigh",
    "eigvalsh",
    "inv",
    "lu_factor",
    "matmul",
    "matrix_power",
    "multi_dot",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
]
