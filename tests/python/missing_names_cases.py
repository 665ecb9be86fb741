"""Cases of the names issue 21 added (torch.special, the special functions of torch and
torch.Tensor, and the other functions real PyTorch 1.13 programs call), run the same way by this
package and by real PyTorch 1.13 (Debian's python3-torch): each case builds its inputs from
numpy, calls the functions and returns a list of results: numpy arrays (values and gradients)
or strings (dtypes, the names of the exceptions that bad input raises). test_missing_names.py
compares the two runs case by case.

Run directly (`python3 missing_names_cases.py OUT.npz`) it writes every case's results to
OUT.npz, with the `torch` that interpreter imports; a case that raises is written as the string
'CASE FAILED: ...' so that the other cases still compare."""

import numpy as np

import case_runner

from functional_cases import EDGES, error_name, float_types, randn, tensor, values, with_grad

CASES, case = case_runner.registry()


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


@case
def inverse_hyperbolic(torch):
    out = []
    near = np.array([1.0, 1.0 + 1e-9, 1.5, 3.0, 1e5, 1e9, 1e200])
    anywhere = np.array([0.0, -0.0, 1e-9, -0.3, 0.7, 2.5, -40.0, 1e9, -1e200])
    inside = np.array([0.0, -0.0, 1e-9, -0.3, 0.7, 0.999, -0.9999])
    edges = np.array([np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0, -3.0])
    for dt in float_types(torch):
        for fn, points in [(torch.acosh, near[1:]), (torch.asinh, anywhere), (torch.atanh, inside)]:
            out += unary_case(torch, fn, points, edges, dt)
        out += values(torch.arccosh(tensor(torch, near, dt)))
        out += values(tensor(torch, anywhere, dt).arcsinh())
        out += values(tensor(torch, inside, dt).arctanh_())
        out += values(torch.arctan2(tensor(torch, anywhere, dt), tensor(torch, anywhere[::-1].copy(), dt)))
    out += values(torch.asinh(torch.tensor([0, 1, -3])))
    return out


@case
def integer_arithmetic(torch):
    a = torch.tensor([12, -18, 0, 7, 0, 1071, -5, 2**40])
    b = torch.tensor([8, 12, 9, 0, 0, 462, -15, 6])
    out = values(torch.gcd(a, b)) + values(torch.lcm(a, b)) + values(a.gcd(b)) + values(a.clone().lcm_(b))
    out += values(torch.gcd(a.to(torch.int32), b.to(torch.int32)))
    out += values(torch.gcd(torch.tensor([[4], [6]]), torch.tensor([3, 8, 9])))
    out.append(error_name(lambda: torch.gcd(torch.tensor([1.0]), torch.tensor([2.0]))))
    for dt in float_types(torch):
        x = tensor(torch, [0.75, -3.0, 1e-3, 5e-310, 1e308, 0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, 0.5, 1023.9], dt)
        m, e = torch.frexp(x)
        out += values(m) + values(e)
        m, e = x.frexp()
        out += values(torch.ldexp(m, e))
        out += values(torch.ldexp(x, torch.tensor([3])))
    out += values(torch.ldexp(torch.tensor([1, 2]), torch.tensor([2, -1])))
    out.append(error_name(lambda: torch.frexp(torch.tensor([1, 2]))))
    return out


@case
def scans_and_statistics(torch):
    out = []
    x = randn(40, 3, 5)
    x[1, 2] = -1000.0
    x[2, 0] = 700.0
    for dt in float_types(torch):
        out += with_grad(torch, lambda t: torch.logcumsumexp(t, 1), [x], dt)
        out += with_grad(torch, lambda t: t.logcumsumexp(0), [x], dt)
        out += values(torch.logcumsumexp(tensor(torch, [-np.inf, -np.inf, 0.0, np.inf, np.nan], dt), 0))
        out += with_grad(torch, lambda t: torch.cumulative_trapezoid(t), [x], dt)
        out += with_grad(torch, lambda t: torch.cumulative_trapezoid(t, dx=0.5, dim=0), [x], dt)
        out += with_grad(torch, lambda t, s: torch.cumulative_trapezoid(t, s), [x, np.sort(randn(41, 5))], dt)
        obs = randn(42, 3, 7)
        out += with_grad(torch, torch.cov, [obs], dt)
        out += with_grad(torch, lambda t: torch.cov(t, correction=0), [obs], dt)
        fw = torch.tensor([1, 2, 1, 3, 1, 1, 2])
        aw = tensor(torch, np.abs(randn(43, 7)), dt)
        out += with_grad(torch, lambda t: torch.cov(t, fweights=fw, aweights=aw), [obs], dt)
        out += with_grad(torch, lambda t: torch.cov(t, aweights=aw, correction=2), [obs], dt)
        out += with_grad(torch, lambda t: t.cov(), [obs[0]], dt)
        out += with_grad(torch, torch.corrcoef, [obs], dt)
        out += with_grad(torch, lambda t: t.corrcoef(), [obs[1]], dt)
        y = randn(44, 4, 6)
        y[0, 1] = y[2, 3] = y[2, 0] = np.nan
        y[3] = np.nan
        t = tensor(torch, y, dt)
        out += values(torch.nanmedian(t)) + values(t.nanmedian())
        r = torch.nanmedian(t[:3], 1)
        out += values(r.values) + values(r.indices)
        r = torch.nanmedian(t[:, :3], 0, keepdim=True)
        out += values(r.values) + values(r.indices)
        out += values(torch.nanmedian(t, 1).values)
        out += with_grad(torch, lambda u: torch.nanmedian(u, 1).values, [y[:3]], dt)
    out += values(torch.cov(torch.tensor([[1, 2, 4], [3, 1, 0]])))
    return out


@case
def splitting(torch):
    out = []
    x = torch.arange(24).reshape(2, 3, 4)
    for split in [2, 3, 5, [1, 2], (0, 3, 9), torch.tensor(2), torch.tensor([1, 3])]:
        for part in torch.tensor_split(x, split, dim=2):
            out += values(part)
    for part in x.tensor_split(2) + torch.hsplit(x, 3) + torch.vsplit(x, [1]) + torch.dsplit(x, 2) + x.hsplit([1, 2]):
        out += values(part)
    for part in torch.hsplit(torch.arange(6), 2):
        out += values(part)
    out.append(error_name(lambda: torch.hsplit(x, 2)))
    out.append(error_name(lambda: torch.vsplit(torch.arange(4), 2)))
    out.append(error_name(lambda: torch.tensor_split(x, 0)))
    seq = torch.tensor([1, 1, 2, 2, 3, 1, 1, 2])
    out += [r.numpy() for r in torch.unique_consecutive(seq, return_inverse=True, return_counts=True)]
    out += values(seq.unique_consecutive())
    m = torch.tensor([[1, 1, 2], [1, 1, 2], [0, 0, 2], [1, 1, 2]])
    out += [r.numpy() for r in torch.unique_consecutive(m, return_inverse=True, return_counts=True, dim=0)]
    out += [r.numpy() for r in torch.unique_consecutive(m, return_counts=True, dim=1)]
    out += [r.numpy() for r in torch.unique_consecutive(m.float(), return_inverse=True)]
    return out


@case
def membership_and_distances(torch):
    out = []
    e = torch.tensor([[1, 2, 3], [4, 5, 6]])
    out += values(torch.isin(e, torch.tensor([2, 6, 9])))
    out += values(torch.isin(e, torch.tensor([2, 6]), invert=True))
    out += values(torch.isin(e, 5)) + values(torch.isin(5, e))
    out += values(torch.isin(torch.tensor([1.0, np.nan, 2.5]), torch.tensor([2.5, np.nan])))
    out += values(torch.isin(e, torch.tensor([], dtype=torch.int64)))
    for dt in float_types(torch):
        pts = randn(45, 5, 3)
        for p in [2, 1, 3.5, np.inf]:
            out += with_grad(torch, lambda t: torch.pdist(t, p), [pts], dt)
        out += values(torch.pdist(tensor(torch, pts[:1], dt)))
        out += with_grad(torch, lambda t: torch.nn.functional.pdist(t), [pts], dt)
        out += with_grad(torch, lambda a, b: torch.cosine_similarity(a, b), [pts, randn(46, 5, 3)], dt)
        out += with_grad(torch, lambda a, b: torch.pairwise_distance(a, b), [pts, randn(47, 5, 3)], dt)
    out.append(error_name(lambda: torch.pdist(torch.ones(2, 3, 4))))
    return out


@case
def real_tensor_answers(torch):
    out = []
    x = torch.tensor([[-1.5, 0.0, 2.0], [np.nan, -0.0, 3.0]])
    out += values(torch.angle(x)) + values(x.angle()) + values(torch.angle(torch.tensor([-2, 0, 3])))
    out += values(torch.conj(x)) + values(x.conj()) + values(torch.conj_physical(x)) + values(x.resolve_conj())
    out += values(torch.resolve_neg(x)) + values(torch.real(x)) + values(torch.isreal(x)) + values(x.isreal())
    out.append(str([x.is_conj(), x.is_neg(), torch.is_conj(x), x.is_cpu, x.is_sparse, x.is_quantized, x.is_meta]))
    out.append(str([torch.is_nonzero(torch.tensor([0.5])), torch.is_nonzero(torch.tensor(0)), x.is_signed()]))
    out.append(str([torch.is_signed(torch.tensor([1], dtype=torch.uint8)), torch.is_same_size(x, x.t())]))
    out.append(str([x.is_same_size(torch.ones(2, 3)), x.layout, torch.strided, torch.is_inference(x)]))
    out.append(error_name(lambda: torch.is_nonzero(torch.ones(2))))
    out.append(error_name(lambda: torch.is_nonzero(torch.ones(0))))
    out.append(error_name(lambda: torch.imag(x)))
    out.append(error_name(lambda: x.imag))
    out.append(error_name(lambda: torch.positive(torch.tensor([True]))))
    out += values(torch.positive(x)) + values(x.positive())
    out += values(torch.rsub(x, 2.0)) + values(torch.rsub(x, torch.ones(3), alpha=3))
    out += values(torch.scalar_tensor(3)) + values(torch.scalar_tensor(2.5, dtype=torch.float64))
    b = torch.arange(24.0).reshape(2, 3, 4)
    out += values(b.mT) + values(b.mH) + values(x.H) + values(x.adjoint()) + values(torch.adjoint(b))
    out.append(error_name(lambda: torch.arange(3.0).mT))
    return out


