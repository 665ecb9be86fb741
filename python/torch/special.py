"""torch.special: PyTorch 1.13's special functions, and the ones of them that torch and
torch.Tensor also have (torch.lgamma, torch.digamma, Tensor.erfinv, ...).

The core has no kernels for these, so they are written with its ops. Each value is computed in
float64 without recording and cast back to the input's type, so that float32 results are
correctly rounded up to the last bit or so; each gradient is PyTorch's derivative formula (see
Note [Special functions by shift and series] for the series these values use).

Note [Special functions by shift and series]: for x >= 1/2 the argument is shifted up by SHIFT
with the recurrences (lgamma(x) = lgamma(x + n) - sum log(x + k), and the like), where the
asymptotic (Stirling) series is accurate to a few units in the last place of a double; x < 1/2
goes through the reflection formulas. The Hurwitz zeta function (and so polygamma) is summed
the same way, with the Euler-Maclaurin tail; the modified Bessel functions are their power
series for |x| <= BESSEL_SERIES_BOUND and their asymptotic series beyond.
"""

import math
from fractions import Fraction

import torch
from torch._C import Tensor
from torch.functional import (
    _as_floating,
    _binary,
    _check_tensor,
    _finish,
    _floating_only,
    _formula,
    _type_name,
    _upcast,
    exp2,
    inf,
    logit,
    nan,
    xlogy,
)

__all__ = [
    "airy_ai",
    "bessel_j0",
    "bessel_j1",
    "bessel_y0",
    "bessel_y1",
    "chebyshev_polynomial_t",
    "chebyshev_polynomial_u",
    "chebyshev_polynomial_v",
    "chebyshev_polynomial_w",
    "digamma",
    "entr",
    "erf",
    "erfc",
    "erfcx",
    "erfinv",
    "exp2",
    "expit",
    "expm1",
    "gammainc",
    "gammaincc",
    "gammaln",
    "hermite_polynomial_h",
    "hermite_polynomial_he",
    "i0",
    "i0e",
    "i1",
    "i1e",
    "laguerre_polynomial_l",
    "legendre_polynomial_p",
    "log1p",
    "log_ndtr",
    "log_softmax",
    "logit",
    "logsumexp",
    "modified_bessel_i0",
    "modified_bessel_i1",
    "modified_bessel_k0",
    "modified_bessel_k1",
    "multigammaln",
    "ndtr",
    "ndtri",
    "polygamma",
    "psi",
    "round",
    "scaled_modified_bessel_k0",
    "scaled_modified_bessel_k1",
    "shifted_chebyshev_polynomial_t",
    "shifted_chebyshev_polynomial_u",
    "shifted_chebyshev_polynomial_v",
    "shifted_chebyshev_polynomial_w",
    "sinc",
    "softmax",
    "spherical_bessel_j0",
    "xlog1py",
    "xlogy",
    "zeta",
]

SHIFT = 8
# the most terms the Hurwitz zeta function sums directly (Note [Special functions by shift and series])
ZETA_MAX_SHIFT = 1e6
BESSEL_SERIES_BOUND = 30.0


def _bernoulli(count):
    """The Bernoulli numbers B_0 ... B_(count - 1), exactly."""
    b = [Fraction(1)]
    for m in range(1, count):
        b.append(-sum(math.comb(m + 1, k) * b[k] for k in range(m)) / Fraction(m + 1))
    return b


_B = _bernoulli(26)
# Stirling's series for lgamma: sum B_2k / (2k (2k - 1) w^(2k - 1))
_LGAMMA_SERIES = [float(_B[2 * k] / (2 * k * (2 * k - 1))) for k in range(1, 9)]
# digamma's: -sum B_2k / (2k w^2k)
_DIGAMMA_SERIES = [float(-_B[2 * k] / (2 * k)) for k in range(1, 9)]
# the Euler-Maclaurin tail of the Hurwitz zeta function: B_2j / (2j)!
_ZETA_SERIES = [float(_B[2 * j] / math.factorial(2 * j)) for j in range(1, 13)]


# ---------------------------------------------------------------------------------------------
# values, in float64 tensors
# ---------------------------------------------------------------------------------------------


def _split(x):
    """The reflected argument z = max(x, 1 - x) and a safe copy of x for the reflection term
    (one whose sine is away from zero where the term is not used)."""
    reflect = x < 0.5
    z = torch.where(reflect, 1 - x, x)
    safe = torch.where(reflect, x, torch.full_like(x, 0.25))
    return reflect, z, safe


def _poly(coefficients, w):
    total = torch.zeros_like(w)
    for c in reversed(coefficients):
        total = total * w + c
    return total


def _pole(x):
    return (x <= 0) & (x == torch.floor(x))


