#include "core/Dispatch.h"

#include <mutex>
#include <vector>

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
  if (types != Types::All && dtype == ScalarType::Half) {
    fail(th::ErrorKind::Type, "%s is not implemented for Half tensors", op);
  }
  fail(th::ErrorKind::Runtime, "\"%s\" not implemented for '%s'%s%s", op, scalarTypeName(dtype),
       device == Device::CPU ? "" : " on ", device == Device::CPU ? "" : deviceName(device));
}

namespace cpu {

Tensor halfToFloat(const Tensor &half) {
  Tensor f = empty(half.sizes(), ScalarType::Float, Device::CPU);
  copyKernels().copy(Device::CPU, ScalarType::Float, f, half);
  return f;
}

void roundIntoHalf(const Tensor &half, const Tensor &f) {
  if (half.sizes() != f.sizes()) resize_(half, f.sizes());  // a kernel that resized its output
  copyKernels().copy(Device::CPU, ScalarType::Half, half, f);
}

}  // namespace cpu

}  // namespace torch
