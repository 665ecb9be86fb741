"""torch.distributions: every case of distributions_cases.py gives the same shapes, values,
gradients, reprs and error messages here as under real PyTorch 1.13 (Debian's python3-torch,
run by /usr/bin/python3); draws are checked statistically (their random streams differ from
PyTorch's): sample means and variances within a few standard errors of the distributions'
own, and reparameterised gradients against analytic derivatives of expectations."""

import math
import os
import subprocess

import numpy as np
import pytest

import case_runner
import distributions_cases
import torch
from real_pytorch import assert_same_case
from real_pytorch import real_results as run_real
import torch.distributions as D
from conftest import require_real_torch_env

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.fixture(scope="module")
def real_results(tmp_path_factory):
    return run_real("distributions_cases.py", tmp_path_factory.mktemp("distributions_cases"))


# PyTorch 1.13's VonMises takes log I0 and log I1 from Abramowitz and Stegun's polynomial fits
# (9.8.1-9.8.4, good to about 2e-7), ours from the exponentially scaled Bessel functions (to
# rounding): the two agree to those fits' accuracy, and test_von_mises_against_quadrature
# checks ours to float64's.
TOLERANCES = {"von_mises": (1e-4, 1e-7)}


@pytest.mark.parametrize("name", sorted(distributions_cases.CASES))
def test_same_as_pytorch_1_13(name, real_results):
    assert_same_case(
        name,
        case_runner.run_case(distributions_cases.CASES, torch, name),
        real_results,
        lambda got, want: (2e-5, 1e-6) if want.dtype == np.float32 else TOLERANCES.get(name, (1e-6, 1e-9)),
    )


def test_every_case_runs_under_real_pytorch(real_results):
    failed = {k: str(v) for k, v in real_results.items() if k.endswith("::failed")}
    assert not failed
    assert {k.split("::")[0] for k in real_results} == set(distributions_cases.CASES)


# ---- draws: moments and reparameterised gradients ----

N = 100000


def f64(*values):
    return torch.tensor(values, dtype=torch.float64)


def _check_moments(d, samples, mean=None, variance=None, k=5.0):
    """The draws' mean and variance within k standard errors (estimated from the draws
    themselves) of the distribution's mean and variance."""
    x = samples.double()
    n = x.shape[0]
    m = x.mean(0)
    centred = x - m
    s2 = (centred**2).mean(0)
    mean = d.mean.double() if mean is None else mean
    variance = d.variance.double() if variance is None else variance
    se_mean = (s2 / n).sqrt()
    assert bool(((m - mean).abs() <= k * se_mean + 1e-12).all()), (m, mean, se_mean)
    se_var = (((centred**4).mean(0) - s2**2).clamp(min=0) / n).sqrt()
    assert bool(((s2 - variance).abs() <= k * se_var + 1e-12).all()), (s2, variance, se_var)