def _lgamma64(x):
    reflect, z, safe = _split(x)
    shifted = z + SHIFT
    logs = sum(torch.log(z + k) for k in range(SHIFT))
    inv = 1 / shifted
    stirling = (shifted - 0.5) * torch.log(shifted) - shifted + 0.5 * math.log(2 * math.pi)
    direct = stirling + inv * _poly(_LGAMMA_SERIES, inv * inv) - logs
    reflected = math.log(math.pi) - torch.log(torch.sin(math.pi * safe).abs()) - direct
    result = torch.where(reflect, reflected, direct)
    return torch.where(_pole(x) | torch.isinf(x), inf, result)


def _digamma64(x):
    reflect, z, safe = _split(x)
    shifted = z + SHIFT
    recips = sum(1 / (z + k) for k in range(SHIFT))
    inv2 = 1 / (shifted * shifted)
    direct = torch.log(shifted) - 0.5 / shifted + inv2 * _poly(_DIGAMMA_SERIES, inv2) - recips
    reflected = direct - math.pi / torch.tan(math.pi * safe)
    result = torch.where(reflect, reflected, direct)
    # PyTorch's: -inf at +0, +inf at -0, NaN at the negative integers and at -inf
    result = torch.where(_pole(x) | (x == -inf), nan, result)
    result = torch.where(x == 0, -1 / x, result)
    return torch.where(x == inf, inf, result)


def _zeta64(s, q):
    """The Hurwitz zeta function sum_k (q + k)^-s: the first terms summed until q + k > 9, then
    the Euler-Maclaurin formula for the rest."""
    s, q = torch.broadcast_tensors(s, q)
    # the terms needed to bring the lowest q above 9: poles (every double below -2^52 is one)
    # need none, and q below -ZETA_MAX_SHIFT would need too many to sum (NaN, below)
    summed = torch.isfinite(q) & ~_pole(q) & (q >= -ZETA_MAX_SHIFT)
    lowest = q[summed].min().item() if bool(summed.any()) else 0.0
    terms = 9 + max(0, math.ceil(-lowest))
    total = sum(torch.pow(q + k, -s) for k in range(terms))
    a = q + terms
    tail = torch.pow(a, 1 - s) / (s - 1) + 0.5 * torch.pow(a, -s)
    rising = s
    power = torch.pow(a, -s - 1)
    for j, c in enumerate(_ZETA_SERIES):
        tail = tail + c * rising * power
        rising = rising * (s + 2 * j + 1) * (s + 2 * j + 2)
        power = power / (a * a)
    result = total + tail
    # as cephes: infinite at s = 1 and at the poles q = 0, -1, ...; undefined for s < 1 and for
    # q <= 0 with s not an integer
    undefined = (s < 1) | ((q <= 0) & (s != torch.floor(s)) & (q != torch.floor(q)))
    # s = inf: only the first term, q^-inf, is not 0
    result = torch.where((s == inf) & (q > 0), torch.pow(q, -s), result)
    too_low = (q < -ZETA_MAX_SHIFT) & ~_pole(q)
    result = torch.where(undefined | torch.isinf(q) | too_low, nan, result)
    # cephes' order: s = 1 first, then s < 1, then the poles (-inf among them)
    return torch.where((s == 1) | ((_pole(q) | (q == -inf)) & ~(s < 1)), inf, result)


def _polygamma64(n, x):
    if n == 0:
        return _digamma64(x)
    if n == 1:
        # PyTorch's trigamma, unlike its zeta, tends to 0 at infinity
        return torch.where(x == inf, 0.0, _zeta64(torch.full_like(x, 2.0), x))
    sign = 1.0 if n % 2 else -1.0
    return sign * math.factorial(n) * _zeta64(torch.full_like(x, n + 1.0), x)


def _erfinv64(y):
    """Giles' single-precision approximation refined by Newton's method on erf, or near +-1 on
    erfc (1 - |y| is exact there, erf(x) - y would cancel)."""
    a = y.abs()
    w = -torch.log((1 - a) * (1 + a))
    small = w < 5
    ws = torch.where(small, w - 2.5, torch.sqrt(w.clamp(min=5)) - 3)
    p_small = [
        2.81022636e-08,
        3.43273939e-07,
        -3.5233877e-06,
        -4.39150654e-06,
        0.00021858087,
        -0.00125372503,
        -0.00417768164,
        0.246640727,
        1.50140941,
    ]
    p_large = [
        -0.000200214257,
        0.000100950558,
        0.00134934322,
        -0.00367342844,
        0.00573950773,
        -0.0076224613,
        0.00943887047,
        1.00167406,
        2.83297682,
    ]
    x = torch.where(small, _poly(p_small[::-1], ws), _poly(p_large[::-1], ws)) * a
    finite = torch.isfinite(x)
    for _ in range(3):
        miss = torch.where(a < 0.5, torch.erf(x) - a, (1 - a) - torch.erfc(x))
        x = torch.where(finite, x - miss / (2 / math.sqrt(math.pi) * torch.exp(-x * x)), x)
    x = torch.where(a == 1, inf, x)
    x = torch.where(torch.signbit(y), -x, x)
    return torch.where(a > 1, nan, x)


