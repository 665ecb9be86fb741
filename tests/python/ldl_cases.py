"""Cases of torch.linalg.ldl_factor(_ex) and ldl_solve, run the same way by this package and
by real PyTorch 1.13 (Debian's python3-torch): factors, pivots (LAPACK's convention), info,
solutions and the exception names of bad input. test_ldl.py compares the two runs.

Run directly (`python3 ldl_cases.py OUT.npz`) it writes every case's results to OUT.npz, with
the `torch` that interpreter imports."""

import numpy as np

import case_runner

from functional_cases import error_name, randn, tensor

CASES, case = case_runner.registry()


def symmetric(seed, *shape):
    a = randn(seed, *shape)
    return a + np.swapaxes(a, -1, -2)


def indefinite(seed, n):
    """A symmetric matrix with zeros on its diagonal: Bunch-Kaufman takes 2x2 pivots."""
    a = symmetric(seed, n, n)
    a[np.arange(n), np.arange(n)] = 0
    return a


@case
def factor(torch):
    out = []
    for dt in [torch.float32, torch.float64]:
        for a in [symmetric(0, 5, 5), indefinite(1, 6), symmetric(2, 2, 3, 4, 4), np.array([[2.0]])]:
            r = torch.linalg.ldl_factor(tensor(torch, a, dt))
            out += [r.LD.numpy(), r.pivots.numpy(), str(r.pivots.dtype), type(r).__name__]
            ex = torch.linalg.ldl_factor_ex(tensor(torch, a, dt))
            out += [ex.LD.numpy(), ex.pivots.numpy(), ex.info.numpy(), str(ex.info.dtype), type(ex).__name__]
    # only the lower triangle is read; any strides; hermitian changes nothing for real matrices
    a = randn(3, 5, 5)
    out += [torch.linalg.ldl_factor(tensor(torch, a, torch.float64)).LD.numpy()]
    out += [torch.linalg.ldl_factor(tensor(torch, a, torch.float64).t()).LD.numpy()]
    out += [torch.linalg.ldl_factor(tensor(torch, indefinite(4, 4), torch.float64), hermitian=True).pivots.numpy()]
    # empty matrices and batches
    for shape in [(0, 0), (2, 0, 0), (0, 3, 3)]:
        r = torch.linalg.ldl_factor(torch.zeros(shape))
        out += [np.array(r.LD.shape), np.array(r.pivots.shape)]
    # out=
    LD, piv = torch.empty(0, dtype=torch.float64), torch.empty(0, dtype=torch.int32)
    r = torch.linalg.ldl_factor(tensor(torch, indefinite(5, 4), torch.float64), out=(LD, piv))
    out += [LD.numpy(), piv.numpy(), str(r.LD is LD)]
    return out


@case
def singular(torch):
    out = []
    for a in [np.zeros((3, 3)), np.array([[1.0, 2.0], [2.0, 4.0]]), np.stack([np.eye(3), np.zeros((3, 3))])]:
        ex = torch.linalg.ldl_factor_ex(tensor(torch, a, torch.float64))
        out += [ex.LD.numpy(), ex.pivots.numpy(), ex.info.numpy()]
    return out


@case
def solve(torch):
    out = []
    for dt in [torch.float32, torch.float64]:
        for a, b in [
            (symmetric(10, 5, 5), randn(11, 5, 2)),
            (indefinite(12, 6), randn(13, 6, 3)),
            (symmetric(14, 3, 4, 4), randn(15, 3, 4, 1)),
        ]:
            LD, pivots = torch.linalg.ldl_factor(tensor(torch, a, dt))
            out += [torch.linalg.ldl_solve(LD, pivots, tensor(torch, b, dt)).numpy()]
        LD, pivots = torch.linalg.ldl_factor(tensor(torch, symmetric(16, 4, 4), dt))
        out += [torch.linalg.ldl_solve(LD, pivots.long(), tensor(torch, randn(17, 4, 2), dt)).numpy()]
        r = torch.empty(0, dtype=dt)
        torch.linalg.ldl_solve(LD, pivots, tensor(torch, randn(18, 4, 3), dt).t().contiguous().t(), out=r)
        out += [r.numpy()]
    return out


@case
def errors(torch):
    a = tensor(torch, symmetric(20, 4, 4), torch.float64)
    LD, pivots = torch.linalg.ldl_factor(a)
    b = tensor(torch, randn(21, 4, 2), torch.float64)
    return [
        error_name(lambda: torch.linalg.ldl_factor(torch.randn(3, 4))),
        error_name(lambda: torch.linalg.ldl_factor(torch.randn(3))),
        error_name(lambda: torch.linalg.ldl_factor(torch.tensor([[1, 2], [2, 1]]))),
        error_name(lambda: torch.linalg.ldl_factor(torch.randn(3, 3).half())),
        error_name(lambda: torch.linalg.ldl_factor_ex(torch.randn(3, 4))),
        error_name(lambda: torch.linalg.ldl_solve(LD, pivots, b[:3])),
        error_name(lambda: torch.linalg.ldl_solve(LD, pivots, b.float())),
        error_name(lambda: torch.linalg.ldl_solve(LD, pivots.float(), b)),
        error_name(lambda: torch.linalg.ldl_solve(LD, pivots, b[:, 0])),
    ]


@case
def no_derivative(torch):
    a = tensor(torch, symmetric(30, 3, 3), torch.float64).requires_grad_()
    r = torch.linalg.ldl_factor(a)
    b = tensor(torch, randn(31, 3, 2), torch.float64).requires_grad_()
    x = torch.linalg.ldl_solve(r.LD.detach(), r.pivots, b)
    return [
        str(r.LD.requires_grad),
        str(r.pivots.requires_grad),
        error_name(lambda: r.LD.sum().backward()),
        str(x.requires_grad),
        error_name(lambda: x.sum().backward()),
    ]


if __name__ == "__main__":
    case_runner.main(CASES)
