// What the reader and the writer agree on: torch7's type tags (File.lua) and the class names
// of storages and tensors. Private to legacy/.
#ifndef T7_FORMAT_H
#define T7_FORMAT_H

#include <cstdint>
#include <optional>
#include <string>

#include "t7/t7.h"

namespace t7::format {

// The int32 written before every value.
enum Tag : int32_t {
  kNil = 0,
  kNumber = 1,
  kString = 2,
  kTable = 3,
  kTorch = 4,
  kBoolean = 5,
  kFunction = 6,
  kLegacyRecurFunction = 7,
  kRecurFunction = 8,
};

// torch.<Type>Storage / torch.<Type>Tensor and cutorch's torch.Cuda<Type>Storage /
// torch.Cuda<Type>Tensor (torch.CudaTensor is Float): cutorch writes them as the CPU types
// of the same element type, so they load as TH objects that keep their class name.
struct ArrayClass {
  ScalarType type;
  bool isStorage;  // else a tensor
};
std::optional<ArrayClass> arrayClass(const std::string &className);
std::string className(ScalarType type, bool isStorage);
// The storage class of a tensor class: torch.CudaTensor -> torch.CudaStorage.
std::string storageClassOf(const std::string &tensorClass);

// Calls f(T()) for the element type; T is THHalf for Half.
template <typename F>
decltype(auto) dispatch(ScalarType type, F &&f) {
  return th::visit(type, [&](auto tag) -> decltype(auto) { return f(typename decltype(tag)::type()); });
}

}  // namespace t7::format

#endif
