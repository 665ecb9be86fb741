"""torch7's .t7 files: load_lua and save_lua, over the project's C++ reader and writer in
legacy/ (torch._C._t7_load / _t7_save; see Note [t7 to Python] in python/csrc/Legacy.cpp).

What comes back from load_lua:
- Lua numbers: Python floats (Lua has only doubles; PyTorch 0.4's load_lua did the same).
- strings: str (bytes when they are not UTF-8), booleans: bool, nil: None.
- tables: a list when the keys are exactly 1..n, else a dict (an empty table is {}).
- torch.<Type>Tensor / Storage: torch tensors / storages on the memory the reader made, so
  tensors that shared a storage in the file share one storage; contents as written (index
  index buffers are shifted as the next point says).
- other torch7 classes: torch.legacy.nn placeholder objects whose attributes are the fields
  (older nn fields upgraded: a BatchNormalization's running_std becomes running_var). Fields
  torch7 counts from 1 (a Select's dimension, max-pooling indices, ...) come back 0-based
  and are written back 1-based (Note [1-based fields] in torch/legacy/nn/t7fields.py).
- Lua functions: opaque torch._C._t7_Function handles that save_lua writes back intact.
A value referenced twice in the file comes back as one Python object.

Note [Models saved on a GPU]: a CPU-only machine loads them as their CPU equivalents.
- cutorch's torch.Cuda<Type>Tensor / Storage are tensors / storages of the same element type
  (torch.CudaTensor is Float), except torch.CudaHalf*, which come back as Float (still
  sharing storages as in the file): Half is a storage format on the CPU, not one to compute in.
  A `_type` field naming a CUDA type names the CPU type ("torch.CudaTensor" -> "torch.FloatTensor").
- cudnn.* modules that have an nn twin (cudnn.SpatialConvolution, cudnn.ReLU,
  cudnn.SpatialBatchNormalization, ...: _CUDNN_TWINS) load as that nn class, with the fields
  that only cuDNN uses (descriptors, cached sizes, algorithm modes) dropped and the others put
  as nn keeps them (e.g. cudnn.SpatialCrossMapLRN's old `K` is nn's `k`; a
  cudnn.SpatialConvolution keeps `groups` only when it is not 1, since nn has none).
- Tables used as keys (nngraph's mapindex maps node data tables to input positions) are
  dicts or lists that hash by identity (t7fields.IdentityDict / IdentityList), as Lua compares tables, so an nngraph gModule loads
  whole and can be walked: gmodule.forwardnodes[i].data["mapindex"][node.data].

Note [Unknown classes]: a class of a package with no Python counterpart here (not torch, nn,
nngraph, graph, nor a cudnn class with an nn twin) still loads, as a placeholder object
(torch.legacy.nn.class_for(name)) whose attributes are its fields, and load_lua warns once
per class and load, naming it. unknown_classes=True (as in PyTorch 0.4) loads them without
the warning; unknown_classes=False (PyTorch 0.4's default, where it raised for every class
it had no reader for) raises a RuntimeError naming the class.
"""

import os
import warnings

import torch
from torch import _C
from torch.legacy import nn as _legacy_nn
from torch.legacy.nn import t7fields as _t7fields
from torch.storage import _typed

__all__ = ["load_lua", "save_lua"]


_KNOWN_PACKAGES = frozenset({"torch", "nn", "nngraph", "graph"})

# cuDNN's fields that nn's twins do not have: descriptors (cleared before writing, but
# older versions wrote some), sizes and offsets cached for them, algorithm choices.
_CUDNN_ONLY_FIELDS = frozenset(
    {
        "iDesc",
        "oDesc",
        "oDescForBias",
        "weightDesc",
        "biasDesc",
        "convDesc",
        "convDescData",
        "poolDesc",
        "activDesc",
        "LRNDesc",
        "sDesc",
        "dropoutDesc",
        "iSize",
        "oSize",
        "nElem",
        "input_offset",
        "output_offset",
        "weight_offset",
        "fmode",
        "bdmode",
        "bwmode",
        "fastest_mode",
        "input_slice",
        "output_slice",
        "scaleT",
        "pad",
        "stride",
        "mode",
        "algorithm",
        "workspace",
        "extraBuffer",
        "extraBufferSizeInBytes",
        "nDim",
    }
)