def _erfcx64(y):
    """exp(y^2) erfc(y): directly up to y = 12, by its asymptotic series beyond (where erfc
    underflows), and by erfcx(y) = 2 exp(y^2) - erfcx(-y) for y < 0."""
    a = y.abs()
    near = torch.where(a < 12, a, torch.zeros_like(a))
    far = torch.where(a < 12, torch.full_like(a, 12.0), a)
    direct = torch.exp(near * near) * torch.erfc(near)
    term = torch.ones_like(far)
    series = torch.ones_like(far)
    for k in range(1, 16):
        term = -term * (2 * k - 1) / (2 * far * far)
        series = series + term
    asymptotic = series / (far * math.sqrt(math.pi))
    positive = torch.where(a < 12, direct, asymptotic)
    result = torch.where(y < 0, 2 * torch.exp(y * y) - positive, positive)
    return torch.where(y == inf, 0.0, result)


def _log_ndtr64(x):
    # as PyTorch: through erfcx in the lower tail, where ndtr(x) underflows
    t = x * math.sqrt(0.5)
    lower = torch.log(_erfcx64(-t) / 2) - t * t
    upper = torch.log1p(-torch.erfc(t) / 2)
    return torch.where(x < -1, lower, upper)


def _ndtri64(p):
    """The inverse of ndtr: for the lower half q = min(p, 1 - p), Newton's method on
    log(ndtr(x)) = log(q) from the tail's asymptotic guess, then the sign of p - 1/2."""
    upper = p > 0.5
    q = torch.where(upper, 1 - p, p)
    q = torch.where((q > 0) & (q <= 0.5), q, torch.full_like(q, 0.25))
    t = -2 * torch.log(q)
    x = -torch.sqrt((t - torch.log(t) - math.log(2 * math.pi)).clamp(min=0))
    target = torch.log(q)
    for _ in range(12):
        # d/dx log(ndtr(x)) = phi(x) / ndtr(x) = 1 / (sqrt(pi / 2) erfcx(-x / sqrt(2)))
        ratio = math.sqrt(math.pi / 2) * _erfcx64(-x * math.sqrt(0.5))
        x = x - (_log_ndtr64(x) - target) * ratio
    result = torch.where(upper, -x, x)
    result = torch.where(p == 0, -inf, torch.where(p == 1, inf, result))
    return torch.where((p < 0) | (p > 1) | torch.isnan(p), nan, result)


def _bessel64(x, order, scaled):
    """The modified Bessel function I_order (order 0 or 1) of x, times exp(-|x|) when scaled."""
    a = x.abs()
    small = a <= BESSEL_SERIES_BOUND
    xs = torch.where(small, a, torch.zeros_like(a))
    xl = torch.where(small, torch.full_like(a, BESSEL_SERIES_BOUND), a)
    # power series: sum_k (x/2)^(2k + order) / (k! (k + order)!)
    quarter = xs * xs / 4
    term = torch.ones_like(xs) if order == 0 else xs / 2
    series = term
    for k in range(1, 72):
        term = term * quarter / (k * (k + order))
        series = series + term
    series = series * torch.exp(-xs) if scaled else series
    # asymptotic series of exp(-x) I(x): sum_k c_k / x^k / sqrt(2 pi x), c_k = c_(k-1) (2k - 1)^2 - mu) / (8k)
    mu = 4.0 * order * order
    term = torch.ones_like(xl)
    asymptotic = torch.ones_like(xl)
    for k in range(1, 40):
        term = term * ((2 * k - 1) ** 2 - mu) / (8 * k * xl)
        asymptotic = asymptotic + term
    asymptotic = asymptotic / torch.sqrt(2 * math.pi * xl)
    asymptotic = asymptotic if scaled else asymptotic * torch.exp(xl)
    result = torch.where(small, series, asymptotic)
    # PyTorch's unscaled functions are NaN at the infinities, as 0 * inf in its Chebyshev form
    result = torch.where(torch.isinf(a), 0.0 if scaled else nan, result)
    return result if order == 0 else torch.where(x < 0, -result, result)


