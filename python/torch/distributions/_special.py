"""Special functions the distributions need and the core does not have yet (issue 21):
log-gamma, digamma, trigamma and the inverse error function, written with the core's
differentiable ops so that autograd gives their derivatives (lgamma' = digamma,
digamma' = trigamma, to the accuracy of the series).

Note [Special functions by shift and series]: for x >= 1/2 the argument is shifted up by
SHIFT with the recurrences (lgamma(x) = lgamma(x + n) - sum log(x + k), and the like), where
the asymptotic (Stirling) series is accurate to a few units in the last place of a double;
x < 1/2 goes through the reflection formulas. Everything is computed in float64 and cast back,
so float32 results are correctly rounded up to the last bit or so."""

import math

import torch

SHIFT = 8

# Stirling's series for lgamma: sum B_2k / (2k (2k - 1) w^(2k - 1))
_LGAMMA_SERIES = [1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156, -3617 / 122400]
# digamma's: -sum B_2k / (2k w^2k)
_DIGAMMA_SERIES = [-1 / 12, 1 / 120, -1 / 252, 1 / 240, -1 / 132, 691 / 32760, -1 / 12, 3617 / 8160]
# trigamma's: sum B_2k / w^(2k + 1)
_TRIGAMMA_SERIES = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66, -691 / 2730, 7 / 6, -3617 / 510]


def _as_double(x):
    if not isinstance(x, torch.Tensor):
        x = torch.tensor(x, dtype=torch.get_default_dtype())
    return x, x.to(torch.float64)


def _split(x):
    """The reflected argument z = max(x, 1 - x) and a safe copy of x for the reflection term
    (one whose sine is away from zero where the term is not used, so that its gradient is not
    0 * inf)."""
    reflect = x < 0.5
    z = torch.where(reflect, 1 - x, x)
    safe = torch.where(reflect, x, torch.full_like(x, 0.25))
    return reflect, z, safe


def _poly(coefficients, w2):
    total = torch.zeros_like(w2)
    for c in reversed(coefficients):
        total = total * w2 + c
    return total


def lgamma(x):
    x, x64 = _as_double(x)
    reflect, z, safe = _split(x64)
    shifted = z + SHIFT
    logs = sum(torch.log(z + k) for k in range(SHIFT))
    inv = 1 / shifted
    stirling = (shifted - 0.5) * torch.log(shifted) - shifted + 0.5 * math.log(2 * math.pi)
    stirling = stirling + inv * _poly(_LGAMMA_SERIES, inv * inv)
    direct = stirling - logs
    reflected = math.log(math.pi) - torch.log(torch.sin(math.pi * safe).abs()) - direct
    return torch.where(reflect, reflected, direct).to(x.dtype)


def digamma(x):
    x, x64 = _as_double(x)
    reflect, z, safe = _split(x64)
    shifted = z + SHIFT
    recips = sum(1 / (z + k) for k in range(SHIFT))
    inv2 = 1 / (shifted * shifted)
    direct = torch.log(shifted) - 0.5 / shifted + inv2 * _poly(_DIGAMMA_SERIES, inv2) - recips
    reflected = direct - math.pi / torch.tan(math.pi * safe)
    return torch.where(reflect, reflected, direct).to(x.dtype)


def trigamma(x):
    x, x64 = _as_double(x)
    reflect, z, safe = _split(x64)
    shifted = z + SHIFT
    squares = sum(1 / ((z + k) * (z + k)) for k in range(SHIFT))
    inv = 1 / shifted
    direct = inv + 0.5 * inv * inv + inv * inv * inv * _poly(_TRIGAMMA_SERIES, inv * inv) + squares
    reflected = (math.pi / torch.sin(math.pi * safe)) ** 2 - direct
    return torch.where(reflect, reflected, direct).to(x.dtype)


def lbeta(a, b):
    return lgamma(a) + lgamma(b) - lgamma(a + b)


def mvlgamma(x, p):
    terms = sum(lgamma(x - 0.5 * j) for j in range(p))
    return terms + p * (p - 1) / 4 * math.log(math.pi)


def erfinv(y):
    """Inverse of erf: Giles' single-precision approximation refined by Newton's method on
    erf; its gradient, sqrt(pi)/2 exp(erfinv(y)^2), is attached without differentiating
    the iterations."""
    y64 = y.detach().to(torch.float64)
    w = -torch.log((1 - y64) * (1 + y64))
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
    ps = torch.zeros_like(y64)
    pl = torch.zeros_like(y64)
    for cs, cl in zip(p_small, p_large):
        ps = ps * ws + cs
        pl = pl * ws + cl
    x = torch.where(small, ps, pl) * y64
    finite = torch.isfinite(x)
    for _ in range(3):
        step = (torch.erf(x) - y64) / (2 / math.sqrt(math.pi) * torch.exp(-x * x))
        x = torch.where(finite, x - step, x)
    x = x.to(y.dtype)
    if y.requires_grad:
        slope = math.sqrt(math.pi) / 2 * torch.exp(x.detach() * x.detach())
        x = x + (y - y.detach()) * slope
    return x
