// Where a tensor's elements live. A device other than the CPU exists in a process once its
// library has registered its memory (Note [Memory of a device] in core/Tensor.h) and its
// column of the kernel tables (Note [Dispatch by device and type] in core/Dispatch.h).
#ifndef TORCH_DEVICE_H
#define TORCH_DEVICE_H

#include <cstdint>

namespace torch {

enum class Device : int8_t { CPU, CUDA };
constexpr int kNumDevices = 2;

inline const char *deviceName(Device d) { return d == Device::CPU ? "cpu" : "cuda"; }

}  // namespace torch

#endif
