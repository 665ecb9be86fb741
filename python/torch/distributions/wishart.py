import math
import warnings
from numbers import Number

import torch
from torch.distributions import constraints
from torch.distributions.chi2 import Chi2
from torch.distributions.exp_family import ExponentialFamily
from torch.distributions.multivariate_normal import _precision_to_scale_tril
from torch.distributions.utils import lazy_property, vec_to_tril_matrix

__all__ = ["Wishart"]

_LOG_2 = math.log(2)


def _mvdigamma(x, p):
    """The multivariate digamma function: sum_{i<p} digamma(x - i/2)."""
    assert x.gt((p - 1) / 2).all(), "Wrong domain for multivariate digamma function."
    halves = torch.arange(p, dtype=x.dtype) / 2
    return torch.digamma(x.unsqueeze(-1) - halves).sum(-1)


class Wishart(ExponentialFamily):
    """The Wishart distribution over positive definite p x p matrices, with df degrees of
    freedom (> p - 1) and a scale given by exactly one of covariance_matrix, precision_matrix
    or scale_tril (its Cholesky factor, which is what every computation uses): the law of
    X^T X for df rows X of N(0, covariance) when df is an integer. Draws by the Bartlett
    decomposition, reparameterised."""

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    def __init__(self, df, covariance_matrix=None, precision_matrix=None, scale_tril=None, validate_args=None):
        assert (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) == 1, (
            "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified."
        )
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None)
        if param.dim() < 2:
            raise ValueError("scale_tril must be at least two-dimensional, with optional leading batch dimensions")
        if isinstance(df, Number):
            batch_shape = torch.Size(param.shape[:-2])
            self.df = torch.tensor(df, dtype=param.dtype)
        else:
            batch_shape = torch.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        p = event_shape[-1]
        if self.df.le(p - 1).any():
            raise ValueError(f"Value of df={df} expected to be greater than ndim - 1 = {p - 1}.")
        if scale_tril is not None:
            self.scale_tril = param.expand(batch_shape + (-1, -1))
        elif covariance_matrix is not None:
            self.covariance_matrix = param.expand(batch_shape + (-1, -1))
        else:
            self.precision_matrix = param.expand(batch_shape + (-1, -1))
        if self.df.lt(p).any():
            warnings.warn(
                "Low df values detected. Singular samples are highly likely to occur for ndim - 1 < df < ndim."
            )
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = _precision_to_scale_tril(precision_matrix)

    @property
    def arg_constraints(self):
        return {
            "covariance_matrix": constraints.positive_definite,
            "precision_matrix": constraints.positive_definite,
            "scale_tril": constraints.lower_cholesky,
            "df": constraints.greater_than(self._event_shape[-1] - 1),
        }

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = torch.Size(batch_shape)
        cov_shape = batch_shape + self.event_shape
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, self.__dict__[name].expand(cov_shape))
        super(Wishart, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return torch.matmul(L, L.transpose(-2, -1)).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        identity = torch.eye(self._event_shape[-1], dtype=self._unbroadcasted_scale_tril.dtype)
        precision = torch.cholesky_solve(identity, self._unbroadcasted_scale_tril)
        return precision.expand(self._batch_shape + self._event_shape)

    def _df_matrix(self, df):
        return df.expand(self._batch_shape).reshape(self._batch_shape + (1, 1))

    @property
    def mean(self):
        return self._df_matrix(self.df) * self.covariance_matrix

    @property
    def mode(self):
        # (df - p - 1) V, defined only where df > p + 1
        factor = self.df - self._event_shape[-1] - 1
        factor = torch.where(factor > 0, factor, torch.full_like(factor, math.nan))
        return self._df_matrix(factor) * self.covariance_matrix

    @property
    def variance(self):
        # Var X_ij = df (V_ij^2 + V_ii V_jj). The diagonal is taken by masking: the core cannot
        # yet send a gradient back through the diagonal view of an expanded tensor.
        V = self.covariance_matrix
        d = (V * torch.eye(V.shape[-1], dtype=V.dtype)).sum(-1)
        return self._df_matrix(self.df) * (V.pow(2) + d.unsqueeze(-1) * d.unsqueeze(-2))

    def _bartlett(self, sample_shape):
        """L A A^T L^T, with A lower triangular: sqrt(chi2(df - i)) on the diagonal and
        standard normals below it."""
        p = self._event_shape[-1]
        dtype = self._unbroadcasted_scale_tril.dtype
        df = self.df.expand(self._batch_shape).unsqueeze(-1)
        chi2 = Chi2(df - torch.arange(p, dtype=dtype).expand(self._batch_shape + (p,)))
        eps = torch.finfo(dtype).eps
        diagonal = chi2.rsample(sample_shape).sqrt().clamp(min=eps)
        below = torch.randn(sample_shape + self._batch_shape + (p * (p - 1) // 2,), dtype=dtype)
        A = torch.diag_embed(diagonal) + vec_to_tril_matrix(below, diag=-1)
        chol = torch.matmul(self._unbroadcasted_scale_tril, A)
        return torch.matmul(chol, chol.transpose(-2, -1))

    def rsample(self, sample_shape=torch.Size(), max_try_correction=None):
        """Draws; a draw that rounding left singular (likely for df < p) is drawn again, up
        to max_try_correction (default 10) times, and may stay singular after that."""
        if max_try_correction is None:
            max_try_correction = 10
        sample_shape = torch.Size(sample_shape)
        sample = self._bartlett(sample_shape)
        singular = ~self.support.check(sample)
        if bool(singular.any()):
            warnings.warn("Singular sample detected.")
            for _ in range(max_try_correction):
                redrawn = self._bartlett(sample_shape)
                sample = torch.where(singular[..., None, None], redrawn, sample)
                singular = singular & ~self.support.check(redrawn)
                if not bool(singular.any()):
                    break
        return sample

    def log_prob(self, value):
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        L = self._unbroadcasted_scale_tril
        log_det_L = L.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        trace = torch.cholesky_solve(value, L).diagonal(dim1=-2, dim2=-1).sum(-1)
        return (
            -nu * (p * _LOG_2 / 2 + log_det_L)
            - torch.mvlgamma(nu / 2, p=p)
            + (nu - p - 1) / 2 * torch.linalg.slogdet(value).logabsdet
            - trace / 2
        )

    def entropy(self):
        nu = self.df
        p = self._event_shape[-1]
        log_det_L = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return (
            (p + 1) * (p * _LOG_2 / 2 + log_det_L)
            + torch.mvlgamma(nu / 2, p=p)
            - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
            + nu * p / 2
        )

    @property
    def _natural_params(self):
        return -self.precision_matrix / 2, (self.df - self._event_shape[-1] - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (-torch.linalg.slogdet(-2 * x).logabsdet + _LOG_2 * p) + torch.mvlgamma(
            y + (p + 1) / 2, p=p
        )
