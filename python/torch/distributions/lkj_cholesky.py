import math

import torch
from torch.distributions import constraints
from torch.distributions.beta import Beta
from torch.distributions.distribution import Distribution
from torch.distributions.utils import broadcast_all

__all__ = ["LKJCholesky"]


class LKJCholesky(Distribution):
    """The LKJ distribution over Cholesky factors L of dim x dim correlation matrices: the
    correlation matrix L L^T has density proportional to det(L L^T)^(concentration - 1), so
    concentration 1 is uniform over correlation matrices. Draws by the onion method
    (Lewandowski, Kurowicka and Joe, "Generating random correlation matrices based on vines
    and extended onion method", 2009), sampling the factor's rows directly."""

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim, concentration=1.0, validate_args=None):
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        # The onion method: row i of the factor (i >= 1, from 0) has squared off-diagonal
        # length y_i ~ Beta(i / 2, concentration + (dim - 1 - i) / 2), in a uniform direction;
        # row 0 has none (its Beta is never used). PyTorch 1.13 draws Beta(i - 1/2, ...),
        # which is right only for row 1: from row 2 on its correlations spread too wide.
        i = torch.arange(dim, dtype=self.concentration.dtype).clamp(min=1)
        marginal = self.concentration + 0.5 * (dim - 2)
        # (a bad concentration is reported as this distribution's own argument, below)
        self._beta = Beta(i / 2, marginal.unsqueeze(-1) - (i - 1) / 2, validate_args=False)
        super().__init__(self.concentration.shape, torch.Size((dim, dim)), validate_args=validate_args)

    def expand(self, batch_shape, _instance=None):
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = torch.Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        super(LKJCholesky, new).__init__(batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape=torch.Size()):
        with torch.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            # each row's off-diagonal part: a uniform direction on its sphere, of length sqrt(y)
            u = torch.randn(self._extended_shape(sample_shape), dtype=y.dtype).tril(-1)
            norm = u.norm(dim=-1, keepdim=True)
            u = u / torch.where(norm > 0, norm, torch.ones_like(norm))
            w = y.sqrt() * u
            # the diagonal completes each row to unit length
            tiny = torch.finfo(w.dtype).tiny
            diagonal = (1 - (w * w).sum(-1)).clamp(min=tiny).sqrt()
            return w + torch.diag_embed(diagonal)

    def log_prob(self, value):
        # det(L L^T)^(c - 1) = prod L_ii^(2c - 2); the Jacobian from the correlation matrix to
        # its factor contributes prod L_ii^(dim - i) (i = 2..dim, counting from 1): the
        # factor's density is prod L_ii^(2c - 2 + dim - i) over the normalising constant of
        # LKJ's paper (its page 1999).
        if self._validate_args:
            self._validate_sample(value)
        diagonal = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        i = torch.arange(2, self.dim + 1, dtype=self.concentration.dtype)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - i
        unnormalised = (order * diagonal.log()).sum(-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        # the paper's pi term is dim (dim - 1) / 4 log pi; mvlgamma's is (dim - 1)(dim - 2) / 4
        # log pi, which leaves (dim - 1) / 2 log pi
        log_normaliser = 0.5 * dm1 * math.log(math.pi) + torch.mvlgamma(alpha - 0.5, dm1) - dm1 * torch.lgamma(alpha)
        return unnormalised - log_normaliser