def _igamma64(a, x, upper):
    """The regularized incomplete gamma functions P(a, x) (Q = 1 - P when upper): P by its
    power series where x < a + 1, Q by its continued fraction (Lentz's method) beyond."""
    a, x = torch.broadcast_tensors(a, x)
    eps, tiny = 1e-16, 1e-300
    series_side = x < a + 1
    # the power series sum_n x^n / ((a + 1) ... (a + n)), on the elements where it converges fast
    xs = torch.where(series_side, x, torch.zeros_like(x))
    term = torch.ones_like(x)
    total = torch.ones_like(x)
    ap = a.clone()
    for i in range(1, 4000):
        ap = ap + 1
        term = term * xs / ap
        total = total + term
        if i % 32 == 0 and not bool((term.abs() > total.abs() * eps).any()):
            break
    safe_x = torch.where(x > 0, x, torch.ones_like(x))
    lower = total * torch.exp(a * torch.log(safe_x) - x - _lgamma64(a + 1))
    # the continued fraction of Q, on the others
    xc = torch.where(series_side, a + 2, x)
    b = xc + 1 - a
    c = torch.full_like(x, 1 / tiny)
    d = 1 / b
    h = d
    for i in range(1, 4000):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = torch.where(d.abs() < tiny, tiny, d)
        c = b + an / c
        c = torch.where(c.abs() < tiny, tiny, c)
        d = 1 / d
        delta = d * c
        h = h * delta
        if i % 32 == 0 and not bool(((delta - 1).abs() > eps).any()):
            break
    upper_cf = h * torch.exp(a * torch.log(torch.where(series_side, torch.ones_like(x), xc)) - xc - _lgamma64(a))
    p = torch.where(series_side, lower, 1 - upper_cf)
    q = torch.where(series_side, 1 - lower, upper_cf)
    r = q if upper else p
    # PyTorch's edges (as cephes'): a = 0, x = 0 and the infinities, for P; Q is 1 - P there
    at_x_inf, at_a_inf, at_x_zero, at_a_zero = (0.0, 1.0, 1.0, 0.0) if upper else (1.0, 0.0, 0.0, 1.0)
    r = torch.where(torch.isinf(x), at_x_inf, r)
    r = torch.where(torch.isinf(a), torch.where(torch.isinf(x), nan, at_a_inf), r)
    r = torch.where(x == 0, at_x_zero, r)
    r = torch.where(a == 0, torch.where(x > 0, at_a_zero, nan), r)
    return torch.where((a < 0) | (x < 0), nan, r)


def _spherical_j0_64(x):
    x2 = x * x
    series = 1 + x2 * (-1 / 6 + x2 * (1 / 120 + x2 * (-1 / 5040 + x2 * (1 / 362880 + x2 * (-1 / 39916800)))))
    direct = torch.sin(x) / torch.where(x == 0, torch.ones_like(x), x)
    return torch.where(torch.isinf(x), 0.0, torch.where(x.abs() < 0.5, series, direct))


def _recurrence64(kind, x, n, top):
    """The polynomial of degree n (per element, n >= 2 up to top) of the given kind at x, by its
    three-term recurrence p_(k+1) = (a_k x + b_k) p_k - c_k p_(k-1); degrees 0 and 1 directly."""
    first = {
        "chebyshev_t": x,
        "chebyshev_u": 2 * x,
        "chebyshev_v": 2 * x - 1,
        "chebyshev_w": 2 * x + 1,
        "hermite_h": 2 * x,
        "hermite_he": x,
        "laguerre_l": 1 - x,
        "legendre_p": x,
    }[kind]
    previous, current = torch.ones_like(x), first
    result = torch.where(n == 0, previous, torch.zeros_like(x))
    result = torch.where(n == 1, current, result)
    for k in range(1, top):
        if kind.startswith("chebyshev"):
            following = 2 * x * current - previous
        elif kind == "hermite_h":
            following = 2 * x * current - 2 * k * previous
        elif kind == "hermite_he":
            following = x * current - k * previous
        elif kind == "laguerre_l":
            following = ((2 * k + 1 - x) * current - k * previous) / (k + 1)
        else:
            following = ((2 * k + 1) * x * current - k * previous) / (k + 1)
        previous, current = current, following
        result = torch.where(n == k + 1, current, result)
        # an overflowed recurrence (|x| > 1, high degree) stays NaN: no need to go on
        if k % 64 == 0 and bool(torch.isnan(current[n > k + 1]).all()):
            result = torch.where(n > k + 1, nan, result)
            break
    return result


# Note [PyTorch's Chebyshev edges]: PyTorch 1.13 evaluates the Chebyshev polynomials of high
# degree inside (-1, 1) by their trigonometric forms (cos(n t), sin((n + 1) t) / sin(t),
# cos((n + 1/2) t) / cos(t / 2), sin((n + 1/2) t) / sin(t / 2) at x = cos t), above a degree
# per kind, and gives their values at x = +-1 exactly; the shifted polynomials are the same
# functions of 2x - 1 (with their own degree thresholds). The same branches are taken here so
# that high degrees round as 1.13's do.
_TRIG_FROM = {"t": 6, "u": 8, "v": 8, "w": 8}
_SHIFTED_TRIG_FROM = {"t": 6, "u": 6, "v": 6, "w": 4}


