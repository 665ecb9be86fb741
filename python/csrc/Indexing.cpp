#include "python/csrc/Bind.h"

namespace torch::python {

void bindIndexing(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
