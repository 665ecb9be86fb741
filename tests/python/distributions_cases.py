"""Cases of torch.distributions, run the same way by this package and by real PyTorch 1.13
(Debian's python3-torch): each case builds distributions from fixed float64 parameters and
returns their shapes, log_prob/cdf/icdf at fixed values, moments, entropies, KL divergences,
the gradients of these with respect to the parameters, transforms' values and the messages
of the errors that invalid arguments raise. test_distributions.py compares the two runs case
by case; draws are never compared (the random streams differ).

Run directly (`python3 distributions_cases.py OUT.npz`) it writes every case's results to
OUT.npz with the `torch` that interpreter imports; a case that raises is written as the
string 'CASE FAILED: ...' so that the other cases still compare."""

import numpy as np

import case_runner

CASES, case = case_runner.registry()


def t(torch, a, grad=False):
    x = torch.from_numpy(np.array(a, dtype=np.float64))
    return x.requires_grad_() if grad else x


def error(fn):
    """'Type: message' of what fn() raises, or 'ok'."""
    try:
        fn()
    except Exception as exc:  # noqa: BLE001  (type and message are what is compared)
        return "%s: %s" % (type(exc).__name__, exc)
    return "ok"


def grads(torch, out, leaves):
    """The leaves' gradients of a fixed weighting of out ('none' where none arrived)."""
    w = torch.from_numpy(np.linspace(0.5, 1.5, max(out.numel(), 1)).reshape(tuple(out.shape)))
    for leaf in leaves:
        leaf.grad = None
    if out.requires_grad:
        (out * w).sum().backward(retain_graph=True)
    return ["none" if leaf.grad is None else leaf.grad.numpy().copy() for leaf in leaves]


def probe(torch, d, leaves, value, methods=("log_prob", "entropy", "mean", "variance")):
    """Shapes, then each method's value and its gradients; a method that raises gives its
    error."""
    out = [str(d.batch_shape), str(d.event_shape), str(d.has_rsample), repr(d.support)]
    for name in methods:
        try:
            if name in ("log_prob", "cdf", "icdf"):
                # cdf and icdf are probed with (values, probabilities)
                arg = value if not isinstance(value, tuple) else value[1] if name == "icdf" else value[0]
                r = getattr(d, name)(arg)
            elif name in ("entropy",):
                r = d.entropy()
            else:
                r = getattr(d, name)
        except Exception as exc:  # noqa: BLE001
            out.append("%s raised %s" % (name, type(exc).__name__))
            continue
        out.append(r.detach().numpy().copy())
        out.extend(grads(torch, r, leaves))
    e = d.expand((2,) + tuple(d.batch_shape))
    out.append(str(e.batch_shape))
    out.append(e.log_prob(value if not isinstance(value, tuple) else value[0]).detach().numpy())
    return out


def univariate(torch, cls, params, value, prob=None, methods=("log_prob", "entropy", "mean", "variance", "stddev")):
    leaves = [t(torch, p, grad=True) for p in params]
    d = cls(*leaves)
    result = probe(torch, d, leaves, t(torch, value), methods)
    if prob is not None:
        result += probe(torch, d, leaves, (t(torch, value), t(torch, prob)), ("cdf", "icdf"))[4:-2]
    return result


X = [-1.5, 0.2, 0.7, 2.5]
POS = [0.3, 1.0, 2.2, 4.5]
UNIT = [0.05, 0.3, 0.6, 0.95]


@case
def normal(torch):
    D = torch.distributions
    out = univariate(torch, D.Normal, [[0.0, 1.0, -2.0, 0.5], [1.0, 0.5, 2.0, 3.0]], X, prob=UNIT)
    out.append(repr(D.Normal(0.0, 1.0)))
    out.append(D.Normal(0.0, 2.0).log_prob(torch.tensor(1.0)).numpy())
    out.append(str(D.Normal(0.0, 1.0).batch_shape))
    return out


@case
def continuous_bernoulli(torch):
    """Both sides of 1/2 and inside the Taylor region around it; by probs and by logits;
    reparameterised samples from the same draws."""
    D = torch.distributions
    probs = [0.01, 0.2, 0.4995, 0.5, 0.5005, 0.7, 0.99, 0.35]
    value = [0.0, 0.3, 0.5, 0.9, 1.0, 0.1, 0.65, 0.45]
    out = univariate(
        torch,
        lambda p: D.ContinuousBernoulli(probs=p),
        [probs],
        value,
        prob=value,
        methods=("log_prob", "entropy", "mean", "variance", "stddev"),
    )
    logits = t(torch, [-3.0, -0.001, 0.0, 0.002, 1.5, 4.0], grad=True)
    d = D.ContinuousBernoulli(logits=logits)
    out += probe(torch, d, [logits], t(torch, [0.2, 0.5, 0.5, 0.8, 0.99, 0.01]))
    out.append(d._log_normalizer(logits).detach().numpy())
    torch.manual_seed(4)
    sample = d.rsample((3,))
    out.append(sample.detach().numpy())
    out.extend(grads(torch, sample, [logits]))
    out.append(error(lambda: D.ContinuousBernoulli(probs=t(torch, [1.5]), validate_args=True)))
    return out


@case
def lowrank_multivariate_normal(torch):
    """Batches broadcast between loc, the factor and the diagonal; every derived matrix; the
    gradients; samples from the same draws; bad shapes."""
    D = torch.distributions
    rng = np.random.default_rng(9)
    loc = t(torch, rng.standard_normal((2, 4)), grad=True)
    factor = t(torch, rng.standard_normal((4, 2)), grad=True)
    diag = t(torch, rng.random((2, 4)) + 0.5, grad=True)
    d = D.LowRankMultivariateNormal(loc, factor, diag)
    out = probe(torch, d, [loc, factor, diag], t(torch, rng.standard_normal((2, 4))))
    for name in ("scale_tril", "covariance_matrix", "precision_matrix"):
        r = getattr(d, name)
        out.append(r.detach().numpy())
        out.extend(grads(torch, r, [loc, factor, diag]))
    torch.manual_seed(6)
    sample = d.rsample((3,))
    out.append(sample.detach().numpy())
    out.extend(grads(torch, sample, [loc, factor, diag]))
    out.append(error(lambda: D.LowRankMultivariateNormal(loc, t(torch, np.ones((3, 2))), diag)))
    out.append(error(lambda: D.LowRankMultivariateNormal(loc, factor, t(torch, np.ones(3)))))
    return out