@case
def other_names(torch):
    out = []
    x = randn(48, 3, 4)
    for dt in float_types(torch):
        t = tensor(torch, x, dt)
        u = t.clamp(-0.9, 0.9)
        for fn in [torch.arccos, torch.arcsin, torch.arctan, torch.fix]:
            out += values(fn(u))
        for name in ["arccos", "arcsin", "arctan", "fix"]:
            out += values(getattr(u, name)()) + values(getattr(u.clone(), name + "_")())
        for name in "abs_ acos_ ceil_ cos_ exp_ floor_ neg_ sigmoid_ sqrt_ tanh_ trunc_ zero_ square_".split():
            out += values(getattr(torch, name)(u.abs().clone()))
        out += values(torch.clamp_(t.clone(), -0.5, 0.5)) + values(torch.fill_(t.clone(), 2.0))
        out += values(torch.fill(t, 1.5)) + values(torch.detach(t)) + values(torch.concatenate([t, t], 1))
        out += values(t.clone().absolute_()) + values(t.clone().negative_())
        out += values(t.clone().greater_(0)) + values(t.clone().less_equal_(0.2)) + values(t.clone().not_equal_(t))
    y = tensor(torch, x, torch.float64)
    w = torch.ones(4, dtype=torch.float64)
    out += values(torch.layer_norm(y, [4], w, w * 0.5, 1e-5))
    out += values(torch.group_norm(y.reshape(3, 4, 1), 2))
    rm, rv = torch.zeros(4, dtype=torch.float64), torch.ones(4, dtype=torch.float64)
    out += values(torch.batch_norm(y, w, None, rm, rv, False, 0.1, 1e-5, False))
    out += values(torch.instance_norm(y.reshape(1, 3, 4), None, None, None, None, True, 0.1, 1e-5, False))
    out += values(torch.embedding(y, torch.tensor([2, 0, 2])))
    out += values(torch.dropout(y, 0.3, False)) + values(torch.conv1d(y.reshape(1, 3, 4), y.reshape(1, 3, 4)))
    out += values(torch.max_pool2d(y.reshape(1, 3, 4), 2)) + values(torch.pixel_shuffle(y.reshape(4, 3, 1), 2))
    return out


@case
def functional_losses_and_shuffles(torch):
    F = torch.nn.functional
    out = []
    for dt in float_types(torch):
        mean, target, var = randn(50, 4, 3), randn(51, 4, 3), np.abs(randn(52, 4, 3))
        var[0, 0] = 1e-9
        for kwargs in [{}, {"full": True}, {"reduction": "sum"}, {"reduction": "none", "eps": 1e-3}]:
            out += with_grad(torch, lambda m, t, v: F.gaussian_nll_loss(m, t, v, **kwargs), [mean, target, var], dt)
        out += with_grad(torch, lambda m, t, v: F.gaussian_nll_loss(m, t, v), [mean, target, var[:, :1]], dt)
        out += with_grad(torch, lambda m, t, v: F.gaussian_nll_loss(m, t, v), [mean, target, var[:, 0]], dt)
        a, p, n = randn(53, 5, 3), randn(54, 5, 3), randn(55, 5, 3)
        out += with_grad(torch, F.triplet_margin_with_distance_loss, [a, p, n], dt)
        cos = lambda x, y: 1 - F.cosine_similarity(x, y)  # noqa: E731
        call = lambda x, y, z: F.triplet_margin_with_distance_loss(  # noqa: E731
            x, y, z, distance_function=cos, margin=0.5, swap=True, reduction="none"
        )
        out += with_grad(torch, call, [a, p, n], dt)
        # (PyTorch 1.13 has no derivative for channel_shuffle: values only)
        out += values(F.channel_shuffle(tensor(torch, randn(56, 2, 6, 3), dt), 2))
        out += values(torch.nn.ChannelShuffle(3)(tensor(torch, randn(57, 1, 6, 2, 2), dt)))
        out += values(torch.channel_shuffle(tensor(torch, randn(58, 1, 4, 2), dt), 4))
    out.append(error_name(lambda: F.gaussian_nll_loss(torch.ones(2, 3), torch.ones(2, 3), -torch.ones(2, 3))))
    out.append(error_name(lambda: F.gaussian_nll_loss(torch.ones(2, 3), torch.ones(2, 3), torch.ones(3, 2))))
    out.append(error_name(lambda: F.channel_shuffle(torch.ones(1, 5, 2), 2)))
    out.append(repr(torch.nn.ChannelShuffle(2)))
    return out


@case
def gumbel_softmax(torch):
    """The same noise as PyTorch's after the same seed (exponential_ draws the same stream)."""
    F = torch.nn.functional
    out = []
    logits = randn(59, 4, 5)
    for hard in [False, True]:
        torch.manual_seed(7)
        out += with_grad(torch, lambda t: F.gumbel_softmax(t, tau=0.5, hard=hard), [logits], torch.float64)
    return out


@case
def linalg_norms(torch):
    la = torch.linalg
    out = []
    v = randn(60, 3, 4)
    v[0, 0] = 0.0
    for dt in float_types(torch):
        for ord in [2, 1, 3.5, np.inf, -np.inf, 0, -1.5]:
            out += values(la.vector_norm(tensor(torch, v, dt), ord))
            out += values(la.vector_norm(tensor(torch, v, dt), ord, dim=1, keepdim=True))
        for ord in [2, 1, 3.5, np.inf]:
            out += with_grad(torch, lambda t: la.vector_norm(t, ord, dim=(0, 1)), [v + 5.0], dt)
        m = randn(61, 2, 3, 4)
        for ord in ["fro", "nuc", 2, -2, 1, -1, np.inf, -np.inf]:
            out += values(la.matrix_norm(tensor(torch, m, dt), ord))
            out += values(la.matrix_norm(tensor(torch, m, dt), ord, dim=(0, 2), keepdim=True))
        for ord in ["fro", "nuc", 2, 1, np.inf]:
            out += with_grad(torch, lambda t: la.matrix_norm(t, ord), [m], dt)
        for kwargs in [
            {},
            {"ord": 2},
            {"dim": 1},
            {"dim": (0, 2)},
            {"ord": "nuc", "dim": (1, 2)},
            {"ord": 1, "dim": 0},
        ]:
            out += values(la.norm(tensor(torch, m if "dim" in kwargs else m[0], dt), **kwargs))
        out += values(la.norm(tensor(torch, v[0], dt), 3))
        sq = randn(62, 2, 3, 3)
        for p in [None, 2, -2, 1, np.inf, "fro", "nuc"]:
            out += values(la.cond(tensor(torch, sq, dt), p))
        low = randn(63, 5, 3) @ randn(64, 3, 4)
        out += values(la.matrix_rank(tensor(torch, low, dt)))
        out += values(la.matrix_rank(tensor(torch, sq, dt)))
        out += values(la.matrix_rank(tensor(torch, low, dt), atol=1.0, rtol=0.1))
        out += values(la.matrix_rank(tensor(torch, low @ low.T, dt), hermitian=True))
        out += values(torch.nuclear_norm(tensor(torch, m[0], dt))) + values(torch.frobenius_norm(tensor(torch, m, dt)))
    out.append(error_name(lambda: la.vector_norm(torch.tensor([1, 2]))))
    return out


@case
def linalg_products(torch):
    la = torch.linalg
    out = []
    for dt in float_types(torch):
        a, b = randn(65, 4, 3), randn(66, 1, 3)
        out += with_grad(torch, la.cross, [a, b], dt)
        out += with_grad(torch, lambda x, y: la.cross(x.T, y.T, dim=0), [a, b], dt)
        out += with_grad(torch, lambda x: la.diagonal(x, offset=1), [randn(67, 2, 3, 4)], dt)
        out += with_grad(torch, lambda x, y: la.vecdot(x, y), [a, b], dt)
        out += with_grad(torch, lambda x, y: la.vecdot(x, y, dim=0), [a, randn(68, 4, 1)], dt)
        out += with_grad(torch, la.vander, [randn(69, 2, 4)], dt)
        out += with_grad(torch, lambda x: la.vander(x, N=6), [randn(70, 3)], dt)
        # (at larger norms PyTorch's float32 squarings lose more than float32's precision)
        for scale in [0.1, 1.0, 7.0] if dt == torch.float64 else [0.1, 1.0]:
            out += with_grad(torch, la.matrix_exp, [scale * randn(71, 2, 4, 4)], dt)
        out += with_grad(torch, torch.matrix_exp, [np.array([[0.0, 1.0], [-1.0, 0.0]])], dt)
        out += values(tensor(torch, randn(72, 3, 3), dt).matrix_exp())
    out += values(la.vander(torch.tensor([1, 2, 3])))
    return out