MOMENT_CASES = {
    "Normal": lambda: D.Normal(f64(0.0, 2.0), f64(1.0, 0.5)),
    "Uniform": lambda: D.Uniform(f64(-1.0, 2.0), f64(1.0, 5.0)),
    "Exponential": lambda: D.Exponential(f64(0.5, 3.0)),
    "Laplace": lambda: D.Laplace(f64(0.0, 1.0), f64(1.0, 2.0)),
    "LogNormal": lambda: D.LogNormal(f64(0.0, 1.0), f64(0.25, 0.5)),
    "HalfNormal": lambda: D.HalfNormal(f64(1.0, 3.0)),
    "Gumbel": lambda: D.Gumbel(f64(0.0, 1.0), f64(1.0, 2.0)),
    "Gamma": lambda: D.Gamma(f64(0.3, 2.5, 40.0, 150.0), f64(1.0, 2.0, 0.5, 1.0)),
    "Chi2": lambda: D.Chi2(f64(1.0, 7.0)),
    "Beta": lambda: D.Beta(f64(0.5, 2.0), f64(0.5, 5.0)),
    "Dirichlet": lambda: D.Dirichlet(f64(0.5, 2.0, 4.0)),
    "StudentT": lambda: D.StudentT(f64(5.0, 10.0), f64(0.0, 1.0), f64(1.0, 2.0)),
    "Bernoulli": lambda: D.Bernoulli(probs=f64(0.1, 0.5, 0.9)),
    "Poisson": lambda: D.Poisson(f64(0.5, 4.0, 30.0)),
    "Binomial": lambda: D.Binomial(f64(5.0, 100.0), probs=f64(0.3, 0.8)),
    "Geometric": lambda: D.Geometric(probs=f64(0.2, 0.7)),
    "OneHotCategorical": lambda: D.OneHotCategorical(probs=f64(0.1, 0.2, 0.3, 0.4)),
    "MultivariateNormal": lambda: D.MultivariateNormal(
        f64(0.0, 1.0), covariance_matrix=torch.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=torch.float64)
    ),
    "Pareto": lambda: D.Pareto(f64(1.0, 2.0), f64(5.0, 9.0)),
    "Weibull": lambda: D.Weibull(f64(1.0, 2.0), f64(0.8, 3.0)),
    "Multinomial": lambda: D.Multinomial(10, probs=f64(0.1, 0.2, 0.3, 0.4)),
    "NegativeBinomial": lambda: D.NegativeBinomial(f64(2.0, 7.5), probs=f64(0.3, 0.6)),
    "FisherSnedecor": lambda: D.FisherSnedecor(f64(3.0, 10.0), f64(20.0, 30.0)),
    "Kumaraswamy": lambda: D.Kumaraswamy(f64(0.5, 2.0), f64(1.5, 4.0)),
    "Independent": lambda: D.Independent(D.Normal(f64(0.0, 1.0), f64(1.0, 2.0)), 1),
    "MixtureSameFamily": lambda: D.MixtureSameFamily(
        D.Categorical(probs=f64(0.3, 0.7)), D.Normal(f64(-1.0, 2.0), f64(0.5, 1.0))
    ),
    "Wishart": lambda: D.Wishart(
        f64(4.5, 9.0), covariance_matrix=torch.tensor([[2.0, 0.5, -0.3], [0.5, 1.0, 0.2], [-0.3, 0.2, 0.8]]).double()
    ),
}


@pytest.mark.parametrize("name", sorted(MOMENT_CASES))
def test_sample_moments(name):
    torch.manual_seed(1)
    d = MOMENT_CASES[name]()
    samples = d.sample((N,))
    assert tuple(samples.shape) == (N,) + tuple(d.batch_shape) + tuple(d.event_shape)
    assert not samples.requires_grad
    assert bool(d.support.check(samples).all())
    _check_moments(d, samples)


def test_categorical_frequencies():
    torch.manual_seed(2)
    probs = f64(0.1, 0.2, 0.3, 0.4)
    d = D.Categorical(probs=torch.stack([probs, probs.flip(0)]))
    samples = d.sample((N,))
    assert tuple(samples.shape) == (N, 2) and samples.dtype == torch.int64
    for row, p in enumerate([probs, probs.flip(0)]):
        freq = torch.stack([(samples[:, row] == k).double().mean() for k in range(4)])
        se = (p * (1 - p) / N).sqrt()
        assert bool(((freq - p).abs() <= 5 * se).all()), (freq, p)


def test_cauchy_and_student_t_quantiles():
    """No finite variance: the fraction of draws below quantiles instead (Cauchy's from its
    icdf; StudentT is symmetric about loc)."""
    torch.manual_seed(3)
    cauchy = D.Cauchy(f64(1.0), f64(2.0))
    x = cauchy.sample((N,)).reshape(-1)
    for q in [0.25, 0.5, 0.75]:
        below = (x <= cauchy.icdf(torch.tensor(q, dtype=torch.float64))).double().mean().item()
        assert abs(below - q) <= 5 * math.sqrt(q * (1 - q) / N)
    y = D.StudentT(f64(1.5), f64(0.5), f64(1.5)).sample((N,)).reshape(-1)
    below = (y <= 0.5).double().mean().item()
    assert abs(below - 0.5) <= 5 * math.sqrt(0.25 / N)
    # P(|t| <= 1) for df = 1.5, by the midpoint rule on the t density
    df = 1.5
    t = (np.arange(200000) + 0.5) / 100000 - 1
    density = (
        math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2)) * (1 + t * t / df) ** (-(df + 1) / 2)
    )
    inside = ((y - 0.5).abs() <= 1.5).double().mean().item()
    assert abs(inside - density.sum() / 100000) <= 5 * math.sqrt(0.25 / N)


