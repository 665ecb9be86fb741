"""torch.package: not available here (its archives hold TorchScript-era pickles of PyTorch's own
modules, which this package cannot import); the names import, and using them raises
NotImplementedError. torch.save/torch.load cover models' weights."""

from torch._unsupported import unsupported_class

_WHY = "torch.package archives pickle PyTorch's own module code; use torch.save and torch.load for weights"

PackageExporter = unsupported_class(__name__, "PackageExporter", _WHY)
PackageImporter = unsupported_class(__name__, "PackageImporter", _WHY)
Importer = unsupported_class(__name__, "Importer", _WHY)
OrderedImporter = unsupported_class(__name__, "OrderedImporter", _WHY)


class PackagingError(Exception):
    """What PackageExporter raises on a dependency it cannot package."""


class EmptyMatchError(Exception):
    """What PackageExporter raises when an allow_empty=False pattern matched nothing."""


__all__ = ["PackageExporter", "PackageImporter", "Importer", "OrderedImporter", "PackagingError", "EmptyMatchError"]
