#include "python/csrc/Bind.h"

namespace torch::python {

void bindNNSpatial(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
