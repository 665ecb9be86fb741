"""torch.backends: which libraries run the kernels, and their switches, as in PyTorch. The
GPU ones (cudnn, cuda) report nothing available in this build (Note [No CUDA tensors yet] in
python/csrc/Bind.h); their switches exist so that programs setting them run."""

from torch.backends import cuda, cudnn, mkldnn, mps, openmp  # noqa: F401
