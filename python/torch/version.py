"""torch.version: which PyTorch API this package follows, and what it was built with."""

from torch.torch_version import TorchVersion

# The API level of PyTorch 1.13, which the tests compare against; the local part says this is
# not PyTorch's own build.
__version__ = TorchVersion("1.13.0+recreated")
cuda = None  # no CUDA tensors in this build (torch.cuda.is_available() is False)
hip = None
debug = False
git_version = "unknown"
