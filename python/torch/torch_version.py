"""TorchVersion: torch.__version__ as a str that also compares as a version, as PyTorch's
does, so that checks like `torch.__version__ >= "1.6"` or `>= (1, 10)` read it right."""

import re

__all__ = ["TorchVersion"]


def _release(version):
    """The release numbers of a version: "1.13.0+local" -> (1, 13, 0); a tuple as it is."""
    if isinstance(version, tuple):
        return tuple(int(v) for v in version)
    match = re.match(r"\s*v?(\d+(?:\.\d+)*)", str(version))
    if not match:
        raise ValueError("not a version: %r" % (version,))
    return tuple(int(v) for v in match.group(1).split("."))


def _padded(a, b):
    n = max(len(a), len(b))
    return a + (0,) * (n - len(a)), b + (0,) * (n - len(b))


class TorchVersion(str):
    def _compare(self, other):
        a, b = _padded(_release(self), _release(other))
        return (a > b) - (a < b)

    def __lt__(self, other):
        return self._compare(other) < 0

    def __le__(self, other):
        return self._compare(other) <= 0

    def __gt__(self, other):
        return self._compare(other) > 0

    def __ge__(self, other):
        return self._compare(other) >= 0

    def __eq__(self, other):
        if isinstance(other, (tuple, TorchVersion)):
            return self._compare(other) == 0
        return str.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = str.__hash__