@case
def linalg_solvers(torch):
    la = torch.linalg
    out = []
    for dt in float_types(torch):
        A = randn(73, 2, 4, 4) + 4 * np.eye(4)
        B = randn(74, 2, 4, 3)
        spd = A @ np.swapaxes(A, -1, -2)
        for upper in [True, False]:
            for unit in [False, True]:
                call = lambda a, b: la.solve_triangular(a, b, upper=upper, unitriangular=unit)  # noqa: E731
                out += with_grad(torch, call, [A, B], dt)
                call = lambda a, b: la.solve_triangular(a, b, upper=upper, left=False)  # noqa: E731
                out += with_grad(torch, call, [A, np.swapaxes(B, -1, -2)], dt)
        for transpose in [False, True]:
            r = torch.triangular_solve(tensor(torch, B, dt), tensor(torch, A, dt), transpose=transpose)
            out += values(r.solution) + values(r.cloned_coefficient)
        r = tensor(torch, B, dt).triangular_solve(tensor(torch, A, dt), upper=False, unitriangular=True)
        out += values(r.solution)
        r = la.inv_ex(tensor(torch, A, dt))
        out += values(r.inverse) + values(r.info)
        r = la.cholesky_ex(tensor(torch, spd, dt))
        out += values(r.L) + values(r.info)
        out += values(la.cholesky_ex(tensor(torch, spd, dt), upper=True).L)
        r = la.solve_ex(tensor(torch, A, dt), tensor(torch, B, dt))
        out += values(r.result) + values(r.info)
        out += values(la.solve_ex(tensor(torch, A, dt), tensor(torch, B, dt).mT, left=False).result)
        r = la.lu_factor_ex(tensor(torch, A, dt))
        out += values(r.LU) + values(r.pivots) + values(r.info)
        P, L, U = la.lu(tensor(torch, A, dt))
        out += values(P) + values(L) + values(U)
        P, L, U = la.lu(tensor(torch, randn(75, 3, 5), dt))
        out += values(P) + values(L) + values(U)
        P, L, U = la.lu(tensor(torch, randn(76, 5, 3), dt))
        out += values(P) + values(L) + values(U)
        LU, piv = la.lu_factor(tensor(torch, A, dt))
        for left in [True, False]:
            for adjoint in [False, True]:
                rhs = tensor(torch, B if left else np.swapaxes(B, -1, -2), dt)
                out += values(la.lu_solve(LU, piv, rhs, left=left, adjoint=adjoint))
        out += values(torch.lu_solve(tensor(torch, B, dt), LU, piv))
        tall, rhs = randn(77, 6, 3), randn(78, 6, 2)
        r = la.lstsq(tensor(torch, tall, dt), tensor(torch, rhs, dt))
        out += values(r.solution) + values(r.residuals) + values(r.rank) + values(r.singular_values)
        out += with_grad(torch, lambda a, b: la.lstsq(a, b).solution, [tall, rhs], dt)
        T = randn(79, 2, 3, 6)
        out += with_grad(torch, lambda t: la.tensorinv(t, ind=2), [T], dt)
        out += with_grad(torch, lambda t: la.tensorinv(t, ind=1), [randn(80, 6, 2, 3)], dt)
        out += with_grad(torch, la.tensorsolve, [randn(81, 2, 3, 6), randn(82, 2, 3)], dt)
        out += values(
            la.tensorsolve(tensor(torch, randn(83, 6, 2, 3), dt), tensor(torch, randn(84, 2, 3), dt), dims=(0,))
        )
    r = la.inv_ex(torch.zeros(2, 2))
    out += values(r.info)
    out.append(error_name(lambda: la.inv_ex(torch.zeros(2, 2), check_errors=True)))
    out.append(str(issubclass(la.LinAlgError, RuntimeError)))
    return out


@case
def windows(torch):
    out = []
    for fn in [
        torch.hann_window,
        torch.hamming_window,
        torch.blackman_window,
        torch.bartlett_window,
        torch.kaiser_window,
    ]:
        for n in [0, 1, 2, 5, 8]:
            for periodic in [True, False]:
                out += values(fn(n, periodic))
                out += values(fn(n, periodic, dtype=torch.float64))
    out += values(torch.hamming_window(6, True, 0.5, 0.3)) + values(torch.kaiser_window(7, False, beta=3.5))
    out.append(error_name(lambda: torch.hann_window(4, dtype=torch.int64)))
    return out


@case
def histograms(torch):
    out = []
    x = randn(85, 40)
    x[3] = x.max()
    x[5] = x.min()
    for dt in float_types(torch):
        t = tensor(torch, x, dt)
        for bins in [1, 5, 13]:
            r = torch.histogram(t, bins)
            out += values(r.hist) + values(r.bin_edges)
        r = torch.histogram(t, 4, range=(-1.0, 1.0), weight=tensor(torch, np.abs(x), dt), density=True)
        out += values(r.hist) + values(r.bin_edges)
        r = t.histogram(tensor(torch, [-2.0, -0.5, 0.0, 0.1, 3.0], dt))
        out += values(r.hist) + values(r.bin_edges)
        r = torch.histogram(tensor(torch, [2.0, 2.0, 2.0], dt), 4)
        out += values(r.hist) + values(r.bin_edges)
    return out


@case
def gradients_and_neighbours(torch):
    out = []
    f = randn(86, 5, 6)
    for dt in float_types(torch):
        t = tensor(torch, f, dt)
        for kwargs in [{}, {"spacing": 2.0}, {"dim": 1}, {"edge_order": 2}, {"spacing": [0.5, 3.0], "edge_order": 2}]:
            out += [g.numpy() for g in torch.gradient(t, **kwargs)]
        coords = [
            tensor(torch, np.cumsum(np.abs(randn(87, 5)) + 0.1), dt),
            tensor(torch, np.cumsum(np.abs(randn(88, 6)) + 0.1), dt),
        ]
        for order in [1, 2]:
            out += [g.numpy() for g in torch.gradient(t, spacing=coords, edge_order=order)]
        out += with_grad(torch, lambda u: torch.gradient(u, dim=0)[0], [f], dt)
        a = tensor(torch, [1.0, 0.0, -0.0, 1e-30, np.inf, -2.5, np.nan], dt)
        b = tensor(torch, [2.0, -1.0, 1.0, 0.0, 0.0, -np.inf, 1.0], dt)
        out += values(torch.nextafter(a, b)) + values(a.nextafter(b) - a) + values(a.clone().nextafter_(b))
    out += [g.numpy() for g in torch.gradient(torch.tensor([1, 4, 9, 16]))]
    out.append(error_name(lambda: torch.gradient(torch.ones(2), edge_order=2)))
    return out


@case
def scatters_into_copies(torch):
    out = []
    x = randn(89, 3, 4, 5)
    for dt in float_types(torch):
        out += with_grad(torch, lambda a, b: torch.select_scatter(a, b, 1, 2), [x, randn(90, 3, 5)], dt)
        out += with_grad(torch, lambda a, b: torch.select_scatter(a, b, -1, -1), [x, randn(91, 3, 4)], dt)
        out += with_grad(torch, lambda a, b: torch.slice_scatter(a, b, 1, 1, None, 2), [x, randn(92, 3, 2, 5)], dt)
        out += with_grad(torch, lambda a, b: torch.slice_scatter(a, b, 0, 1, 3, 1), [x, randn(93, 2, 4, 5)], dt)
        for offset, d1, d2 in [(0, 0, 1), (1, 1, 2), (-2, 2, 1), (3, -1, -2)]:
            src = np.asarray(tensor(torch, x, torch.float64).diagonal(offset, d1, d2).shape)
            out += with_grad(torch, lambda a, b: torch.diagonal_scatter(a, b, offset, d1, d2), [x, randn(94, *src)], dt)
    return out


@case
def tensor_conveniences(torch):
    out = []
    x = torch.arange(12.0).reshape(3, 4)
    out += values(x.new([1, 2])) + values(x.new(torch.tensor([3.0]))) + [str(x.new(2, 3).shape), str(x.new().shape)]
    out += [str(x.new_empty_strided((2, 3), (1, 2)).stride())]
    out += (
        values(x.sum_to_size(1, 4))
        + values(x.sum_to_size(4))
        + values(x.sum_to_size(3, 1))
        + values(x.sum_to_size((1, 1)))
    )
    out.append(error_name(lambda: x.sum_to_size(2, 4)))
    for shape, wrap in [((3, 3), False), ((7, 3), False), ((7, 3), True), ((3, 5), True), ((3, 3, 3), False)]:
        out += values(torch.zeros(shape).fill_diagonal_(2.5, wrap))
    out.append(error_name(lambda: torch.zeros(2, 3, 4).fill_diagonal_(1)))
    out += values(x.clone().apply_(lambda v: v * v - 1))
    out += values(x.clone().map_(torch.tensor([1.0, 2.0, 3.0, 4.0]), lambda a, b: a * b + 1))
    out += values(x.clone().map2_(x, torch.ones(3, 1), lambda a, b, c: a + b * c))
    b = torch.tensor([0.0, 1.0, 2.0, 0.0])
    for name in ["logical_and_", "logical_or_", "logical_xor_"]:
        out += values(getattr(b.clone(), name)(torch.tensor([1.0, 0.0, 3.0, 0.0])))
    out += values(b.clone().logical_not_()) + values(
        torch.tensor([True, False]).logical_xor_(torch.tensor([True, True]))
    )
    out.append(str([x.names, x.has_names(), x.rename(None) is x, x.is_distributed(), x.to_dense() is x]))
    out += values(x.resize(4, 3)) + values(x.resize_as(torch.ones(6, 2)))
    out += values(x.prelu(torch.tensor([0.25])))
    for t in torch.split_with_sizes(x, [1, 3], 1) + x.unsafe_split(2) + torch.unsafe_chunk(x, 2, 1):
        out += values(t)
    for name, args in [("transpose", (0, 1)), ("diagonal", ()), ("unsqueeze", (1,)), ("permute", ((1, 0),)), ("t", ())]:
        out += values(getattr(torch, name + "_copy")(x, *args))
    out += (
        values(torch.select_copy(x, 1, 2))
        + values(torch.view_copy(x, (2, 6)))
        + values(torch.expand_copy(x[:1], (2, 4)))
    )
    out += values(torch.slice_copy(x, 1, 1, 3, 1)) + values(torch.squeeze_copy(x[:1])) + values(torch.detach_copy(x))
    out += [t.numpy() for t in torch.unbind_copy(x, 1)] + [t.numpy() for t in torch.split_copy(x, 2)]
    out += (
        values(torch.unfold_copy(x, 1, 2, 2))
        + values(torch.alias_copy(x))
        + values(torch.as_strided_copy(x, (2, 2), (1, 4)))
    )
    return out


@case
def build_facts_and_switches(torch):
    out = [str([torch.has_cuda, torch.has_cudnn, torch.has_mps, torch.has_lapack, torch.is_vulkan_available()])]
    out.append(
        str([torch.typename(torch.ones(2)), torch.typename(torch.ones(2, dtype=torch.int64)), torch.typename(3)])
    )
    out.append(str([torch.typename(torch.ones(2, dtype=torch.float64)), torch.typename(torch.nn.Linear(1, 1))]))
    before = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True, warn_only=True)
    out.append(
        str(
            [
                before,
                torch.are_deterministic_algorithms_enabled(),
                torch.is_deterministic_algorithms_warn_only_enabled(),
            ]
        )
    )
    out.append(str(torch.get_deterministic_debug_mode()))
    torch.set_deterministic_debug_mode("error")
    out.append(str([torch.get_deterministic_debug_mode(), torch.is_deterministic_algorithms_warn_only_enabled()]))
    torch.use_deterministic_algorithms(False)
    out.append(str(torch.get_deterministic_debug_mode()))
    out.append(error_name(lambda: torch.set_deterministic_debug_mode("loud")))
    torch.set_float32_matmul_precision("high")
    out.append(torch.get_float32_matmul_precision())
    torch.set_float32_matmul_precision("highest")
    torch.set_float32_matmul_precision("low")
    out.append(torch.get_float32_matmul_precision())
    torch.set_warn_always(True)
    out.append(str(torch.is_warn_always_enabled()))
    torch.set_warn_always(False)
    out.append(str([torch.is_autocast_enabled(), torch.is_autocast_cpu_enabled()]))
    out.append(error_name(lambda: torch.autocast("tpu")))
    buf = bytearray(np.arange(6, dtype=np.float32).tobytes())
    t = torch.frombuffer(buf, dtype=torch.float32, count=4, offset=4)
    t[0] = 9.0
    out += values(t) + [np.frombuffer(bytes(buf), dtype=np.float32)]
    a = np.arange(4.0)
    s = torch.asarray(a)
    s[0] = -1.0
    out += [a.copy()] + values(torch.asarray([1, 2], dtype=torch.float64)) + values(torch.asarray(s, copy=True))
    return out


