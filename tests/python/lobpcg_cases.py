"""Cases of torch.lobpcg, run the same way by this package and by real PyTorch 1.13 (Debian's
python3-torch): each case builds symmetric matrices and initial vectors from numpy, runs lobpcg
and returns eigenvalues, eigenvectors with their signs fixed (each column's largest entry
positive), gradients and exception names. Initial vectors are copies (torch.tensor): 1.13's
method="basic" overwrites X with its first Ritz vectors (this package leaves X alone). test_lobpcg.py compares the two runs within the
iteration's tolerance.

Run directly (`python3 lobpcg_cases.py OUT.npz`) it writes every case's results to OUT.npz, with
the `torch` that interpreter imports."""

import numpy as np

import case_runner

from functional_cases import error_name

CASES, case = case_runner.registry()
M = 30


def problem(seed, m=M):
    """A symmetric A with spread eigenvalues, an SPD B and initial vectors, as numpy arrays."""
    rng = np.random.RandomState(seed)
    Q = np.linalg.qr(rng.randn(m, m))[0]
    A = (Q * (np.linspace(1, 10, m) + 0.1 * rng.rand(m))) @ Q.T
    C = rng.randn(m, m)
    return (A + A.T) / 2, C @ C.T / m + np.eye(m), rng.randn(m, 4)


def signed(X):
    """X's columns with their largest-magnitude entries made positive (eigenvectors up to sign)."""
    X = X.numpy()
    rows = np.abs(X).argmax(axis=-2)
    return X * np.sign(np.take_along_axis(X, rows[..., None, :], axis=-2))


@case
def standard(torch):
    A, _, X0 = problem(0)
    out = []
    for method in ("ortho", "basic"):
        for largest in (True, False):
            E, X = torch.lobpcg(torch.from_numpy(A), k=3, X=torch.tensor(X0[:, :3]), largest=largest, method=method)
            out += [E.numpy(), signed(X)]
    return out


@case
def generalized(torch):
    A, B, X0 = problem(1)
    out = []
    for method in ("ortho", "basic"):
        for largest in (True, False):
            E, X = torch.lobpcg(
                torch.from_numpy(A),
                k=2,
                B=torch.from_numpy(B),
                X=torch.tensor(X0[:, :3]),
                largest=largest,
                method=method,
            )
            out += [E.numpy(), signed(X)]
    return out


@case
def more_vectors_than_pairs_and_options(torch):
    A, _, X0 = problem(2)
    A = torch.from_numpy(A)
    E1, X1 = torch.lobpcg(A, k=2, X=torch.tensor(X0), niter=-1, tol=1e-10)
    E2, X2 = torch.lobpcg(A, k=1, X=torch.tensor(X0[:, :3]), ortho_bparams={"ortho_use_drop": True})
    precondition = torch.from_numpy(np.diag(1 / np.diag(A.numpy())))
    E3, X3 = torch.lobpcg(A, k=2, X=torch.tensor(X0[:, :2]), iK=precondition, method="basic", largest=False)
    return [E1.numpy(), signed(X1), E2.numpy(), signed(X2), E3.numpy(), signed(X3)]


@case
def batches_and_float32(torch):
    A, _, X0 = problem(3)
    A2, _, _ = problem(4)
    batch = torch.from_numpy(np.stack([A, A2]))
    E, X = torch.lobpcg(batch, k=2, X=torch.tensor(np.stack([X0[:, :2], X0[:, 2:]])))
    E32, X32 = torch.lobpcg(torch.from_numpy(A).float(), k=2, X=torch.tensor(X0[:, :2]).float())
    return [E.numpy(), signed(X), E32.numpy(), signed(X32), str(E32.dtype)]


@case
def gradient(torch):
    """Of a loss that does not depend on the eigenvectors' signs; A need not be symmetric."""
    A, _, X0 = problem(5)
    A = torch.from_numpy(A + np.triu(np.random.RandomState(6).rand(M, M)) * 1e-3).requires_grad_()
    weights = torch.from_numpy(np.random.RandomState(7).randn(M, 2))
    out = []
    for largest in (True, False):
        E, X = torch.lobpcg(A, k=2, X=torch.tensor(X0[:, :2]), largest=largest)
        (E.sum() + (X**2 * weights).sum()).backward()
        out += [E.detach().numpy(), A.grad.numpy().copy()]
        A.grad = None
    return out


@case
def tracker_and_errors(torch):
    A, B, X0 = problem(8)
    A, B = torch.from_numpy(A), torch.from_numpy(B)
    steps = []

    def stop_at_three(worker):
        steps.append(worker.ivars["istep"])
        if worker.ivars["istep"] == 3:
            worker.bvars["force_stop"] = True

    torch.lobpcg(A, k=2, X=torch.tensor(X0[:, :2]), tracker=stop_at_three)
    with_B = torch.lobpcg(A.clone().requires_grad_(), k=1, B=B.clone().requires_grad_())[0]
    return [
        np.array(steps),
        error_name(lambda: torch.lobpcg(A, k=11)),
        error_name(lambda: with_B.backward()),
    ]


if __name__ == "__main__":
    case_runner.main(CASES)
