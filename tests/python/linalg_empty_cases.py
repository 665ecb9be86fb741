"""LAPACK-backed functions on empty (0xN, Nx0, 0x0, zero batch) and 0-dim inputs, run the
same way by this package and by real PyTorch 1.13 (Debian's python3-torch for
/usr/bin/python3); test_linalg_empty.py compares the two runs.

Each case gives either its outputs (shape, dtype and values of every tensor) or the
exception's type and message. Run directly (`python3 linalg_empty_cases.py OUT.json`), it
writes every case's result with the `torch` that interpreter imports."""

import json
import sys
import warnings

SHAPES = [(0, 0), (0, 3), (3, 0), (2, 0, 0), (0, 3, 3), (0, 2, 3), (2, 3, 0), ()]
SQUARE_SHAPES = [(0, 0), (2, 0, 0), (0, 3, 3), (0, 2, 2), ()]


def _cases(torch):
    """(name, shape, function of a float64 tensor of that shape) for every case."""
    la = torch.linalg
    one = [
        ("svd", lambda a: torch.svd(a)),
        ("svd_full", lambda a: torch.svd(a, some=False)),
        ("svd_nouv", lambda a: torch.svd(a, compute_uv=False)),
        ("linalg.svd", lambda a: la.svd(a)),
        ("linalg.svd_reduced", lambda a: la.svd(a, full_matrices=False)),
        ("linalg.svdvals", lambda a: la.svdvals(a)),
        ("qr", lambda a: torch.qr(a)),
        ("qr_complete", lambda a: torch.qr(a, some=False)),
        ("linalg.qr", lambda a: la.qr(a)),
        ("linalg.qr_complete", lambda a: la.qr(a, mode="complete")),
        ("linalg.qr_r", lambda a: la.qr(a, mode="r")),
        ("pinverse", lambda a: torch.pinverse(a)),
        ("linalg.pinv", lambda a: la.pinv(a)),
        ("lu", lambda a: torch.lu(a)),
        ("lu_infos", lambda a: torch.lu(a, get_infos=True)),
        ("linalg.lu_factor", lambda a: la.lu_factor(a)),
        ("lu_unpack", lambda a: torch.lu_unpack(*torch.lu(a))),
    ]
    square = [
        ("inverse", lambda a: torch.inverse(a)),
        ("linalg.inv", lambda a: la.inv(a)),
        ("det", lambda a: torch.det(a)),
        ("linalg.det", lambda a: la.det(a)),
        ("logdet", lambda a: torch.logdet(a)),
        ("slogdet", lambda a: torch.slogdet(a)),
        ("linalg.slogdet", lambda a: la.slogdet(a)),
        ("cholesky", lambda a: torch.cholesky(a)),
        ("linalg.cholesky", lambda a: la.cholesky(a)),
        ("cholesky_inverse", lambda a: torch.cholesky_inverse(a)),
        ("symeig", lambda a: torch.symeig(a, eigenvectors=True)),
        ("symeig_novec", lambda a: torch.symeig(a)),
        ("linalg.eigh", lambda a: la.eigh(a)),
        ("linalg.eigvalsh", lambda a: la.eigvalsh(a)),
        ("matrix_power_0", lambda a: torch.matrix_power(a, 0)),
        ("matrix_power_3", lambda a: torch.matrix_power(a, 3)),
        ("matrix_power_-2", lambda a: la.matrix_power(a, -2)),
        ("linalg.solve", lambda a: la.solve(a, a)),
        ("linalg.solve_vec", lambda a: la.solve(a, a.sum(-1))),
        ("cholesky_solve", lambda a: torch.cholesky_solve(a, a)),
    ]
    for name, f in one:
        for s in SHAPES:
            yield name, s, f
    for name, f in square:
        for s in SQUARE_SHAPES:
            yield name, s, f
    # a right-hand side with no columns, or an empty batch, against a real 3x3 matrix
    for name, f in [
        ("linalg.solve_rhs", lambda b: torch.linalg.solve(_spd(torch, b), b)),
        ("cholesky_solve_rhs", lambda b: torch.cholesky_solve(b, torch.linalg.cholesky(_spd(torch, b)))),
    ]:
        for s in [(3, 0), (0, 3, 2), (0, 3, 0)]:
            yield name, s, f


def _spd(torch, b):
    m = torch.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], dtype=torch.float64)
    return m.expand(*b.shape[:-2], 3, 3) if b.dim() > 2 else m


def _describe(torch, out):
    if isinstance(out, torch.Tensor):
        return {"shape": list(out.shape), "dtype": str(out.dtype), "values": out.detach().reshape(-1).tolist()}
    if isinstance(out, (tuple, list)):
        return [_describe(torch, o) for o in out]
    return {"python": repr(out)}


def run_all():
    import torch

    warnings.simplefilter("ignore")
    results = {}
    for name, shape, f in _cases(torch):
        a = torch.ones(shape, dtype=torch.float64) if shape else torch.tensor(2.0, dtype=torch.float64)
        key = f"{name} {list(shape)}"
        try:
            results[key] = _describe(torch, f(a))
        except Exception as e:  # the error itself is the result compared
            results[key] = {"error": type(e).__name__, "message": str(e).split("\n")[0]}
    return results


if __name__ == "__main__":
    with open(sys.argv[1], "w") as f:
        json.dump(run_all(), f, indent=0, sort_keys=True)
