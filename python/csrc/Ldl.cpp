// torch._C._ldl_factor / _ldl_solve: core/ops/Ldl.h, which torch/linalg.py wraps with
// PyTorch's checks, batch broadcasting and out=.
#include "core/ops/Ldl.h"
#include "python/csrc/Bind.h"

namespace torch::python {

void bindLdl(py::module &m) {
  m.def(
      "_ldl_factor",
      [](const Tensor &a) {
        std::vector<Tensor> r = withoutGil([&] { return ldlFactor(a); });
        return py::make_tuple(r[0], r[1], r[2]);
      },
      py::arg("A"));
  m.def(
      "_ldl_solve",
      [](const Tensor &ld, const Tensor &pivots, const Tensor &b) {
        return withoutGil([&] { return ldlSolve(ld, pivots, b); });
      },
      py::arg("LD"), py::arg("pivots"), py::arg("B"));
}

}  // namespace torch::python
