"""torch7's .t7 files: load_lua and save_lua, over the project's C++ reader and writer in
legacy/ (torch._C._t7_load / _t7_save; see Note [t7 to Python] in python/csrc/Legacy.cpp).

What comes back from load_lua:
- Lua numbers: Python floats (Lua has only doubles; PyTorch 0.4's load_lua did the same).
- strings: str (bytes when they are not UTF-8), booleans: bool, nil: None.
- tables: a list when the keys are exactly 1..n, else a dict (an empty table is {}); a
  table used as a key comes back wrapped in a torch.legacy.nn.t7fields.TableKey.
- torch.<Type>Tensor / Storage: torch tensors / storages on the memory the reader made, so
  tensors that shared a storage in the file share one storage; contents as written (index
  buffers such as max-pooling `indices` keep torch7's 1-based values).
- other torch7 classes: torch.legacy.nn placeholder objects whose attributes are the fields
  (older nn fields upgraded: a BatchNormalization's running_std becomes running_var). Fields
  torch7 counts from 1 (a Select's dimension, max-pooling indices, ...) come back 0-based
  and are written back 1-based (Note [1-based fields] in torch/legacy/nn/t7fields.py).
- Lua functions: opaque torch._C._t7_Function handles that save_lua writes back intact.
A value referenced twice in the file comes back as one Python object.
"""

import os

import torch
from torch import _C
from torch.legacy import nn as _legacy_nn
from torch.legacy.nn import t7fields as _t7fields
from torch.storage import _typed

__all__ = ["load_lua", "save_lua"]


class _Hooks:
    """What the C++ converter asks of Python; one instance per load or save (state: the
    index storages shifted so far)."""

    def __init__(self):
        self.shifted = {}

    @staticmethod
    def wrap_storage(cdata):
        return _typed(cdata)

    @staticmethod
    def make_object(typename, version):
        cls = _legacy_nn.class_for(typename)
        obj = cls.__new__(cls)
        obj._t7_version = version
        return obj

    def set_content(self, obj, content):
        if isinstance(content, dict) and all(isinstance(k, str) for k in content):
            obj.__dict__.update(content)
            _upgrade(obj)
            _t7fields.upgrade(obj)
            _t7fields.from_torch7(obj, self.shifted)
        else:
            obj._t7_raw = content

    table_key = staticmethod(_t7fields.TableKey)

    @staticmethod
    def key_table(key):
        """What a dict key that is no plain value stands for in the file: a table (TableKey)
        or an object (nngraph's reverseMap[node] = true); None if nothing."""
        if isinstance(key, _t7fields.TableKey):
            return key.table
        return key if isinstance(key, _legacy_nn.TorchObject) else None

    @staticmethod
    def typename_of(obj):
        if isinstance(obj, _legacy_nn.TorchObject):
            return obj.torch_typename()
        return None

    def content_of(self, obj):
        try:
            return obj._t7_raw
        except AttributeError:
            content = _t7fields.to_torch7(obj, dict(vars(obj)), self.shifted)
            # the writer remembers values by address: this new dict must outlive the save,
            # or a later one could take its address and be taken for it
            self.shifted[("content", id(content))] = content
            return content

    @staticmethod
    def version_of(obj):
        return getattr(obj, "_t7_version", "V 1")


def _upgrade(obj):
    """Fields of older nn versions in today's form (what nn itself does when it loads them)."""
    name = obj.torch_typename()
    fields = obj.__dict__
    # nn before 2016 kept running_std = 1 / sqrt(var + eps); since then running_var
    if (name.startswith("nn.") and name.endswith("BatchNormalization") and "running_var" not in fields
            and torch.is_tensor(fields.get("running_std"))):
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


def load_lua(path_or_file, long_size=None, unknown_classes=False):
    """Reads one object from a torch7 .t7 file (binary or ascii) or a file object.

    long_size: 8 or 4 for the C `long` size the writer used; None detects it. Every class
    other than tensors and storages loads as a placeholder object (torch.legacy.nn), so
    unknown_classes is accepted for compatibility and changes nothing.
    Corrupt or truncated input raises RuntimeError naming the byte offset."""
    del unknown_classes
    if long_size not in (None, 4, 8):
        raise ValueError("load_lua: long_size must be None, 4 or 8, got %r" % (long_size,))
    return _C._t7_load(_read_bytes(path_or_file), long_size or 0, _Hooks())


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
