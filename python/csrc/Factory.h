// Keyword arguments of the creation functions (Factory.cpp, Random.cpp): out=, dtype=,
// device=, requires_grad= and the layout keywords PyTorch accepts.
#ifndef TORCH_PYTHON_FACTORY_H
#define TORCH_PYTHON_FACTORY_H

#include <set>
#include <string>

#include "python/csrc/Bind.h"

namespace torch::python {

// **kwargs taken one name at a time; finish() rejects the names nobody took, as a
// signature would.
class Keywords {
 public:
  Keywords(const char *function, const py::kwargs &kwargs) : function_(function), kwargs_(kwargs) {}
  py::object take(const char *name);  // None when absent
  void finish() const;

 private:
  const char *function_;
  py::kwargs kwargs_;
  std::set<std::string> taken_;
};

// out=, dtype=, layout=, device=, requires_grad=, pin_memory=, memory_format=.
struct CreationOptions {
  explicit CreationOptions(Keywords &kw);
  std::optional<Tensor> out;
  std::optional<ScalarType> dtype;
  std::optional<Device> device;
  bool requiresGrad = false;
};

// The tensor a creation function fills: out (resized to sizes) when given, else a new
// tensor of the requested dtype and device (the fallbacks when none was given).
Tensor creationTarget(const CreationOptions &options, const IntList &sizes, ScalarType fallback,
                      Device fallbackDevice = Device::CPU);
// Where the creation functions put a tensor when no device= is given: the CPU, unless
// torch.set_default_tensor_type chose a CUDA type (as in PyTorch 1.13).
Device defaultFactoryDevice();
void setDefaultFactoryDevice(Device device);
// The Python object of a created tensor, with requires_grad applied.
py::object finishCreation(const Tensor &t, const CreationOptions &options);
// Sizes from f(2, 3), f((2, 3)), f(torch.Size) or size=.
IntList creationSizes(const py::args &args, Keywords &kw);

}  // namespace torch::python

#endif
