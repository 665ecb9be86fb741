// The stand-in CUDA device: host memory registered as the CUDA device's (and as its pinned
// memory, through an allocator of its own) and the CPU's kernels
// copied into the CUDA column of every table (Note [A device's column copied] in
// core/Dispatch.h). It lets a machine without a GPU check what the core and the bindings do
// with a second device — where results live, what views, gradients, copies and files keep,
// which mixes raise — against the same calls on the CPU. It checks no GPU kernel: those are
// THC's, checked by the GPU suites. Never used when a real CUDA device is registered.
#ifndef TORCH_OPS_STAND_IN_DEVICE_H
#define TORCH_OPS_STAND_IN_DEVICE_H

namespace torch {

// Registers the stand-in once (thread-safe); false, and nothing done, when the CUDA device
// already has memory of its own (a GPU library registered it). With composites, the
// composite kernels (core/ops/Composite.h) come first and the CPU's fill the rest, so that
// what a GPU runs through them is checked end to end.
bool useStandInCuda(bool composites = false);
bool usingStandInCuda();

}  // namespace torch

#endif
