"""torch.save and torch.load: Python pickles whose storages are written beside them, so that
storage sharing survives (two views of one storage come back as two views of one storage).

Layouts (read: all three; write: the first two), as PyTorch 1.x defines them:
- zip (the default): `archive/data.pkl` is the pickle; a storage in it is the persistent id
  `('storage', storage_class, key, location, numel)` and its raw little-endian bytes are the
  record `archive/data/<key>`; `archive/version` and `archive/byteorder` say how to read it.
- legacy (`_use_new_zipfile_serialization=False`): pickles of the magic number, the protocol
  version, sys_info and the object (persistent ids `('storage', storage_class, key, location,
  numel, view_metadata)`), then the pickled list of storage keys, then for each key its
  element count (int64, little-endian) and raw bytes.
- tar (PyTorch before 0.4, read only): members `sys_info`, `pickle`, `tensors`, `storages`.
"""

import io
import os
import pickle
import struct
import sys
import tarfile
import zipfile
from collections import OrderedDict

import torch
from torch import _C, _utils
from torch.storage import ByteStorage, _storage_classes

DEFAULT_PROTOCOL = 2
MAGIC_NUMBER = 0x1950a86a20f9469cfc6c
PROTOCOL_VERSION = 1001
_ZIP_FORMAT_VERSION = b"3\n"  # what PyTorch 1.x writes in archive/version
_ZIP_ALIGNMENT = 64  # records start on 64-byte boundaries, as PyTorch's writer does (mmap-friendly)


class _ReadError(RuntimeError):
    pass


# ---- files ----
class _OpenedFile:
    """f as a binary file: paths are opened (and closed on exit), file objects used as they are."""

    def __init__(self, f, mode):
        self.owned = isinstance(f, (str, bytes, os.PathLike))
        self.file = open(f, mode) if self.owned else f

    def __enter__(self):
        return self.file

    def __exit__(self, *exc):
        if self.owned:
            self.file.close()


def _check_writable(f):
    if not isinstance(f, (str, bytes, os.PathLike)) and not hasattr(f, "write"):
        raise AttributeError("expected 'f' to be a string, a path or a file-like object with a 'write' method, "
                             "got %s" % type(f).__name__)


def _read_into(src, view, what):
    """Fills the writable memoryview `view` from src, or raises if src ends first."""
    filled = 0
    total = len(view)
    while filled < total:
        if hasattr(src, "readinto"):
            n = src.readinto(view[filled:])
        else:
            chunk = src.read(total - filled)
            n = len(chunk)
            view[filled:filled + n] = chunk
        if not n:
            raise _ReadError("unexpected end of file while reading %s (%d of %d bytes); the file is truncated"
                             % (what, filled, total))
        filled += n


def _read_exact(src, n, what):
    data = src.read(n)
    if len(data) != n:
        raise _ReadError("unexpected end of file while reading %s; the file is truncated" % what)
    return data


def _storage_bytes(storage):
    return memoryview(storage) if len(storage) else b""


def _sys_info():
    return {"protocol_version": PROTOCOL_VERSION, "little_endian": sys.byteorder == "little",
            "type_sizes": {"short": 2, "int": 4, "long": 4}}


# ---- save ----
class _StorageKeys:
    """The storages met while pickling, each once, by the TH storage it is (not the Python
    object: t.storage() makes a new object each call)."""

    def __init__(self, key_of_new):
        self.entries = OrderedDict()  # _cdata -> (key, storage); the storage keeps its address unique
        self.key_of_new = key_of_new

    def key(self, storage):
        entry = self.entries.get(storage._cdata)
        if entry is None:
            entry = (self.key_of_new(storage, len(self.entries)), storage)
            self.entries[storage._cdata] = entry
        elif entry[1].dtype is not storage.dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same data as different types")
        return entry[0]


def _pickler_class(pickle_module, persistent_id):
    class Pickler(pickle_module.Pickler):
        def persistent_id(self, obj):
            return persistent_id(obj)

    return Pickler


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True):
    """Saves obj to f (a path, a pathlib.Path or a binary file object) in a layout that
    torch.load here and PyTorch 1.x can read."""
    _check_writable(f)
    with _OpenedFile(f, "wb") as opened:
        if _use_new_zipfile_serialization:
            _save_zip(obj, opened, pickle_module, pickle_protocol)
        else:
            _save_legacy(obj, opened, pickle_module, pickle_protocol)


