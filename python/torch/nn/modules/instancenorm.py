"""Instance normalization: each sample and channel normalized over its own spatial extent."""

import warnings

from torch.nn import functional as F
from torch.nn.modules.batchnorm import _NormBase
from torch.nn.modules.lazy import _LazyNormMixin

__all__ = [
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]


class _InstanceNorm(_NormBase):
    _no_batch_dim = 0

    def __init__(
        self, num_features, eps=1e-5, momentum=0.1, affine=False, track_running_stats=False, device=None, dtype=None
    ):
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype)

    def _check_input_dim(self, input):
        if input.dim() not in (self._no_batch_dim, self._no_batch_dim + 1):
            raise ValueError(
                "expected {}D or {}D input (got {}D input)".format(
                    self._no_batch_dim, self._no_batch_dim + 1, input.dim()
                )
            )

    def _get_no_batch_dim(self):
        return self._no_batch_dim

    def _apply_instance_norm(self, input):
        return F.instance_norm(
            input,
            self.running_mean,
            self.running_var,
            self.weight,
            self.bias,
            self.training or not self.track_running_stats,
            self.momentum,
            self.eps,
        )

    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ):
        version = local_metadata.get("version", None)
        # files from before 0.4 hold running statistics that untracked instance norms no longer have
        if version is None and not self.track_running_stats:
            running_stats_keys = [
                prefix + name for name in ("running_mean", "running_var") if prefix + name in state_dict
            ]
            if running_stats_keys:
                error_msgs.append(
                    "Unexpected running stats buffer(s) {names} for {klass} with track_running_stats=False. If "
                    "state_dict is a checkpoint saved before 0.4.0, this may be expected because {klass} does not "
                    "track running stats by default since 0.4.0. Please remove these keys from state_dict. If the "
                    "running stats are actually needed, instead set track_running_stats=True in {klass} to enable "
                    "them. See the documentation of {klass} for details.".format(
                        names=" and ".join('"{}"'.format(k) for k in running_stats_keys), klass=self.__class__.__name__
                    )
                )
                for key in running_stats_keys:
                    state_dict.pop(key)
        super()._load_from_state_dict(
            state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
        )

    def forward(self, input):
        self._check_input_dim(input)
        feature_dim = input.dim() - self._get_no_batch_dim()
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(
                    "expected input's size at dim={} to match num_features ({}), but got: {}.".format(
                        feature_dim, self.num_features, input.size(feature_dim)
                    )
                )
            warnings.warn(
                "input's size at dim={} does not match num_features. You can silence this warning by not "
                "passing in num_features, which is not used because affine=False".format(feature_dim)
            )
        if input.dim() == self._get_no_batch_dim():
            return self._apply_instance_norm(input.unsqueeze(0)).squeeze(0)
        return self._apply_instance_norm(input)


class InstanceNorm1d(_InstanceNorm):
    """Normalizes (N, C, L) or (C, L) inputs per sample and channel."""

    _no_batch_dim = 2


class InstanceNorm2d(_InstanceNorm):
    """Normalizes (N, C, H, W) or (C, H, W) inputs per sample and channel."""

    _no_batch_dim = 3


class InstanceNorm3d(_InstanceNorm):
    """Normalizes (N, C, D, H, W) or (C, D, H, W) inputs per sample and channel."""

    _no_batch_dim = 4


# ---- lazy versions: num_features read from the first input (see lazy.py) ----
def _lazy(norm):
    # (PyTorch 1.13's lazy instance norms default to affine and running statistics, unlike the plain ones)
    def __init__(self, eps=1e-5, momentum=0.1, affine=True, track_running_stats=True, device=None, dtype=None):
        norm.__init__(self, 0, eps, momentum, False, False)
        self._make_lazy(affine, track_running_stats, dtype)

    doc = "A %s whose num_features is the channel dim of its first input." % norm.__name__
    cls = type(
        "Lazy" + norm.__name__, (_LazyNormMixin, norm), {"__init__": __init__, "cls_to_become": norm, "__doc__": doc}
    )
    cls.__module__ = __name__
    return cls


LazyInstanceNorm1d = _lazy(InstanceNorm1d)
LazyInstanceNorm2d = _lazy(InstanceNorm2d)
LazyInstanceNorm3d = _lazy(InstanceNorm3d)
