"""Cases of the names issue 21 added (torch.special, the special functions of torch and
torch.Tensor, and the other functions real PyTorch 1.13 programs call), run the same way by this
package and by real PyTorch 1.13 (Debian's python3-torch): each case builds its inputs from
numpy, calls the functions and returns a list of results: numpy arrays (values and gradients)
or strings (dtypes, the names of the exceptions that bad input raises). test_missing_names.py
compares the two runs case by case.

Run directly (`python3 missing_names_cases.py OUT.npz`) it writes every case's results to
OUT.npz, with the `torch` that interpreter imports; a case that raises is written as the string
'CASE FAILED: ...' so that the other cases still compare."""

import sys

import numpy as np

from functional_cases import EDGES, error_name, float_types, randn, tensor, values, with_grad

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


# arguments of the gamma-family functions: both signs, both sides of 1/2, near the poles, large
GAMMA_POINTS = np.array([0.5, 1.0, 2.0, 2.5, 1e-3, 1e-8, 3.7, 9.9, 10.5, 55.0, 170.3, -0.5, -1.3, -2.7, -7.25, 0.25])
# the poles, the zeros and the infinities, for values only
GAMMA_EDGES = np.array([0.0, -0.0, -1.0, -2.0, -30.0, np.inf, -np.inf, np.nan])
UNIT = np.array([-0.999, -0.9, -0.5, -0.1, 0.0, 1e-6, 0.3, 0.75, 0.99, 0.9999])
BESSEL_POINTS = np.array([0.0, 1e-9, 0.3, -0.7, 1.5, -4.0, 9.0, 15.5, -29.5, 30.5, 31.0, 60.0, -200.0, 700.0])


def unary_case(torch, fn, points, edges, dt, seed=0):
    """Values and gradients of fn at points, and values at edges."""
    out = with_grad(torch, fn, [points], dt, seed=seed)
    out += values(fn(tensor(torch, edges, dt)))
    return out


@case
def lgamma(torch):
    out = []
    for dt in float_types(torch):
        out += unary_case(torch, torch.lgamma, GAMMA_POINTS, GAMMA_EDGES, dt)
        out += with_grad(torch, lambda x: x.lgamma(), [GAMMA_POINTS], dt)
        out += values(torch.special.gammaln(tensor(torch, GAMMA_POINTS, dt)))
    out += values(torch.lgamma(torch.tensor([1, 2, 3, 0, -4])))
    x = tensor(torch, GAMMA_POINTS, torch.float64)
    out += values(x.lgamma_())
    return out


@case
def digamma(torch):
    out = []
    for dt in float_types(torch):
        out += unary_case(torch, torch.digamma, GAMMA_POINTS, GAMMA_EDGES, dt)
        out += values(torch.special.digamma(tensor(torch, GAMMA_POINTS, dt)))
        out += values(torch.special.psi(tensor(torch, GAMMA_POINTS, dt)))
    x = tensor(torch, GAMMA_POINTS, torch.float32)
    out += values(x.digamma_())
    out += values(torch.digamma(torch.tensor([1, 2, 7])))
    return out


@case
def trigamma(torch):
    """polygamma(1, x), which PyTorch computes with a short series: float64 results agree with
    it to about 1e-9 only (test_missing_names.py's TOLERANCES)."""
    out = []
    for dt in float_types(torch):
        out += unary_case(torch, lambda x: torch.polygamma(1, x), GAMMA_POINTS, np.array([0.0, np.inf, np.nan]), dt)
    return out


@case
def polygamma(torch):
    out = []
    points = np.array([0.5, 1.0, 2.5, 1e-3, 3.7, 9.9, 10.5, 55.0, 300.0, -0.5, -1.3, -2.7, -7.25])
    for dt in float_types(torch):
        for n in [0, 2, 3, 5]:
            out += unary_case(torch, lambda x: torch.polygamma(n, x), points, GAMMA_EDGES[GAMMA_EDGES > -3], dt)
        out += values(torch.special.polygamma(4, tensor(torch, points, dt)))
        out += values(tensor(torch, points, dt).polygamma(2))
    x = tensor(torch, points, torch.float64)
    out += values(x.polygamma_(3))
    out.append(error_name(lambda: torch.polygamma(-1, torch.ones(2))))
    return out


