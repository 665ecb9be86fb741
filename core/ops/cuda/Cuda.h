// CUDA as a device of the core (the torch.cuda issue): THC's caching allocator registered as
// the CUDA memory of the core's tensors (Note [Memory of a device] in core/Tensor.h) and THC's
// kernels as the CUDA column of the kernel tables (Note [Dispatch by device and type] in
// core/Dispatch.h). A program that links //core:cuda calls init() once (the bindings do as
// they load):
//
//   if (torch::cuda::init()) {
//     Tensor x = torch::to(cpuTensor, ScalarType::Float, Device::CUDA);
//     Tensor y = torch::binary(BinaryOp::Add, x, x);  // THC's cadd, on the GPU
//   }
//
// Without a GPU init() registers nothing and returns false; a CUDA tensor then raises the
// core's "no cuda memory" error. The column holds what THC, THCUNN and cuDNN have with the
// CPU kernels' semantics (core/ops/cuda/generic/): copies between every pair of types and
// devices, fill, reading one element, the pointwise tables; the reductions, scans, sorts
// and order statistics (sum ... norm, max/min with indices, median, mode, kthvalue, sort,
// topk, cumsum, all/any, logsumexp's shift); clamp, addcmul/addcdiv, lerp, where, cross,
// renorm; the indexing ops (index_select ... put_, advanced indexing; indices from 0); BLAS
// products and LAPACK factorizations (Float and Double); the random fills, drawn from THC's
// own generator; THCUNN's activations, softmax, element-wise and NLL criterions and max
// pooling (CudaPooling.cpp); cuDNN's convolutions, transposed convolutions and batch
// normalization (Cudnn*.cpp); the core's own activations (MapActivations.cu); and for what
// no library has, the composite kernels (core/ops/Composite.h: linear, layer norm, embedding,
// resampling, BCE, and a few on host copies). An op whose kernel is still missing (unique,
// eig, det, lstsq, ctc_loss, ...) raises "... not implemented for 'Float' on cuda". THC has
// no math on Half; Bool runs on the Byte kernels, as on the CPU.
#ifndef TORCH_OPS_CUDA_CUDA_H
#define TORCH_OPS_CUDA_CUDA_H

#include <atomic>
#include <cstdint>
#include <string>

#include "THC/THCGeneral.h"

namespace torch::cuda {

bool init();        // true when a CUDA GPU is present (registers once, thread-safe)
THCState *state();  // the process's THCState; only after init() returned true

// torch.backends.cudnn's switches, read by the cuDNN kernels at each call (CudnnConvolution.cpp).
struct CudnnFlags {
  std::atomic<bool> benchmark{false};      // time the algorithms once per shape, keep the fastest
  std::atomic<bool> deterministic{false};  // only algorithms that give the same bits every run
  std::atomic<bool> allowTF32{true};       // Float convolutions may run on TF32 tensor cores
};
CudnnFlags &cudnnFlags();
int cudnnVersion();  // the loaded cuDNN's, as cudnnGetVersion() (91400 for 9.14.0)

// Why init() returned false, in the runtime's words ("no CUDA-capable device is detected").
std::string unavailableReason();

// torch.cuda's questions, for a device that exists (after init() returned true).
struct DeviceProperties {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  int64_t totalMemory = 0;   // bytes
  int multiProcessorCount = 0;
};
DeviceProperties properties(int device);

}  // namespace torch::cuda

#endif