@case
def incomplete_gamma(torch):
    """PyTorch switches to an asymptotic expansion for large a, good to about 1e-10 relative (an
    independent mpmath check agrees with the series here): see test_missing_names.py's TOLERANCES."""
    out = []
    a = np.array([0.5, 1.0, 2.0, 10.0, 100.0, 1000.0, 3.0, 0.1, 25.0, 7.5, 40.0])
    x = np.array([0.3, 1.0, 5.0, 9.0, 110.0, 990.0, 0.01, 4.0, 30.0, 7.5, 20.0])
    edge_a = np.array([0.0, 0.0, -1.0, 2.0, 2.0, np.inf, np.inf, 3.0, np.nan, 2.0])
    edge_x = np.array([1.0, 0.0, 1.0, -1.0, 0.0, 1.0, np.inf, np.inf, 1.0, np.nan])
    for dt in float_types(torch):
        for fn in [torch.special.gammainc, torch.special.gammaincc, torch.igamma, torch.igammac]:
            ta, tx = tensor(torch, a, dt), tensor(torch, x, dt).requires_grad_()
            r = fn(ta, tx)
            r.sum().backward()
            out += [r.detach().numpy(), tx.grad.numpy()]
            out += values(fn(tensor(torch, edge_a, dt), tensor(torch, edge_x, dt)))
        out += values(tensor(torch, a, dt).igamma(tensor(torch, x, dt)))
        out += values(tensor(torch, a, dt).igammac_(tensor(torch, x, dt)))
    return out


@case
def special_polynomials_and_bessels(torch):
    sp = torch.special
    out = []
    x = np.array([-1.0, -0.7, -0.2, 0.0, 0.3, 0.95, 1.0, 1.5, -2.5])
    for dt in float_types(torch):
        t = tensor(torch, x, dt)
        for fn in [
            sp.chebyshev_polynomial_t,
            sp.chebyshev_polynomial_u,
            sp.hermite_polynomial_h,
            sp.hermite_polynomial_he,
            sp.laguerre_polynomial_l,
            sp.legendre_polynomial_p,
        ]:
            for n in [0, 1, 2, 5, 7, 12]:
                out += values(fn(t, n))
            out += values(fn(t, torch.tensor([0, 1, 2, 3, 4, 9, 10, -1, 6])))
        out += values(sp.spherical_bessel_j0(tensor(torch, [0.0, 1e-3, 0.3, -0.49, 0.5, 2.0, -7.5, 40.0, np.inf], dt)))
        out += values(sp.modified_bessel_i0(tensor(torch, BESSEL_POINTS, dt)))
        out += values(sp.modified_bessel_i1(tensor(torch, BESSEL_POINTS, dt)))
    out += values(sp.legendre_polynomial_p(0.5, torch.tensor([2, 3])))
    return out


@case
def lazy_modules(torch):
    """A lazy module draws its initial parameters at the first forward, as the plain module would."""
    nn = torch.nn
    out = []
    makers = [
        (lambda: nn.LazyLinear(3), randn(95, 2, 5)),
        (lambda: nn.LazyLinear(2, bias=False), randn(96, 4, 3, 6)),
        (lambda: nn.LazyConv1d(4, 3, padding=1), randn(97, 2, 3, 7)),
        (lambda: nn.LazyConv2d(2, (2, 3), stride=2, groups=2), randn(98, 1, 4, 6, 7)),
        (lambda: nn.LazyConv3d(2, 2), randn(99, 1, 1, 3, 3, 3)),
        (lambda: nn.LazyConvTranspose1d(2, 3), randn(100, 1, 5, 4)),
        (lambda: nn.LazyConvTranspose2d(3, 2, stride=2), randn(101, 2, 6, 3, 3)),
        (lambda: nn.LazyConvTranspose3d(1, 2), randn(102, 1, 2, 2, 2, 2)),
        (lambda: nn.LazyBatchNorm1d(), randn(103, 4, 3)),
        (lambda: nn.LazyBatchNorm2d(momentum=None), randn(104, 2, 3, 4, 4)),
        (lambda: nn.LazyBatchNorm3d(affine=False), randn(105, 2, 2, 2, 2, 3)),
        (lambda: nn.LazyInstanceNorm1d(affine=True), randn(106, 2, 3, 5)),
        (lambda: nn.LazyInstanceNorm2d(track_running_stats=True), randn(107, 1, 3, 4, 4)),
        (lambda: nn.LazyInstanceNorm3d(), randn(108, 1, 2, 3, 3, 3)),
    ]
    for make, x in makers:
        torch.manual_seed(11)
        m = make()
        out.append(type(m).__name__)
        out.append(str(m.has_uninitialized_params()))
        y = m(torch.from_numpy(x).float())
        out += [type(m).__name__, repr(m), y.detach().numpy()]
        for name, t in m.state_dict().items():
            out += [name, t.numpy()]
    m = nn.LazyLinear(2)
    opt = torch.optim.SGD(m.parameters(), lr=0.5)
    torch.manual_seed(3)
    m(torch.ones(1, 3)).sum().backward()
    opt.step()
    out += [m.weight.detach().numpy(), m.bias.detach().numpy()]
    out.append(str(isinstance(nn.LazyLinear(2).weight, nn.parameter.UninitializedParameter)))
    return out


@case
def fractional_and_adaptive_3d_pooling(torch):
    """Fractional max pooling (windows from the same random draws as PyTorch's, or given) and
    3-D adaptive max pooling: values, indices, gradients, the modules, bad sizes."""
    F = torch.nn.functional
    out = []
    for dt in float_types(torch):
        samples2 = tensor(torch, np.random.default_rng(1).random((2, 3, 2)), dt)
        samples3 = tensor(torch, np.random.default_rng(2).random((1, 2, 3)), dt)
        out += with_grad(
            torch,
            lambda x: F.fractional_max_pool2d(x, 3, output_size=(4, 5), return_indices=True, _random_samples=samples2),
            [randn(120, 2, 3, 9, 11)],
            dt,
        )
        out += with_grad(
            torch,
            lambda x: F.fractional_max_pool2d(
                x, (2, 3), output_ratio=(0.5, 0.7), return_indices=True, _random_samples=samples2
            ),
            [randn(121, 2, 3, 10, 8)],
            dt,
        )
        out += with_grad(
            torch,
            lambda x: F.fractional_max_pool3d(
                x, 2, output_size=(3, 4, 2), return_indices=True, _random_samples=samples3
            ),
            [randn(122, 1, 2, 6, 7, 5)],
            dt,
        )
        out += with_grad(
            torch, lambda x: F.adaptive_max_pool3d(x, (3, 2, 4), return_indices=True), [randn(123, 2, 3, 7, 5, 9)], dt
        )
        out += with_grad(torch, lambda x: F.adaptive_max_pool3d(x, (2, None, 3)), [randn(124, 3, 4, 5, 6)], dt)
    torch.manual_seed(8)  # the windows drawn from the default stream, as PyTorch draws them
    x = torch.from_numpy(randn(125, 2, 2, 12, 12)).float()
    out.append(torch.nn.FractionalMaxPool2d(3, output_ratio=0.5)(x).numpy())
    out.append(torch.nn.FractionalMaxPool3d(2, output_size=3)(x.unsqueeze(2).expand(2, 2, 5, 12, 12)).numpy())
    out.append(torch.nn.AdaptiveMaxPool3d(2)(x.unsqueeze(2)).numpy())
    out.append(error_name(lambda: torch.nn.FractionalMaxPool2d(2)))
    out.append(error_name(lambda: torch.nn.FractionalMaxPool2d(2, output_ratio=1.5)))
    out.append(error_name(lambda: F.fractional_max_pool2d(x, 3, output_size=(11, 11))))
    return out


@case
def adaptive_log_softmax(torch):
    """AdaptiveLogSoftmaxWithLoss: the same initial weights after the same seed, outputs, loss,
    gradients, log_prob, predict, one unbatched input, bad targets."""
    out = []
    torch.manual_seed(3)
    m = torch.nn.AdaptiveLogSoftmaxWithLoss(16, 50, [5, 20, 35], div_value=2.0, head_bias=True)
    x = torch.from_numpy(randn(130, 12, 16)).float().requires_grad_()
    t = torch.tensor([0, 4, 5, 19, 20, 34, 35, 49, 3, 22, 40, 7])
    result = m(x, t)
    result.loss.backward()
    out += [result.output.detach().numpy(), result.loss.detach().numpy(), x.grad.numpy()]
    out += [p.grad.numpy() for p in m.parameters()]
    with torch.no_grad():
        out += [m.log_prob(x).numpy(), m.predict(x).numpy(), m(x[0], t[0]).output.numpy()]
    out.append(error_name(lambda: m(x, torch.tensor([50] * 12))))
    out.append(error_name(lambda: m(x, t[:5])))
    out.append(error_name(lambda: torch.nn.AdaptiveLogSoftmaxWithLoss(16, 50, [20, 5])))
    return out


@case
def container(torch):
    """nn.Container's submodules. CrossMapLRN2d's values are compared with
    torch7's SpatialCrossMapLRN (test_convert_t7_to_t7.py), not with PyTorch 1.13, whose port
    of torch7's loop widens the window by one channel from channel (size + 1) / 2 on."""
    out = []
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = torch.nn.Container(a=torch.nn.Linear(2, 3), b=torch.nn.ReLU())
    out.append(",".join(name for name, _ in c.named_children()))
    out.append(",".join(name for name, _ in c.named_parameters()))
    return out


