"""torch.save and torch.load: Python pickles whose storages are written beside them, so that
storage sharing survives (two views of one storage come back as two views of one storage).

Layouts (read: all three; write: the first two), as PyTorch 1.x defines them:
- zip (the default): `archive/data.pkl` is the pickle; a storage in it is the persistent id
  `('storage', storage_class, key, location, numel)` and its raw bytes are the record
  `archive/data/<key>`, in the byte order `archive/byteorder` names (little-endian when it is
  absent); `archive/version` is the format version. PyTorch names the folder after the file,
  so the reader takes whichever folder holds data.pkl.
- legacy (`_use_new_zipfile_serialization=False`): pickles of the magic number, the protocol
  version, sys_info and the object (persistent ids `('storage', storage_class, key, location,
  numel, view_metadata)`, the view metadata naming a part of the storage, or None), then the
  pickled list of storage keys, then for each key its element count (int64) and raw bytes, all
  little-endian.
- tar (PyTorch before 0.4, read only): members `sys_info`, `pickle` (the object, whose
  persistent ids are keys of tensors and storages), `tensors` (geometry of each tensor) and
  `storages` (the raw storages, then the views of them), in the writer's byte order.

Tensors on storage[a:b] views are pickled on the storage that owns the memory (see
storage._tensor_reduce_ex), so sharing survives in both written layouts; a storage view saved
by itself is a storage of its own in the zip layout (which has no storage views) and a view in
the legacy one.
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
MAGIC_NUMBER = 0x1950A86A20F9469CFC6C
PROTOCOL_VERSION = 1001
_ZIP_FORMAT_VERSION = b"3\n"  # what PyTorch 1.x writes in archive/version
_ZIP_ALIGNMENT = 64  # records start on 64-byte boundaries, as PyTorch's writer does (mmap-friendly)


class _ReadError(RuntimeError):
    """A damaged or foreign file, found by our own checks (the message says what is wrong)."""


class _PassThrough(Exception):
    """Carries an exception that says nothing about damage to the file (raised by the user's
    map_location function, or a class the pickle names that cannot be imported) through
    torch.load, which re-raises it unchanged."""


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
        raise AttributeError(
            "expected 'f' to be a string, a path or a file-like object with a 'write' method, got %s" % type(f).__name__
        )


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
            view[filled : filled + n] = chunk
        if not n:
            raise _ReadError(
                "unexpected end of file while reading %s (%d of %d bytes); the file is truncated"
                % (what, filled, total)
            )
        filled += n


def _read_exact(src, n, what):
    data = src.read(n)
    if len(data) != n:
        raise _ReadError("unexpected end of file while reading %s; the file is truncated" % what)
    return data


def _storage_bytes(storage, byteorder=sys.byteorder):
    """The raw bytes of storage in the given byte order (no copy in the machine's own)."""
    if not len(storage):
        return b""
    storage = storage.cpu()  # a GPU storage is written from a host copy
    if byteorder == sys.byteorder or storage.element_size() == 1:
        return memoryview(storage)
    return storage._tensor().numpy().byteswap().tobytes()


def _sys_info():
    return {
        "protocol_version": PROTOCOL_VERSION,
        "little_endian": sys.byteorder == "little",
        "type_sizes": {"short": 2, "int": 4, "long": 4},
    }


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
        return entry[0]


def _pickler_class(pickle_module, persistent_id):
    class Pickler(pickle_module.Pickler):
        def persistent_id(self, obj):
            return persistent_id(obj)

    return Pickler


def save(obj, f, pickle_module=pickle, pickle_protocol=DEFAULT_PROTOCOL, _use_new_zipfile_serialization=True):
    """Saves obj to f (a path, a pathlib.Path or a binary file object) in a layout that
    torch.load here and PyTorch 1.x can read. The object is pickled before f is opened, so a
    failure while pickling (an unpicklable value) leaves f as it was."""
    _check_writable(f)
    write = _pickled_zip if _use_new_zipfile_serialization else _pickled_legacy
    writer = write(obj, pickle_module, pickle_protocol)
    with _OpenedFile(f, "wb") as opened:
        writer(opened)


def _root_and_offset(storage):
    """The storage that owns storage's memory (storage itself unless it is a storage[a:b]
    view) and where storage starts in it."""
    root, offset = storage._root()
    return _storage_classes[root.dtype]._wrap(root), offset


def _pickled_zip(obj, pickle_module, protocol):
    keys = _StorageKeys(lambda storage, count: str(count))

    def persistent_id(o):
        # A storage view is saved as a storage of its own: the zip layout has no views of
        # storages (tensors on views are pickled on the root storage; see _tensor_reduce_ex).
        if isinstance(o, _C._StorageBase):
            return ("storage", _storage_classes[o.dtype], keys.key(o), _location_of(o), len(o))
        return None

    data = io.BytesIO()
    _pickler_class(pickle_module, persistent_id)(data, protocol=protocol).dump(obj)

    def write(f):
        with zipfile.ZipFile(f, mode="w", compression=zipfile.ZIP_STORED) as archive:
            _write_record(archive, "archive/data.pkl", data.getbuffer())
            _write_record(archive, "archive/byteorder", sys.byteorder.encode("ascii"))
            for key, storage in keys.entries.values():
                _write_record(archive, "archive/data/" + key, _storage_bytes(storage))
            _write_record(archive, "archive/version", _ZIP_FORMAT_VERSION)

    return write


def _write_record(archive, name, data):
    info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_STORED
    # Pad the local header's extra field so that the data starts on an aligned offset.
    header_end = archive.fp.tell() + 30 + len(name.encode()) + 4
    padding = -header_end % _ZIP_ALIGNMENT
    info.extra = b"FB" + struct.pack("<H", padding) + b"Z" * padding
    archive.writestr(info, data)


def _pickled_legacy(obj, pickle_module, protocol):
    keys = _StorageKeys(lambda storage, count: str(storage._cdata))

    def persistent_id(o):
        if not isinstance(o, _C._StorageBase):
            return None
        root, offset = _root_and_offset(o)
        storage_type = _storage_classes[o.dtype]
        if root._cdata == o._cdata:
            return ("storage", storage_type, keys.key(o), _location_of(o), len(o), None)
        # A storage[a:b] view: the root is saved, the view is named by (key, offset, size) on it.
        return ("storage", storage_type, keys.key(root), _location_of(o), len(root), (str(o._cdata), offset, len(o)))

    header = io.BytesIO()
    for value in (MAGIC_NUMBER, PROTOCOL_VERSION, _sys_info()):
        pickle_module.dump(value, header, protocol=protocol)
    _pickler_class(pickle_module, persistent_id)(header, protocol=protocol).dump(obj)
    entries = sorted(keys.entries.values(), key=lambda entry: entry[0])
    pickle_module.dump([key for key, _ in entries], header, protocol=protocol)

    def write(f):
        f.write(header.getbuffer())
        for _, storage in entries:
            f.write(struct.pack("<q", len(storage)))
            f.write(_storage_bytes(storage, "little"))

    return write


# ---- load ----
def _is_cuda_location(location):
    return str(location).startswith("cuda")


def _location_of(storage):
    """The location a file records for a storage: 'cpu' or 'cuda:N', as PyTorch writes it."""
    return str(storage.device) if storage.is_cuda else "cpu"


def _default_restore(storage, location):
    """storage (read into host memory) moved to location, as PyTorch 1.x restores it."""
    if _is_cuda_location(location):
        if not torch.cuda.is_available():
            raise RuntimeError(
                "Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. "
                "If you are running on a CPU-only machine, please use torch.load with "
                "map_location=torch.device('cpu') to map your storages to the CPU."
            )
        index = torch.device(location).index or 0
        if index >= torch.cuda.device_count():
            raise RuntimeError(
                "Attempting to deserialize object on CUDA device %d but torch.cuda.device_count() is %d. "
                "Please use torch.load with map_location to map your storages to an existing device."
                % (index, torch.cuda.device_count())
            )
        return storage.cuda(index)
    if str(location).split(":")[0] != "cpu":
        raise RuntimeError("torch.load: don't know how to restore data location %r" % (location,))
    return storage


def _location_mapper(map_location):
    """map_location (None, a string, a torch.device, a dict or a callable) as a function of
    (storage, location saved in the file) that returns the storage to use, as PyTorch 1.x
    reads it: a string or device names where every storage goes, a dict renames locations, a
    callable may return a storage (or None for the default)."""
    if map_location is None:
        return _default_restore
    if isinstance(map_location, (str, torch.device)):
        target = str(map_location)
        return lambda storage, location: _default_restore(storage, target)
    if isinstance(map_location, dict):
        return lambda storage, location: _default_restore(storage, map_location.get(location, location))
    if callable(map_location):

        def restore(storage, location):
            try:
                result = map_location(storage, location)
            except Exception as e:
                raise _PassThrough() from e
            if result is None:
                return _default_restore(storage, location)
            if not isinstance(result, _C._StorageBase):
                error = TypeError(
                    "map_location: the function must return a storage or None, got %s" % type(result).__name__
                )
            elif result.dtype is not storage.dtype:
                error = TypeError(
                    "map_location: the function returned a %s for a %s"
                    % (type(result).__name__, type(storage).__name__)
                )
            else:
                return result
            raise _PassThrough() from error

        return restore
    raise TypeError(
        "map_location must be None, a string, a torch.device, a dict or a callable, got %s"
        % type(map_location).__name__
    )


# Globals a weights_only load may name: the rebuild functions, containers, and torch types.
_SAFE_GLOBALS = {
    ("collections", "OrderedDict"),
    ("torch._utils", "_rebuild_tensor"),
    ("torch._utils", "_rebuild_tensor_v2"),
    ("torch._utils", "_rebuild_parameter"),
    ("torch", "Size"),
    ("torch", "device"),
    ("builtins", "set"),
    ("builtins", "frozenset"),
    ("builtins", "complex"),
    ("builtins", "slice"),
    ("builtins", "range"),
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
    """dtypes, storage classes and the typed tensor classes (torch.FloatTensor: the tar
    layout names each tensor's class) are safe: calling one only builds a tensor or storage."""
    if module not in ("torch", "torch._C"):
        return False
    value = getattr(torch, name, None)
    return isinstance(value, torch.dtype) or value in _storage_classes.values() or value in torch._tensor_classes


def _unpickler_class(pickle_module, weights_only, persistent_load):
    base = pickle.Unpickler if weights_only else pickle_module.Unpickler

    class Unpickler(base):
        def find_class(self, module, name):
            if weights_only and (module, name) not in _SAFE_GLOBALS and not _is_safe_torch_name(module, name):
                raise pickle.UnpicklingError(
                    "weights_only load refuses the global %s.%s; load with "
                    "weights_only=False if the file comes from a trusted source" % (module, name)
                )
            renamed = _RENAMED_GLOBALS.get((module, name))
            if renamed is not None:
                return renamed()
            try:
                return super().find_class(module, name)
            except (AttributeError, ImportError) as e:
                raise _PassThrough() from e  # as pickle says it: a class that is not importable here

        def persistent_load(self, saved_id):
            return persistent_load(saved_id)

    return Unpickler


def _text(value):
    return value.decode("ascii") if isinstance(value, bytes) else value


def _storage_class_of(storage_type):
    dtype = getattr(storage_type, "dtype", None)
    if dtype not in _storage_classes:
        raise _ReadError("torch.load: unknown storage type %r in the file" % (storage_type,))
    return _storage_classes[dtype]


def _checked_count(count, element_size, available, what):
    """count elements of element_size bytes, checked against the bytes the file has left (so
    that a corrupt count fails clearly instead of allocating absurd amounts)."""
    if not isinstance(count, int) or isinstance(count, bool) or count < 0:
        raise _ReadError("torch.load: invalid element count %r for %s; corrupt file?" % (count, what))
    if available is not None and count * element_size > available:
        raise _ReadError(
            "torch.load: %s needs %d bytes but the file has only %d left; the file is truncated"
            % (what, count * element_size, available)
        )
    return count


def _bytes_left(f):
    here = f.tell()
    end = f.seek(0, io.SEEK_END)
    f.seek(here)
    return end - here


def load(f, map_location=None, pickle_module=pickle, *, weights_only=False, **pickle_load_args):
    """Loads an object saved by torch.save (here, or by PyTorch in any of its layouts) from f,
    a path, a pathlib.Path or a binary file object. Storages are restored through map_location
    (only the CPU exists here). A damaged or foreign file raises RuntimeError.

    weights_only=True (for files from untrusted sources) unpickles only tensors, storages,
    containers and torch types, refusing any other global a pickle names. Its twin for
    torch7 files is torch.utils.serialization.load_lua(f, allow_functions=False), which
    refuses Lua functions (and Lua's torch.load(path, mode, {allowFunctions = false}))."""
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
        except NotImplementedError as e:  # zipfile's word for header fields it does not know
            raise _damaged(e) from e
        except RuntimeError:
            raise  # our checks (_ReadError) and the core's say what is wrong already
        except _PassThrough as e:
            raise e.__cause__ from None
        except pickle.UnpicklingError as e:
            if weights_only and str(e).startswith("weights_only"):
                raise
            raise _damaged(e) from e
        except Exception as e:  # zipfile, tarfile, pickle and struct fail in many ways on damaged input
            raise _damaged(e) from e


def _damaged(e):
    return RuntimeError(
        "torch.load: cannot read the file: it is corrupt, truncated, not a torch.save file, or "
        "holds an object that cannot be rebuilt (%s: %s)" % (type(e).__name__, e)
    )


def _load_zip(f, restore, pickle_module, weights_only, pickle_load_args):
    with zipfile.ZipFile(f) as archive:
        names = archive.namelist()
        pickles = [n for n in names if n.endswith("/data.pkl") and n.count("/") == 1]
        if not pickles:
            raise _ReadError("torch.load: the zip archive has no <folder>/data.pkl record; not a torch.save file")
        prefix = pickles[0][: -len("data.pkl")]
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
                storage = loaded[key]
                if storage.dtype is not cls.dtype:
                    raise _ReadError(
                        "torch.load: record %s is used as %s and as %s; views of one storage as "
                        "different types are not supported" % (key, type(storage).__name__, cls.__name__)
                    )
                return storage
            name = prefix + "data/" + str(key)
            try:
                info = archive.getinfo(name)
            except KeyError:
                raise _ReadError("torch.load: the archive has no record %s; the file is corrupt" % name) from None
            numel = _checked_count(numel, cls.dtype.itemsize, None, "record " + name)
            if info.file_size != numel * cls.dtype.itemsize:
                raise _ReadError(
                    "torch.load: record %s holds %d bytes, %d elements of %s need %d"
                    % (name, info.file_size, numel, cls.__name__, numel * cls.dtype.itemsize)
                )
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
            io.BytesIO(archive.read(pickles[0])), **pickle_load_args
        )
        return unpickler.load()


def _swap_bytes(storage):
    if storage.element_size() > 1 and len(storage):
        storage._tensor().numpy().byteswap(inplace=True)


def _load_legacy(f, restore, pickle_module, weights_only, pickle_load_args):
    def plain_load():
        return _unpickler_class(pickle_module, weights_only, _no_persistent_ids)(f, **pickle_load_args).load()

    try:
        magic = plain_load()
    except Exception as e:  # whatever the first pickle of a file that is not ours does
        raise _ReadError(
            "torch.load: not a torch.save file (no zip archive, no tar archive, no legacy header: "
            "%s: %s)" % (type(e).__name__, e)
        ) from e
    if magic != MAGIC_NUMBER:
        raise _ReadError("torch.load: invalid magic number; corrupt file?")
    version = plain_load()
    if version != PROTOCOL_VERSION:
        raise _ReadError("torch.load: invalid protocol version %r" % (version,))
    plain_load()  # sys_info: the storages are little-endian whatever machine wrote them
    storages = {}
    roots = {}  # key -> storage, for the keys whose bytes follow the pickle

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
        cls = _storage_class_of(storage_type)
        if root_key not in storages:
            numel = _checked_count(numel, cls.dtype.itemsize, _bytes_left(f), "storage " + root_key)
            storages[root_key] = roots[root_key] = restore(cls(numel), location)
        root = storages[root_key]
        if root.dtype is not cls.dtype:
            raise _ReadError(
                "torch.load: storage %s is used as %s and as %s; corrupt file?"
                % (root_key, type(root).__name__, cls.__name__)
            )
        if view_metadata is None:
            return root
        view_key, offset, view_size = view_metadata
        view_key = _text(view_key)
        if view_key not in storages:
            _check_view(view_key, offset, view_size, root)
            storages[view_key] = root[offset : offset + view_size]
        return storages[view_key]

    result = _unpickler_class(pickle_module, weights_only, persistent_load)(f, **pickle_load_args).load()
    keys = [_text(key) for key in plain_load()]
    if sorted(keys) != sorted(roots):
        raise _ReadError(
            "torch.load: the file lists storages %s but its pickle uses %s; corrupt file?"
            % (sorted(keys), sorted(roots))
        )
    for key in keys:
        storage = roots[key]
        (count,) = struct.unpack("<q", _read_exact(f, 8, "the size of storage " + key))
        if count != len(storage):
            raise _ReadError(
                "torch.load: storage %s has %d elements in the file, %d in the pickle; corrupt file?"
                % (key, count, len(storage))
            )
        # a storage restored to a GPU is read through a host copy
        host = type(storage)(count) if storage.is_cuda else storage
        if count:
            _read_into(f, memoryview(host), "storage " + key)
        if sys.byteorder != "little":
            _swap_bytes(host)
        if host is not storage:
            storage.copy_(host)
    return result


def _check_view(key, offset, size, root):
    if isinstance(offset, int) and isinstance(size, int) and 0 <= offset <= offset + size <= len(root):
        return
    raise _ReadError(
        "torch.load: storage view %s [%r, %r + %r) lies outside its storage of %d elements; corrupt "
        "file?" % (key, offset, offset, size, len(root))
    )


def _no_persistent_ids(saved_id):
    raise _ReadError("torch.load: unexpected persistent id %r in a file header" % (saved_id,))


def _load_tar(f, restore, pickle_module, weights_only, pickle_load_args):
    def loader(src, persistent_load=_no_persistent_ids):
        return _unpickler_class(pickle_module, weights_only, persistent_load)(src, **pickle_load_args)

    def member(tar, name):
        try:
            return tar.getmember(name), tar.extractfile(name)
        except KeyError:
            raise _ReadError("torch.load: the tar archive has no member %r; not a torch.save file" % name) from None

    objects = {}
    with tarfile.open(fileobj=f, mode="r:") as tar:
        sys_info = loader(member(tar, "sys_info")[1]).load()
        # Before 0.4 the numbers were written in the byte order of the machine, which sys_info names.
        order = "<" if not isinstance(sys_info, dict) or sys_info.get("little_endian", True) else ">"

        def number(src, what):
            return struct.unpack(order + "q", _read_exact(src, 8, what))[0]

        info, src = member(tar, "storages")
        for _ in range(loader(src).load()):
            key, location, storage_type = loader(src).load()
            cls = _storage_class_of(storage_type)
            count = _checked_count(
                number(src, "a storage size"), cls.dtype.itemsize, info.size - src.tell(), "storage %s" % key
            )
            storage = cls(count)
            if count:
                _read_into(src, memoryview(storage), "storage %s" % key)
            if (order == "<") != (sys.byteorder == "little"):
                _swap_bytes(storage)
            objects[int(key)] = restore(storage, _text(location))
        for target, root, offset, numel in loader(src).load():
            root = objects[int(root)]
            _check_view(target, offset, numel, root)
            objects[int(target)] = root[offset : offset + numel]

        info, src = member(tar, "tensors")
        for _ in range(loader(src).load()):
            key, storage_id, _original_type = loader(src).load()
            ndim = number(src, "a tensor's dimension count")
            if not 0 <= ndim <= 64:
                raise _ReadError("torch.load: invalid dimension count %d; corrupt file?" % ndim)
            sizes = [number(src, "tensor sizes") for _ in range(ndim)]
            strides = [number(src, "tensor strides") for _ in range(ndim)]
            offset = number(src, "a storage offset")
            objects[int(key)] = _utils._rebuild_tensor(objects[int(storage_id)], offset, sizes, strides)

        def persistent_load(saved_id):
            if isinstance(saved_id, tuple):
                return saved_id[0]  # a module class with its recorded source
            return objects[int(saved_id)]

        return loader(member(tar, "pickle")[1], persistent_load).load()
