"""An independent reader and writer of the torch.save layouts, for the tests: zipfile, tarfile,
pickle, struct and numpy only, written from the layouts' description (never through torch.load
or torch.save), so that the fixtures check our loader and these readers check our writer.

- zip: `<folder>/data.pkl` is the pickle; a storage is the persistent id
  ('storage', torch.<Type>Storage, key, location, numel) and its little-endian bytes are the
  record `<folder>/data/<key>`; `<folder>/version` holds the format version.
- legacy: pickles of the magic number, the protocol version, sys_info and the object (storage
  ids have a sixth field, view metadata, None for whole storages), the pickled list of storage
  keys, then per key an int64 little-endian element count and the raw little-endian bytes.
- tar (PyTorch before 0.4): members sys_info (a pickled dict), pickle (the object, whose
  persistent ids are str(key) of a tensor or storage), tensors (count, then per tensor the pickled
  (key, storage key, tensor class), ndim as int64, sizes and strides as int64 each, the storage
  offset as int64) and storages (count, then per root storage the pickled (key, location, storage
  class), an int64 element count and the bytes; then a pickled list of views (key, root key,
  offset, numel)). Numbers are in the writer's byte order, which sys_info names.
"""

import importlib
import io
import pickle
import struct
import tarfile
import zipfile
from collections import OrderedDict

import numpy as np

MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001

# torch.<Type>Storage -> the element type of its bytes on disk (little-endian)
STORAGE_NUMPY = {
    "ByteStorage": "u1",
    "CharStorage": "i1",
    "ShortStorage": "<i2",
    "IntStorage": "<i4",
    "LongStorage": "<i8",
    "HalfStorage": "<f2",
    "FloatStorage": "<f4",
    "DoubleStorage": "<f8",
    "BoolStorage": "?",
}


class StorageType:
    """What the reference unpickler makes of the global torch.<Type>Storage."""

    def __init__(self, name):
        self.name = name


class RefStorage:
    def __init__(self, type_name, key, numel):
        self.type_name = type_name
        self.dtype = np.dtype(STORAGE_NUMPY[type_name]).newbyteorder("=")
        self.key = key
        self.numel = numel
        self.data = None  # a 1-D numpy array once the bytes are read


class RefTensor:
    def __init__(self, storage, offset, size, stride, requires_grad=False):
        self.storage = storage
        self.offset = offset
        self.size = tuple(size)
        self.stride = tuple(stride)
        self.requires_grad = requires_grad

    def array(self):
        base = self.storage.data
        if 0 in self.size:
            return np.zeros(self.size, base.dtype)
        return np.lib.stride_tricks.as_strided(
            base[self.offset :], self.size, [s * base.itemsize for s in self.stride]
        ).copy()


def _rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks, *metadata):
    return RefTensor(storage, offset, size, stride, requires_grad)


class _Unpickler(pickle.Unpickler):
    def __init__(self, f, storages):
        super().__init__(f, encoding="utf-8")
        self.storages = storages

    def find_class(self, module, name):
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor_v2
        if module == "torch" and name in STORAGE_NUMPY:
            return StorageType(name)
        if (module, name) == ("collections", "OrderedDict"):
            return OrderedDict
        if (module, name) == ("torch", "Size"):
            return tuple
        raise pickle.UnpicklingError("the reference reader does not know the global %s.%s" % (module, name))

    def persistent_load(self, pid):
        assert pid[0] == "storage", pid
        storage_type, key, location, numel = pid[1:5]
        assert location == "cpu", location
        if len(pid) == 6:
            assert pid[5] is None, "whole storages only: %r" % (pid,)
        else:
            assert len(pid) == 5, pid
        storage = self.storages.setdefault(key, RefStorage(storage_type.name, key, numel))
        assert (storage.type_name, storage.numel) == (storage_type.name, numel), "one key, two storages"
        return storage


def _array(raw, storage):
    dtype = np.dtype(STORAGE_NUMPY[storage.type_name])
    assert len(raw) == storage.numel * dtype.itemsize, (storage.key, len(raw), storage.numel)
    return np.frombuffer(raw, dtype).astype(storage.dtype)


