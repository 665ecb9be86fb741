import math

import torch
from torch.distributions import constraints
from torch.distributions.distribution import Distribution
from torch.distributions.utils import broadcast_all, lazy_property

__all__ = ["VonMises"]


def _log_i0(x):
    """log I0(x) for x > 0, through the exponentially scaled Bessel function (no overflow)."""
    return torch.special.i0e(x).log() + x


def _best_fisher(loc, concentration, shape):
    """Draws of shape `shape` by Best and Fisher's rejection sampler ("Efficient simulation
    of the von Mises distribution", Applied Statistics 1979): a wrapped Cauchy proposal
    accepted by a squeeze test or, failing it, the exact test; the results are wrapped into
    [-pi, pi) about loc. The proposal's parameter is computed in float64, where the
    cancellation in tau - sqrt(2 tau) for small concentrations costs nothing."""
    kappa = concentration.double()
    tau = 1 + (1 + 4 * kappa * kappa).sqrt()
    rho = (tau - (2 * tau).sqrt()) / (2 * kappa)
    r = ((1 + rho * rho) / (2 * rho)).expand(shape)
    kappa = kappa.expand(shape)
    x = torch.zeros(shape, dtype=torch.float64)
    done = torch.zeros(shape, dtype=torch.bool)
    while not bool(done.all()):
        u1, u2, u3 = torch.rand((3,) + tuple(shape), dtype=torch.float64).unbind(0)
        z = torch.cos(math.pi * u1)
        f = (1 + r * z) / (r + z)
        c = kappa * (r - f)
        accept = (c * (2 - c) - u2 > 0) | ((c / u2).log() + 1 - c >= 0)
        accept = accept & ~done
        x = torch.where(accept, (u3 - 0.5).sign() * f.clamp(-1.0, 1.0).acos(), x)
        done = done | accept
    x = x.to(loc.dtype)
    return (x + math.pi + loc) % (2 * math.pi) - math.pi


class VonMises(Distribution):
    """The circular von Mises distribution: density exp(concentration cos(x - loc)) /
    (2 pi I0(concentration)). loc and values may be any real angles (taken modulo 2 pi);
    mean and variance are the circular ones (loc, and 1 - I1/I0 of the concentration).
    Draws lie in [-pi, pi)."""

    arg_constraints = {"loc": constraints.real, "concentration": constraints.positive}
    support = constraints.real
    has_rsample = False

    def __init__(self, loc, concentration, validate_args=None):
        self.loc, self.concentration = broadcast_all(loc, concentration)
        super().__init__(self.loc.shape, torch.Size(), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(VonMises, _instance)
        batch_shape = torch.Size(batch_shape)
        new.loc = self.loc.expand(batch_shape)
        new.concentration = self.concentration.expand(batch_shape)
        super(VonMises, new).__init__(batch_shape, torch.Size(), validate_args=False)
        new._validate_args = self._validate_args
        return new

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        return self.concentration * torch.cos(value - self.loc) - math.log(2 * math.pi) - _log_i0(self.concentration)

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            shape = self._extended_shape(sample_shape)
            return _best_fisher(self.loc, self.concentration, shape)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @lazy_property
    def variance(self):
        # 1 - I1(k) / I0(k): the scaled functions' ratio is the same
        return 1 - torch.special.i1e(self.concentration) / torch.special.i0e(self.concentration)
