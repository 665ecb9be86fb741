#include "python/csrc/Bind.h"

namespace torch::python {

void bindReduce(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
