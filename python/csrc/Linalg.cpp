#include "python/csrc/Bind.h"

namespace torch::python {

void bindLinalg(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