@case
def torch_function_helpers(torch):
    """Library code that follows the __torch_function__ protocol runs, and dispatches to a type
    that defines it."""
    F = torch.nn.functional

    class Logged:
        calls = []

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            cls.calls.append(func.__name__)
            return "handled"

    def scaled(x, factor=2.0):
        if F.has_torch_function_unary(x):
            return F.handle_torch_function(scaled, (x,), x, factor=factor)
        return x * factor

    t = torch.tensor([1.0, 2.0])
    out = values(scaled(t))
    out.append(str([F.has_torch_function((t, 3)), F.has_torch_function_variadic(t, Logged())]))
    out.append(str([scaled(Logged()), Logged.calls]))
    out.append(
        str(
            [
                torch.overrides.is_tensor_like(t),
                torch.overrides.is_tensor_like(3),
                torch.autograd.is_tensor_like(Logged()),
            ]
        )
    )
    out.append(str(torch.optim.lr_scheduler.inf))
    return out


@case
def logistic_normal(torch):
    out = []
    for dt in float_types(torch):
        loc = tensor(torch, [[0.3, -1.0, 0.5], [1.2, 0.0, -0.4]], dt).requires_grad_()
        scale = tensor(torch, [0.5, 1.5, 0.8], dt).requires_grad_()
        d = torch.distributions.LogisticNormal(loc, scale)
        out.append(str([tuple(d.batch_shape), tuple(d.event_shape), tuple(d.loc.shape), tuple(d.scale.shape)]))
        v = tensor(torch, [[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.4, 0.1]], dt)
        lp = d.log_prob(v)
        lp.sum().backward()
        out += [lp.detach().numpy(), loc.grad.numpy(), scale.grad.numpy()]
        torch.manual_seed(5)
        out += values(d.rsample((2,)).detach())
        out.append(str(tuple(d.expand((4, 2)).batch_shape)))
    e = torch.distributions.LogisticNormal(torch.tensor(0.3), torch.tensor(2.0))
    out.append(str([tuple(e.batch_shape), tuple(e.event_shape), tuple(e.sample().shape)]))
    return out


@case
def scatter_and_index_reduce(torch):
    """Every reduction with and without the own values, ties for amax/amin, zeros for prod;
    gradients (index as large as src: PyTorch 1.13's backward fails otherwise); integers;
    the in-place methods; bad arguments."""
    import warnings

    warnings.simplefilter("ignore")  # PyTorch's "in beta" warning
    out = []
    x = randn(120, 3, 5)
    src = randn(121, 3, 5)
    src[0, 0] = src[1, 1] = src[2, 2] = 0.0
    src[1, 0] = src[0, 0]
    src[2, 3] = src[0, 3] = 5.0
    index = torch.tensor([[0, 1, 2, 0, 0], [2, 2, 1, 0, 1], [1, 0, 0, 0, 2]])
    for dt in float_types(torch):
        for reduce in ["sum", "prod", "mean", "amax", "amin"]:
            for include_self in [True, False]:
                out += with_grad(
                    torch,
                    lambda a, b: torch.scatter_reduce(a, 0, index, b, reduce, include_self=include_self),
                    [x, src],
                    dt,
                )
                out += with_grad(
                    torch, lambda a, b: a.scatter_reduce(-1, index, b, reduce, include_self=include_self), [x, src], dt
                )
        big = tensor(torch, randn(122, 4, 6), dt)
        for reduce in ["sum", "prod", "mean", "amax", "amin"]:
            out += values(torch.scatter_reduce(tensor(torch, x, dt), 0, index, big, reduce, include_self=False))
        y, source = randn(123, 4, 3), randn(124, 5, 3)
        source[1, 0] = 0.0
        for reduce in ["prod", "mean", "amax", "amin"]:
            for include_self in [True, False]:
                out += with_grad(
                    torch,
                    lambda a, b: torch.index_reduce(
                        a, 0, torch.tensor([0, 2, 0, 3, 2]), b, reduce, include_self=include_self
                    ),
                    [y, source],
                    dt,
                )
                out += with_grad(
                    torch, lambda a, b: a.index_reduce(1, torch.tensor([2, 2]), b, reduce), [y, source[:4, :2]], dt
                )
    xi = torch.tensor([[1, 2, 3], [4, 5, 6]])
    ii = torch.tensor([[0, 0, 2], [1, 1, 1]])
    si = torch.tensor([[7, 8, 9], [1, 2, 3]])
    for reduce in ["sum", "prod", "mean", "amax", "amin"]:
        out += values(xi.scatter_reduce(1, ii, si, reduce)) + values(
            xi.scatter_reduce(1, ii, si, reduce, include_self=False)
        )
    z = torch.zeros(3)
    out += values(z.scatter_reduce_(0, torch.tensor([0, 0, 2]), torch.tensor([1.0, 2.0, 5.0]), "sum")) + values(z)
    w = torch.ones(2, 2)
    out += values(w.index_reduce_(0, torch.tensor([1, 1]), torch.tensor([[2.0, 3.0], [4.0, 5.0]]), "prod")) + values(w)
    f = torch.zeros(3)
    for bad in [
        lambda: f.scatter_reduce(0, torch.tensor([0]), torch.ones(1), "max"),
        lambda: f.scatter_reduce(0, torch.tensor([0.0]), torch.ones(1), "sum"),
        lambda: f.scatter_reduce(0, torch.tensor([3]), torch.ones(1), "sum"),
        lambda: f.scatter_reduce(0, torch.tensor([0, 1]), torch.ones(1), "sum"),
        lambda: f.scatter_reduce(0, torch.tensor([0]), torch.ones(1, dtype=torch.float64), "sum"),
        lambda: f.index_reduce(0, torch.tensor([0]), torch.ones(1), "sum"),
        lambda: f.index_reduce(0, torch.tensor([0, 1]), torch.ones(3), "amax"),
        lambda: f.index_reduce(0, torch.tensor([[0]]), torch.ones(1), "amax"),
    ]:
        out.append(error_name(bad))
    return out


@case
def native_and_cell_functions(torch):
    """The torch-level functions under nn's modules: recurrent cells (against nn's modules'
    own weights too), norm_except_dim, constant_pad_nd, convolution, conv_tbc, the native_*
    normalisations with their statistics, grid_sampler, embedding_renorm_."""
    out = []
    for dt in float_types(torch):
        x, h, c = randn(130, 3, 4), randn(131, 3, 5), randn(132, 3, 5)
        for name, gates in [("rnn_tanh_cell", 1), ("rnn_relu_cell", 1), ("gru_cell", 3)]:
            w_ih, w_hh = randn(133, gates * 5, 4), randn(134, gates * 5, 5)
            b_ih, b_hh = randn(135, gates * 5), randn(136, gates * 5)
            fn = getattr(torch, name)
            out += with_grad(torch, fn, [x, h, w_ih, w_hh, b_ih, b_hh], dt)
            out += with_grad(torch, fn, [x, h, w_ih, w_hh], dt)
        w_ih, w_hh, b_ih, b_hh = randn(137, 20, 4), randn(138, 20, 5), randn(139, 20), randn(140, 20)
        out += with_grad(
            torch,
            lambda a, b, cc, w1, w2, b1, b2: torch.lstm_cell(a, (b, cc), w1, w2, b1, b2),
            [x, h, c, w_ih, w_hh, b_ih, b_hh],
            dt,
        )
        v = randn(141, 3, 4, 2)
        for p, dim in [(2, 0), (2, 1), (3, 2), (2, -1), (1, -2)]:
            out += with_grad(torch, lambda a: torch.norm_except_dim(a, p, dim), [v], dt)
        out += with_grad(torch, lambda a: torch.constant_pad_nd(a, [1, 2, 0, 1], 3.5), [v], dt)
        out += with_grad(torch, lambda a: torch.constant_pad_nd(a, (2, 1)), [v], dt)
        for xs, ws, args in [
            ((2, 3, 7), (4, 3, 3), ([2], [1], [1], False, [0], 1)),
            ((2, 4, 6, 5), (4, 2, 3, 2), ([1, 2], [1, 0], [2, 1], False, [0, 0], 2)),
            ((2, 3, 5), (3, 2, 3), ([2], [1], [1], True, [1], 1)),
            ((1, 2, 4, 4, 3), (2, 3, 2, 2, 2), ([1, 1, 1], [0, 1, 0], [1, 1, 1], True, [0, 0, 0], 1)),
        ]:
            n_out = ws[1] * args[-1] if args[3] else ws[0]
            out += with_grad(
                torch,
                lambda a, w, b: torch.convolution(a, w, b, *args),
                [randn(142, *xs), randn(143, *ws), randn(144, n_out)],
                dt,
            )
        out += with_grad(
            torch,
            lambda a, w, b: torch.conv_tbc(a, w, b, 1),
            [randn(145, 7, 2, 3), randn(146, 3, 3, 4), randn(147, 4)],
            dt,
        )
        out += with_grad(
            torch,
            lambda a, w, b: torch.conv_tbc(a, w, b),
            [randn(145, 7, 2, 3), randn(146, 2, 3, 4), randn(147, 4)],
            dt,
        )
        y = randn(148, 4, 3, 5)
        out += with_grad(
            torch,
            lambda a, w, b: torch.native_layer_norm(a, [3, 5], w, b, 1e-5),
            [y, randn(149, 3, 5), randn(150, 3, 5)],
            dt,
        )
        out += with_grad(torch, lambda a: torch.native_layer_norm(a, [5], None, None, 1e-3), [y], dt)
        g = randn(151, 2, 6, 5)
        out += with_grad(
            torch,
            lambda a, w, b: torch.native_group_norm(a, w, b, 2, 6, 5, 3, 1e-5),
            [g, randn(152, 6), randn(153, 6)],
            dt,
        )
        rm, rv = tensor(torch, randn(154, 6), dt), tensor(torch, np.abs(randn(155, 6)) + 0.5, dt)
        out += with_grad(
            torch,
            lambda a, w, b: torch.native_batch_norm(a, w, b, rm, rv, True, 0.1, 1e-5),
            [g, randn(156, 6), randn(157, 6)],
            dt,
        )
        out += values(rm) + values(rv)
        r = torch.native_batch_norm(tensor(torch, g, dt), None, None, rm, rv, False, 0.1, 1e-5)
        out += [t.numpy() for t in r] + [str(t.dtype) for t in r]
        img, grid = randn(158, 2, 3, 5, 4), np.tanh(randn(159, 2, 6, 3, 2)) * 1.2
        for padding, corners in [(0, False), (1, True), (1, False)]:  # bilinear zeros/border: THNN's kernels
            out += with_grad(torch, lambda a, gr: torch.grid_sampler(a, gr, 0, padding, corners), [img, grid], dt)
        out += with_grad(torch, lambda a, gr: torch.grid_sampler_2d(a, gr, 0, 0, True), [img, grid], dt)
        out += with_grad(
            torch, lambda th: torch.affine_grid_generator(th, [2, 3, 4, 5], False), [randn(160, 2, 2, 3)], dt
        )
        emb = tensor(torch, randn(161, 6, 3) * 2, dt)
        out += values(torch.embedding_renorm_(emb, torch.tensor([[0, 2], [2, 5]]), 1.5, 2.0)) + values(emb)
        out += values(
            torch.addmv_(
                tensor(torch, randn(162, 3), dt),
                tensor(torch, randn(163, 3, 2), dt),
                tensor(torch, randn(164, 2), dt),
                beta=0.5,
                alpha=2.0,
            )
        )
    out.append(str(torch.cudnn_is_acceptable(torch.ones(2))))
    d, mask = torch.native_dropout(torch.ones(50), 0.3, False)
    out += values(d) + values(mask)
    torch.manual_seed(0)
    d, mask = torch.native_dropout(torch.full((200,), 2.0), 0.25, True)
    out.append(str(d.dtype) + str(mask.dtype) + str(d.shape))
    out.append(bool(((d == 0) == ~mask).all()) and bool((d[mask] == 2.0 / 0.75).all()))
    b = torch.binomial(torch.full((1000,), 10.0), torch.full((1000,), 0.3))
    out.append(str(b.dtype) + str(b.shape) + str(bool(((b >= 0) & (b <= 10) & (b == b.round())).all())))
    out.append(error_name(lambda: torch.conv_tbc(torch.ones(3, 2, 4), torch.ones(2, 3, 4), torch.ones(4))))
    out.append(
        error_name(lambda: torch.convolution(torch.ones(3), torch.ones(1, 1, 1), None, [1], [0], [1], False, [0], 1))
    )
    return out


