#include "core/Dispatch.h"

#include <atomic>
#include <cmath>
#include <mutex>
#include <vector>

#include "core/BFloat16.h"
#include "core/ReducedFloat.h"
#include "core/ops/CopyKernels.h"

namespace torch {

namespace {
std::mutex gTablesMutex;
std::vector<std::function<void(Device, Device)>> &tables() {
  static auto *all = new std::vector<std::function<void(Device, Device)>>();  // tables outlive exit
  return *all;
}
}  // namespace

void detail::registerTable(std::function<void(Device from, Device to)> copyColumn) {
  std::lock_guard<std::mutex> hold(gTablesMutex);
  tables().push_back(std::move(copyColumn));
}

void detail::wrongDevice(const char *op, Device kernel, Device tensor) {
  fail(th::ErrorKind::Runtime,
       "Expected all tensors to be on the same device, but found at least two devices, %s and %s! (in %s)",
       deviceName(kernel), deviceName(tensor), op);
}

void copyColumn(Device from, Device to) {
  std::lock_guard<std::mutex> hold(gTablesMutex);
  for (auto &copy : tables()) copy(from, to);
}

void missingKernel(const char *op, Types types, Device device, ScalarType dtype) {
  if (types == Types::Floating && dtype != ScalarType::Float && dtype != ScalarType::Double) {
    fail(th::ErrorKind::Type, "%s is only implemented for floating point tensors (got %s)", op, scalarTypeName(dtype));
  }
  if (types != Types::All && isReducedFloat(dtype)) {
    fail(th::ErrorKind::Type, "%s is not implemented for %s tensors", op, scalarTypeName(dtype));
  }
  fail(th::ErrorKind::Runtime, "\"%s\" not implemented for '%s'%s%s", op, scalarTypeName(dtype),
       device == Device::CPU ? "" : " on ", device == Device::CPU ? "" : deviceName(device));
}

namespace cpu {

Tensor widenToFloat(const Tensor &reduced) {
  Tensor f = empty(reduced.sizes(), ScalarType::Float, Device::CPU);
  copyKernels().copy(Device::CPU, ScalarType::Float, f, reduced);
  return f;
}

bool changedFrom(const Tensor &reduced, const Tensor &values) {
  if (reduced.sizes() != values.sizes()) return true;
  if (reduced.isContiguous() && values.isContiguous()) {
    return reduced::differ(reinterpret_cast<const THHalf *>(reduced.dataPtr()),
                           reinterpret_cast<const float *>(values.dataPtr()), values.numel(), reduced.dtype());
  }
  std::atomic<bool> changed{false};  // th::apply may run on several threads
  th::apply(
      [&](THHalf &was, float &value) {
        float old = reducedToFloat(was, reduced.dtype());
        // exact: the copy was made from these values; NaN for NaN is no change
        if (old != value && !(std::isnan(old) && std::isnan(value))) changed.store(true, std::memory_order_relaxed);
      },
      th::ref(reduced.th<THHalf>()), th::ref(values.th<float>()));
  return changed.load();
}

void roundInto(const Tensor &reduced, const Tensor &values) {
  if (reduced.sizes() != values.sizes()) resize_(reduced, values.sizes());  // a kernel that resized its output
  copyKernels().copy(Device::CPU, reduced.dtype(), reduced, values);
}

}  // namespace cpu

}  // namespace torch
