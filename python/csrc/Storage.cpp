#include "python/csrc/Bind.h"

namespace torch::python {

void bindStorage(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
