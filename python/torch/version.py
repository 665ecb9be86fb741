"""torch.version: which PyTorch API this package follows, and what it was built with."""

from torch.torch_version import TorchVersion

# The API level of PyTorch 1.13, which the tests compare against; the local part says this is
# not PyTorch's own build.
__version__ = TorchVersion("1.13.0+recreated")
from torch import _C

# the CUDA version THC was built against, None in a build without the toolkit
cuda = _C._cuda_version if _C._cuda_is_built else None
hip = None
debug = False
git_version = "unknown"