def _save_zip(obj, f, pickle_module, protocol):
    keys = _StorageKeys(lambda storage, count: str(count))

    def persistent_id(o):
        if isinstance(o, _C._StorageBase):
            return ("storage", _storage_classes[o.dtype], keys.key(o), "cpu", len(o))
        return None

    data = io.BytesIO()
    _pickler_class(pickle_module, persistent_id)(data, protocol=protocol).dump(obj)
    with zipfile.ZipFile(f, mode="w", compression=zipfile.ZIP_STORED) as archive:
        _write_record(archive, "archive/data.pkl", data.getbuffer())
        _write_record(archive, "archive/byteorder", b"little")
        for key, storage in keys.entries.values():
            _write_record(archive, "archive/data/" + key, _storage_bytes(storage))
        _write_record(archive, "archive/version", _ZIP_FORMAT_VERSION)


def _write_record(archive, name, data):
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    # Pad the local header's extra field so that the data starts on an aligned offset.
    header_end = archive.fp.tell() + 30 + len(name.encode()) + 4
    padding = -header_end % _ZIP_ALIGNMENT
    info.extra = b"FB" + struct.pack("<H", padding) + b"Z" * padding
    archive.writestr(info, data)


def _save_legacy(obj, f, pickle_module, protocol):
    keys = _StorageKeys(lambda storage, count: str(storage._cdata))

    def persistent_id(o):
        if isinstance(o, _C._StorageBase):
            return ("storage", _storage_classes[o.dtype], keys.key(o), "cpu", len(o), None)
        return None

    pickle_module.dump(MAGIC_NUMBER, f, protocol=protocol)
    pickle_module.dump(PROTOCOL_VERSION, f, protocol=protocol)
    pickle_module.dump(_sys_info(), f, protocol=protocol)
    _pickler_class(pickle_module, persistent_id)(f, protocol=protocol).dump(obj)
    entries = sorted(keys.entries.values(), key=lambda entry: entry[0])
    pickle_module.dump([key for key, _ in entries], f, protocol=protocol)
    for _, storage in entries:
        f.write(struct.pack("<q", len(storage)))
        f.write(_storage_bytes(storage))


# ---- load ----
def _location_mapper(map_location):
    """map_location (None, a string, a torch.device, a dict or a callable) as a function of
    (storage, location). There is only the CPU here, so every storage stays where it is unless a
    callable returns another storage."""
    if map_location is None or isinstance(map_location, (str, torch.device)):
        return lambda storage, location: storage
    if isinstance(map_location, dict):
        return lambda storage, location: storage
    if callable(map_location):
        def restore(storage, location):
            result = map_location(storage, location)
            return result if isinstance(result, _C._StorageBase) else storage
        return restore
    raise TypeError("map_location must be None, a string, a torch.device, a dict or a callable, got %s"
                    % type(map_location).__name__)


# Globals a weights_only load may name: the rebuild functions, containers, and torch types.
_SAFE_GLOBALS = {
    ("collections", "OrderedDict"), ("torch._utils", "_rebuild_tensor"), ("torch._utils", "_rebuild_tensor_v2"),
    ("torch._utils", "_rebuild_parameter"), ("torch", "Size"), ("torch", "device"), ("builtins", "set"),
    ("builtins", "frozenset"), ("builtins", "complex"), ("builtins", "slice"), ("builtins", "range"),
}

# Names newer PyTorch writes that have another home here.
_RENAMED_GLOBALS = {
    ("torch", "UntypedStorage"): lambda: ByteStorage,
    ("torch.storage", "UntypedStorage"): lambda: ByteStorage,
    ("torch", "_UntypedStorage"): lambda: ByteStorage,
    ("torch._tensor", "_rebuild_from_type_v2"): lambda: _utils._rebuild_from_type_v2,
    ("torch._tensor", "_rebuild_from_type"): lambda: _utils._rebuild_from_type,
}


def _is_safe_torch_name(module, name):
    if module != "torch":
        return False
    value = getattr(torch, name, None)
    return isinstance(value, torch.dtype) or value in _storage_classes.values()


def _unpickler_class(pickle_module, weights_only, persistent_load):
    base = pickle.Unpickler if weights_only else pickle_module.Unpickler

    class Unpickler(base):
        def find_class(self, module, name):
            if weights_only and (module, name) not in _SAFE_GLOBALS and not _is_safe_torch_name(module, name):
                raise pickle.UnpicklingError("weights_only load refuses the global %s.%s; load with "
                                             "weights_only=False if the file comes from a trusted source"
                                             % (module, name))
            renamed = _RENAMED_GLOBALS.get((module, name))
            if renamed is not None:
                return renamed()
            return super().find_class(module, name)

        def persistent_load(self, saved_id):
            return persistent_load(saved_id)

    return Unpickler


