#include "core/ops/StandInDevice.h"

#include <atomic>
#include <mutex>

#include "core/Dispatch.h"
#include "core/ops/Composite.h"
#include "core/ops/CopyKernels.h"
#include "core/ops/IndexKernels.h"
#include "core/ops/LinalgKernels.h"
#include "core/ops/MathKernels.h"
#include "core/ops/NNKernels.h"
#include "core/ops/PointwiseKernels.h"
#include "core/ops/RandomKernels.h"
#include "core/ops/ReduceKernels.h"

namespace torch {

namespace {
std::atomic<bool> gStandIn{false};

// The stand-in's "pinned" memory: the heap, through an allocator of its own so that a pinned
// tensor can be told from another (isPinned compares allocators).
THAllocator gStandInPinned = {
    [](void *, ptrdiff_t size) { return THDefaultAllocator.malloc(nullptr, size); },
    nullptr,
    [](void *, void *ptr) { THDefaultAllocator.free(nullptr, ptr); },
};
}  // namespace

bool useStandInCuda(bool composites) {
  static std::mutex once;
  std::lock_guard<std::mutex> hold(once);
  if (gStandIn) return true;
  if (hasDeviceAllocator(Device::CUDA)) return false;
  // Every family's tables built (each fills its CPU column as it is built), then copied.
  copyKernels();
  indexKernels();
  linalgKernels();
  mathKernels();
  nnKernels();
  pointwiseKernels();
  randomKernels();
  reduceKernels();
  if (composites) composite::registerComposites(Device::CUDA);
  copyColumn(Device::CPU, Device::CUDA);
  registerDeviceAllocator(Device::CUDA, &THDefaultAllocator, nullptr);
  registerPinnedAllocator(&gStandInPinned, nullptr);
  gStandIn = true;
  return true;
}

bool usingStandInCuda() { return gStandIn; }

}  // namespace torch