def test_relaxed_sample_support_and_limits():
    torch.manual_seed(4)
    rb = D.RelaxedBernoulli(torch.tensor(0.05, dtype=torch.float64), probs=f64(0.3, 0.8))
    x = rb.rsample((N,))
    assert bool(((x > 0) & (x < 1)).all())
    # at a low temperature the draws are nearly Bernoulli(probs)
    assert torch.allclose((x > 0.5).double().mean(0), f64(0.3, 0.8), atol=5 * math.sqrt(0.25 / N))
    rc = D.RelaxedOneHotCategorical(torch.tensor(0.05, dtype=torch.float64), probs=f64(0.1, 0.6, 0.3))
    y = rc.rsample((N,))
    assert torch.allclose(y.sum(-1), torch.ones(N, dtype=torch.float64))
    assert torch.allclose(
        torch.nn.functional.one_hot(y.argmax(-1), 3).double().mean(0), f64(0.1, 0.6, 0.3), atol=5 * math.sqrt(0.25 / N)
    )


def _seeded(make, shape=(3,)):
    """rsample as a function of the parameters, with the same noise on every call."""

    def f(*params):
        torch.manual_seed(5)
        return make(*params).rsample(shape)

    return f


@pytest.mark.parametrize(
    "name,make,params",
    [
        ("Normal", lambda m, s: D.Normal(m, s), [f64(0.0, 1.0), f64(1.0, 2.0)]),
        ("Uniform", lambda lo, hi: D.Uniform(lo, hi), [f64(0.0, 1.0), f64(1.0, 3.0)]),
        ("Exponential", lambda r: D.Exponential(r), [f64(0.5, 2.0)]),
        ("Laplace", lambda m, s: D.Laplace(m, s), [f64(0.0, 1.0), f64(1.0, 2.0)]),
        ("Cauchy", lambda m, s: D.Cauchy(m, s), [f64(0.0, 1.0), f64(1.0, 2.0)]),
        ("LogNormal", lambda m, s: D.LogNormal(m, s), [f64(0.0, 1.0), f64(0.5, 0.3)]),
        ("HalfNormal", lambda s: D.HalfNormal(s), [f64(1.0, 2.0)]),
        ("Gumbel", lambda m, s: D.Gumbel(m, s), [f64(0.0, 1.0), f64(1.0, 2.0)]),
        ("RelaxedBernoulli", lambda lg: D.RelaxedBernoulli(f64(0.7), logits=lg), [f64(0.3, -1.0)]),
        ("RelaxedOneHotCategorical", lambda lg: D.RelaxedOneHotCategorical(f64(0.7), logits=lg), [f64(0.3, -1.0, 0.5)]),
        (
            "MultivariateNormal",
            lambda m, s: D.MultivariateNormal(m, scale_tril=s.tril()),
            [f64(0.0, 1.0), torch.tensor([[1.0, 0.0], [0.5, 2.0]], dtype=torch.float64)],
        ),
        ("Independent", lambda m, s: D.Independent(D.Normal(m, s), 1), [f64(0.0, 1.0), f64(1.0, 2.0)]),
    ],
)
def test_rsample_gradcheck(name, make, params):
    leaves = [p.clone().requires_grad_() for p in params]
    assert make(*leaves).has_rsample
    assert torch.autograd.gradcheck(_seeded(make), leaves)


N_GRAD = 20000


def _mean_grads(make, leaf_value, moments=(lambda x: x,)):
    """Mean over N_GRAD draws of d moment(x) / d parameter, and its standard error, for each
    moment: each draw gets its own copy of the parameter."""
    leaf = torch.full((N_GRAD,), leaf_value, dtype=torch.float64, requires_grad=True)
    x = make(leaf).rsample()
    result = []
    for moment in moments:
        (g,) = torch.autograd.grad(moment(x).sum(), [leaf], retain_graph=True)
        result.append((g.mean().item(), (g.var() / N_GRAD).sqrt().item()))
    return result


def _mean_grad(make, leaf_value, moment=lambda x: x):
    return _mean_grads(make, leaf_value, (moment,))[0]


@pytest.mark.parametrize("alpha", [0.3, 1.0, 2.5, 40.0, 150.0])
def test_gamma_rsample_gradient_is_unbiased(alpha):
    """Implicit reparameterisation: for Gamma(alpha, 2), dE[x]/dalpha = 1/2 and
    dE[x^2]/dalpha = (2 alpha + 1) / 4."""
    torch.manual_seed(6)
    (g1, se1), (g2, se2) = _mean_grads(lambda a: D.Gamma(a, 2.0), alpha, (lambda x: x, lambda x: x * x))
    assert abs(g1 - 0.5) <= 5 * se1 + 1e-9, (g1, se1)
    assert abs(g2 - (2 * alpha + 1) / 4) <= 5 * se2 + 1e-9, (g2, se2)