@case
def householder_qr(torch):
    """geqrf in LAPACK's conventions (columns already reduced: tau 0; wide matrices),
    householder_product/orgqr with gradients, ormqr from both sides, transposed or not."""
    out = []
    for dt in float_types(torch):
        a = randn(170, 2, 5, 3)
        a[1, 3:, 1] = 0.0
        a[1, 2:, 2] = 0.0
        g, tau = torch.geqrf(tensor(torch, a, dt))
        out += values(g) + values(tau)
        r = torch.geqrf(tensor(torch, randn(171, 3, 5), dt))
        out += values(r.a) + values(r.tau)
        out += values(tensor(torch, a, dt).geqrf()[0])
        out += with_grad(torch, torch.linalg.householder_product, [g.numpy(), tau.numpy()], dt)
        out += with_grad(torch, lambda x, t: torch.orgqr(x, t[..., :2]), [g.numpy(), tau.numpy()], dt)
        out += with_grad(torch, lambda x, t: x.orgqr(t), [randn(172, 4, 4), randn(173, 3)], dt)
        for left, transpose, shape in [
            (True, False, (2, 5, 4)),
            (True, True, (2, 5, 4)),
            (False, False, (2, 4, 5)),
            (False, True, (2, 4, 5)),
        ]:
            # values only: PyTorch 1.13 has no derivative for ormqr
            out += values(torch.ormqr(g, tau, tensor(torch, randn(174, *shape), dt), left, transpose))
    out.append(error_name(lambda: torch.linalg.householder_product(torch.ones(2, 3), torch.ones(2))))
    out.append(error_name(lambda: torch.linalg.householder_product(torch.ones(3, 2), torch.ones(3))))
    return out


@case
def lowrank_svd_and_pca(torch):
    """Randomised, but exact on matrices of rank at most q: the leading singular values and
    the reconstruction, tall, wide, square and batched; the shapes; bad q."""
    out = []
    for (m, n, rank), q in [((30, 8, 3), 5), ((8, 30, 4), 6), ((20, 20, 6), 8)]:
        A = torch.from_numpy(randn(175, m, rank) @ randn(176, rank, n))
        U, S, V = torch.svd_lowrank(A, q=q)
        out += [str((U.shape, S.shape, V.shape, U.dtype)), S[:rank].numpy(), (U @ torch.diag(S) @ V.T).numpy()]
        out.append(np.abs((U.T @ U).numpy() - np.eye(q)).max() < 1e-12)
        U, S, V = torch.pca_lowrank(A)
        out += [str((U.shape, S.shape, V.shape)), S[: min(rank, 5)].numpy()]
        U, S, V = torch.pca_lowrank(A, q=rank, center=False, niter=4)
        out += [S.numpy(), (U @ torch.diag(S) @ V.T).numpy()]
    B = torch.from_numpy(randn(177, 2, 10, 4) @ randn(178, 2, 4, 7))
    U, S, V = torch.svd_lowrank(B, q=5)
    out += [
        str((U.shape, S.shape, V.shape)),
        S[..., :4].numpy(),
        (U @ torch.diag_embed(S) @ V.transpose(-1, -2)).numpy(),
    ]
    out.append(error_name(lambda: torch.pca_lowrank(torch.ones(10, 5), q=7)))
    out.append(error_name(lambda: torch.pca_lowrank(torch.ones(10, 5), niter=-1)))
    return out


@case
def convolution_gradients_and_nn_helpers(torch):
    """torch.nn.grad's (and F.grad's) convolution gradients against autograd's, F.conv_tbc,
    nn.factory_kwargs, torch.autograd.variable."""
    out = []
    for dt in float_types(torch):
        for n, xs, ws, kw in [
            (1, (2, 4, 9), (6, 2, 3), dict(stride=2, padding=1, dilation=1, groups=2)),
            (2, (2, 3, 7, 6), (4, 3, 3, 2), dict(stride=(2, 1), padding=(1, 0), dilation=(1, 2))),
            (3, (1, 2, 5, 4, 4), (3, 2, 2, 3, 2), dict(stride=1, padding=(0, 1, 1), dilation=1)),
        ]:
            conv = getattr(torch.nn.functional, "conv%dd" % n)
            x, w = tensor(torch, randn(180, *xs), dt), tensor(torch, randn(181, *ws), dt)
            go = tensor(torch, randn(182, *conv(x, w, None, **kw).shape), dt)
            out += values(getattr(torch.nn.grad, "conv%dd_input" % n)(x.shape, w, go, **kw))
            out += values(getattr(torch.nn.functional.grad, "conv%dd_weight" % n)(x, w.shape, go, **kw))
        out += with_grad(
            torch,
            lambda a, w, b: torch.nn.functional.conv_tbc(a, w, b, 2),
            [randn(183, 6, 2, 3), randn(184, 3, 3, 5), randn(185, 5)],
            dt,
        )
    F = torch.nn.functional
    out.append(
        str(sorted(F.GRID_SAMPLE_INTERPOLATION_MODES.items())) + str(sorted(F.GRID_SAMPLE_PADDING_MODES.items()))
    )
    fk = torch.nn.factory_kwargs
    out.append(str(sorted(fk({"dtype": torch.float64, "factory_kwargs": {"device": "cpu"}}).items())))
    out.append(str(fk(None)) + str(fk({})))
    out.append(error_name(lambda: fk({"dtype": torch.float64, "factory_kwargs": {"dtype": torch.float32}})))
    out.append(error_name(lambda: fk({"layout": torch.strided})))
    from torch.autograd.variable import Variable

    v = Variable(torch.ones(2), requires_grad=True)
    out.append(str((v.requires_grad, type(v).__name__, torch.autograd.kineto_available())))
    from torch.nn import common_types as ct

    names = [
        "_size_any_t",
        "_size_1_t",
        "_size_2_t",
        "_size_3_t",
        "_size_4_t",
        "_size_5_t",
        "_size_6_t",
        "_size_any_opt_t",
        "_size_2_opt_t",
        "_size_3_opt_t",
        "_ratio_2_t",
        "_ratio_3_t",
        "_ratio_any_t",
    ]
    out.append(repr([str(getattr(ct, n)) for n in names]))
    out.append(repr([getattr(ct, n).__args__[0] is torch.Tensor for n in ["_tensor_list_t", "_maybe_indices_t"]]))
    return out


@case
def strided_and_removed_tensor_methods(torch):
    """as_strided_scatter (function and method, with gradients), as_strided_, and the
    removed reinforce/volatile."""
    import warnings

    out = []
    for dt in float_types(torch):
        x = randn(190, 3, 4)
        # gradients with respect to src only: PyTorch 1.13's gradient with respect to input reads
        # uninitialised memory (test_missing_names.py checks ours by gradcheck)
        xt = tensor(torch, x, dt)
        for size, stride, offset in [((2, 2), (3, 1), 1), ((3,), (4,), 0), ((2, 3), (1, 4), None), ((4, 2), (2, 1), 2)]:
            out += with_grad(
                torch, lambda b: torch.as_strided_scatter(xt, b, size, stride, offset), [randn(191, *size)], dt
            )
        out += with_grad(torch, lambda b: xt.as_strided_scatter(b, (2, 2), (1, 2)), [randn(192, 2, 2)], dt)
        b = tensor(torch, np.arange(12.0), dt)
        r = b.as_strided_((2, 3), (1, 3), 2)
        out += values(r) + values(b) + [str((r is b, b.shape, b.stride(), b.storage_offset()))]
        out += values(tensor(torch, np.arange(6.0), dt).as_strided_((2,), (2,)))
    out.append(error_name(lambda: torch.as_strided_scatter(torch.zeros(6), torch.ones(3), (2, 2), (1, 1))))
    out.append(error_name(lambda: torch.as_strided_scatter(torch.zeros(6), torch.ones(2, 2), (2, 2), (3, 3))))
    try:
        torch.ones(2).reinforce(1.0)
    except RuntimeError as exc:
        out.append(str(exc))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        x = torch.ones(2)
        out.append(str(x.volatile))
        x.volatile = True
        out.append(str([str(w.message) for w in caught]) + str(x.requires_grad))
    return out


