"""torch.utils: helpers around the tensor library (data loading)."""

from torch.utils import data  # noqa: F401