def test_beta_dirichlet_chi2_student_rsample_gradients():
    torch.manual_seed(7)
    a, b = 2.0, 3.0
    g, se = _mean_grad(lambda c: D.Beta(c, b), a)  # dE/da = b / (a + b)^2
    assert abs(g - b / (a + b) ** 2) <= 5 * se, (g, se)
    g, se = _mean_grad(lambda c: D.Beta(a, c), b)  # dE/db = -a / (a + b)^2
    assert abs(g + a / (a + b) ** 2) <= 5 * se, (g, se)
    g, se = _mean_grad(lambda k: D.Chi2(k), 3.0)  # E = k
    assert abs(g - 1.0) <= 5 * se, (g, se)
    g, se = _mean_grad(lambda df: D.StudentT(df, 0.0, 1.0), 5.0, lambda x: x * x)  # E[x^2] = df/(df-2)
    assert abs(g + 2 / 9) <= 5 * se, (g, se)
    leaf = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64, requires_grad=True)
    x = D.Dirichlet(leaf).rsample((N_GRAD,))
    x[:, 0].mean().backward()  # E[x_0] = c_0 / sum(c): gradient (5, -1, -1) / 36
    np.testing.assert_allclose(leaf.grad.numpy(), [5 / 36, -1 / 36, -1 / 36], atol=1e-2)


def test_gamma_slope_matches_pytorch():
    """dx/dalpha of a Gamma(alpha, 1) draw x held at its quantile (the implicit
    reparameterisation), against real PyTorch 1.13's torch._standard_gamma_grad on a grid
    reaching both tails and both sides of the large-alpha switch. PyTorch's is a fitted
    approximation (good to a few parts in 10^4); ours sums the incomplete gamma series."""
    from torch.distributions._sampling import _gamma_sample_slope

    env = require_real_torch_env()
    alphas = [0.05, 0.3, 1.0, 2.5, 7.9, 8.1, 20.0, 99.0, 101.0, 400.0]
    # draws at standard scores -3..3 (by Wilson-Hilferty), and far into the left tail where
    # that is reachable
    scores = [(a, 1 - 1 / (9 * a) + z / (3 * math.sqrt(a))) for a in alphas for z in [-3, -1, 0, 1, 3]]
    grid = [(a, a * root**3) for a, root in scores if root > 0]
    grid += [(a, a * 1e-3) for a in alphas if a < 8]
    a = torch.tensor([g[0] for g in grid], dtype=torch.float64)
    x = torch.tensor([g[1] for g in grid], dtype=torch.float64)
    script = (
        "import sys, torch; a, x = [torch.tensor(eval(v), dtype=torch.float64) for v in sys.argv[1:]]; "
        "print(repr(torch._standard_gamma_grad(a, x).tolist()))"
    )
    run = subprocess.run(
        ["/usr/bin/python3", "-c", script, repr(a.tolist()), repr(x.tolist())],
        capture_output=True,
        text=True,
        env=env,
        cwd="/",
    )
    assert run.returncode == 0, run.stderr
    want = np.array(eval(run.stdout))
    got = _gamma_sample_slope(a, x).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-3)


def test_has_rsample_matches_pytorch():
    for cls in [D.Bernoulli, D.Categorical, D.Poisson, D.Binomial, D.Geometric, D.OneHotCategorical]:
        assert cls.has_rsample is False
    with pytest.raises(NotImplementedError):
        D.Categorical(probs=f64(0.5, 0.5)).rsample()


def test_reinforce_program_runs_unchanged():
    """The REINFORCE loop of PyTorch's examples/reinforcement_learning, on a toy bandit."""
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.distributions import Categorical

    torch.manual_seed(8)
    policy = nn.Linear(4, 3)
    optimizer = torch.optim.Adam(policy.parameters(), lr=0.05)
    state = torch.ones(1, 4)
    for _ in range(60):
        probs = F.softmax(policy(state), dim=1)
        m = Categorical(probs)
        action = m.sample((16,))
        reward = (action == 2).float()
        loss = (-m.log_prob(action) * (reward - reward.mean())).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert F.softmax(policy(state), dim=1)[0, 2].item() > 0.8


