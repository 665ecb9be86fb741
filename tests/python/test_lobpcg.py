"""torch.lobpcg (lobpcg_cases.py): the same eigenpairs (eigenvectors up to sign), gradients,
tracker steps and exceptions as real PyTorch 1.13, and eigenpairs against numpy's eigh."""

import numpy as np
import pytest

import lobpcg_cases
import torch
from real_pytorch import same_as_pytorch_1_13

# Both stop once every residual is below sqrt(eps) relative: eigenvalues agree far closer
# (quadratically), eigenvectors to about the tolerance. float32's tolerance is 3.5e-4.
TOLERANCES = {np.float32: (1e-3, 1e-3), np.float64: (1e-6, 1e-6)}


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "lobpcg_cases.py", lobpcg_cases.CASES, lambda name, got, want: TOLERANCES[want.dtype.type]
)


@pytest.mark.parametrize("method, generalized", [("ortho", True), ("ortho", False), ("basic", False)])
@pytest.mark.parametrize("largest", [True, False])
def test_against_numpy_eigh(method, generalized, largest):
    """("basic", True) is left out: on this problem it returns one eigenpair twice, as 1.13's does."""
    A, B, X0 = lobpcg_cases.problem(11, m=40)
    B = B if generalized else np.eye(40)
    L = np.linalg.cholesky(B)  # A x = λ B x  <=>  (L⁻¹ A L⁻ᵀ) y = λ y, x = L⁻ᵀ y
    Li = np.linalg.inv(L)
    values, vectors = np.linalg.eigh(Li @ A @ Li.T)
    vectors = Li.T @ vectors
    pick = slice(None, -4, -1) if largest else slice(0, 3)
    E, X = torch.lobpcg(
        torch.from_numpy(A),
        k=3,
        B=torch.from_numpy(B) if generalized else None,
        X=torch.from_numpy(X0[:, :3]),
        largest=largest,
        method=method,
    )
    np.testing.assert_allclose(E.numpy(), values[pick], rtol=1e-9)
    np.testing.assert_allclose(
        lobpcg_cases.signed(X), lobpcg_cases.signed(torch.from_numpy(vectors[:, pick].copy())), atol=1e-6
    )


def test_gradient_against_finite_differences():
    A, _, X0 = lobpcg_cases.problem(12, m=12)
    A = torch.from_numpy(A)
    weights = torch.from_numpy(np.random.RandomState(1).randn(12, 2))

    def loss(M):
        E, X = torch.lobpcg(M, k=2, X=torch.from_numpy(X0[:, :2]), tol=1e-12, niter=-1)
        return float(E.sum() + (X**2 * weights).sum())

    Ag = A.clone().requires_grad_()
    E, X = torch.lobpcg(Ag, k=2, X=torch.from_numpy(X0[:, :2]), tol=1e-12, niter=-1)
    (E.sum() + (X**2 * weights).sum()).backward()
    numeric = np.zeros((12, 12))
    for i in range(12):
        for j in range(i, 12):
            step = np.zeros((12, 12))
            step[i, j] = step[j, i] = 1e-6
            slope = (loss(A + torch.from_numpy(step)) - loss(A - torch.from_numpy(step))) / 2e-6
            numeric[i, j] = numeric[j, i] = slope / (1 if i == j else 2)
    np.testing.assert_allclose(Ag.grad.numpy(), numeric, atol=1e-5)


def test_x_is_left_alone_and_bad_input_is_refused():
    A, _, X0 = lobpcg_cases.problem(13)
    for method in ("ortho", "basic"):
        X = torch.from_numpy(X0[:, :2].copy())
        torch.lobpcg(torch.from_numpy(A), k=2, X=X, method=method)
        np.testing.assert_array_equal(X.numpy(), X0[:, :2])
    with pytest.raises(ValueError, match="method"):
        torch.lobpcg(torch.from_numpy(A), k=1, method="fast")
    with pytest.raises(ValueError, match="square"):
        torch.lobpcg(torch.from_numpy(A)[:, :5], k=1)