@case
def von_mises(torch):
    """Angles beyond [-pi, pi) (taken modulo 2 pi); concentrations from nearly uniform to
    sharply peaked; no entropy (as in PyTorch)."""
    D = torch.distributions
    out = univariate(
        torch,
        D.VonMises,
        [[0.0, 1.0, -2.0, 3.0, 0.5], [0.05, 0.7, 2.5, 9.0, 30.0]],
        [-1.5, 7.5, -2.2, -3.0, 0.45],
        methods=("log_prob", "entropy", "mean", "variance", "mode"),
    )
    d = D.VonMises(t(torch, [0.0, 2.5]), t(torch, [1.0, 5.0]))
    x = d.sample((50,))
    out += [str(x.shape), str(x.dtype), str(D.VonMises(0.0, 1.0).sample().dtype), str(d.has_rsample)]
    out.append(bool(((x >= -np.pi) & (x < np.pi)).all()))
    out.append(repr(d))
    out.append(error(lambda: D.VonMises(t(torch, [0.0]), t(torch, [-1.0]))))
    out.append(error(lambda: D.VonMises(t(torch, [0.0]), t(torch, [0.0]))))
    return out


L3 = [[1.5, 0.0, 0.0], [0.4, 0.8, 0.0], [-0.3, 0.6, 1.1]]


@case
def wishart(torch):
    """By scale_tril, covariance_matrix and precision_matrix; df a number or a batch;
    moments, entropy, the derived matrices and their gradients; bad arguments."""
    D = torch.distributions
    tril = np.array(L3)
    cov = tril @ tril.T
    X = [cov + np.eye(3), np.diag([0.5, 2.0, 1.0]) + 0.1]
    out = []
    for name, param in [("scale_tril", tril), ("covariance_matrix", cov), ("precision_matrix", np.linalg.inv(cov))]:
        df = t(torch, [3.5, 7.0], grad=True)
        leaf = t(torch, param, grad=True)
        d = D.Wishart(df, **{name: leaf})
        out += probe(torch, d, [df, leaf], t(torch, X))
        for m in ("scale_tril", "covariance_matrix", "precision_matrix"):
            r = getattr(d, m)
            out.append(r.detach().numpy())
            out.extend(grads(torch, r, [df, leaf]))
        out.append(d.mode.detach().numpy())
        out.append(repr(d))
    # df a number with a batch of scales (PyTorch 1.13's mean and variance fail on this one)
    d = D.Wishart(5.0, scale_tril=t(torch, [L3, np.eye(3)]))
    out += probe(torch, d, [], t(torch, X[0]), ("log_prob", "entropy"))
    torch.manual_seed(0)
    s = d.rsample((4,))
    out += [str(s.shape), str(s.dtype), D.constraints.positive_definite.check(s).numpy()]
    out.append(str(D.Wishart(t(torch, [4.0, 6.0, 8.0]), covariance_matrix=t(torch, cov)).batch_shape))
    out.append(error(lambda: D.Wishart(t(torch, [2.0]), scale_tril=t(torch, L3))))
    out.append(error(lambda: D.Wishart(t(torch, [3.0]), scale_tril=t(torch, L3), covariance_matrix=t(torch, cov))))
    out.append(error(lambda: D.Wishart(t(torch, [3.0]))))
    out.append(error(lambda: D.Wishart(t(torch, [3.0]), scale_tril=t(torch, [1.0, 2.0]))))
    out.append(error(lambda: D.Wishart(t(torch, [3.0]), covariance_matrix=t(torch, [[1.0, 2.0], [2.0, 1.0]]))))
    out.append(error(lambda: D.Wishart(t(torch, [4.0]), scale_tril=t(torch, L3)).log_prob(t(torch, -np.eye(3)))))
    out.append(error(lambda: D.Wishart(t(torch, [4.0]), scale_tril=t(torch, L3), validate_args=True).rsample()))
    return out


