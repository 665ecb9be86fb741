"""DataPipes (PyTorch 1.13's torch.utils.data.datapipes): composable, functional-style data
loading steps. ``iter`` holds the iterable-style ones, ``map`` the map-style ones."""

from torch.utils.data.datapipes import iter, map  # noqa: F401
from torch.utils.data.datapipes import datapipe  # noqa: F401