def _chebyshev64(letter, x, n, shifted):
    """The Chebyshev polynomial T, U, V or W (letter) of degree n at 2x - 1 when shifted, V or W
    at x otherwise, with PyTorch 1.13's branches (Note [PyTorch's Chebyshev edges])."""
    y = x + x - 1 if shifted else x
    theta = torch.acos(y.clamp(-1, 1))
    trig_from = (_SHIFTED_TRIG_FROM if shifted else _TRIG_FROM)[letter]
    trig = (n > trig_from) & (y.abs() < 1)
    needs = ~trig & (n >= 2)
    top = int(n[needs].max().item()) if bool(needs.any()) else 1
    result = _recurrence64("chebyshev_" + letter, y, n, top)
    if letter == "t":
        by_angle = torch.cos(n * theta)
    elif letter == "u":
        s = torch.sin(theta)
        by_angle = torch.where(s != 0, torch.sin((n + 1) * theta) / s, (n + 1) * torch.cos((n + 1) * theta) / y)
    elif letter == "v":
        by_angle = torch.cos((n + 0.5) * theta) / torch.cos(theta / 2)
    else:
        by_angle = torch.sin((n + 0.5) * theta) / torch.sin(theta / 2)
    result = torch.where(trig, by_angle, result)
    # the values at y = 1 and y = -1, where PyTorch 1.13 gives them exactly
    odd = torch.remainder(n, 2) == 1
    alternate = lambda v: torch.where(odd, -v, v)  # noqa: E731  ((-1)^n v)
    at_one, at_minus_one = {
        "t": (torch.ones_like(n), alternate(torch.ones_like(n))),
        "u": (n + 1, alternate(n + 1)),
        "v": (torch.ones_like(n), alternate(2 * n + 1)),
        "w": (2 * n + 1, alternate(torch.ones_like(n))),
    }[letter]
    result = torch.where(y == 1, at_one, torch.where(y == -1, at_minus_one, result))
    return torch.where(n < 0, 0.0, result)


def _orthogonal64(kind, x, n):
    """The polynomial of degree n (per element; 0 for negative n) of the given kind at x."""
    x, n = torch.broadcast_tensors(x, n)
    if kind.startswith("shifted_chebyshev"):
        return _chebyshev64(kind[-1], x, n, True)
    if kind in ("chebyshev_v", "chebyshev_w"):
        return _chebyshev64(kind[-1], x, n, False)
    top = int(n.max().item()) if n.numel() else 0
    result = _recurrence64(kind, x, n, top)
    if kind == "chebyshev_t":
        # as PyTorch: cos(n acos x) inside (-1, 1) for degrees above 6
        trig = torch.cos(n * torch.acos(x.clamp(-1, 1)))
        result = torch.where((n > 6) & (x.abs() < 1), trig, result)
    if kind == "chebyshev_u":
        theta = torch.acos(x.clamp(-1, 1))
        trig = torch.sin((n + 1) * theta) / torch.sin(theta)
        result = torch.where((n > 8) & (x.abs() < 1) & (torch.sin(theta) != 0), trig, result)
    return torch.where(n < 0, 0.0, result)


# ---------------------------------------------------------------------------------------------
# the functions: argument checks, dtypes, out= and PyTorch's derivatives
# ---------------------------------------------------------------------------------------------


def _in_double(value64):
    """value64 applied to a tensor's float64 copy and the result cast back to its type."""

    def value(*inputs):
        return value64(*(t.detach().to(torch.float64) for t in inputs)).to(inputs[0].dtype)

    return value


def _unary(fname, input, value64, grads, out):
    _check_tensor(fname, "input", 1, input)
    x = _as_floating(input)
    return _finish(fname, out, lambda: _formula(_in_double(value64), grads, x), x.dtype, (input,))


def gammaln(input, *, out=None):
    """log |Gamma(input)|."""
    return _unary("lgamma", input, _lgamma64, lambda g, r, x: (g * digamma(x),), out)


def digamma(input, *, out=None):
    """The logarithmic derivative of the gamma function, Gamma'(input) / Gamma(input)."""
    return _unary("digamma", input, _digamma64, lambda g, r, x: (g * polygamma(1, x),), out)


psi = digamma


def _check_order(fname, n):
    if not isinstance(n, int) or isinstance(n, bool):
        raise TypeError("%s(): argument 'n' (position 1) must be int, not %s" % (fname, _type_name(n)))
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")


def polygamma(n, input, *, out=None):
    """The n-th derivative of digamma at input."""
    _check_order("polygamma", n)
    return _unary(
        "polygamma",
        input,
        lambda x: _polygamma64(n, x),
        lambda g, r, x: (g * polygamma(n + 1, x),),
        out,
    )


def multigammaln(input, p, *, out=None):
    """The multivariate log-gamma function of dimension p: sum_j lgamma(input - j / 2) plus
    p (p - 1) / 4 log(pi)."""
    _check_tensor("mvlgamma", "input", 1, input)
    if not isinstance(p, int) or isinstance(p, bool):
        raise TypeError("mvlgamma(): argument 'p' (position 2) must be int, not %s" % _type_name(p))
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    # as PyTorch 1.13, elements at or below (p - 1) / 2 are not refused: they give lgamma's poles
    x = _as_floating(input)

    def compute():
        terms = sum(gammaln(x - 0.5 * j) for j in range(p))
        return terms + p * (p - 1) / 4 * math.log(math.pi)

    return _finish("mvlgamma", out, compute, x.dtype, (input,))


