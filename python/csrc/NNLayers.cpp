#include "python/csrc/Bind.h"

namespace torch::python {

void bindNNLayers(py::module &m, TensorClass &cls) {}

}  // namespace torch::python
