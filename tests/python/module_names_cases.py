"""Cases of the other names issue 21 added (torch.ops and torch.library, the *_copy views,
DisableTorchFunction, and the names 1.13's torch, torch.nn.functional and torch.autograd modules
hold through their imports), run the same way by this package and by real PyTorch 1.13 (Debian's
python3-torch). test_module_names.py compares the two runs.

Run directly (`python3 module_names_cases.py OUT.npz`) it writes every case's results to OUT.npz,
with the `torch` that interpreter imports."""

import numpy as np

import case_runner

from functional_cases import error_name

CASES, case = case_runner.registry()


@case
def module_reexports(torch):
    import torch.nn.functional as F

    return [
        F.math.__name__,
        F.warnings.__name__,
        F.torch.__name__,
        F.Tensor.__name__,
        str(F.DType),
        F.utils.__name__,
        str(F.Optional[int]),
        torch.os.__name__,
        torch.sys.__name__,
        torch.platform.__name__,
        torch.textwrap.__name__,
        str(torch.legacy_contiguous_format),
        np.array([torch.USE_GLOBAL_DEPS, torch.USE_RTLD_GLOBAL_WITH_LIBTORCH, torch.TYPE_CHECKING]),
        str(torch.types.Number),
        str(torch.types._size),
        torch.autograd.ProfilerActivity.CPU.name,
        np.array(torch.autograd.ProfilerActivity is torch.profiler.ProfilerActivity),
        torch.autograd.profiler_util.EventList.__name__,
        str(torch.autograd.Sequence[int]),
    ]


@case
def boolean_dispatch(torch):
    import torch.nn.functional as F

    def with_indices(x, flag=False):
        return x.max(0)[1]

    def without(x, flag=False):
        """The largest element."""
        return x.max()

    fn = F.boolean_dispatch("flag", 1, False, with_indices, without, "mine", "largest")
    x = torch.tensor([3.0, 7.0, 5.0])
    return [fn(x).numpy(), fn(x, True).numpy(), fn(x, flag=True).numpy(), fn.__name__, fn.__doc__, with_indices.__doc__]


@case
def aten_ops(torch):
    x = torch.tensor([1.0, -2.0, 3.0])
    aten = torch.ops.aten
    y = x.clone()
    aten.add_.Tensor(y, x)
    return [
        aten.add(x, x).numpy(),
        aten.add.Tensor(x, x, alpha=2).numpy(),
        aten.relu.default(x).numpy(),
        aten.sum.dim_IntList(torch.ones(2, 3), [1]).numpy(),
        aten.mul(x, 2).numpy(),
        aten.linear(x, torch.ones(2, 3)).numpy(),
        y.numpy(),
        repr(aten.add),
        repr(aten.add.Tensor),
        str(aten.add),
        str(aten.add.Tensor),
        error_name(lambda: aten.no_such_op),
        error_name(lambda: torch.ops.no_such_namespace.op),
    ]


@case
def library(torch):
    lib = torch.library.Library("issue21cases", "DEF")
    name = lib.define("scale(Tensor x, float s) -> Tensor")
    lib.impl("scale", lambda x, s: x * s, "CPU")
    lib.define("scale.twice(Tensor x) -> Tensor")
    lib.impl("scale.twice", lambda x: x * 2)

    @torch.library.define(lib, "shift(Tensor x, float s=1.0) -> Tensor")
    def shift(x, s=1.0):
        return x + s

    x = torch.tensor([1.0, 2.0])
    ops = torch.ops.issue21cases
    return [
        name,
        ops.scale(x, 3.0).numpy(),
        ops.scale.default(x, 0.5).numpy(),
        ops.scale.twice(x).numpy(),
        ops.shift(x).numpy(),
        ops.shift(x, 2.5).numpy(),
        repr(lib),
        error_name(lambda: torch.library.Library("issue21cases2", "FRAGMENT")),
        error_name(lambda: lib.impl("scale", lambda x, s: x, "CPU")),
        error_name(lambda: lib.impl("scale", 3)),
        error_name(lambda: ops.scale.nosuch),
        error_name(lambda: torch.library.Library("prim", "DEF")),
    ]


@case
def copies_of_views(torch):
    z = torch.tensor([1 + 2j, 3 - 1j])
    real = torch.view_as_real_copy(z)
    real[0, 0] = 9
    pairs = torch.tensor([[1.0, 2.0], [0.5, -1.0]])
    complex_copy = torch.view_as_complex_copy(pairs)
    pairs[0, 0] = 7
    return [real.numpy(), z.numpy(), complex_copy.numpy()]


@case
def disable_torch_function(torch):
    class TensorLike:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "dispatched"

    relevant = (TensorLike(),)
    outside = torch.overrides.has_torch_function(relevant)
    with torch.DisableTorchFunction():
        inside = torch.overrides.has_torch_function(relevant)
    return [np.array([outside, inside, torch.overrides.has_torch_function(relevant)])]


if __name__ == "__main__":
    case_runner.main(CASES)