@case
def datapipes(torch):
    """torch.utils.data's DataPipes: the functional chains, lengths, batches as DataChunks,
    column mapping, shuffles from a set seed (the same stream of Python's random), sharding,
    registering a DataPipe of one's own, map-style ones, a DataLoader over a pipeline; the
    errors."""
    import warnings

    from torch.utils.data import DataChunk, IterDataPipe, MapDataPipe, functional_datapipe
    from torch.utils.data.datapipes.iter import IterableWrapper, Multiplexer, Sampler, ShardingFilter
    from torch.utils.data.datapipes.map import SequenceWrapper

    warnings.simplefilter("ignore")
    out = []

    def show(x):
        out.append(repr(x))

    dp = IterableWrapper(range(10))
    show(list(dp.map(lambda x: x * 2).filter(lambda x: x % 3 != 0).batch(3)))
    show(
        [type(b).__name__ for b in dp.batch(4)] + [len(dp.batch(4)), len(dp.batch(4, drop_last=True)), len(dp.map(abs))]
    )
    show(list(dp.batch(4, drop_last=True)))
    show(list(dp.batch(3).batch(2).unbatch()) + list(dp.batch(3).batch(2).unbatch(unbatch_level=2)))
    show(list(dp.batch(3).batch(2).unbatch(unbatch_level=-1)))
    rows = IterableWrapper([(1, 2, 3), (4, 5, 6)])
    show(list(rows.map(lambda a: a * 10, input_col=1)) + list(rows.map(lambda a, b: a + b, input_col=[0, 2])))
    show(list(IterableWrapper([[1, 2], [3, 4]]).map(lambda a: -a, input_col=0, output_col=-1)))
    show(list(rows.filter(lambda v: v > 2, input_col=0)))
    for seed in [0, 7]:
        show(list(dp.shuffle().set_seed(seed)) + list(dp.shuffle(buffer_size=3).set_seed(seed)))
        show(list(SequenceWrapper(list(range(8))).shuffle().set_seed(seed)))
    show(list(dp.shuffle().set_shuffle(False)) + [len(dp.shuffle())])
    show(list(dp.batch(2).shuffle(unbatch_level=1).set_seed(3)))
    show(
        list(dp.concat(IterableWrapper("ab")))
        + list(dp.zip(IterableWrapper("abc")))
        + [len(dp.zip(IterableWrapper("ab")))]
    )
    show(
        list(dp.mux(IterableWrapper([10, 11, 12]), IterableWrapper([20, 21])))
        + [len(Multiplexer(dp, IterableWrapper([1])))]
    )
    shard = ShardingFilter(dp)
    shard.apply_sharding(3, 1)
    show(list(shard) + [len(shard), shard.is_shardable()])
    show(list(Sampler(dp)) + [len(Sampler(dp))])
    show([t.tolist() for t in dp.batch(4).collate()])
    show([list(b) for b in dp.batch(3).map(sum).batch(2)])
    show([b.as_str("  ") for b in dp.batch(4)] + [list(DataChunk([1, 2]).raw_iterator())])

    class TimesK(IterDataPipe):
        def __init__(self, source, k=2):
            self.source, self.k = source, k

        def __iter__(self):
            for x in self.source:
                yield x * self.k

    if "times_k" not in IterDataPipe.functions:  # a name is registered once per process
        functional_datapipe("times_k")(TimesK)
    show(list(dp.times_k(3)) + list(dp.times_k()))
    show([repr(dp.map(abs)), str(dp.batch(2)), type(dp.times_k()).__name__, "times_k" in dir(dp)])
    m = SequenceWrapper([5, 6, 7, 8, 9])
    show([m[1], len(m), m.map(lambda v: v + 1)[2], m.batch(2)[2], len(m.batch(2)), len(m.batch(2, drop_last=True))])
    show([m.concat(SequenceWrapper("xy"))[6], m.zip(SequenceWrapper("abc"))[1], len(m.zip(SequenceWrapper("abc")))])
    show(
        [
            isinstance(m, MapDataPipe),
            isinstance(dp, torch.utils.data.IterableDataset),
            isinstance(m.shuffle(), IterDataPipe),
        ]
    )
    loader = torch.utils.data.DataLoader(dp.map(lambda v: torch.tensor([v, v * v])), batch_size=4)
    show([b.tolist() for b in loader])
    for bad in [
        lambda: dp.batch(0),
        lambda: list(dp.filter(lambda v: v)),
        lambda: len(dp.filter(lambda v: True)),
        lambda: dp.no_such_function,
        lambda: IterableWrapper(range(3)).concat(),
        lambda: dp.concat([1, 2]),
        lambda: m.batch(2)[5],
        lambda: m.concat(SequenceWrapper("xy"))[9],
        lambda: list(dp.unbatch()),
        lambda: dp.map(abs, output_col=1),
    ]:
        out.append(error_name(bad))
    return out


@case
def histogramdd(torch):
    """Bins as a count, counts per dimension or edges; ranges; weights; density; points on
    the last edge, outside the range and all equal; bad arguments."""
    out = []
    x = randn(195, 60, 3)
    x[0] = [2.0, 2.0, 2.0]
    for dt in float_types(torch):
        t = tensor(torch, x, dt)
        for kwargs in [
            dict(bins=4),
            dict(bins=[2, 3, 5], range=[-1.0, 1.0, -2.0, 2.0, 0.0, 2.0]),
            dict(bins=3, weight=tensor(torch, np.abs(x[:, 0]), dt), density=True),
            dict(
                bins=[
                    tensor(torch, [-1.0, 0.0, 2.0], dt),
                    tensor(torch, [-3.0, -1.0, 0.0, 0.5, 3.0], dt),
                    tensor(torch, [0.0, 1.0], dt),
                ]
            ),
        ]:
            r = torch.histogramdd(t, **kwargs)
            out += values(r.hist) + [e.numpy() for e in r.bin_edges] + [str(type(r.bin_edges).__name__)]
        r = torch.histogramdd(tensor(torch, x.reshape(4, 15, 3), dt), [3, 2, 2], density=True)
        out += values(r.hist)
        r = torch.histogramdd(torch.ones(4, 2, dtype=dt), 2)
        out += values(r.hist) + [e.numpy() for e in r.bin_edges]
    r = torch.histogramdd(torch.ones(4, 2), [2, 3, 4])  # (1.13 ignores the bins beyond D)
    out += values(r.hist) + [e.numpy() for e in r.bin_edges]
    out.append(error_name(lambda: torch.histogramdd(torch.ones(4), 2)))
    out.append(error_name(lambda: torch.histogramdd(torch.ones(4, 2), [2])))
    out.append(error_name(lambda: torch.histogramdd(torch.ones(4, 2), 2, range=[0.0, 1.0])))
    return out


@case
def datapipe_graph_and_loader(torch):
    """torch.utils.data.graph/graph_settings over a pipeline, and what DataLoader does with
    one: shuffle=False turns its Shufflers off, shuffle=True on (adding one where none is),
    worker processes each keep their shard."""
    import warnings

    import torch.utils.data.graph as G
    import torch.utils.data.graph_settings as GS
    from torch.utils.data import DataLoader
    from torch.utils.data.datapipes.iter import IterableWrapper

    warnings.simplefilter("ignore")
    out = []

    def names(g):
        return [(type(v[0]).__name__, names(v[1])) for v in g.values()]

    dp = IterableWrapper(range(12)).shuffle().sharding_filter().map(_times_ten)
    g = G.traverse_dps(dp)
    out.append(repr(names(g)) + repr([type(p).__name__ for p in GS.get_all_graph_pipes(g)]))
    z = IterableWrapper(range(3)).zip(IterableWrapper(range(3)).map(abs), IterableWrapper([1]))
    out.append(repr(names(G.traverse_dps(z))) + repr(names(G.traverse(z))))
    out.append(repr([b.tolist() for b in DataLoader(dp, batch_size=5, shuffle=False)]))
    torch.manual_seed(0)
    out.append(repr(sorted(int(v) for b in DataLoader(dp, batch_size=5, shuffle=True) for v in b)))
    out.append(repr(sorted(int(v) for b in DataLoader(dp, batch_size=3, num_workers=2) for v in b)))
    out.append(repr([b.tolist() for b in DataLoader(IterableWrapper(range(4)), shuffle=False)]))
    out.append(type(GS.apply_shuffle_settings(IterableWrapper(range(5)), shuffle=True)).__name__)
    out.append(type(GS.apply_shuffle_settings(IterableWrapper(range(5)), shuffle=None)).__name__)
    sf = IterableWrapper(range(10)).sharding_filter()
    GS.apply_sharding(sf, 3, 2)
    out.append(repr(list(sf)))
    rng = torch.Generator()
    rng.manual_seed(5)
    a = GS.apply_random_seed(IterableWrapper(range(20)).shuffle(), rng)
    out.append(str(sorted(list(a)) == list(range(20))))
    out.append(
        error_name(lambda: GS.apply_sharding(IterableWrapper(range(4)).sharding_filter().sharding_filter(), 2, 0))
    )
    out.append(error_name(lambda: G.traverse_dps([1, 2])))
    out.append(error_name(lambda: DataLoader(torch.utils.data.IterableDataset(), shuffle=True)))
    return out


def _times_ten(x):
    return x * 10


