"""torch.legacy: torch7's classes in Python. torch.legacy.nn holds torch7's nn modules and
criterions with torch7's API over torch tensors; torch.utils.serialization.load_lua makes
its objects for the nn classes of a .t7 file (and placeholders for other classes).
torch.legacy.optim holds torch7's optim methods with the (opfunc, x, config, state)
interface."""

from torch.legacy import nn  # noqa: F401
from torch.legacy import optim  # noqa: F401
