#include "python/csrc/Bind.h"

namespace torch::python {

void bindRandom(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
