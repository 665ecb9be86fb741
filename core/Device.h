// Where a tensor's elements live. Every tensor of the core is on the CPU today; the CUDA
// column of the dispatch tables (Note [Dispatch by device and type] in core/Dispatch.h) is
// filled by the GPU library when it exists.
#ifndef TORCH_DEVICE_H
#define TORCH_DEVICE_H

#include <cstdint>

namespace torch {

enum class Device : int8_t { CPU, CUDA };
constexpr int kNumDevices = 2;

inline const char *deviceName(Device d) { return d == Device::CPU ? "cpu" : "cuda"; }

}  // namespace torch

#endif
