#include "python/csrc/Bind.h"

namespace torch::python {

void bindFactory(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
