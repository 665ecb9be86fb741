"""torch7 models (.t7) to torch.nn modules and back.

    python -m torch.utils.convert_t7 model.t7 out.pt [--emit-python model.py]
        [--reference io.t7] [--input-size 2,3,224,224] [--tolerance T] [--save-module whole.pt]
    python -m torch.utils.convert_t7 --list     the torch7 classes that convert, and those that do not

reads a torch7 model with load_lua, converts it (convert), checks the converted module
against a reference on one input and prints the largest difference, and only when that is
within the tolerance saves the state_dict with torch.save (and, if asked, Python source that
rebuilds the model class: emit_python). The reference is, in this order: a .t7 table with
`input` and `output` recorded by torch7 (--reference), else the loaded model's own `forward`
(torch.legacy.nn) on a random input; a model with neither is converted and saved with a
"no reference" notice. Exit status: 0 saved, 1 refused (difference above the tolerance),
2 cannot convert or read.

From Python:
    model = convert(load_lua("model.t7"))      # a torch.nn.Module with the weights copied
    emit_python(model, "model.py")            # `class Model` that load_state_dict accepts
    to_t7(torch_nn_model, "back.t7")           # the reverse, as torch7 nn objects (save_lua)

The package, one concern a file:
    runtime.py      the torch.nn modules converted models are built of (Note [torch7 semantics kept])
    layers.py       more of them: torch7 layers with their parameters as torch7 lays them out
    losses.py       torch7 criterions that torch.nn has no loss for
    converter.py    convert: torch.legacy.nn objects (as load_lua gives them) -> torch.nn modules
    checker.py      check: the converted forward against torch7's recorded output or the legacy forward
    emitter.py      emit_python: Python source of a converted model's class
    exporter.py     to_t7: torch.nn modules -> torch7 nn objects
    cli.py          main, the command line above (__main__.py runs it)
    errors.py       ConversionError, raised by all of them
    model_dtype.py  the element type of a torch.nn model, which inputs, emitted classes and to_t7 follow
Source written by emit_python imports the runtime modules from this package
(`from torch.utils.convert_t7 import View, ...`), so every runtime module is re-exported here.
"""

from torch.utils.convert_t7.errors import ConversionError
from torch.utils.convert_t7.runtime import (
    Affine,
    Concat,
    ConcatTable,
    DepthConcat,
    Dropout,
    FlattenTable,
    Graph,
    JoinTable,
    Narrow,
    NarrowTable,
    Padding,
    Parallel,
    ParallelTable,
    Pointwise,
    Reduce,
    Replicate,
    Reshape,
    Select,
    SelectTable,
    SoftMax,
    Squeeze,
    TableOp,
    Transpose,
    Unsqueeze,
    View,
)
from torch.utils.convert_t7.converter import convert
from torch.utils.convert_t7.checker import check
from torch.utils.convert_t7.emitter import emit_python
from torch.utils.convert_t7.exporter import to_t7
from torch.utils.convert_t7.cli import main

__all__ = [
    "convert",
    "check",
    "emit_python",
    "to_t7",
    "ConversionError",
    "main",
    "Concat",
    "DepthConcat",
    "ConcatTable",
    "ParallelTable",
    "Parallel",
    "TableOp",
    "JoinTable",
    "SelectTable",
    "NarrowTable",
    "FlattenTable",
    "View",
    "Reshape",
    "Padding",
    "Narrow",
    "Select",
    "Reduce",
    "SoftMax",
    "Dropout",
    "Affine",
    "Pointwise",
    "Transpose",
    "Replicate",
    "Unsqueeze",
    "Squeeze",
    "Graph",
]


def _export_runtime_modules():
    """Every runtime module of layers.py and losses.py, importable from the package as emitted
    source imports it (`from torch.utils.convert_t7 import CMul`)."""
    from torch.utils.convert_t7 import layers, losses
    from torch.utils.convert_t7.runtime import _T7Module

    for source in (layers, losses):
        for name, value in vars(source).items():
            if isinstance(value, type) and issubclass(value, _T7Module) and value.__module__ == source.__name__:
                if not name.startswith("_"):
                    globals()[name] = value
                    __all__.append(name)


_export_runtime_modules()
