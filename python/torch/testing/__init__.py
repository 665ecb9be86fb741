"""torch.testing: assert_close, with PyTorch 1.13's default tolerances and messages."""

from torch.testing._comparison import assert_close

__all__ = ["assert_close"]