def _twin(name, defaults=None, rename=None, drop=(), fix=None):
    return name, defaults or {}, rename or {}, frozenset(drop), fix


def _conv_groups(fields):
    if fields.get("groups", 1) == 1:
        fields.pop("groups", None)


def _clipped_relu(fields):
    fields["min_val"] = 0.0
    fields["max_val"] = float(fields.pop("ceiling", 6.0))


def _average_pooling(fields):
    # cudnn.SpatialAveragePooling counts the padding whatever the field says (its
    # `count_include_pad ~= nil and count_include_pad or true` is always true)
    fields["count_include_pad"] = True


# cudnn class -> (nn class, fields to add when absent, renamed fields, fields to drop, fix-up)
_CUDNN_TWINS = {
    "cudnn.SpatialConvolution": _twin("nn.SpatialConvolution", {"padW": 0.0, "padH": 0.0}, fix=_conv_groups),
    "cudnn.SpatialFullConvolution": _twin(
        "nn.SpatialFullConvolution", {"padW": 0.0, "padH": 0.0, "adjW": 0.0, "adjH": 0.0}, fix=_conv_groups
    ),
    "cudnn.SpatialDilatedConvolution": _twin(
        "nn.SpatialDilatedConvolution", {"padW": 0.0, "padH": 0.0}, fix=_conv_groups
    ),
    "cudnn.VolumetricConvolution": _twin(
        "nn.VolumetricConvolution", {"padT": 0.0, "padW": 0.0, "padH": 0.0}, fix=_conv_groups
    ),
    "cudnn.VolumetricFullConvolution": _twin(
        "nn.VolumetricFullConvolution",
        {"padT": 0.0, "padW": 0.0, "padH": 0.0, "adjT": 0.0, "adjW": 0.0, "adjH": 0.0},
        fix=_conv_groups,
    ),
    "cudnn.VolumetricDilatedConvolution": _twin(
        "nn.VolumetricDilatedConvolution", {"padT": 0.0, "padW": 0.0, "padH": 0.0}, fix=_conv_groups
    ),
    "cudnn.SpatialMaxPooling": _twin("nn.SpatialMaxPooling", {"padW": 0.0, "padH": 0.0, "ceil_mode": False}),
    "cudnn.SpatialAveragePooling": _twin(
        "nn.SpatialAveragePooling", {"padW": 0.0, "padH": 0.0, "ceil_mode": False, "divide": True}, fix=_average_pooling
    ),
    "cudnn.VolumetricMaxPooling": _twin(
        "nn.VolumetricMaxPooling", {"padT": 0.0, "padW": 0.0, "padH": 0.0, "ceil_mode": False}
    ),
    "cudnn.VolumetricAveragePooling": _twin("nn.VolumetricAveragePooling"),
    "cudnn.BatchNormalization": _twin("nn.BatchNormalization", {"affine": True}),
    "cudnn.SpatialBatchNormalization": _twin("nn.SpatialBatchNormalization", {"affine": True}),
    "cudnn.VolumetricBatchNormalization": _twin("nn.VolumetricBatchNormalization", {"affine": True}),
    "cudnn.ReLU": _twin("nn.ReLU", {"threshold": 0.0, "val": 0.0, "inplace": False}),
    "cudnn.ClippedReLU": _twin("nn.Clamp", {"inplace": False}, fix=_clipped_relu),
    "cudnn.Tanh": _twin("nn.Tanh", drop={"inplace"}),
    "cudnn.Sigmoid": _twin("nn.Sigmoid", drop={"inplace"}),
    "cudnn.SoftMax": _twin("nn.SoftMax"),
    "cudnn.LogSoftMax": _twin("nn.LogSoftMax"),
    "cudnn.SpatialSoftMax": _twin("nn.SpatialSoftMax"),
    "cudnn.SpatialLogSoftMax": _twin("nn.SpatialLogSoftMax"),
    "cudnn.SpatialCrossMapLRN": _twin(
        "nn.SpatialCrossMapLRN", {"size": 5.0, "alpha": 1e-4, "beta": 0.75, "k": 1.0}, rename={"K": "k"}
    ),
}


