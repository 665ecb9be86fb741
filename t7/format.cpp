#include "t7/format.h"

namespace t7 {

const char *scalarTypeName(ScalarType type) { return th::typeName(type); }

namespace format {

std::optional<ArrayClass> arrayClass(const std::string &name) {
  static const std::string kTorch = "torch.", kCuda = "Cuda", kStorage = "Storage", kTensor = "Tensor";
  if (name.compare(0, kTorch.size(), kTorch) != 0) return std::nullopt;
  std::string rest = name.substr(kTorch.size());
  bool isStorage;
  if (rest.size() >= kStorage.size() && rest.compare(rest.size() - kStorage.size(), kStorage.size(), kStorage) == 0) {
    isStorage = true;
    rest.resize(rest.size() - kStorage.size());
  } else if (rest.size() >= kTensor.size() &&
             rest.compare(rest.size() - kTensor.size(), kTensor.size(), kTensor) == 0) {
    isStorage = false;
    rest.resize(rest.size() - kTensor.size());
  } else {
    return std::nullopt;
  }
  // cutorch names its Float types torch.CudaStorage / torch.CudaTensor, the others Cuda<Type>.
  if (rest == kCuda) return ArrayClass{ScalarType::Float, isStorage};
  if (rest.compare(0, kCuda.size(), kCuda) == 0) {
    rest = rest.substr(kCuda.size());
    if (rest == "Float") return std::nullopt;
  }
#define T7_MATCH(Name, T, ...) \
  if (rest == #Name) return ArrayClass{ScalarType::Name, isStorage};
  TH_FORALL_TYPES(T7_MATCH)
#undef T7_MATCH
  return std::nullopt;
}

std::string className(ScalarType type, bool isStorage) {
  return std::string("torch.") + scalarTypeName(type) + (isStorage ? "Storage" : "Tensor");
}

std::string storageClassOf(const std::string &tensorClass) {
  return tensorClass.substr(0, tensorClass.size() - (sizeof("Tensor") - 1)) + "Storage";
}

}  // namespace format
}  // namespace t7
