"""torch.distributions as in PyTorch 1.13: parametrised probability distributions with
sampling (reparameterised where PyTorch has rsample), log-densities, moments, entropies,
KL divergences, constraints and the transforms between constrained and real spaces.

    logits = policy(state)
    m = Categorical(logits=logits)
    action = m.sample()
    loss = -m.log_prob(action) * reward
    loss.backward()

The special functions (lgamma, digamma, erfinv) are torch.special's; the Gamma, Dirichlet and
Binomial samplers are written here over the core's ops until the core has them (_sampling.py)."""

from torch.distributions import constraints, transforms
from torch.distributions.bernoulli import Bernoulli
from torch.distributions.continuous_bernoulli import ContinuousBernoulli
from torch.distributions.beta import Beta
from torch.distributions.binomial import Binomial
from torch.distributions.categorical import Categorical
from torch.distributions.cauchy import Cauchy
from torch.distributions.chi2 import Chi2
from torch.distributions.constraint_registry import biject_to, transform_to
from torch.distributions.dirichlet import Dirichlet
from torch.distributions.distribution import Distribution
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.exponential import Exponential
from torch.distributions.fishersnedecor import FisherSnedecor
from torch.distributions.gamma import Gamma
from torch.distributions.geometric import Geometric
from torch.distributions.gumbel import Gumbel
from torch.distributions.half_cauchy import HalfCauchy
from torch.distributions.half_normal import HalfNormal
from torch.distributions.independent import Independent
from torch.distributions.kl import kl_divergence, register_kl
from torch.distributions.kumaraswamy import Kumaraswamy
from torch.distributions.laplace import Laplace
from torch.distributions.lkj_cholesky import LKJCholesky
from torch.distributions.log_normal import LogNormal
from torch.distributions.lowrank_multivariate_normal import LowRankMultivariateNormal
from torch.distributions.logistic_normal import LogisticNormal
from torch.distributions.mixture_same_family import MixtureSameFamily
from torch.distributions.multinomial import Multinomial
from torch.distributions.multivariate_normal import MultivariateNormal
from torch.distributions.negative_binomial import NegativeBinomial
from torch.distributions.normal import Normal
from torch.distributions.one_hot_categorical import OneHotCategorical, OneHotCategoricalStraightThrough
from torch.distributions.pareto import Pareto
from torch.distributions.poisson import Poisson
from torch.distributions.relaxed_bernoulli import RelaxedBernoulli
from torch.distributions.relaxed_categorical import RelaxedOneHotCategorical
from torch.distributions.studentT import StudentT
from torch.distributions.transformed_distribution import TransformedDistribution
from torch.distributions.transforms import *  # noqa: F403
from torch.distributions.uniform import Uniform
from torch.distributions.von_mises import VonMises
from torch.distributions.weibull import Weibull
from torch.distributions.wishart import Wishart

__all__ = [
    "Bernoulli",
    "ContinuousBernoulli",
    "Beta",
    "Binomial",
    "Categorical",
    "Cauchy",
    "Chi2",
    "Dirichlet",
    "Distribution",
    "Exponential",
    "ExponentialFamily",
    "FisherSnedecor",
    "Gamma",
    "Geometric",
    "Gumbel",
    "HalfCauchy",
    "HalfNormal",
    "Independent",
    "Kumaraswamy",
    "LKJCholesky",
    "Laplace",
    "LogNormal",
    "LowRankMultivariateNormal",
    "LogisticNormal",
    "MixtureSameFamily",
    "Multinomial",
    "MultivariateNormal",
    "NegativeBinomial",
    "Normal",
    "OneHotCategorical",
    "OneHotCategoricalStraightThrough",
    "Pareto",
    "Poisson",
    "RelaxedBernoulli",
    "RelaxedOneHotCategorical",
    "StudentT",
    "TransformedDistribution",
    "Uniform",
    "VonMises",
    "Weibull",
    "Wishart",
    "biject_to",
    "kl_divergence",
    "register_kl",
    "transform_to",
]
__all__.extend(transforms.__all__)
