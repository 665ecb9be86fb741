#include "python/csrc/Bind.h"

namespace torch::python {

void bindShape(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
