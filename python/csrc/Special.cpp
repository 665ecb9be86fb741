// torch._C._special_function(name, x): the special functions of core/ops/Special.h, which
// torch/special.py wraps with PyTorch's argument handling, dtypes and out=.
#include "core/ops/Special.h"
#include "python/csrc/Bind.h"

namespace torch::python {

void bindSpecial(py::module &m) {
  m.def(
      "_special_function",
      [](const std::string &name, const Tensor &x) {
        SpecialFunction f = specialFunctionNamed(name);
        return withoutGil([&] { return specialFunction(f, x); });
      },
      py::arg("name"), py::arg("input"));
}

}  // namespace torch::python