@case
def datapipes_fork_demux_and_files(torch):
    """fork and demux (in lockstep, one after the other, buffers overflowing, dropped Nones,
    bad classes, a second pass), and the file DataPipes over a temporary directory."""
    import os
    import shutil
    import tempfile
    import warnings

    from torch.utils.data.datapipes.iter import FileLister, FileOpener, IterableWrapper

    warnings.simplefilter("ignore")
    out = []
    dp = IterableWrapper(range(6))
    a, b = dp.fork(2)
    out.append(repr([list(zip(a, b)), list(a), list(b), len(a)]))
    a, b = dp.fork(2)
    first = list(a)
    out.append(repr([first, list(b), list(a)]))
    a, b, c = dp.fork(3, buffer_size=2)
    out.append(error_name(lambda: list(a)))
    a, b = dp.fork(2, buffer_size=-1)
    out.append(repr([list(a), list(b), dp.fork(1) is dp]))
    out.append(error_name(lambda: dp.fork(0)))
    e, o = dp.demux(2, lambda x: x % 2)
    out.append(repr([list(e), list(o), list(zip(e, o))]))
    words = IterableWrapper(["apple", "bob", "avocado", "cat", "bee", "ant", "carrot", "axe", "ball", "cow", "art"])
    first = lambda w: w[0]  # noqa: E731
    for kwargs in [
        {},
        dict(group_size=2),
        dict(buffer_size=4),
        dict(buffer_size=5, group_size=3, drop_remaining=True),
        dict(buffer_size=6, group_size=3, guaranteed_group_size=2, drop_remaining=True),
    ]:
        out.append(repr([list(g) for g in words.groupby(first, **kwargs)]))
    out.append(error_name(lambda: list(words.groupby(first, buffer_size=4, group_size=3))))
    out.append(error_name(lambda: words.groupby(first, buffer_size=2, group_size=3)))
    e, o = dp.demux(2, lambda x: x % 2, buffer_size=1)
    out.append(error_name(lambda: list(e)))
    e, o = IterableWrapper(range(7)).demux(2, lambda x: None if x == 3 else x % 2, drop_none=True)
    out.append(repr([list(zip(e, o)), list(o)]))
    e, o = IterableWrapper(range(7)).demux(2, lambda x: 5)
    out.append(error_name(lambda: list(e)))
    e, o = IterableWrapper(range(7)).demux(2, lambda x: None)
    out.append(error_name(lambda: list(e)))
    d = tempfile.mkdtemp()
    try:
        for name in ["b.txt", "a.txt", "c.csv"]:
            with open(os.path.join(d, name), "w") as f:
                f.write(name * 3 + "\nline2\n")
        os.mkdir(os.path.join(d, "sub"))
        with open(os.path.join(d, "sub", "z.txt"), "w") as f:
            f.write("zz")
        fl = FileLister(d, "*.txt")
        rel = [os.path.relpath(p, d) for p in fl]
        rec = [os.path.relpath(p, d) for p in FileLister([d], ["*.txt", "*.csv"], recursive=True)]
        absolute = [os.path.isabs(p) for p in IterableWrapper([d]).list_files(abspath=True)]
        out.append(repr([rel, rec, absolute, [os.path.basename(p) for p in FileLister(os.path.join(d, "a.txt"))]]))
        out.append(repr([(os.path.basename(p), s.read()) for p, s in FileOpener(fl)]))
        out.append(repr([(os.path.basename(p), x) for p, x in FileOpener(fl, mode="b").read_from_stream(chunk=4)]))
        out.append(repr([(os.path.basename(p), list(s)) for p, s in fl.open_files()]))
        out.append(repr([(os.path.basename(p), x) for p, x in fl.open_files(mode="rt").read_from_stream()]))
        out.append(error_name(lambda: FileOpener(fl, mode="w")))
        out.append(error_name(lambda: FileOpener(fl, mode="b", encoding="utf-8")))
        out.append(error_name(lambda: len(fl)))
        out.append(error_name(lambda: list(FileOpener(IterableWrapper([3])))))
    finally:
        shutil.rmtree(d)
    return out


@case
def datapipe_typing_and_determinism(torch):
    """IterDataPipe[T]/MapDataPipe[T] as bases; non_deterministic (a class, or a function of
    the arguments) under guaranteed_datapipes_determinism."""
    from torch.utils.data import IterDataPipe, MapDataPipe, guaranteed_datapipes_determinism, non_deterministic
    from torch.utils.data.datapipes.iter import IterableWrapper

    out = []

    class Typed(IterDataPipe[int]):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(range(self.n))

    class TypedMap(MapDataPipe[str]):
        def __getitem__(self, i):
            return str(i)

        def __len__(self):
            return 2

    out.append(repr([list(Typed(3)), isinstance(Typed(2), IterDataPipe), TypedMap()[1]]))

    class ND(IterDataPipe):
        def __init__(self, src, flag=False):
            self.src = src

        def __iter__(self):
            return iter(self.src)

    nd = non_deterministic(ND)
    nd2 = non_deterministic(lambda src, flag=False: flag)(ND)
    out.append(repr(list(nd(IterableWrapper([1, 2])))))
    with guaranteed_datapipes_determinism():
        out.append(error_name(lambda: nd(IterableWrapper([1]))))
        out.append(repr(list(nd2(IterableWrapper([4])))))
        out.append(error_name(lambda: nd2(IterableWrapper([4]), flag=True)))
    out.append(repr(list(nd(IterableWrapper([3])))))
    out.append(error_name(lambda: non_deterministic(int)))
    out.append(error_name(lambda: non_deterministic(3)))
    out.append(error_name(lambda: non_deterministic(lambda: True)(int)))
    return out


@case
def futures_and_fork(torch):
    """torch.futures: results and exceptions, chained callbacks (their errors too), a result
    set from another thread, collect_all/wait_all; torch.jit.fork/wait and torch.fork/wait."""
    import threading

    out = []
    f = torch.futures.Future()
    g = f.then(lambda fut: fut.value() * 2)
    out.append(str(f.done()))
    f.set_result(3)
    out.append(repr([f.wait(), g.wait(), f.done(), f.value(), g.done()]))
    h = torch.futures.Future()
    h.set_exception(ValueError("boom"))
    out += [error_name(h.wait), error_name(h.value), str(h.done())]
    out.append(error_name(lambda: f.set_result(4)))
    a, b = torch.futures.Future(), torch.futures.Future()
    c = torch.futures.collect_all([a, b])
    a.set_result(1)
    out.append(str(c.done()))
    b.set_result(2)
    out.append(repr([c.done(), [x.value() for x in c.wait()], torch.futures.wait_all([a, b])]))
    out.append(repr(torch.futures.wait_all([])))
    seen = []
    z = torch.futures.Future()
    z.add_done_callback(lambda fu: seen.append(fu.value()))
    z.set_result(9)
    z.add_done_callback(lambda fu: seen.append(fu.value() + 1))
    out.append(repr(seen))
    k = torch.futures.Future()
    k2 = k.then(lambda fu: fu.value() / 0)
    k.set_result(1)
    try:
        k2.wait()
    except RuntimeError as exc:
        out.append(str(exc).split("\n")[0])
    m = torch.futures.Future()
    t = threading.Thread(target=lambda: m.set_result(42))
    t.start()
    out.append(repr(m.wait()))
    t.join()
    e = torch.futures.Future()
    e.set_exception(KeyError("k"))
    out.append(error_name(lambda: torch.futures.wait_all([e])))
    fut = torch.jit.fork(lambda x, y=1: x + y, 5, y=2)
    out.append(repr([torch.jit.wait(fut), fut.done(), torch.wait(torch.fork(lambda: 7))]))
    out.append(
        repr([isinstance(fut, torch.Future), torch.jit.Future is torch.futures.Future, sorted(torch.futures.__all__)])
    )
    return out


@case
def process_switches_and_from_file(torch):
    """set_anomaly_enabled, is_distributed, init_num_threads, the removed matrix_rank, and
    from_file copying or mapping a file."""
    import os
    import tempfile

    out = []
    torch.set_anomaly_enabled(True, False)
    out.append(repr([torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]))
    torch.set_anomaly_enabled(False)
    out.append(repr([torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()]))
    out.append(repr([torch.is_distributed(torch.ones(2)), torch.init_num_threads()]))
    try:
        torch.matrix_rank(torch.eye(3))
    except RuntimeError as exc:
        out.append(str(exc))
    fd, path = tempfile.mkstemp()
    os.close(fd)
    try:
        np.arange(6, dtype=np.float32).tofile(path)
        # copies taken now: PyTorch maps the file privately even where shared is False, so its
        # tensors see later writes to pages they have not written themselves
        out += values(torch.from_file(path, size=4).clone())
        out += values(torch.from_file(path, shared=False, size=6, dtype=torch.float32).clone())
        out += values(torch.from_file(path, size=3, dtype=torch.float64).clone())
        t = torch.from_file(path, shared=True, size=6, dtype=torch.float32)
        t[0] = 9
        out.append(np.fromfile(path, dtype=np.float32))
        out.append(str(torch.from_file(path).shape))
        out.append(error_name(lambda: torch.from_file(path, size=100)))
        del t
    finally:
        os.remove(path)
    return out


@case
def as_subclass(torch):
    class Marked(torch.Tensor):
        pass

    t = torch.from_numpy(np.array([1.0, -2.0, 3.0])).requires_grad_()
    s = t.as_subclass(Marked)
    (s * s).sum().backward()
    with torch.no_grad():
        s[0] = 7.0  # the same memory
    return [
        type(s).__name__,
        str(s.requires_grad),
        t.grad.numpy(),
        t.detach().numpy(),
        error_name(lambda: t.as_subclass(int)),
    ]


@case
def recurrent_functions(torch):
    """torch.lstm/gru/rnn_tanh/rnn_relu over flat weight lists (an nn module's own), padded
    and packed, one or two layers, one or two directions, batch_first, with and without
    biases, LSTM with a projection; gradients."""
    out = []
    torch.manual_seed(0)
    for dt in float_types(torch):
        for name, cls, extra in [
            ("lstm", torch.nn.LSTM, {}),
            ("lstm", torch.nn.LSTM, {"proj_size": 2}),
            ("gru", torch.nn.GRU, {}),
            ("rnn_tanh", torch.nn.RNN, {}),
            ("rnn_relu", torch.nn.RNN, {"nonlinearity": "relu"}),
        ]:
            for layers, bidirectional, bias, batch_first in [(1, False, True, False), (2, True, False, True)]:
                rng = np.random.default_rng(200 + layers)
                m = cls(
                    3, 4, num_layers=layers, bidirectional=bidirectional, bias=bias, batch_first=batch_first, **extra
                )
                params = [tensor(torch, rng.standard_normal(tuple(p.shape)) * 0.5, dt) for p in m._flat_weights]
                for p in params:
                    p.requires_grad_()
                D = 2 if bidirectional else 1
                h_size = extra.get("proj_size", 4) or 4
                x = tensor(torch, rng.standard_normal((2, 5, 3) if batch_first else (5, 2, 3)), dt).requires_grad_()
                h0 = tensor(torch, rng.standard_normal((layers * D, 2, h_size)), dt)
                hx = [h0, tensor(torch, rng.standard_normal((layers * D, 2, 4)), dt)] if name == "lstm" else h0
                res = getattr(torch, name)(x, hx, params, bias, layers, 0.0, False, bidirectional, batch_first)
                out += [r.detach().numpy() for r in res]
                total = sum((r * tensor(torch, rng.standard_normal(tuple(r.shape)), dt)).sum() for r in res)
                grads = torch.autograd.grad(total, [x] + params)
                out += [g.numpy() for g in grads]
                # packed: lengths 5 and 3, time-major data of the sorted batch
                data = tensor(torch, rng.standard_normal((8, 3)), dt)
                sizes = torch.tensor([2, 2, 2, 1, 1])
                res = getattr(torch, name)(data, sizes, hx, params, bias, layers, 0.0, False, bidirectional)
                out += [r.detach().numpy() for r in res]
    return out


if __name__ == "__main__":
    case_runner.main(CASES)
