"""torch.ops, torch.library, the *_copy views, DisableTorchFunction and the modules' re-exported
names (module_names_cases.py): the same results as real PyTorch 1.13; torch.fx and torch.package
import and fail clearly when used."""

import pytest

import module_names_cases
import torch
from real_pytorch import same_as_pytorch_1_13


real_results, test_same_as_pytorch_1_13 = same_as_pytorch_1_13(
    "module_names_cases.py", module_names_cases.CASES, lambda name, got, want: (0, 0)
)


def test_fx_and_package_fail_clearly():
    from torch.fx import symbolic_trace

    with pytest.raises(NotImplementedError, match="torch.fx.symbolic_trace is not available"):
        symbolic_trace(torch.nn.Linear(2, 2))

    class MyTracer(torch.fx.Tracer):
        pass

    with pytest.raises(NotImplementedError, match="torch.fx.Tracer"):
        MyTracer()
    with pytest.raises(NotImplementedError, match="torch.package.PackageExporter"):
        torch.package.PackageExporter("model.pt")
    with pytest.raises(RuntimeError, match="load_library"):
        torch.ops.load_library("libcustom.so")


def test_aten_kernels_cannot_be_overridden():
    lib = torch.library.Library("aten", "IMPL")
    with pytest.raises(NotImplementedError, match="cannot be overridden"):
        lib.impl("add.Tensor", lambda a, b: a - b, "CPU")
    x = torch.ones(2)
    assert torch.add(x, x).tolist() == [2.0, 2.0]