@case
def zeta(torch):
    out = []
    s = np.array([2.0, 3.0, 1.5, 4.0, 7.5, 2.0, 3.0, 2.0, 12.0, 1.01])
    q = np.array([1.0, 0.5, 2.0, 1e-3, 3.3, 100.0, 1e6, -2.5, 0.75, 1.0])
    for dt in float_types(torch):
        x, y = tensor(torch, s, dt), tensor(torch, q, dt).requires_grad_()
        r = torch.special.zeta(x, y)
        r.sum().backward()
        out += [r.detach().numpy(), y.grad.numpy()]
        edges = torch.special.zeta(
            tensor(torch, [1.0, 0.5, 2.5, 2.0, 2.0, 3.0], dt), tensor(torch, [1, 1, -1.5, -2, 0, -1.5], dt)
        )
        out += values(edges)
    out += values(torch.special.zeta(2, torch.tensor([1.0, 2.0])))
    out += values(torch.special.zeta(torch.tensor([2, 3]), torch.tensor([1, 2])))
    return out


@case
def mvlgamma(torch):
    out = []
    points = np.array([2.5, 3.0, 10.25, 1.75])
    for dt in float_types(torch):
        for p in [1, 2, 3]:
            out += with_grad(torch, lambda x: torch.mvlgamma(x, p), [points], dt)
            out += values(torch.special.multigammaln(tensor(torch, points, dt), p))
        out += values(tensor(torch, points, dt).mvlgamma(4))
    out.append(error_name(lambda: torch.mvlgamma(torch.tensor([0.5, 2.0]), 3)))
    out.append(error_name(lambda: torch.mvlgamma(torch.tensor([2.5]), 0)))
    return out


@case
def erfinv(torch):
    out = []
    # near +-1 the derivative exp(erfinv(x)^2) magnifies float32's rounding: values only there
    edges = np.array([-1.0, 1.0, 1.5, -2.0, np.nan, -0.0, 0.999999])
    for dt in float_types(torch):
        out += unary_case(torch, torch.erfinv, UNIT, edges, dt)
        out += values(torch.special.erfinv(tensor(torch, UNIT, dt)))
        out += with_grad(torch, lambda x: x.erfinv(), [UNIT], dt, seed=3)
    out += values(torch.erfinv(torch.tensor([0, 1])))
    return out


@case
def bessel(torch):
    out = []
    edges = np.array([np.inf, -np.inf, np.nan, -0.0])
    for dt in float_types(torch):
        for fn in [torch.i0, torch.special.i0, torch.special.i0e, torch.special.i1, torch.special.i1e]:
            out += unary_case(torch, fn, BESSEL_POINTS[BESSEL_POINTS < 80], edges, dt)
            out += values(fn(tensor(torch, BESSEL_POINTS, dt)))
        out += values(tensor(torch, BESSEL_POINTS, dt).i0())
    out += values(torch.special.i1e(torch.tensor([0, 3, -40])))
    return out


@case
def normal_distribution(torch):
    out = []
    x = np.array([-40.0, -10.0, -3.0, -1.0, -0.5, 0.0, 0.7, 2.0, 5.0, 9.0, 30.0])
    p = np.array([1e-300, 1e-30, 1e-10, 1e-3, 0.02, 0.3, 0.5, 0.6, 0.9, 0.999, 1 - 1e-12])
    for dt in float_types(torch):
        out += unary_case(torch, torch.special.ndtr, x, np.array([np.inf, -np.inf, np.nan]), dt)
        out += unary_case(torch, torch.special.log_ndtr, x, np.array([np.inf, -np.inf, np.nan]), dt)
        out += unary_case(torch, torch.special.ndtri, p[p > 1e-35], np.array([0.0, 1.0, -0.5, 2.0, np.nan]), dt)
        out += unary_case(torch, torch.special.erfcx, x, np.array([np.inf, -np.inf, np.nan, -30.0]), dt)
    out += values(torch.special.ndtri(tensor(torch, p, torch.float64)))
    out += values(torch.special.ndtr(torch.tensor([0, 1, -2])))
    return out