@case
def lkj_cholesky(torch):
    """log_prob at Cholesky factors built by CorrCholeskyTransform from fixed vectors, for
    dimensions 2 to 4 and a batch of concentrations; gradients; bad arguments."""
    D = torch.distributions
    T = D.transforms
    rng = np.random.default_rng(5)
    out = []
    for dim in (2, 3, 4):
        conc = t(torch, [0.3, 1.0, 2.5], grad=True)
        d = D.LKJCholesky(dim, conc)
        value = T.CorrCholeskyTransform()(t(torch, rng.standard_normal((3, dim * (dim - 1) // 2))))
        out += probe(torch, d, [conc], value, ("log_prob", "entropy", "mean"))
        out.append(value.numpy())
    d = D.LKJCholesky(3, 0.5)
    x = d.sample((5, 2))
    out += [str(x.shape), str(x.dtype), str(d.batch_shape), str(d.event_shape), repr(d)]
    out.append(D.constraints.corr_cholesky.check(x).numpy())
    out.append(str(D.LKJCholesky(3, t(torch, [1.0, 2.0])).expand((4, 2)).sample().shape))
    out.append(error(lambda: D.LKJCholesky(1, 1.0)))
    # a ValueError in both; PyTorch 1.13's comes from the Beta it builds, ours names the argument
    out.append(error(lambda: D.LKJCholesky(3, t(torch, [-1.0]))).split(":")[0])
    out.append(error(lambda: D.LKJCholesky(3, 1.0).log_prob(t(torch, np.eye(3) * 2))))
    return out


@case
def uniform(torch):
    D = torch.distributions
    return univariate(torch, D.Uniform, [[0.0, -1.0, 0.5, 2.0], [1.0, 3.0, 0.8, 2.6]], [0.5, 0.2, 0.7, 2.5], prob=UNIT)


@case
def exponential(torch):
    return univariate(torch, torch.distributions.Exponential, [[0.5, 1.0, 2.0, 3.0]], POS, prob=UNIT)


@case
def laplace(torch):
    return univariate(torch, torch.distributions.Laplace, [[0.0, 1.0, -2.0, 0.5], [1.0, 0.5, 2.0, 3.0]], X, prob=UNIT)


@case
def cauchy(torch):
    return univariate(torch, torch.distributions.Cauchy, [[0.0, 1.0, -2.0, 0.5], [1.0, 0.5, 2.0, 3.0]], X, prob=UNIT)


@case
def gumbel(torch):
    return univariate(torch, torch.distributions.Gumbel, [[0.0, 1.0, -2.0, 0.5], [1.0, 0.5, 2.0, 3.0]], X, prob=UNIT)


@case
def log_normal(torch):
    return univariate(
        torch, torch.distributions.LogNormal, [[0.0, 1.0, -2.0, 0.5], [1.0, 0.5, 2.0, 0.3]], POS, prob=UNIT
    )


@case
def half_normal(torch):
    return univariate(torch, torch.distributions.HalfNormal, [[1.0, 0.5, 2.0, 3.0]], POS, prob=UNIT)


@case
def pareto(torch):
    return univariate(
        torch, torch.distributions.Pareto, [[0.5, 1.0, 2.0, 0.1], [0.8, 1.5, 2.5, 9.0]], [1.0, 1.2, 2.2, 4.5]
    )


@case
def half_cauchy(torch):
    return univariate(torch, torch.distributions.HalfCauchy, [[1.0, 0.5, 2.0, 3.0]], POS, prob=UNIT)


@case
def weibull(torch):
    return univariate(torch, torch.distributions.Weibull, [[1.0, 0.5, 2.0, 3.0], [0.8, 1.5, 2.5, 9.0]], POS)


@case
def fisher_snedecor(torch):
    return univariate(torch, torch.distributions.FisherSnedecor, [[0.5, 3.0, 2.5, 9.0], [1.0, 5.0, 4.5, 3.0]], POS)


@case
def kumaraswamy(torch):
    return univariate(
        torch, torch.distributions.Kumaraswamy, [[0.5, 1.0, 2.5, 9.0], [1.0, 0.5, 2.0, 3.0]], UNIT, prob=UNIT
    )


@case
def gamma(torch):
    return univariate(torch, torch.distributions.Gamma, [[0.5, 1.0, 2.5, 9.0], [1.0, 0.5, 2.0, 3.0]], POS)


@case
def chi2(torch):
    return univariate(torch, torch.distributions.Chi2, [[0.5, 1.0, 2.5, 9.0]], POS)


@case
def beta(torch):
    return univariate(torch, torch.distributions.Beta, [[0.5, 1.0, 2.5, 9.0], [1.0, 0.5, 2.0, 3.0]], UNIT)


@case
def student_t(torch):
    return univariate(
        torch, torch.distributions.StudentT, [[0.8, 1.5, 2.5, 9.0], [0.0, 1.0, -2.0, 0.5], [1.0, 0.5, 2.0, 3.0]], X
    )


@case
def poisson(torch):
    return univariate(torch, torch.distributions.Poisson, [[0.5, 1.0, 2.5, 9.0]], [0.0, 1.0, 3.0, 7.0])


@case
def bernoulli(torch):
    D = torch.distributions
    out = univariate(torch, lambda p: D.Bernoulli(probs=p), [UNIT], [0.0, 1.0, 1.0, 0.0])
    out += univariate(torch, lambda lg: D.Bernoulli(logits=lg), [X], [0.0, 1.0, 1.0, 0.0])
    out.append(D.Bernoulli(probs=t(torch, [0.2, 0.7])).enumerate_support().numpy())
    return out


@case
def geometric(torch):
    D = torch.distributions
    out = univariate(torch, lambda p: D.Geometric(probs=p), [UNIT], [0.0, 1.0, 3.0, 7.0])
    out += univariate(torch, lambda lg: D.Geometric(logits=lg), [X], [0.0, 1.0, 3.0, 7.0])
    return out


@case
def binomial(torch):
    D = torch.distributions
    out = univariate(torch, lambda p: D.Binomial(10, probs=p), [UNIT], [0.0, 1.0, 3.0, 10.0])
    out += univariate(
        torch, lambda lg: D.Binomial(t(torch, [3.0, 5.0, 8.0, 20.0]), logits=lg), [X], [0.0, 1.0, 3.0, 7.0]
    )
    out.append(D.Binomial(3, probs=t(torch, [0.2, 0.7])).enumerate_support().numpy())
    return out


PROBS = [[0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.4, 0.1], [0.7, 0.1, 0.1, 0.1]]


@case
def categorical(torch):
    D = torch.distributions
    out = univariate(torch, lambda p: D.Categorical(probs=p), [PROBS], [3.0, 0.0, 2.0])
    logits = [[0.5, -1.0, 2.0, 0.0], [1.0, 1.0, -3.0, 0.3], [0.0, 0.0, 0.0, 0.0]]
    out += univariate(torch, lambda lg: D.Categorical(logits=lg), [logits], [1.0, 2.0, 3.0])
    c = D.Categorical(logits=t(torch, logits))
    out.append(c.probs.detach().numpy())
    out.append(c.logits.detach().numpy())
    out.append(c.enumerate_support().numpy())
    out.append(c.log_prob(t(torch, [[0.0], [1.0]])).detach().numpy())  # broadcast against the batch
    out.append(c.mode.numpy())
    out.append(repr(c))
    return out


@case
def one_hot_categorical(torch):
    D = torch.distributions
    eye = np.eye(4)
    out = univariate(torch, lambda p: D.OneHotCategorical(probs=p), [PROBS], eye[[3, 0, 2]])
    c = D.OneHotCategorical(probs=t(torch, PROBS))
    out.append(c.enumerate_support().numpy())
    out.append(c.mode.numpy())
    return out


@case
def multinomial(torch):
    D = torch.distributions
    value = [[1.0, 0.0, 2.0, 2.0], [0.0, 5.0, 0.0, 0.0], [1.0, 1.0, 1.0, 2.0]]
    out = univariate(torch, lambda p: D.Multinomial(5, probs=p), [PROBS], value)
    logits = [[0.5, -1.0, 2.0, 0.0], [1.0, 1.0, -3.0, 0.3], [0.0, 0.0, 0.0, 0.0]]
    out += univariate(torch, lambda lg: D.Multinomial(5, logits=lg), [logits], value)
    out.append(error(lambda: D.Multinomial(5, probs=t(torch, PROBS)).log_prob(t(torch, [[1.0, 0.0, 2.0, 3.0]]))))
    out.append(error(lambda: D.Multinomial(t(torch, 5.0), probs=t(torch, PROBS))))
    return out


@case
def negative_binomial(torch):
    D = torch.distributions
    out = univariate(
        torch, lambda n, p: D.NegativeBinomial(n, probs=p), [[1.0, 2.5, 4.0, 10.0], UNIT], [0.0, 1.0, 3.0, 7.0]
    )
    out += univariate(
        torch, lambda n, lg: D.NegativeBinomial(n, logits=lg), [[1.0, 2.5, 4.0, 10.0], X], [0.0, 1.0, 3.0, 7.0]
    )
    out.append(error(lambda: D.NegativeBinomial(t(torch, [1.0]), probs=t(torch, [1.0]))))
    return out


@case
def float32(torch):
    """The same computations in float32: results keep the parameters' dtype."""
    D = torch.distributions
    f = torch.float32
    loc = torch.tensor([0.0, 1.0], dtype=f, requires_grad=True)
    scale = torch.tensor([1.0, 2.0], dtype=f, requires_grad=True)
    value = torch.tensor([0.5, -1.0], dtype=f)
    out = []
    for d in [
        D.Normal(loc, scale),
        D.Gamma(scale, scale),
        D.Beta(scale, scale + 1),
        D.StudentT(scale + 1, loc, scale),
        D.Categorical(logits=torch.stack([loc, scale])),
    ]:
        v = value if not isinstance(d, (D.Gamma, D.Beta)) else value.abs() / 2
        if isinstance(d, D.Categorical):
            v = torch.tensor([0.0, 1.0])
        lp = d.log_prob(v)
        out += [lp.detach().numpy(), str(lp.dtype), d.entropy().detach().numpy()]
        out.extend(grads(torch, lp, [loc, scale]))
    out.append(str(D.Normal(0.0, 1.0).sample().dtype))
    out.append(str(D.Normal(torch.tensor(0.0, dtype=torch.float64), 1.0).rsample((2,)).dtype))
    out.append(str(D.Categorical(probs=torch.tensor([0.5, 0.5])).sample((3,)).dtype))
    out.append(str(D.Bernoulli(probs=torch.tensor([0.5, 0.5])).sample().dtype))
    out.append(str(D.Gamma(torch.tensor([2.0]), 1.0).rsample().dtype))
    return out


@case
def dirichlet(torch):
    conc = [[0.5, 1.0, 2.0], [3.0, 0.7, 1.5]]
    value = [[0.2, 0.3, 0.5], [0.6, 0.1, 0.3]]
    return univariate(torch, torch.distributions.Dirichlet, [conc], value)


@case
def multivariate_normal(torch):
    D = torch.distributions
    loc = [[0.0, 1.0, -1.0], [0.5, 0.0, 2.0]]
    a = np.array([[2.0, 0.3, 0.1], [0.3, 1.5, -0.4], [0.1, -0.4, 1.0]])
    value = [[0.3, 0.2, -0.5], [1.0, -1.0, 0.0]]
    out = univariate(torch, lambda m, c: D.MultivariateNormal(m, covariance_matrix=c), [loc, a], value)
    out += univariate(torch, lambda m, p: D.MultivariateNormal(m, precision_matrix=p), [loc, a], value)
    tril = np.linalg.cholesky(a)
    out += univariate(torch, lambda m, s: D.MultivariateNormal(m, scale_tril=s), [loc, tril], value)
    m = D.MultivariateNormal(t(torch, loc), covariance_matrix=t(torch, a))
    out += [m.scale_tril.detach().numpy(), m.precision_matrix.detach().numpy()]
    m = D.MultivariateNormal(t(torch, loc), precision_matrix=t(torch, a))
    out += [m.covariance_matrix.detach().numpy(), m.scale_tril.detach().numpy()]
    return out


@case
def independent(torch):
    D = torch.distributions
    leaves = [t(torch, [[0.0, 1.0], [2.0, -1.0]], grad=True), t(torch, [[1.0, 0.5], [2.0, 3.0]], grad=True)]
    d = D.Independent(D.Normal(*leaves), 1)
    out = probe(torch, d, leaves, t(torch, [[0.5, 0.2], [1.0, 1.0]]))
    d2 = D.Independent(D.Normal(*leaves), 2)
    out += probe(torch, d2, leaves, t(torch, [[0.5, 0.2], [1.0, 1.0]]))
    out.append(repr(d))
    return out


@case
def transformed(torch):
    D = torch.distributions
    T = D.transforms
    loc = t(torch, [0.0, 0.5, -1.0], grad=True)
    scale = t(torch, [1.0, 2.0, 0.5], grad=True)
    out = []
    for transforms, value in [
        ([T.ExpTransform()], [0.5, 1.0, 2.0]),
        ([T.AffineTransform(loc=1.0, scale=-2.0)], [0.5, 1.0, 2.0]),
        ([T.SigmoidTransform()], [0.2, 0.5, 0.9]),
        ([T.TanhTransform()], [-0.5, 0.1, 0.9]),
        ([T.ExpTransform(), T.PowerTransform(t(torch, 0.5))], [0.5, 1.0, 2.0]),
        ([T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.ExpTransform()])], [0.5, 1.0, 2.0]),
        ([T.SigmoidTransform(), T.AffineTransform(1.0, 3.0)], [1.5, 2.0, 3.5]),
    ]:
        d = D.TransformedDistribution(D.Normal(loc, scale), transforms)
        out += probe(torch, d, [loc, scale], t(torch, value), ("log_prob",))
        out.append(d.cdf(t(torch, value)).detach().numpy())
        out.append(d.icdf(t(torch, [0.1, 0.5, 0.8])).detach().numpy())
    base = D.Normal(t(torch, [[0.0, 0.5, -1.0]]), t(torch, [[1.0, 2.0, 0.5]]))
    d = D.TransformedDistribution(base, [T.StickBreakingTransform()])
    out += probe(torch, d, [], t(torch, [[0.1, 0.2, 0.3, 0.4]]), ("log_prob",))
    d = D.TransformedDistribution(D.Normal(t(torch, [0.0, 1.0]), t(torch, [1.0, 1.0])), T.AbsTransform())
    out.append(error(lambda: d.log_prob(t(torch, [0.5, 1.5]))))
    return out


@case
def relaxed(torch):
    D = torch.distributions
    temp = t(torch, [0.5])
    out = univariate(
        torch, lambda p: D.RelaxedBernoulli(temp, probs=p), [UNIT], [0.1, 0.5, 0.7, 0.99], methods=("log_prob",)
    )
    out += univariate(
        torch, lambda lg: D.RelaxedBernoulli(temp, logits=lg), [X], [0.1, 0.5, 0.7, 0.99], methods=("log_prob",)
    )
    value = [[0.1, 0.2, 0.3, 0.4], [0.05, 0.05, 0.8, 0.1], [0.7, 0.1, 0.1, 0.1]]
    out += univariate(
        torch, lambda p: D.RelaxedOneHotCategorical(t(torch, 1.5), probs=p), [PROBS], value, methods=("log_prob",)
    )
    return out


@case
def mixture_same_family(torch):
    D = torch.distributions
    weights = t(torch, [[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]], grad=True)
    locs = t(torch, [[0.0, 1.0, -2.0], [0.5, 0.2, 3.0]], grad=True)
    scales = t(torch, [[1.0, 0.5, 2.0], [0.3, 1.0, 1.5]], grad=True)
    m = D.MixtureSameFamily(D.Categorical(probs=weights), D.Normal(locs, scales))
    out = probe(torch, m, [weights, locs, scales], t(torch, [0.3, -0.7]), ("log_prob", "mean", "variance", "cdf"))
    comp = D.Independent(D.Normal(t(torch, [[0.0, 1.0], [2.0, -1.0]]), t(torch, [[1.0, 0.5], [2.0, 3.0]])), 1)
    m2 = D.MixtureSameFamily(D.Categorical(probs=t(torch, [0.3, 0.7])), comp)
    out += probe(torch, m2, [], t(torch, [0.5, 0.2]), ("log_prob", "mean", "variance"))
    out.append(error(lambda: D.MixtureSameFamily(D.Normal(0.0, 1.0), D.Normal(locs, scales))))
    out.append(error(lambda: D.MixtureSameFamily(D.Categorical(probs=t(torch, [0.5, 0.5])), D.Normal(locs, scales))))
    return out


def _kl_pairs(torch):
    D = torch.distributions
    a = t(torch, [0.5, 1.5, 3.0])
    b = t(torch, [2.0, 0.7, 1.2])
    u = t(torch, [0.2, 0.5, 0.9])
    v = t(torch, [0.4, 0.3, 0.6])
    return [
        (lambda p: D.Normal(p, b), lambda: D.Normal(a, a), u),
        (lambda p: D.Bernoulli(probs=p), lambda: D.Bernoulli(probs=v), u),
        (lambda p: D.Beta(p, b), lambda: D.Beta(a, a), a),
        (lambda p: D.Binomial(t(torch, [5.0, 5.0, 7.0]), probs=p), lambda: D.Binomial(5, probs=v), u),
        (lambda p: D.Categorical(probs=p), lambda: D.Categorical(probs=t(torch, PROBS)), t(torch, PROBS[::-1])),
        (lambda p: D.Dirichlet(p), lambda: D.Dirichlet(t(torch, [[1.0, 2.0, 0.5]])), t(torch, [[0.5, 1.5, 3.0]])),
        (lambda p: D.Exponential(p), lambda: D.Exponential(b), a),
        (lambda p: D.Gamma(p, b), lambda: D.Gamma(a, u), a),
        (lambda p: D.Gumbel(p, b), lambda: D.Gumbel(a, a), u),
        (lambda p: D.Geometric(probs=p), lambda: D.Geometric(probs=v), u),
        (lambda p: D.HalfNormal(p), lambda: D.HalfNormal(b), a),
        (lambda p: D.Laplace(p, b), lambda: D.Laplace(a, a), u),
        (
            lambda p: D.OneHotCategorical(probs=p),
            lambda: D.OneHotCategorical(probs=t(torch, PROBS)),
            t(torch, PROBS[::-1]),
        ),
        (lambda p: D.Poisson(p), lambda: D.Poisson(b), a),
        (lambda p: D.Uniform(p, p + 1.0), lambda: D.Uniform(t(torch, 0.0), t(torch, 5.0)), u),
        (lambda p: D.Uniform(p, p + 1.0), lambda: D.Uniform(t(torch, 0.5), t(torch, 5.0)), u),
        (lambda p: D.Cauchy(p, b), lambda: D.Cauchy(a, a), u),
        (lambda p: D.LogNormal(p, b), lambda: D.LogNormal(a, a), u),
        (lambda p: D.Independent(D.Normal(p, b), 1), lambda: D.Independent(D.Normal(a, a), 1), u),
        (lambda p: D.Chi2(p), lambda: D.Chi2(b), a),
        (lambda p: D.Bernoulli(probs=p), lambda: D.Poisson(b), u),
        (lambda p: D.Beta(p, b), lambda: D.Exponential(b), a),
        (lambda p: D.Beta(p, b), lambda: D.Gamma(a, b), a),
        (lambda p: D.Beta(p, b), lambda: D.Normal(a, b), a),
        (lambda p: D.Beta(p, b), lambda: D.Uniform(t(torch, 0.0), t(torch, 1.0)), a),
        (lambda p: D.Beta(p, b), lambda: D.Uniform(t(torch, 0.1), t(torch, 1.0)), a),
        (lambda p: D.Exponential(p), lambda: D.Gamma(a, b), a),
        (lambda p: D.Exponential(p), lambda: D.Gumbel(a, b), a),
        (lambda p: D.Exponential(p), lambda: D.Normal(a, b), a),
        (lambda p: D.Exponential(p), lambda: D.Uniform(a, a + 1), a),
        (lambda p: D.Gamma(p, b), lambda: D.Exponential(b), a),
        (lambda p: D.Gamma(p, b), lambda: D.Gumbel(a, b), a),
        (lambda p: D.Gamma(p, b), lambda: D.Normal(a, b), a),
        (lambda p: D.Gumbel(p, b), lambda: D.Normal(a, b), u),
        (lambda p: D.Gumbel(p, b), lambda: D.Exponential(b), u),
        (lambda p: D.Laplace(p, b), lambda: D.Normal(a, b), u),
        (lambda p: D.Laplace(p, b), lambda: D.Gamma(a, b), u),
        (lambda p: D.Normal(p, b), lambda: D.Gumbel(a, b), u),
        (lambda p: D.Normal(p, b), lambda: D.Laplace(a, b), u),
        (lambda p: D.Normal(p, b), lambda: D.Uniform(a, a + 1), u),
        (lambda p: D.Poisson(p), lambda: D.Bernoulli(probs=v), a),
        (lambda p: D.Uniform(p, p + 0.05), lambda: D.Beta(a, b), u),
        (lambda p: D.Uniform(p, p + 1.0), lambda: D.Exponential(b), u),
        (lambda p: D.Uniform(p, p + 1.0), lambda: D.Gamma(a, b), u),
        (lambda p: D.Uniform(p, p + 1.0), lambda: D.Gumbel(a, b), u),
        (lambda p: D.Uniform(p, p + 1.0), lambda: D.Normal(a, b), u),
        (lambda p: D.Pareto(p, b), lambda: D.Pareto(a, b), u),
        (lambda p: D.Pareto(p, b), lambda: D.Exponential(b), u),
        (lambda p: D.Pareto(p, b), lambda: D.Gamma(a, b), u),
        (lambda p: D.Pareto(p, b + 2.0), lambda: D.Normal(a, b), u),
        (lambda p: D.Pareto(p, b), lambda: D.Uniform(a, a + 1), u),
        (lambda p: D.Normal(p, b), lambda: D.Pareto(a, b), u),
        (lambda p: D.Beta(p, b), lambda: D.Pareto(a, b), a),
        (lambda p: D.Uniform(p + 1.0, p + 2.0), lambda: D.Pareto(a, b), u),
        (lambda p: D.ContinuousBernoulli(probs=p), lambda: D.ContinuousBernoulli(probs=v), u),
        (lambda p: D.ContinuousBernoulli(logits=p), lambda: D.ContinuousBernoulli(probs=u), b - 1.0),
        (lambda p: D.Beta(p, b), lambda: D.ContinuousBernoulli(probs=v), a),
        (lambda p: D.Uniform(p, p + 0.05), lambda: D.ContinuousBernoulli(probs=v), u),
        (lambda p: D.ContinuousBernoulli(probs=p), lambda: D.Exponential(b), u),
        (lambda p: D.ContinuousBernoulli(probs=p), lambda: D.Normal(a, b), u),
        (lambda p: D.ContinuousBernoulli(probs=p), lambda: D.Uniform(a - 1.0, a + 1.0), u),
        (lambda p: D.ContinuousBernoulli(probs=p), lambda: D.Pareto(a, b), u),
        (lambda p: D.Exponential(p), lambda: D.ContinuousBernoulli(probs=v), a),
        (lambda p: D.Gamma(p, b), lambda: D.ContinuousBernoulli(probs=v), a),
        (lambda p: D.Gumbel(p, b), lambda: D.ContinuousBernoulli(probs=v), u),
        (lambda p: D.Laplace(p, b), lambda: D.ContinuousBernoulli(probs=v), u),
        (lambda p: D.Normal(p, b), lambda: D.ContinuousBernoulli(probs=v), u),
        (lambda p: D.Pareto(p, b), lambda: D.ContinuousBernoulli(probs=v), u),
    ]


@case
def kl(torch):
    D = torch.distributions
    out = []
    for make_p, make_q, param in _kl_pairs(torch):
        leaf = param.clone().requires_grad_()
        p = make_p(leaf)
        q = make_q()
        r = D.kl_divergence(p, q)
        out.append(type(p).__name__ + "|" + type(q).__name__)
        out.append(r.detach().numpy())
        out.extend(grads(torch, r, [leaf]))
    out.append(error(lambda: D.kl_divergence(D.Normal(0.0, 1.0), D.Categorical(probs=t(torch, [0.5, 0.5])))))
    out.append(error(lambda: D.kl_divergence(D.Beta(t(torch, 1.0), t(torch, 2.0)), D.Dirichlet(t(torch, [1.0, 2.0])))))
    return out


@case
def kl_multivariate_normal(torch):
    D = torch.distributions
    a = np.array([[2.0, 0.3, 0.1], [0.3, 1.5, -0.4], [0.1, -0.4, 1.0]])
    b = np.array([[1.0, 0.2, 0.0], [0.2, 0.8, 0.1], [0.0, 0.1, 2.0]])
    loc = t(torch, [[0.0, 1.0, -1.0], [0.5, 0.0, 2.0]], grad=True)
    cov = t(torch, a, grad=True)
    p = D.MultivariateNormal(loc, covariance_matrix=cov)
    q = D.MultivariateNormal(t(torch, [0.2, 0.2, 0.2]), precision_matrix=t(torch, b))
    r = D.kl_divergence(p, q)
    return [r.detach().numpy()] + grads(torch, r, [loc, cov])


@case
def kl_lowrank_multivariate_normal(torch):
    """Low-rank against low-rank and full, both ways, with batches broadcast between p and q;
    gradients with respect to every parameter; mismatched event shapes."""
    D = torch.distributions
    rng = np.random.default_rng(11)
    a = np.array([[2.0, 0.3, 0.1, 0.0], [0.3, 1.5, -0.4, 0.2], [0.1, -0.4, 1.0, 0.1], [0.0, 0.2, 0.1, 0.9]])
    out = []

    def lowrank(batch, rank):
        loc = t(torch, rng.standard_normal(batch + (4,)), grad=True)
        factor = t(torch, rng.standard_normal(batch + (4, rank)), grad=True)
        diag = t(torch, rng.random(batch + (4,)) + 0.5, grad=True)
        return D.LowRankMultivariateNormal(loc, factor, diag), [loc, factor, diag]

    def full(batch):
        loc = t(torch, rng.standard_normal(batch + (4,)), grad=True)
        cov = t(torch, a, grad=True)
        return D.MultivariateNormal(loc, covariance_matrix=cov), [loc, cov]

    for make_p, make_q in [
        (lambda: lowrank((2,), 2), lambda: lowrank((), 3)),
        (lambda: lowrank((), 1), lambda: lowrank((3,), 2)),
        (lambda: full((2,)), lambda: lowrank((), 2)),
        (lambda: full(()), lambda: lowrank((2,), 1)),
        (lambda: lowrank((2,), 2), lambda: full(())),
        (lambda: lowrank((), 3), lambda: full((2,))),
    ]:
        p, p_leaves = make_p()
        q, q_leaves = make_q()
        r = D.kl_divergence(p, q)
        out += [type(p).__name__ + "|" + type(q).__name__, r.detach().numpy()]
        out.extend(grads(torch, r, p_leaves + q_leaves))
    small = D.LowRankMultivariateNormal(t(torch, [0.0, 0.0]), t(torch, [[1.0], [0.5]]), t(torch, [1.0, 2.0]))
    p, _ = lowrank((), 2)
    q, _ = full(())
    out.append(error(lambda: D.kl_divergence(p, small)))
    out.append(error(lambda: D.kl_divergence(q, small)))
    out.append(error(lambda: D.kl_divergence(small, q)))
    return out


@case
def kl_expfamily(torch):
    """Bregman divergence through autograd, for families without a registered closed form
    of their own: compared through a subclass that inherits the generic pair."""
    D = torch.distributions

    class MyPoisson(D.Poisson):
        pass

    rate = t(torch, [0.5, 1.5, 3.0], grad=True)
    r = D.kl_divergence(MyPoisson(rate), MyPoisson(t(torch, [2.0, 0.7, 1.2])))
    return [r.detach().numpy()] + grads(torch, r, [rate])


@case
def validation_errors(torch):
    D = torch.distributions
    bad = t(torch, [1.0, -1.0])
    ok = t(torch, [1.0, 1.0])
    calls = [
        lambda: D.Normal(ok, bad),
        lambda: D.Normal(0.0, -1.0),
        lambda: D.Normal(t(torch, [0.0, float("nan")]), ok),
        lambda: D.Exponential(bad),
        lambda: D.Gamma(bad, ok),
        lambda: D.Beta(ok, bad),
        lambda: D.Uniform(ok, t(torch, [2.0, 0.5])),
        lambda: D.Bernoulli(probs=t(torch, [0.5, 1.5])),
        lambda: D.Bernoulli(),
        lambda: D.Bernoulli(probs=ok, logits=ok),
        lambda: D.Categorical(probs=t(torch, [-0.1, 1.1])),
        lambda: D.Categorical(probs=t(torch, 0.5)),
        lambda: D.Categorical(),
        lambda: D.Dirichlet(t(torch, [[0.5, -1.0]])),
        lambda: D.Dirichlet(t(torch, 1.0)),
        lambda: D.Poisson(bad),
        lambda: D.Geometric(probs=t(torch, [0.0, 0.5])),
        lambda: D.Binomial(t(torch, [2.5, 3.0]), probs=t(torch, [0.5, 0.5])),
        lambda: D.MultivariateNormal(t(torch, [0.0, 0.0]), covariance_matrix=t(torch, [[1.0, 2.0], [2.0, 1.0]])),
        lambda: D.MultivariateNormal(t(torch, [0.0, 0.0]), scale_tril=t(torch, [[1.0, 0.0], [2.0, -1.0]])),
        lambda: D.MultivariateNormal(t(torch, [0.0, 0.0])),
        lambda: D.MultivariateNormal(t(torch, 0.0), covariance_matrix=t(torch, [[1.0]])),
        lambda: D.Independent(D.Normal(ok, ok), 2),
        lambda: D.Normal(ok, ok).log_prob(t(torch, [1.0, 2.0, 3.0])),
        lambda: D.Normal(ok, ok).log_prob([1.0, 2.0]),
        lambda: D.Bernoulli(probs=t(torch, [0.5, 0.5])).log_prob(t(torch, [0.5, 1.0])),
        lambda: D.Categorical(probs=t(torch, [0.5, 0.5])).log_prob(t(torch, [2.0])),
        lambda: D.Exponential(ok).log_prob(t(torch, [-1.0, 1.0])),
        lambda: D.Beta(ok, ok).log_prob(t(torch, [0.5, 1.5])),
        lambda: D.Dirichlet(t(torch, [1.0, 1.0])).log_prob(t(torch, [0.5, 0.2])),
        lambda: D.Dirichlet(t(torch, [1.0, 1.0])).log_prob(t(torch, [0.5, 0.2, 0.3])),
        lambda: D.Poisson(ok).log_prob(t(torch, [1.5, 1.0])),
        lambda: D.Uniform(0.0, 1.0).log_prob(t(torch, 1.5)),
        lambda: D.OneHotCategorical(probs=t(torch, [0.5, 0.5])).log_prob(t(torch, [1.0, 1.0])),
        lambda: D.Normal(ok, bad, validate_args=False).scale,
        lambda: D.TransformedDistribution(D.Normal(ok, ok), "exp"),
        lambda: D.transforms.ExpTransform(cache_size=2),
        lambda: D.biject_to(D.constraints.lower_cholesky),
    ]
    return [error(c) for c in calls]


@case
def transforms(torch):
    D = torch.distributions
    T = D.transforms
    x = t(torch, [[-1.5, 0.2, 0.7], [2.0, -0.3, 0.0]], grad=True)
    out = []
    for tr in [
        T.ExpTransform(),
        T.SigmoidTransform(),
        T.TanhTransform(),
        T.SoftplusTransform(),
        T.AffineTransform(t(torch, [1.0, 2.0, -1.0]), t(torch, [0.5, -2.0, 3.0])),
        T.AffineTransform(0.5, 2.0, event_dim=1),
        T.ComposeTransform([T.AffineTransform(0.5, 2.0), T.ExpTransform()]),
        T.ComposeTransform([T.ExpTransform(), T.PowerTransform(t(torch, 2.5))]),
        T.StickBreakingTransform(),
        T.SoftmaxTransform(),
        T.AbsTransform(),
        T.IndependentTransform(T.ExpTransform(), 1),
        T.ExpTransform().inv,
        T.ReshapeTransform((3,), (3, 1)),
        T.identity_transform,
    ]:
        y = tr(x)
        out.append(repr(tr))
        out.append(y.detach().numpy())
        out.append(tr.inv(y).detach().numpy())
        out.append(repr(tr.domain) + " " + repr(tr.codomain) + " " + str(tr.bijective))
        out.append(str(tr.forward_shape(torch.Size([4, 3]))))
        try:
            j = tr.log_abs_det_jacobian(x, y)
        except NotImplementedError:
            out.append("no jacobian")
            continue
        out.append(j.detach().numpy())
        out.extend(grads(torch, j, [x]))
    out.append(str(T.ExpTransform() == T.ExpTransform()))
    out.append(str(T.AffineTransform(1.0, 2.0) == T.AffineTransform(1.0, 2.0)))
    out.append(str(T.ExpTransform().inv.inv == T.ExpTransform()))
    out.append(str(T.ExpTransform().sign) + str(T.AffineTransform(0.0, -2.0).sign))
    m = t(torch, [[1.0, 0.5], [-0.3, 0.2]])
    lc = T.LowerCholeskyTransform()
    out += [lc(m).numpy(), lc.inv(lc(m)).numpy()]
    cached = T.ExpTransform(cache_size=1)
    y = cached(x)
    out.append(str(cached.inv(y) is x))
    return out


@case
def transforms_corr_cat_stack(torch):
    D = torch.distributions
    T = D.transforms
    C = D.constraints
    out = []
    x = t(torch, [[0.3, -1.2, 2.0, 0.1, -0.4, 25.0], [0.0, 0.5, -3.0, 1.0, 2.0, -0.7]], grad=True)
    for tr, value in [
        (T.CorrCholeskyTransform(), x),
        (T.CorrCholeskyTransform(), x[:, :3]),
        (T.CatTransform([T.ExpTransform(), T.identity_transform, T.SigmoidTransform()], 1, [2, 3, 1]), x),
        (T.CatTransform([T.ExpTransform(), T.AffineTransform(1.0, -2.0)], 0), x),
        (T.CatTransform([T.SoftplusTransform(), T.IndependentTransform(T.ExpTransform(), 1)], -1, [4, 2]), x),
        (T.StackTransform([T.ExpTransform(), T.TanhTransform()], 0), x),
        (T.StackTransform([T.SoftplusTransform(), T.identity_transform, T.ExpTransform()], 1), x[:, :3]),
        (T.StackTransform([T.IndependentTransform(T.ExpTransform(), 1), T.AffineTransform(0.5, 2.0, 1)], 0), x),
    ]:
        y = tr(value)
        out += [repr(tr), y.detach().numpy(), tr.inv(y).detach().numpy()]
        out.append(repr(tr.domain) + " " + repr(tr.codomain) + " " + str(tr.bijective))
        j = tr.log_abs_det_jacobian(value, y)
        out.append(j.detach().numpy())
        out.extend(grads(torch, j, [x]))
        out.extend(grads(torch, y, [x]))
    corr = T.CorrCholeskyTransform()
    out += [str(corr.forward_shape((5, 6))), str(corr.inverse_shape((5, 4, 4))), error(lambda: corr.event_dim)]
    for bad in [lambda: corr.forward_shape((5, 5)), lambda: corr.inverse_shape((4, 3)), lambda: corr.forward_shape(())]:
        out.append(error(bad))
    out.append(C.corr_cholesky.check(corr(x)).numpy())
    cat = T.CatTransform([T.ExpTransform(), T.StickBreakingTransform()], -1, [1, 2])
    out += [str(cat.event_dim), str(cat.length), str(cat.with_cache(1)._cache_size)]
    out.append(str(T.StackTransform([T.ExpTransform()], 0).with_cache(1).transforms[0]._cache_size))
    for registry in (D.biject_to, D.transform_to):
        for c in [
            C.corr_cholesky,
            C.cat([C.positive, C.real, C.unit_interval], 1, [2, 3, 1]),
            C.stack([C.positive, C.interval(-1.0, 2.0)], 0),
        ]:
            tr = registry(c)
            y = tr(x.detach())
            out += [repr(tr), y.numpy(), c.check(y).numpy()]
    return out


@case
def constraint_registry(torch):
    D = torch.distributions
    C = D.constraints
    x = t(torch, [[-1.5, 0.2, 0.7], [2.0, -0.3, 0.0]])
    out = []
    for c in [
        C.real,
        C.positive,
        C.nonnegative,
        C.greater_than(2.0),
        C.less_than(-1.0),
        C.unit_interval,
        C.interval(-1.0, 3.0),
        C.half_open_interval(0.0, 2.0),
        C.simplex,
        C.real_vector,
        C.independent(C.positive, 1),
    ]:
        for registry in (D.biject_to, D.transform_to):
            tr = registry(c)
            y = tr(x)
            out.append(repr(c) + " -> " + repr(tr))
            out.append(y.numpy())
            out.append(c.check(y).numpy())
    out.append(repr(D.transform_to(C.lower_cholesky)))
    for c in [
        C.boolean,
        C.nonnegative_integer,
        C.integer_interval(0, 3),
        C.one_hot,
        C.lower_triangular,
        C.lower_cholesky,
        C.positive_definite,
        C.symmetric,
        C.square,
    ]:
        out.append(repr(c) + " " + str(c.is_discrete) + " " + str(c.event_dim))
    m = t(torch, [[[1.0, 0.0], [0.5, 2.0]], [[1.0, 0.3], [0.3, -1.0]]])
    for c in [C.lower_triangular, C.lower_cholesky, C.positive_definite, C.symmetric]:
        out.append(c.check(m).numpy())
    out.append(C.integer_interval(0, 3).check(t(torch, [0.0, 1.5, 3.0, 4.0])).numpy())
    out.append(C.one_hot.check(t(torch, [[0.0, 1.0], [1.0, 1.0]])).numpy())
    out.append(str(C.is_dependent(C.dependent)) + str(C.is_dependent(C.real)))
    out.append(error(lambda: C.dependent.check(x)))
    return out


@case
def reinforce(torch):
    """The REINFORCE step of PyTorch's examples: log_prob of chosen actions, weighted by
    returns, backward into the policy's logits."""
    D = torch.distributions
    logits = t(torch, [[0.5, -1.0, 2.0], [1.0, 1.0, -3.0], [0.0, 0.2, 0.1]], grad=True)
    m = D.Categorical(logits=logits)
    actions = torch.tensor([2, 0, 1])
    returns = t(torch, [1.0, -0.5, 2.0])
    loss = -(m.log_prob(actions) * returns).sum() - 0.01 * m.entropy().sum()
    loss.backward()
    return [loss.detach().numpy(), logits.grad.numpy(), str(m.log_prob(actions).dtype)]


if __name__ == "__main__":
    case_runner.main(CASES)