def read(data):
    """(object, storages by key, layout) of the torch.save file held in the bytes `data`;
    tensors come back as RefTensor, storages as RefStorage."""
    storages = {}
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            names = archive.namelist()
            folder = names[0].split("/")[0]
            assert names[0] == folder + "/data.pkl", names
            assert archive.read(folder + "/version") in (b"1\n", b"2\n", b"3\n"), archive.read(folder + "/version")
            for name in names:
                assert name.startswith(folder + "/"), name
            obj = _Unpickler(io.BytesIO(archive.read(folder + "/data.pkl")), storages).load()
            for key, storage in storages.items():
                storage.data = _array(archive.read(folder + "/data/" + key), storage)
        return obj, storages, "zip"
    f = io.BytesIO(data)
    assert pickle.load(f) == MAGIC_NUMBER
    assert pickle.load(f) == PROTOCOL_VERSION
    sys_info = pickle.load(f)
    assert sys_info["little_endian"] is True and sys_info["protocol_version"] == PROTOCOL_VERSION, sys_info
    obj = _Unpickler(f, storages).load()
    keys = pickle.load(f)
    assert sorted(keys) == sorted(storages), (keys, list(storages))
    for key in keys:
        storage = storages[key]
        (count,) = struct.unpack("<q", f.read(8))
        assert count == storage.numel, (key, count, storage.numel)
        storage.data = _array(f.read(count * np.dtype(STORAGE_NUMPY[storage.type_name]).itemsize), storage)
    assert f.read() == b"", "bytes after the last storage"
    return obj, storages, "legacy"


# ---- a writer for files that torch.save never writes ----
class Persistent:
    """Stands in the object for something the pickle refers to by a persistent id."""

    def __init__(self, pid):
        self.pid = pid


class _Pickler(pickle.Pickler):
    def persistent_id(self, obj):
        return obj.pid if isinstance(obj, Persistent) else None


def _pickle(obj, protocol=2):
    f = io.BytesIO()
    _Pickler(f, protocol=protocol).dump(obj)
    return f.getvalue()


def _named_global(module, name):
    """The object that pickles as the global module.name (pickle checks that the name leads
    back to the object, so it must be the real one)."""
    return getattr(importlib.import_module(module), name)


def write_zip(obj, arrays, location="cpu", folder="archive"):
    """A zip-layout file: obj holds TensorRef objects whose storage ids name the keys of
    arrays, which maps each storage key to (type name, 1-D numpy array)."""
    body = _pickle(obj)
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        archive.writestr(folder + "/data.pkl", body)
        for key, (type_name, values) in arrays.items():
            archive.writestr(folder + "/data/" + key, np.ascontiguousarray(values, STORAGE_NUMPY[type_name]).tobytes())
        archive.writestr(folder + "/version", b"3\n")
    return out.getvalue()


class TensorRef:
    """Pickles as PyTorch 1.x pickles a tensor: _rebuild_tensor_v2(storage, offset, size,
    stride, requires_grad, OrderedDict())."""

    def __init__(self, storage_pid, offset, size, stride, requires_grad=False):
        self.args = (Persistent(storage_pid), offset, tuple(size), tuple(stride), requires_grad, OrderedDict())

    def __reduce__(self):
        return (_named_global("torch._utils", "_rebuild_tensor_v2"), self.args)


def storage_pid(type_name, key, numel, location="cpu"):
    return ("storage", _named_global("torch", type_name), key, location, numel)


def write_tar(obj, storages, tensors, views, little_endian=True):
    """A tar-layout file. obj may hold Persistent(str(key)) for tensors and storages;
    storages: {key: (type name, numpy values)}; tensors: {key: (storage key, size, stride,
    offset)}; views: [(key, root key, offset, numel)]."""
    order = "<" if little_endian else ">"

    def member(tar, name, payload):
        info = tarfile.TarInfo(name)
        info.size = len(payload)
        tar.addfile(info, io.BytesIO(payload))

    sys_info = _pickle(
        {
            "protocol_version": PROTOCOL_VERSION,
            "little_endian": little_endian,
            "type_sizes": {"short": 2, "int": 4, "long": 8},
        }
    )
    tensor_part = io.BytesIO()
    tensor_part.write(_pickle(len(tensors)))
    for key, (storage_key, size, stride, offset) in tensors.items():
        type_name = (
            storages[storage_key][0]
            if storage_key in storages
            else storages[next(v[1] for v in views if v[0] == storage_key)][0]
        )
        tensor_part.write(_pickle((key, storage_key, _named_global("torch", type_name.replace("Storage", "Tensor")))))
        tensor_part.write(struct.pack(order + "q", len(size)))
        tensor_part.write(struct.pack(order + "%dq" % len(size), *size))
        tensor_part.write(struct.pack(order + "%dq" % len(stride), *stride))
        tensor_part.write(struct.pack(order + "q", offset))
    storage_part = io.BytesIO()
    storage_part.write(_pickle(len(storages)))
    for key, (type_name, values) in storages.items():
        storage_part.write(_pickle((key, "cpu", _named_global("torch", type_name))))
        storage_part.write(struct.pack(order + "q", len(values)))
        dtype = np.dtype(STORAGE_NUMPY[type_name]).newbyteorder(order)
        storage_part.write(np.ascontiguousarray(values, dtype).tobytes())
    storage_part.write(_pickle(list(views)))
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        member(tar, "sys_info", sys_info)
        member(tar, "pickle", _pickle(obj))
        member(tar, "tensors", tensor_part.getvalue())
        member(tar, "storages", storage_part.getvalue())
    return out.getvalue()
