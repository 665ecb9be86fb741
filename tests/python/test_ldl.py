"""torch.linalg.ldl_factor(_ex) and ldl_solve (ldl_cases.py): the same factors, pivots, info,
solutions and exceptions as real PyTorch 1.13; the factors reassemble A and the solutions
solve A X = B, checked with numpy."""

import os

import numpy as np
import pytest

import ldl_cases
import torch
from real_pytorch import same_as_pytorch_1_13

HERE = os.path.dirname(os.path.abspath(__file__))
TOLERANCES = {np.float32: (1e-5, 1e-5), np.float64: (1e-12, 1e-12)}


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "ldl_cases.py", ldl_cases.CASES, lambda name, got, want: TOLERANCES[want.dtype.type]
)


def _reassemble(LD, pivots):
    """A = P L D L^T P^T from LAPACK's lower Bunch-Kaufman factors (sytrf's uplo 'L'): the
    interchanges and blocks applied from the last column to the first, in numpy."""
    n = LD.shape[0]
    L, D, P = np.eye(n), np.zeros((n, n)), np.eye(n)
    k = 0
    blocks = []
    while k < n:
        if pivots[k] > 0:
            D[k, k] = LD[k, k]
            L[k + 1 :, k] = LD[k + 1 :, k]
            blocks.append((k, 1, pivots[k] - 1))
            k += 1
        else:
            D[k : k + 2, k : k + 2] = [[LD[k, k], LD[k + 1, k]], [LD[k + 1, k], LD[k + 1, k + 1]]]
            L[k + 2 :, k : k + 2] = LD[k + 2 :, k : k + 2]
            blocks.append((k, 2, -pivots[k] - 1))
            k += 2
    # A = U D U^T with U = P(1) L(1) P(2) L(2) ..., L(k) the unit block columns of step k
    U = np.eye(n)
    for k, size, swap in blocks:
        Pk = np.eye(n)
        row = k + size - 1
        Pk[[row, swap]] = Pk[[swap, row]]
        Lk = np.eye(n)
        Lk[k + size :, k : k + size] = L[k + size :, k : k + size]
        U = U @ Pk @ Lk
    del P
    return U @ D @ U.T


@pytest.mark.parametrize("seed", range(4))
def test_factors_reassemble_a(seed):
    a = ldl_cases.indefinite(seed, 7) if seed % 2 else ldl_cases.symmetric(seed, 7, 7)
    LD, pivots = torch.linalg.ldl_factor(torch.from_numpy(a))
    np.testing.assert_allclose(_reassemble(LD.numpy(), pivots.numpy()), a, rtol=1e-10, atol=1e-10)


def test_solve_solves_with_broadcast_batches():
    a = ldl_cases.symmetric(5, 2, 5, 5)
    b = np.random.default_rng(6).standard_normal((3, 1, 5, 2))
    LD, pivots = torch.linalg.ldl_factor(torch.from_numpy(a))
    x = torch.linalg.ldl_solve(LD, pivots, torch.from_numpy(b)).numpy()
    assert x.shape == (3, 2, 5, 2)
    np.testing.assert_allclose(np.matmul(a, x), np.broadcast_to(b, x.shape), rtol=1e-10, atol=1e-10)


def test_singular_d_raises_a_clear_error():
    """(1.13 raises an internal assertion here.)"""
    with pytest.raises(torch.linalg.LinAlgError, match=r"D\[0\]\[0\] is exactly zero"):
        torch.linalg.ldl_factor(torch.zeros(3, 3))
    with pytest.raises(RuntimeError, match="batch element 1"):
        torch.linalg.ldl_factor(torch.stack([torch.eye(2), torch.zeros(2, 2)]))
