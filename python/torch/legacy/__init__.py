"""torch.legacy: torch7's classes in Python. For now the objects that
torch.utils.serialization.load_lua makes for torch7 classes (nn modules, ...): placeholders
that expose the fields the file holds (see torch.legacy.nn); and torch7's optim methods
(torch.legacy.optim)."""

from torch.legacy import nn  # noqa: F401
from torch.legacy import optim  # noqa: F401