def _text(value):
    return value.decode("ascii") if isinstance(value, bytes) else value


def _storage_class_of(storage_type):
    dtype = getattr(storage_type, "dtype", None)
    if dtype not in _storage_classes:
        raise _ReadError("unknown storage type %r in the file" % (storage_type,))
    return _storage_classes[dtype]


def load(f, map_location=None, pickle_module=pickle, *, weights_only=False, **pickle_load_args):
    """Loads an object saved by torch.save (here, or by PyTorch 1.x in any of its layouts) from
    f, a path, a pathlib.Path or a binary file object. Tensors come back on the CPU."""
    if pickle_module is None:
        pickle_module = pickle
    pickle_load_args.setdefault("encoding", "utf-8")
    restore = _location_mapper(map_location)
    with _OpenedFile(f, "rb") as opened:
        if not (hasattr(opened, "seekable") and opened.seekable()):
            opened = io.BytesIO(opened.read())
        start = opened.tell()
        head = opened.read(512)
        opened.seek(start)
        try:
            if head.startswith(b"PK\x03\x04"):
                return _load_zip(opened, restore, pickle_module, weights_only, pickle_load_args)
            if len(head) >= 262 and head[257:262] == b"ustar":
                return _load_tar(opened, restore, pickle_module, weights_only, pickle_load_args)
            return _load_legacy(opened, restore, pickle_module, weights_only, pickle_load_args)
        except _ReadError:
            raise
        except (EOFError, struct.error, zipfile.BadZipFile, tarfile.TarError, KeyError, ValueError, IndexError,
                TypeError, OverflowError) as e:
            raise RuntimeError("torch.load: the file is corrupt, truncated or not a torch.save file (%s: %s)"
                               % (type(e).__name__, e)) from e


def _load_zip(f, restore, pickle_module, weights_only, pickle_load_args):
    with zipfile.ZipFile(f) as archive:
        names = archive.namelist()
        pickles = [n for n in names if n.endswith("data.pkl") and n.count("/") == 1]
        if not pickles:
            raise _ReadError("torch.load: the zip archive has no <folder>/data.pkl record; not a torch.save file")
        prefix = pickles[0][:-len("data.pkl")]
        byteorder = "little"
        if prefix + "byteorder" in names:
            byteorder = archive.read(prefix + "byteorder").decode("ascii", "replace").strip()
            if byteorder not in ("little", "big"):
                raise _ReadError("torch.load: unknown byte order %r in the archive" % byteorder)
        loaded = {}

        def persistent_load(saved_id):
            if not isinstance(saved_id, tuple) or len(saved_id) < 5 or _text(saved_id[0]) != "storage":
                raise _ReadError("torch.load: unknown persistent id %r in the archive" % (saved_id,))
            storage_type, key, location, numel = saved_id[1:5]
            key, location = _text(key), _text(location)
            cls = _storage_class_of(storage_type)
            if key in loaded:
                return loaded[key]
            name = prefix + "data/" + key
            try:
                info = archive.getinfo(name)
            except KeyError:
                raise _ReadError("torch.load: the archive has no record %s; the file is corrupt" % name) from None
            if info.file_size != numel * cls.dtype.itemsize:
                raise _ReadError("torch.load: record %s holds %d bytes, %d elements of %s need %d"
                                 % (name, info.file_size, numel, cls.__name__, numel * cls.dtype.itemsize))
            storage = cls(numel)
            if numel:
                with archive.open(info) as src:
                    _read_into(src, memoryview(storage), name)
            if byteorder != sys.byteorder:
                _swap_bytes(storage)
            storage = restore(storage, location)
            loaded[key] = storage
            return storage

        unpickler = _unpickler_class(pickle_module, weights_only, persistent_load)(
            io.BytesIO(archive.read(pickles[0])), **pickle_load_args)
        return unpickler.load()


def _swap_bytes(storage):
    if storage.element_size() > 1 and len(storage):
        storage._tensor().numpy().byteswap(inplace=True)