def test_distributions_is_a_torch_attribute():
    assert torch.distributions is D
    assert D.Normal(0.0, 1.0).sample().dtype == torch.float32


# ---- VonMises, Wishart, LKJCholesky, ContinuousBernoulli's KL divergences: against quadrature,
# closed-form moments and numerical integrals ----

# the midpoint rule on a periodic integrand converges geometrically: 2^16 points are exact to
# rounding for these concentrations
ANGLES = -np.pi + (np.arange(2**16) + 0.5) * (2 * np.pi / 2**16)


@pytest.mark.parametrize("kappa", [0.01, 0.7, 2.5, 30.0, 200.0])
def test_von_mises_against_quadrature(kappa):
    """log_prob against numpy's I0; the density integrates to 1; the circular variance is
    1 - E cos(x - loc) by quadrature."""
    loc = 0.8
    d = D.VonMises(f64(loc), f64(kappa))
    x = torch.from_numpy(ANGLES)
    got = d.log_prob(x).numpy()
    # log of exp(k cos(x - loc)) / (2 pi I0(k)), with I0 scaled by exp(-k) to keep it finite
    want = kappa * (np.cos(ANGLES - loc) - 1) - np.log(2 * np.pi * np.i0(kappa) * np.exp(-kappa))
    if kappa > 100:  # np.i0 overflows no sooner, but its scaled value loses digits: sum the series
        k = np.arange(400)
        terms = np.exp(2 * k * np.log(kappa / 2) - 2 * np.array([math.lgamma(j + 1) for j in k]) - kappa)
        want = kappa * (np.cos(ANGLES - loc) - 1) - np.log(2 * np.pi * terms.sum())
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    density = np.exp(got)
    step = 2 * np.pi / len(ANGLES)
    assert abs(density.sum() * step - 1) < 1e-12
    variance = 1 - (np.cos(ANGLES - loc) * density).sum() * step
    np.testing.assert_allclose(d.variance.item(), variance, rtol=1e-10, atol=1e-14)


def test_von_mises_draws():
    """Trigonometric moments of the draws: E cos(x - loc) = I1/I0 = 1 - variance, E sin(x -
    loc) = 0, E cos 2(x - loc) = I2/I0 = 1 - 2 (I1/I0) / k; every draw in [-pi, pi)."""
    torch.manual_seed(9)
    loc, kappa = f64(0.5, -3.0, 2.0, 3.1), f64(0.01, 1.5, 8.0, 50.0)
    d = D.VonMises(loc, kappa)
    x = d.sample((N,))
    assert x.dtype == torch.float64 and tuple(x.shape) == (N, 4) and not x.requires_grad
    assert bool(((x >= -math.pi) & (x < math.pi)).all())
    r1 = 1 - d.variance
    for feature, want in [
        (torch.cos(x - loc), r1),
        (torch.sin(x - loc), torch.zeros(4, dtype=torch.float64)),
        (torch.cos(2 * (x - loc)), 1 - 2 * r1 / kappa),
    ]:
        m = feature.mean(0)
        se = (feature.var(0) / N).sqrt()
        assert bool(((m - want).abs() <= 5 * se + 1e-12).all()), (m, want, se)
    assert D.VonMises(torch.tensor(0.0), torch.tensor(1.0)).sample((3,)).dtype == torch.float32


