import math
from numbers import Number

import torch
import torch.nn.functional as F
from torch.distributions import constraints
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.utils import (
    broadcast_all,
    clamp_probs,
    expand_probs_or_logits,
    lazy_property,
    logits_to_probs,
    probs_to_logits,
)

__all__ = ["ContinuousBernoulli"]


class ContinuousBernoulli(ExponentialFamily):
    """The continuous Bernoulli of Loaiza-Ganem and Cunningham on [0, 1]: density C(p) p^x (1-p)^(1-x).

    Its normaliser C(p), mean and variance are 0/0 at p = 1/2; within `lims` around it they are
    their Taylor expansions there, as PyTorch 1.13 computes them, so that values and gradients
    stay finite."""

    arg_constraints = {"probs": constraints.unit_interval, "logits": constraints.real}
    support = constraints.unit_interval
    _mean_carrier_measure = 0
    has_rsample = True

    def __init__(self, probs=None, logits=None, lims=(0.499, 0.501), validate_args=None):
        if (probs is None) == (logits is None):
            raise ValueError("Either `probs` or `logits` must be specified, but not both.")
        if probs is not None:
            is_scalar = isinstance(probs, Number)
            (probs,) = broadcast_all(probs)
            # checked here, where validate_args is given, because the clamping below would hide
            # a value outside [0, 1] from the usual check (PyTorch 1.13 does the same)
            if validate_args is not None and not bool(constraints.unit_interval.check(probs).all()):
                raise ValueError("The parameter probs has invalid values")
            self.probs = clamp_probs(probs)
        else:
            is_scalar = isinstance(logits, Number)
            (self.logits,) = broadcast_all(logits)
        self._param = self.probs if probs is not None else self.logits
        batch_shape = torch.Size() if is_scalar else self._param.size()
        self._lims = lims
        super().__init__(batch_shape, validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(ContinuousBernoulli, _instance)
        new._lims = self._lims
        batch_shape = torch.Size(batch_shape)
        expand_probs_or_logits(self, new, batch_shape)
        super(ContinuousBernoulli, new).__init__(batch_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def _new(self, *args, **kwargs):
        return self._param.new(*args, **kwargs)

    def _stable(self):
        """Where probs is far enough from 1/2 for the closed forms."""
        return (self.probs <= self._lims[0]) | (self.probs > self._lims[1])

    def _cut_probs(self):
        return torch.where(self._stable(), self.probs, torch.full_like(self.probs, self._lims[0]))

    def _cont_bern_log_norm(self):
        """log C(p)."""
        p = self._cut_probs()
        below = torch.where(p <= 0.5, p, torch.zeros_like(p))
        above = torch.where(p >= 0.5, p, torch.ones_like(p))
        closed = torch.log(torch.abs(torch.log1p(-p) - torch.log(p))) - torch.where(
            p <= 0.5, torch.log1p(-2.0 * below), torch.log(2.0 * above - 1.0)
        )
        x = (self.probs - 0.5) ** 2
        taylor = math.log(2.0) + (4.0 / 3.0 + 104.0 / 45.0 * x) * x
        return torch.where(self._stable(), closed, taylor)

    @property
    def mean(self):
        p = self._cut_probs()
        closed = p / (2.0 * p - 1.0) + 1.0 / (torch.log1p(-p) - torch.log(p))
        x = self.probs - 0.5
        taylor = 0.5 + (1.0 / 3.0 + 16.0 / 45.0 * x**2) * x
        return torch.where(self._stable(), closed, taylor)

    @property
    def variance(self):
        p = self._cut_probs()
        closed = p * (p - 1.0) / (1.0 - 2.0 * p) ** 2 + 1.0 / (torch.log1p(-p) - torch.log(p)) ** 2
        x = (self.probs - 0.5) ** 2
        taylor = 1.0 / 12.0 - (1.0 / 15.0 - 128.0 / 945.0 * x) * x
        return torch.where(self._stable(), closed, taylor)

    @property
    def stddev(self):
        return torch.sqrt(self.variance)

    @lazy_property
    def logits(self):
        return probs_to_logits(self.probs, is_binary=True)

    @lazy_property
    def probs(self):
        return clamp_probs(logits_to_probs(self.logits, is_binary=True))

    @property
    def param_shape(self):
        return self._param.size()

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=torch.Size()):
        u = torch.rand(self._extended_shape(sample_shape), dtype=self.probs.dtype, device=self.probs.device)
        return self.icdf(u)

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        logits, value = broadcast_all(self.logits, value)
        return -F.binary_cross_entropy_with_logits(logits, value, reduction="none") + self._cont_bern_log_norm()

    def cdf(self, value):
        if self._validate_args:
            self._validate_sample(value)
        p = self._cut_probs()
        closed = (p**value * (1.0 - p) ** (1.0 - value) + p - 1.0) / (2.0 * p - 1.0)
        inside = torch.where(self._stable(), closed, value)
        return torch.where(
            value <= 0.0, torch.zeros_like(value), torch.where(value >= 1.0, torch.ones_like(value), inside)
        )

    def icdf(self, value):
        p = self._cut_probs()
        closed = (torch.log1p(-p + value * (2.0 * p - 1.0)) - torch.log1p(-p)) / (torch.log(p) - torch.log1p(-p))
        return torch.where(self._stable(), closed, value)

    def entropy(self):
        log_q = torch.log1p(-self.probs)
        log_p = torch.log(self.probs)
        return self.mean * (log_q - log_p) - self._cont_bern_log_norm() - log_q

    @property
    def _natural_params(self):
        return (self.logits,)

    def _log_normalizer(self, x):
        """log C as a function of the natural parameter (the logits)."""
        stable = (x <= self._lims[0] - 0.5) | (x > self._lims[1] - 0.5)
        cut = torch.where(stable, x, torch.full_like(x, self._lims[0] - 0.5))
        closed = torch.log(torch.abs(torch.exp(cut) - 1.0)) - torch.log(torch.abs(cut))
        taylor = 0.5 * x + x**2 / 24.0 - x**4 / 2880.0
        return torch.where(stable, closed, taylor)