def _load_legacy(f, restore, pickle_module, weights_only, pickle_load_args):
    def plain_load():
        return _unpickler_class(pickle_module, weights_only, _no_persistent_ids)(f, **pickle_load_args).load()

    try:
        magic = plain_load()
    except (pickle.UnpicklingError, EOFError, ValueError, TypeError) as e:
        raise _ReadError("torch.load: not a torch.save file (no zip archive, no legacy header: %s)" % e) from e
    if magic != MAGIC_NUMBER:
        raise _ReadError("torch.load: invalid magic number; corrupt file?")
    version = plain_load()
    if version != PROTOCOL_VERSION:
        raise _ReadError("torch.load: invalid protocol version %r" % (version,))
    sys_info = plain_load()
    little_endian = not isinstance(sys_info, dict) or sys_info.get("little_endian", True)
    storages = {}

    def persistent_load(saved_id):
        if not isinstance(saved_id, tuple) or not saved_id:
            raise _ReadError("torch.load: unknown persistent id %r in the file" % (saved_id,))
        typename = _text(saved_id[0])
        if typename == "module":
            return saved_id[1]  # a module class, whose source PyTorch recorded for a check
        if typename != "storage" or len(saved_id) != 6:
            raise _ReadError("torch.load: unknown persistent id %r in the file" % (saved_id,))
        storage_type, root_key, location, numel, view_metadata = saved_id[1:]
        root_key, location = _text(root_key), _text(location)
        if root_key not in storages:
            storages[root_key] = restore(_storage_class_of(storage_type)(numel), location)
        root = storages[root_key]
        if view_metadata is None:
            return root
        view_key, offset, view_size = view_metadata
        view_key = _text(view_key)
        if view_key not in storages:
            storages[view_key] = root[offset:offset + view_size]
        return storages[view_key]

    result = _unpickler_class(pickle_module, weights_only, persistent_load)(f, **pickle_load_args).load()
    for key in plain_load():
        key = _text(key)
        if key not in storages:
            raise _ReadError("torch.load: storage key %r is listed but never used; the file is corrupt" % key)
        storage = storages[key]
        (count,) = struct.unpack("<q", _read_exact(f, 8, "the size of storage " + key))
        if count != len(storage):
            raise _ReadError("torch.load: storage %s has %d elements in the file, %d in the pickle; corrupt file?"
                             % (key, count, len(storage)))
        if count:
            _read_into(f, memoryview(storage), "storage " + key)
        if not little_endian:
            _swap_bytes(storage)
    return result


def _no_persistent_ids(saved_id):
    raise _ReadError("torch.load: unexpected persistent id %r in a file header" % (saved_id,))


def _load_tar(f, restore, pickle_module, weights_only, pickle_load_args):
    def loader(src, persistent_load=_no_persistent_ids):
        return _unpickler_class(pickle_module, weights_only, persistent_load)(src, **pickle_load_args)

    objects = {}
    with tarfile.open(fileobj=f, mode="r:") as tar:
        sys_info = loader(tar.extractfile("sys_info")).load()
        little_endian = not isinstance(sys_info, dict) or sys_info.get("little_endian", True)

        src = tar.extractfile("storages")
        for _ in range(loader(src).load()):
            key, location, storage_type = loader(src).load()
            (count,) = struct.unpack("<q", _read_exact(src, 8, "a storage size"))
            if count < 0:
                raise _ReadError("torch.load: negative storage size %d; corrupt file?" % count)
            storage = _storage_class_of(storage_type)(count)
            if count:
                _read_into(src, memoryview(storage), "storage %s" % key)
            if not little_endian:
                _swap_bytes(storage)
            objects[int(key)] = restore(storage, _text(location))
        for target, root, offset, numel in loader(src).load():
            objects[int(target)] = objects[int(root)][offset:offset + numel]

        src = tar.extractfile("tensors")
        for _ in range(loader(src).load()):
            key, storage_id, _original_type = loader(src).load()
            (ndim,) = struct.unpack("<i", _read_exact(src, 4, "a tensor's dimension count"))
            _read_exact(src, 4, "padding")  # ndim was written as 8 bytes
            sizes = struct.unpack("<%dq" % ndim, _read_exact(src, 8 * ndim, "tensor sizes"))
            strides = struct.unpack("<%dq" % ndim, _read_exact(src, 8 * ndim, "tensor strides"))
            (offset,) = struct.unpack("<q", _read_exact(src, 8, "a storage offset"))
            objects[int(key)] = _utils._rebuild_tensor(objects[int(storage_id)], offset, sizes, strides)

        def persistent_load(saved_id):
            if isinstance(saved_id, tuple):
                return saved_id[0]  # a module class with its recorded source
            return objects[int(saved_id)]

        return loader(tar.extractfile("pickle"), persistent_load).load()
