"""Samplers the core lacks (issue 21): Gamma(alpha, 1) with its implicit reparameterisation
gradient, Dirichlet through Gamma, and Binomial counts. They draw from the core's
generators (torch.rand, torch.randn, torch.bernoulli), so torch.manual_seed repeats them.

Note [Implicit reparameterisation of Gamma]: a draw x of Gamma(alpha, 1) is a deterministic
function of alpha for a fixed uniform u = P(alpha, x) (P the regularised lower incomplete
gamma function), so dx/dalpha = -(dP/dalpha)(alpha, x) / p(x; alpha). dP/dalpha is computed
from P's power series carried in forward mode (each term's logarithmic derivative is a running
sum of -1/(alpha + k)); above alpha = 100 the Wilson-Hilferty normal approximation, held at
the draw's standard score, gives the slope instead. The sample is returned as
x + (alpha - alpha.detach()) * dx/dalpha, which has x's value and that gradient."""

import torch
from torch.special import digamma, lgamma

_LARGE_ALPHA = 100.0
_SERIES_STEPS = 4000


def _marsaglia_tsang(alpha):
    """Gamma(alpha, 1) draws for float64 alpha > 0, by Marsaglia and Tsang's squeeze with
    rejection, redrawn where rejected; alpha < 1 is boosted to alpha + 1 and scaled by
    u^(1/alpha)."""
    boost = alpha < 1
    d = torch.where(boost, alpha + 1, alpha) - 1.0 / 3.0
    c = 1.0 / torch.sqrt(9.0 * d)
    out = torch.zeros_like(alpha)
    done = torch.zeros(alpha.shape, dtype=torch.bool, device=alpha.device)
    while not bool(done.all()):
        x = torch.randn(alpha.shape, dtype=torch.float64, device=alpha.device)
        v = (1 + c * x) ** 3
        u = torch.rand(alpha.shape, dtype=torch.float64, device=alpha.device)
        positive = v > 0
        safe_v = torch.where(positive, v, torch.ones_like(v))
        accept = positive & (torch.log(u) < 0.5 * x * x + d - d * safe_v + d * torch.log(safe_v))
        out = torch.where(accept & ~done, d * safe_v, out)
        done = done | accept
    u = torch.rand(alpha.shape, dtype=torch.float64, device=alpha.device)
    scale = torch.where(boost, u.pow(1.0 / alpha), torch.ones_like(u))
    return (out * scale).clamp(min=torch.finfo(torch.float64).tiny)


def _gamma_cdf_alpha_slope(alpha, x):
    """dP(alpha, x)/dalpha from P's series (alpha <= _LARGE_ALPHA), for 1-d alpha and x.
    Every 8 terms the elements whose series has converged leave the loop, so that a few
    draws far in the tail do not keep the whole batch iterating."""
    term = 1.0 / alpha
    dlog = -1.0 / alpha
    state = [term, term * dlog, term, dlog, alpha.clone(), x, torch.arange(alpha.shape[0], device=alpha.device)]
    total_out = torch.empty_like(alpha)
    dtotal_out = torch.empty_like(alpha)
    for step in range(_SERIES_STEPS):
        total, dtotal, term, dlog, ap, xs, index = state
        ap = ap + 1
        term = term * xs / ap
        dlog = dlog - 1.0 / ap
        total = total + term
        dtotal = dtotal + term * dlog
        state = [total, dtotal, term, dlog, ap, xs, index]
        if step % 8 == 7 or step == _SERIES_STEPS - 1:
            going = term > total * 1e-17
            done = ~going
            total_out[index[done]] = total[done]
            dtotal_out[index[done]] = dtotal[done]
            if not bool(going.any()):
                break
            state = [v[going] for v in state]
    log_prefix = -x + alpha * torch.log(x) - lgamma(alpha)
    p = total_out * torch.exp(log_prefix)
    return p * (dtotal_out / total_out + torch.log(x) - digamma(alpha))


def _gamma_sample_slope(alpha, x):
    """dx/dalpha for a Gamma(alpha, 1) draw x held at its quantile."""
    small = alpha <= _LARGE_ALPHA
    a_small = torch.where(small, alpha, torch.ones_like(alpha))
    x_small = torch.where(small, x, torch.ones_like(x))
    log_pdf = (a_small - 1) * torch.log(x_small) - x_small - lgamma(a_small)
    series = -_gamma_cdf_alpha_slope(a_small.reshape(-1), x_small.reshape(-1)).reshape(alpha.shape)
    series = series / torch.exp(log_pdf)
    # Wilson-Hilferty: x = alpha * (1 - 1/(9 alpha) + z / (3 sqrt(alpha)))^3 at a fixed z
    a_large = torch.where(small, torch.full_like(alpha, 2 * _LARGE_ALPHA), alpha)
    root = (x / a_large).pow(1.0 / 3.0)
    z = (root - 1 + 1 / (9 * a_large)) * 3 * torch.sqrt(a_large)
    inner = 1 - 1 / (9 * a_large) + z / (3 * torch.sqrt(a_large))
    wilson = inner**3 + 3 * a_large * inner**2 * (1 / (9 * a_large**2) - z / (6 * a_large**1.5))
    return torch.where(small, series, wilson)


def standard_gamma(alpha):
    """Gamma(alpha, 1) draws of alpha's shape and dtype, differentiable in alpha
    (Note [Implicit reparameterisation of Gamma])."""
    a = alpha.detach().to(torch.float64)
    x = _marsaglia_tsang(a)
    result = x.to(alpha.dtype).clamp(min=torch.finfo(alpha.dtype).tiny)
    if alpha.requires_grad and torch.is_grad_enabled():
        slope = _gamma_sample_slope(a, x).to(alpha.dtype)
        result = result + (alpha - alpha.detach()) * slope
    return result


def sample_dirichlet(concentration):
    """Dirichlet draws: independent Gamma(concentration_i, 1) draws normalised over the last
    dimension (differentiable through standard_gamma's slopes)."""
    gammas = standard_gamma(concentration)
    return gammas / gammas.sum(-1, keepdim=True)


def binomial(count, prob):
    """Binomial(count, prob) counts (count and prob of one shape), as sums of Bernoulli
    draws, 64 trials at a time."""
    count = count.detach()
    prob = prob.detach()
    total = torch.zeros_like(prob)
    most = int(count.max().item()) if count.numel() else 0
    done = 0
    while done < most:
        width = min(64, most - done)
        trials = torch.arange(done, done + width, dtype=prob.dtype, device=prob.device)
        p = prob.unsqueeze(-1).expand(tuple(prob.shape) + (width,))
        draws = torch.bernoulli(p) * (trials < count.unsqueeze(-1)).to(prob.dtype)
        total = total + draws.sum(-1)
        done += width
    return total