def zeta(input, other, *, out=None):
    """The Hurwitz zeta function: sum over k >= 0 of (other + k) ** -input."""
    x, q, dtype = _binary("zeta", input, other, input_may_be_number=True, floating=True)
    # PyTorch differentiates with respect to other only
    grads = lambda g, r, x, q: (None, g * -x * zeta(x + 1.0, q))  # noqa: E731
    return _finish("zeta", out, lambda: _formula(_in_double(_zeta64), grads, x, q), dtype, (input, other))


def erfinv(input, *, out=None):
    """The inverse of erf, on [-1, 1]."""
    grads = lambda g, r, x: (g * (math.sqrt(math.pi) / 2) * torch.exp(r * r),)  # noqa: E731
    return _unary("erfinv", input, _erfinv64, grads, out)


def erfcx(input, *, out=None):
    """The scaled complementary error function exp(input ** 2) erfc(input)."""
    grads = lambda g, r, x: ((2 * x * r - 2 / math.sqrt(math.pi)) * g,)  # noqa: E731
    return _unary("erfcx", input, _erfcx64, grads, out)


def ndtr(input, *, out=None):
    """The standard normal distribution function."""
    _check_tensor("ndtr", "input", 1, input)
    x = _as_floating(input)
    return _finish("ndtr", out, lambda: 0.5 * torch.erfc(_upcast(x) * -math.sqrt(0.5)), x.dtype, (input,))


def ndtri(input, *, out=None):
    """The inverse of ndtr: the argument at which the standard normal distribution function is input."""
    grads = lambda g, r, x: (g * math.sqrt(2 * math.pi) * torch.exp(r * r / 2),)  # noqa: E731
    return _unary("ndtri", input, _ndtri64, grads, out)


def log_ndtr(input, *, out=None):
    """log(ndtr(input)), accurate where ndtr(input) underflows."""
    grads = lambda g, r, x: (g / math.sqrt(2 * math.pi) * torch.exp(-(r + x * x / 2)),)  # noqa: E731
    return _unary("log_ndtr", input, _log_ndtr64, grads, out)


def _bessel(fname, input, order, scaled, grads, out):
    return _unary(fname, input, lambda x: _bessel64(x, order, scaled), grads, out)


def _not_tiny(x):
    """Where |x| exceeds the dtype's epsilon, and x with the tiny ones replaced by epsilon: I1's
    derivatives divide by x, and are 1/2 in the limit x -> 0."""
    eps = torch.finfo(x.dtype).eps
    big = x.abs() > eps
    return big, torch.where(big, x, torch.full_like(x, eps))


def i0(input, *, out=None):
    """The modified Bessel function of the first kind of order 0."""
    return _bessel("i0", input, 0, False, lambda g, r, x: (g * i1(x),), out)


def i0e(input, *, out=None):
    """i0(input) * exp(-|input|)."""
    return _bessel("special_i0e", input, 0, True, lambda g, r, x: (g * (i1e(x) - torch.sign(x) * r),), out)


def _i1_grads(g, r, x):
    big, safe = _not_tiny(x)
    return (g * torch.where(big, i0(safe) - r / safe, 0.5),)


def _i1e_grads(g, r, x):
    big, safe = _not_tiny(x)
    return (g * torch.where(big, i0e(safe) - r * (torch.sign(safe) + 1 / safe), 0.5),)


def i1(input, *, out=None):
    """The modified Bessel function of the first kind of order 1."""
    return _bessel("special_i1", input, 1, False, _i1_grads, out)


def i1e(input, *, out=None):
    """i1(input) * exp(-|input|)."""
    return _bessel("special_i1e", input, 1, True, _i1e_grads, out)


def gammainc(input, other, *, out=None):
    """The regularized lower incomplete gamma function P(input, other)."""
    a, x, dtype = _binary("igamma", input, other, floating=True)
    # PyTorch differentiates with respect to other only
    grads = lambda g, r, a, x: (None, g * torch.exp((a - 1) * torch.log(x) - x - gammaln(a)))  # noqa: E731
    value = _in_double(lambda a, x: _igamma64(a, x, False))
    return _finish("igamma", out, lambda: _formula(value, grads, a, x), dtype, (input, other))