def test_wishart_rsample_gradients():
    """E X = df V: d E[X_00] / d df = V_00 through the chi-squared draws' implicit
    reparameterisation; the draws' gradients with respect to the scale, by gradcheck."""
    torch.manual_seed(10)
    V = torch.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=torch.float64)
    g, se = _mean_grad(lambda df: D.Wishart(df, covariance_matrix=V), 3.5, lambda x: x[..., 0, 0])
    assert abs(g - 2.0) <= 5 * se, (g, se)
    g, se = _mean_grad(lambda df: D.Wishart(df, covariance_matrix=V), 3.5, lambda x: x[..., 0, 1])
    assert abs(g - 0.5) <= 5 * se, (g, se)
    L = torch.tensor([[1.0, 0.0], [0.5, 2.0]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(_seeded(lambda s: D.Wishart(f64(4.0), scale_tril=s.tril())), [L])


@pytest.mark.parametrize("dim,eta", [(2, 1.0), (3, 0.5), (4, 2.0), (5, 1.0)])
def test_lkj_cholesky_draws(dim, eta):
    """Each off-diagonal correlation of L L^T is 2 Beta(b, b) - 1 with b = eta - 1 + dim / 2:
    mean 0, variance 1 / (2 eta + dim - 1); every draw a correlation Cholesky factor."""
    torch.manual_seed(11)
    d = D.LKJCholesky(dim, torch.tensor(eta, dtype=torch.float64))
    L = d.sample((N // 4,))
    assert tuple(L.shape) == (N // 4, dim, dim) and L.dtype == torch.float64
    assert bool(D.constraints.corr_cholesky.check(L).all())
    C = L @ L.transpose(-1, -2)
    i, j = torch.tril_indices(dim, dim, offset=-1)
    r = C[:, i, j]
    n = r.shape[-1]
    _check_moments(d, r, mean=torch.zeros(n, dtype=torch.float64), variance=torch.full((n,), 1 / (2 * eta + dim - 1)))


@pytest.mark.parametrize("eta", [0.5, 1.0, 4.0])
def test_lkj_cholesky_density_integrates_to_one(eta):
    """For dim 2 the factor is [[1, 0], [r, sqrt(1 - r^2)]]: its density in r integrates to 1
    (the midpoint rule, with the substitution r = sin t taming the endpoints)."""
    n = 200000
    t = -np.pi / 2 + (np.arange(n) + 0.5) * (np.pi / n)
    r = np.sin(t)
    value = torch.zeros(n, 2, 2, dtype=torch.float64)
    value[:, 0, 0] = 1.0
    value[:, 1, 0] = torch.from_numpy(r)
    value[:, 1, 1] = torch.from_numpy(np.cos(t))
    density = D.LKJCholesky(2, f64(eta)).log_prob(value).exp().numpy()
    assert abs((density * np.cos(t)).sum() * (np.pi / n) - 1) < 1e-6


def _continuous_bernoulli_density(lam, x):
    """lam^x (1 - lam)^(1 - x) C(lam), C(lam) = 2 atanh(1 - 2 lam) / (1 - 2 lam)."""
    c = 2 * np.arctanh(1 - 2 * lam) / (1 - 2 * lam)
    return c * lam**x * (1 - lam) ** (1 - x)


def test_continuous_bernoulli_kl_against_quadrature():
    """KL divergences with a ContinuousBernoulli side, as integrals over [0, 1] by the
    midpoint rule; against uniforms that cover [0, 1] exactly or lie on its boundary the
    divergence is finite (PyTorch 1.13 gives inf at the boundaries)."""
    n = 200000
    x = (np.arange(n) + 0.5) / n
    for lp, lq in [(0.2, 0.7), (0.9, 0.45), (0.5005, 0.3)]:
        p, q = _continuous_bernoulli_density(lp, x), _continuous_bernoulli_density(lq, x)
        want = (p * np.log(p / q)).mean()
        got = D.kl_divergence(D.ContinuousBernoulli(probs=f64(lp)), D.ContinuousBernoulli(probs=f64(lq)))
        np.testing.assert_allclose(got.item(), want, rtol=1e-7, atol=1e-10)
        # against Uniform(0, 1): -H(p)
        got = D.kl_divergence(D.ContinuousBernoulli(probs=f64(lp)), D.Uniform(f64(0.0), f64(1.0)))
        np.testing.assert_allclose(got.item(), (p * np.log(p)).mean(), rtol=1e-7, atol=1e-10)
        # Uniform(0, 0.5) against it: E log(2 / q(x)) over the uniform
        half = q[: n // 2]
        got = D.kl_divergence(D.Uniform(f64(0.0), f64(0.5)), D.ContinuousBernoulli(probs=f64(lq)))
        np.testing.assert_allclose(got.item(), np.log(2 / half).mean(), rtol=1e-7, atol=1e-10)
    kl = D.kl_divergence(D.ContinuousBernoulli(probs=f64(0.3, 0.3)), D.Uniform(f64(0.1, -1.0), f64(2.0, 0.9)))
    assert kl.tolist() == [math.inf, math.inf]
    kl = D.kl_divergence(D.Uniform(f64(-0.1, 0.5), f64(0.5, 1.2)), D.ContinuousBernoulli(probs=f64(0.3, 0.3)))
    assert kl.tolist() == [math.inf, math.inf]
