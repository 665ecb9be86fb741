"""torch.__config__: what this build runs on, as PyTorch's show() and parallel_info() print it.

The figures are the ones chosen at run time: the vector kernels' instruction set (Note [Vector
kernels] in TH/THVector.h), OpenBLAS's core (Note [A BLAS core that knows the processor] in
TH/THBlasCore.h) and the threads the machine can give now (Note [Threads the machine can give]
in TH/THGeneral.cpp)."""

import os

import torch

__all__ = ["show", "parallel_info"]


def _config():
    return torch._C._build_config()


def show():
    """The build's libraries and the instruction sets in use, one line each."""
    config = _config()
    openmp = config["openmp"]
    cuda = torch.cuda.device_count() if torch.cuda.is_available() else 0
    lines = [
        "PyTorch built with:",
        f"  - {config['compiler']}",
        f"  - oneDNN v{config['dnnl']} (convolutions and bfloat16 products)",
        f"  - OpenMP {openmp}",
        f"  - BLAS and LAPACK: {config['blas'].strip()}; core in use: {config['blas_core'] or 'not OpenBLAS'}",
        f"  - CPU capability usage: {config['vector_kernels'].upper()}",
        f"  - CUDA: {cuda} device(s)" if cuda else "  - CUDA: no GPU available",
    ]
    return "\n".join(lines) + "\n"


def parallel_info():
    """The thread settings of the CPU kernels and the environment variables that set them."""
    config = _config()
    lines = [
        "ATen/Parallel:",
        f"\tat::get_num_threads() : {torch.get_num_threads()}",
        f"\tat::get_num_interop_threads() : {torch.get_num_interop_threads()}",
        f"OpenMP {config['openmp']}",
        f"\tomp_get_max_threads() : {torch.get_num_threads()}",
        f"\tthreads the machine can give now : {config['usable_threads']}",
        f"OpenBLAS core : {config['blas_core'] or 'not OpenBLAS'}",
        f"std::thread::hardware_concurrency() : {os.cpu_count()}",
        "Environment variables:",
    ]
    for name in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_CORETYPE", "TH_USABLE_THREADS", "TH_VECTOR"):
        lines.append(f"\t{name} : {os.environ.get(name, '[not set]')}")
    lines.append("ATen parallel backend: OpenMP")
    return "\n".join(lines) + "\n"