def _cpu_type_name(name):
    """torch.Cuda<Type>Tensor -> torch.<Type>Tensor (CudaTensor and CudaHalfTensor -> Float)."""
    if isinstance(name, str) and name.startswith("torch.Cuda"):
        rest = name[len("torch.Cuda") :]
        if rest in ("Tensor", "Storage"):
            return "torch.Float" + rest
        if rest.startswith("Half"):
            return "torch.Float" + rest[len("Half") :]
        return "torch." + rest
    return name


class _Hooks:
    """What the C++ converter asks of Python, for one load or save."""

    def __init__(self, unknown_classes=None, cuda=False):
        self.unknown_classes = unknown_classes
        self.cuda = cuda
        self.gpu_storages = {}  # _cdata of a storage read from a cutorch record -> (it, its GPU copy)
        self.warned = set()
        self.twins = {}  # id(obj) -> (obj, its cudnn class) until its fields are in
        self.half_storages = {}  # _cdata of a CudaHalf storage -> (it, its Float copy)
        self.shifted = {}  # index storages shifted so far (Note [1-based fields])

    @staticmethod
    def wrap_storage(cdata):
        return _typed(cdata)

    def from_gpu(self, value, half):
        """A cutorch tensor or storage, read as the CPU type of its element type: Float for
        CudaHalf; on the GPU when the caller asked, storages shared as in the file."""
        if half:
            value = self.cuda_half(value)
        if not self.cuda:
            return value
        if torch.is_tensor(value):
            storage = self._gpu_storage(value.storage())
            return torch.empty(0, dtype=value.dtype, device="cuda").set_(
                storage, value.storage_offset(), value.size(), value.stride()
            )
        return self._gpu_storage(value)

    def _gpu_storage(self, storage):
        held = self.gpu_storages.get(storage._cdata)
        if held is None:
            held = self.gpu_storages[storage._cdata] = (storage, storage.cuda())
        return held[1]

    def cuda_half(self, value):
        if torch.is_tensor(value):
            storage = self._float_storage(value.storage())
            return torch.empty(0, dtype=torch.float32).set_(
                storage, value.storage_offset(), value.size(), value.stride()
            )
        return self._float_storage(value)

    def _float_storage(self, storage):
        held = self.half_storages.get(storage._cdata)
        if held is None:
            held = self.half_storages[storage._cdata] = (storage, storage.float())
        return held[1]

    @staticmethod
    def key_table(is_list, n):
        return _t7fields.IdentityList([None] * n) if is_list else _t7fields.IdentityDict()

    def make_object(self, typename, version):
        twin = _CUDNN_TWINS.get(typename)
        if twin is None:
            self._check_known(typename)
        cls = _legacy_nn.class_for(twin[0] if twin else typename)
        obj = cls.__new__(cls)
        obj._t7_version = version
        if twin:
            self.twins[id(obj)] = (obj, typename)
        return obj

    def _check_known(self, typename):
        package = typename.rpartition(".")[0]
        if package in _KNOWN_PACKAGES or self.unknown_classes is True:
            return
        if self.unknown_classes is False:
            raise RuntimeError(
                "load_lua: no reader for the torch7 class '%s' (unknown_classes=False); pass "
                "unknown_classes=True to load it as an object with its fields as attributes" % typename
            )
        if typename not in self.warned:
            self.warned.add(typename)
            warnings.warn(
                "load_lua: the torch7 class '%s' has no Python counterpart; it is loaded as a "
                "placeholder object with its fields as attributes" % typename,
                stacklevel=3,
            )

    def set_content(self, obj, content):
        if isinstance(content, dict) and all(isinstance(k, str) for k in content):
            obj.__dict__.update(content)
            twin = self.twins.pop(id(obj), None)
            if twin is not None:
                _from_cudnn(obj.__dict__, _CUDNN_TWINS[twin[1]])
            if "_type" in obj.__dict__ and not self.cuda:
                obj.__dict__["_type"] = _cpu_type_name(obj.__dict__["_type"])
            _upgrade(obj)
            _t7fields.upgrade(obj)
            _t7fields.from_torch7(obj, self.shifted)
        else:
            obj._t7_raw = content

    @staticmethod
    def typename_of(obj):
        if isinstance(obj, _legacy_nn.TorchObject):
            return obj.torch_typename()
        return None

    def content_of(self, obj):
        try:
            return obj._t7_raw
        except AttributeError:
            return _t7fields.to_torch7(obj, dict(vars(obj)), self.shifted)

    @staticmethod
    def version_of(obj):
        return getattr(obj, "_t7_version", "V 1")