def gammaincc(input, other, *, out=None):
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P(input, other)."""
    a, x, dtype = _binary("igammac", input, other, floating=True)
    grads = lambda g, r, a, x: (None, -g * torch.exp((a - 1) * torch.log(x) - x - gammaln(a)))  # noqa: E731
    value = _in_double(lambda a, x: _igamma64(a, x, True))
    return _finish("igammac", out, lambda: _formula(value, grads, a, x), dtype, (input, other))


def spherical_bessel_j0(input, *, out=None):
    """The spherical Bessel function of the first kind of order 0, sin(x) / x."""
    _check_tensor("spherical_bessel_j0", "input", 1, input)
    x = _as_floating(input)
    return _finish("spherical_bessel_j0", out, lambda: _in_double(_spherical_j0_64)(x.detach()), x.dtype, (input,))


def _polynomial(kind):
    family, letter = kind.rsplit("_", 1)
    name = family + "_polynomial_" + letter  # chebyshev_v -> chebyshev_polynomial_v

    def fn(input, n, *, out=None):
        x, degree, dtype = _binary(name, input, n, input_may_be_number=True)
        if dtype == torch.float16:
            _floating_only(name, dtype)  # as 1.13's CPU kernels, which have no float16 version
        dtype = dtype if dtype in (torch.float32, torch.float64) else torch.get_default_dtype()

        def compute():
            x64 = x.detach().to(torch.float64)
            return _orthogonal64(kind, x64, degree.detach().to(torch.float64).trunc()).to(dtype)

        return _finish(name, out, compute, dtype, (input, n))

    fn.__name__ = name
    fn.__doc__ = "The %s polynomial of degree n at input (not differentiable, as in PyTorch)." % kind.replace("_", " ")
    return fn


chebyshev_polynomial_t = _polynomial("chebyshev_t")
chebyshev_polynomial_u = _polynomial("chebyshev_u")
chebyshev_polynomial_v = _polynomial("chebyshev_v")
chebyshev_polynomial_w = _polynomial("chebyshev_w")
shifted_chebyshev_polynomial_t = _polynomial("shifted_chebyshev_t")
shifted_chebyshev_polynomial_u = _polynomial("shifted_chebyshev_u")
shifted_chebyshev_polynomial_v = _polynomial("shifted_chebyshev_v")
shifted_chebyshev_polynomial_w = _polynomial("shifted_chebyshev_w")
hermite_polynomial_h = _polynomial("hermite_h")
hermite_polynomial_he = _polynomial("hermite_he")
laguerre_polynomial_l = _polynomial("laguerre_l")
legendre_polynomial_p = _polynomial("legendre_p")


def _boost_function(name):
    """The torch.special function of core/ops/Special.h named name (Note [Special functions from
    Boost.Math]): not differentiable, as in PyTorch 1.13, where its result records nothing."""

    def fn(input, *, out=None):
        _check_tensor("special_" + name, "input", 1, input)
        x = _as_floating(input)
        _floating_only(name, x.dtype)
        return _finish(name, out, lambda: torch._C._special_function(name, x.detach()), x.dtype, (input,))

    fn.__name__ = name
    fn.__doc__ = "torch.special.%s of each element of input (computed on the host)." % name
    return fn


bessel_j0 = _boost_function("bessel_j0")
bessel_j1 = _boost_function("bessel_j1")
bessel_y0 = _boost_function("bessel_y0")
bessel_y1 = _boost_function("bessel_y1")
modified_bessel_k0 = _boost_function("modified_bessel_k0")
modified_bessel_k1 = _boost_function("modified_bessel_k1")
scaled_modified_bessel_k0 = _boost_function("scaled_modified_bessel_k0")
scaled_modified_bessel_k1 = _boost_function("scaled_modified_bessel_k1")
airy_ai = _boost_function("airy_ai")


def _sinc_value(x):
    px = math.pi * x
    return torch.where(x == 0, 1.0, torch.sin(px) / torch.where(x == 0, 1.0, px))


def _sinc_grads(g, r, x):
    px = math.pi * x
    slope = (px * torch.cos(px) - torch.sin(px)) / (px * x)
    return (g * torch.where(x == 0, 0.0, slope),)


def sinc(input, *, out=None):
    """sin(pi input) / (pi input), 1 at 0."""
    _check_tensor("sinc", "input", 1, input)
    x = _as_floating(input)
    return _finish("sinc", out, lambda: _formula(_sinc_value, _sinc_grads, _upcast(x)), x.dtype, (input,))


def _entr_value(x):
    inside = -x * torch.log(torch.where(x > 0, x, torch.ones_like(x)))
    return torch.where(x > 0, inside, torch.where(x == 0, 0.0, torch.where(x < 0, -inf, x)))


def entr(input, *, out=None):
    """-input * log(input) elementwise: 0 at 0, -inf for negative input."""
    _check_tensor("entr", "input", 1, input)
    x = _as_floating(input)
    grads = lambda g, r, x: (g * -(1 + torch.log(x)),)  # noqa: E731
    return _finish("entr", out, lambda: _formula(_entr_value, grads, _upcast(x)), x.dtype, (input,))


def _xlog1py_value(x, y):
    return torch.where((x == 0) & (y == y), 0.0, x * torch.log1p(y))


def xlog1py(input, other, *, out=None):
    """input * log1p(other), 0 where input is 0 (and other is not NaN)."""
    x, y, dtype = _binary("xlog1py", input, other, input_may_be_number=True, floating=True)

    def grads(g, r, x, y):
        # PyTorch's: xlog1py(grad, other), but 0 where input is 0 and other <= -1
        return (torch.where((x == 0) & (y <= -1), 0.0, _xlog1py_value(g, y)), g * x / (y + 1))

    return _finish("xlog1py", out, lambda: _formula(_xlog1py_value, grads, x, y), dtype, (input, other))


def expit(input, *, out=None):
    """The logistic sigmoid 1 / (1 + exp(-input))."""
    _check_tensor("expit", "input", 1, input)
    x = _as_floating(input)
    return _finish("expit", out, lambda: torch.sigmoid(x), x.dtype, (input,))


def _same_as(fname, torch_fn):
    """A torch.special name for the torch function of another name (special.erf is torch.erf)."""

    def fn(input, *, out=None):
        _check_tensor(fname, "input", 1, input)
        x = _as_floating(input)
        return _finish(fname, out, lambda: torch_fn(x), x.dtype, (input,))

    fn.__name__ = fname
    fn.__doc__ = "torch.%s." % torch_fn.__name__
    return fn


erf = _same_as("erf", torch.erf)
erfc = _same_as("erfc", torch.erfc)
expm1 = _same_as("expm1", torch.expm1)
log1p = _same_as("log1p", torch.log1p)


def round(input, *, out=None):
    """torch.round."""
    _check_tensor("round", "input", 1, input)
    return _finish("round", out, lambda: torch.round(input), input.dtype, (input,))


def logsumexp(input, dim, keepdim=False, *, out=None):
    """torch.logsumexp."""
    _check_tensor("logsumexp", "input", 1, input)
    r = torch.logsumexp(input, dim, keepdim)
    return r if out is None else _finish("logsumexp", out, lambda: r, r.dtype, (input,))


def softmax(input, dim, *, dtype=None):
    """torch.softmax."""
    return torch.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, *, dtype=None):
    """torch.log_softmax."""
    return torch.log_softmax(input, dim, dtype=dtype)


# ---------------------------------------------------------------------------------------------
# the torch functions and Tensor methods of the same functions
# ---------------------------------------------------------------------------------------------

modified_bessel_i0 = i0
modified_bessel_i1 = i1
lgamma = gammaln
mvlgamma = multigammaln
igamma = gammainc
igammac = gammaincc
_TORCH_FUNCTIONS = {
    "lgamma": lgamma,
    "digamma": digamma,
    "polygamma": polygamma,
    "mvlgamma": mvlgamma,
    "erfinv": erfinv,
    "i0": i0,
    "sinc": sinc,
    "igamma": igamma,
    "igammac": igammac,
}


def _polygamma_method(self, n):
    return polygamma(n, self)


def _mvlgamma_method(self, p):
    return mvlgamma(self, p)


def _inplace_method(name, fn):
    def method(self, *args):
        result = fn(self, *args)
        if result.dtype != self.dtype:
            raise RuntimeError(
                "result type %s can't be cast to the desired output type %s"
                % (str(result.dtype).split(".")[-1].capitalize(), str(self.dtype).split(".")[-1].capitalize())
            )
        return self.copy_(result)

    method.__name__ = name + "_"
    method.__doc__ = "In-place torch.%s: the result written into self." % name
    return method


for _name, _fn in _TORCH_FUNCTIONS.items():
    _method = {"polygamma": _polygamma_method, "mvlgamma": _mvlgamma_method}.get(_name, _fn)
    setattr(Tensor, _name, _method)
    setattr(Tensor, _name + "_", _inplace_method(_name, _method))
del _name, _fn, _method

# The argument descriptions PyTorch 1.13's torch.special keeps for its docstrings (its
# common_args and multi_dim_common), with the same keys.
common_args = {
    "input": "input (Tensor): the input tensor.",
    "generator": "generator (:class:`torch.Generator`, optional): the generator to draw random numbers from",
    "out": "out (Tensor, optional): the tensor the result is written into.",
    "memory_format": "memory_format (:class:`torch.memory_format`, optional): the memory layout of the result. "
    "Default: ``torch.preserve_format``.",
}
multi_dim_common = dict(
    common_args,
    dtype="dtype (:class:`torch.dtype`, optional): the type the input is converted to before the operation. "
    "Default: None.",
    keepdim="keepdim (bool): whether the reduced dimensions are kept, with size 1.",
    dim="dim (int or tuple of ints): the dimension or dimensions to reduce.",
    keepdim_details="\nWith :attr:`keepdim` the result keeps the reduced dimensions (:attr:`dim`) with size 1;\n"
    "otherwise they are removed (see :func:`torch.squeeze`).\n",
    opt_dim="\n    dim (int or tuple of ints, optional): the dimension or dimensions to reduce;\n"
    "        all of them when None.\n",
)