@case
def sinc_and_entr(torch):
    out = []
    x = np.array([0.0, 1e-5, 0.5, -0.5, 1.0, 2.0, -3.25, 7.1, 100.5])
    for dt in float_types(torch):
        out += unary_case(torch, torch.sinc, x, np.array([np.inf, np.nan, -0.0]), dt)
        out += with_grad(torch, lambda t: t.sinc(), [x], dt, seed=4)
        out += values(torch.special.sinc(tensor(torch, x, dt)))
        positive = np.array([1e-8, 0.1, 0.5, 1.0, 2.0, 37.0])
        out += unary_case(torch, torch.special.entr, positive, np.array([0.0, -1.0, np.inf, np.nan]), dt)
    x = tensor(torch, x, torch.float64)
    out += values(x.sinc_())
    out += values(torch.sinc(torch.tensor([0, 1, 2])))
    return out


@case
def xlog1py(torch):
    out = []
    a, b = np.meshgrid(EDGES, EDGES, indexing="ij")
    a, b = a.reshape(-1), b.reshape(-1)
    for dt in float_types(torch):
        out += values(torch.special.xlog1py(tensor(torch, a, dt), tensor(torch, b, dt)))
        x, y = randn(1, 3, 4), np.abs(randn(2, 4)) + 0.1
        out += with_grad(torch, torch.special.xlog1py, [x, y], dt)
        out += with_grad(torch, torch.special.xlog1py, [np.array([0.0, 0.0, 2.0]), np.array([-1.0, -3.0, 0.5])], dt)
    out += values(torch.special.xlog1py(2.0, torch.tensor([1.0, 3.0])))
    out += values(torch.special.xlog1py(torch.tensor([1, 2]), 3))
    return out


@case
def special_aliases(torch):
    out = []
    x = randn(5, 3, 4)
    for dt in float_types(torch):
        t = tensor(torch, x, dt)
        sp = torch.special
        for fn in [sp.expit, sp.erf, sp.erfc, sp.expm1, sp.log1p, sp.exp2, sp.round]:
            out += values(fn(t))
        out += values(sp.logit(t.sigmoid()))
        out += values(sp.logit(t.sigmoid(), eps=0.2))
        out += values(sp.xlogy(t, t.abs()))
        out += values(sp.logsumexp(t, 1))
        out += values(sp.logsumexp(t, (0, 1), keepdim=True))
        out += values(sp.softmax(t, 1))
        out += values(sp.log_softmax(t, 0))
        out += values(sp.softmax(t, -1, dtype=torch.float64))
        out += with_grad(torch, sp.expit, [x], dt)
        out += with_grad(torch, lambda u: sp.log_softmax(u, 1), [x], dt)
    out += values(torch.special.expit(torch.tensor([0, 1, -2])))
    out += values(torch.special.erf(torch.tensor([0, 1, -2])))
    return out


@case
def special_out(torch):
    out = []
    x = torch.tensor([0.5, 1.5, 3.0])
    for fn in [torch.lgamma, torch.digamma, torch.erfinv, torch.i0, torch.sinc, torch.special.ndtri, torch.special.i1]:
        buf = torch.empty(0)
        fn(x / 4, out=buf)
        out += values(buf)
    buf = torch.empty(3)
    torch.polygamma(2, x, out=buf)
    out += values(buf)
    out.append(error_name(lambda: torch.lgamma(x, out=torch.empty(3, dtype=torch.int64))))
    out.append(error_name(lambda: torch.lgamma([1.0])))
    out.append(error_name(lambda: torch.tensor([1, 2]).lgamma_()))
    return out


def run_case(torch, name):
    """One case's results, keyed 'case::index' (or 'case::failed' where the case raised)."""
    try:
        items = CASES[name](torch)
    except Exception as exc:  # noqa: BLE001  (reported, not fatal: the other cases still run)
        return {name + "::failed": np.array("CASE FAILED: %s: %s" % (type(exc).__name__, exc))}
    return {"%s::%d" % (name, i): np.asarray(item) for i, item in enumerate(items)}


def run_all(torch):
    results = {}
    for name in CASES:
        results.update(run_case(torch, name))
    return results


if __name__ == "__main__":
    import torch as _torch

    np.savez(sys.argv[1], **run_all(_torch))