def _from_cudnn(fields, twin):
    """A cudnn module's fields as its nn twin keeps them (Note [Models saved on a GPU])."""
    _, defaults, rename, drop, fix = twin
    for name in _CUDNN_ONLY_FIELDS | drop:
        fields.pop(name, None)
    for old, new in rename.items():
        if old in fields:
            fields[new] = fields.pop(old)
    for name, value in defaults.items():
        fields.setdefault(name, value)
    if fix is not None:
        fix(fields)


def _upgrade(obj):
    """Fields of older nn versions in today's form (what nn itself does when it loads them)."""
    name = obj.torch_typename()
    fields = obj.__dict__
    # nn before 2016 kept running_std = 1 / sqrt(var + eps); since then running_var
    if (
        name.startswith("nn.")
        and name.endswith("BatchNormalization")
        and "running_var" not in fields
        and torch.is_tensor(fields.get("running_std"))
    ):
        std = fields.pop("running_std")
        fields["running_var"] = std.pow(-2).add(-float(fields.get("eps", 1e-5)))


def _read_bytes(path_or_file):
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        with open(path_or_file, "rb") as f:
            return f.read()
    data = path_or_file.read()
    if isinstance(data, str):
        data = data.encode("latin-1")
    return data


def load_lua(path_or_file, long_size=None, unknown_classes=None, allow_functions=True, cuda=False):
    """Reads one object from a torch7 .t7 file (binary or ascii) or a file object.

    long_size: 8 or 4 for the C `long` size the writer used; None detects it.
    unknown_classes: what to do with a class of a package unknown here (Note [Unknown
    classes]): None loads it as a placeholder object and warns once per class, True loads it
    without a warning, False raises a RuntimeError naming it. Models saved on a GPU load as
    their CPU equivalents (Note [Models saved on a GPU]).
    allow_functions: False refuses a file that holds a Lua function (RuntimeError naming its
    byte offset), as torch.load's weights_only refuses pickled code: give it for files from
    untrusted sources. Lua functions load as opaque handles that Python never runs, but
    save_lua writes them back and the Lua side (torch.lua) runs what it is handed.
    cuda: True puts cutorch's tensors and storages (torch.Cuda*) on the GPU, sharing storages
    as in the file (needs one: torch.cuda.is_available()); False, the default, keeps them on
    the CPU (Note [Models saved on a GPU]).
    Corrupt or truncated input raises RuntimeError naming the byte offset."""
    if long_size not in (None, 4, 8):
        raise ValueError("load_lua: long_size must be None, 4 or 8, got %r" % (long_size,))
    if unknown_classes not in (None, True, False):
        raise ValueError("load_lua: unknown_classes must be None, True or False, got %r" % (unknown_classes,))
    if allow_functions not in (True, False):
        raise ValueError("load_lua: allow_functions must be True or False, got %r" % (allow_functions,))
    if cuda not in (True, False):
        raise ValueError("load_lua: cuda must be True or False, got %r" % (cuda,))
    if cuda:
        _C._cuda_require()
    return _C._t7_load(_read_bytes(path_or_file), long_size or 0, _Hooks(unknown_classes, cuda), allow_functions)


def save_lua(obj, path_or_file, format="binary", long_size=8):
    """Writes obj as torch.save(path, obj, format) in torch7 does: tensors, storages, numbers,
    strings, booleans, None, dicts, lists and tuples (as tables with keys 1..n), and the
    objects load_lua returns. Tensors and storages referenced twice are written once."""
    data = _C._t7_save(obj, format, long_size, _Hooks())
    if isinstance(path_or_file, (str, bytes, os.PathLike)):
        with open(path_or_file, "wb") as f:
            f.write(data)
    else:
        path_or_file.write(data)
