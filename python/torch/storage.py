"""Typed storages (torch.FloatStorage, ..., torch.TypedStorage) and torch.UntypedStorage: flat,
one-dimensional arrays of one element type (bytes for UntypedStorage) that tensors view. Each
class is a thin Python subclass of torch._C._StorageBase (torch.StorageBase), the core storage
handle; several Python objects may stand for one TH storage (t.storage() makes a new object
each time), so identity is `_cdata`, the TH storage's address, never `is`.

Note [Typed and untyped storages]: PyTorch 1.13 keeps bytes (UntypedStorage) under a typed
wrapper (TypedStorage, of which FloatStorage & co. are legacy aliases). Here a storage is typed
at the core (TH's storages are, and the Lua bridge and .t7 files hold them), so the legacy
classes are TypedStorage's subclasses, TypedStorage(..., dtype=d) makes one of them, and an
UntypedStorage is a byte storage; storage.untyped() and TypedStorage(wrap_storage=u, dtype=d)
are views that read the same memory as bytes or as d (Note [Storage views] in
python/csrc/Storage.cpp). A saved UntypedStorage loads as a uint8 storage, as in 1.13.
"""

import copy
import io

import numpy as np

import torch
from torch import _C


class _StorageMethods(_C._StorageBase):
    """The methods every storage class shares; `dtype` is set by each subclass."""

    dtype = None

    def __init__(self, *args):
        if len(args) > 1:
            raise TypeError(
                "%s() takes at most one argument (a size or a sequence), got %d" % (type(self).__name__, len(args))
            )
        data = args[0] if args else 0
        if isinstance(data, _C._StorageBase) or torch.is_tensor(data):
            raise TypeError(
                "%s(): cannot build a storage from a %s; use copy_()" % (type(self).__name__, type(data).__name__)
            )
        if isinstance(data, bool) or not (isinstance(data, int) or hasattr(data, "__len__")):
            if hasattr(data, "__index__") and not isinstance(data, bool):
                data = data.__index__()
            else:
                raise TypeError(
                    "%s(): expected a size or a sequence, got %s" % (type(self).__name__, type(data).__name__)
                )
        if isinstance(data, int):
            if data < 0:
                raise RuntimeError("%s(): size must be non-negative, got %d" % (type(self).__name__, data))
            cdata = _C._StorageBase._new(self.dtype, data)
        else:
            values = torch.tensor(list(data), dtype=self.dtype)  # checks every element first
            cdata = _C._StorageBase._new(self.dtype, values.numel())
            cdata._tensor().copy_(values.reshape(-1))
        _C._StorageBase.__init__(self, cdata)

    @classmethod
    def _wrap(cls, cdata):
        """A new Python object of this class on the core storage cdata (no copy)."""
        obj = cls.__new__(cls)
        _C._StorageBase.__init__(obj, cdata)
        return obj

    # ---- elements ----
    def __getitem__(self, key):
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            if step != 1:
                raise RuntimeError("storage slices must have step 1, got %d" % step)
            return type(self)._wrap(self._view(start, max(stop - start, 0)))  # shares memory, as in PyTorch
        return self._get(_index(key))

    def __setitem__(self, key, value):
        if isinstance(key, slice):
            start, stop, step = key.indices(len(self))
            if step != 1:
                raise RuntimeError("storage slices must have step 1, got %d" % step)
            part = self._tensor().narrow(0, start, max(stop - start, 0))
            if isinstance(value, _C._StorageBase):
                value = value._tensor()
            if torch.is_tensor(value):
                part.copy_(value)
            else:
                part.fill_(value)
            return
        self._set(_index(key), value)

    def __iter__(self):
        return iter(self.tolist())

    def tolist(self):
        return self._tensor().tolist()

    # ---- whole-storage operations ----
    def copy_(self, source, non_blocking=False):
        if not isinstance(source, _C._StorageBase):
            raise TypeError("copy_(): expected a storage, got %s" % type(source).__name__)
        if len(source) != len(self):
            raise RuntimeError(
                "copy_(): size mismatch, the destination has %d elements and the source %d" % (len(self), len(source))
            )
        self._tensor().copy_(source._tensor())
        return self

    def fill_(self, value):
        self._tensor().fill_(value)
        return self

    def zero_(self):
        return self.fill_(0)

    def resize_(self, size):
        self._resize(size)
        return self

    def clone(self):
        if self.is_cuda:  # the copy stays on the device
            return type(self)._wrap(self._tensor().clone()._storage())
        return type(self)(len(self)).copy_(self)

    def _to(self, dtype):
        """A new storage of type dtype with this one's values (a copy even for the same type, as
        .float() and friends give in PyTorch 1.13)."""
        result = _storage_classes[dtype](len(self))
        result._tensor().copy_(self._tensor())
        return result

    def byte(self):
        return self._to(torch.uint8)

    def char(self):
        return self._to(torch.int8)

    def short(self):
        return self._to(torch.int16)

    def int(self):
        return self._to(torch.int32)

    def long(self):
        return self._to(torch.int64)

    def half(self):
        return self._to(torch.float16)

    def bfloat16(self):
        return self._to(torch.bfloat16)

    def float(self):
        return self._to(torch.float32)

    def double(self):
        return self._to(torch.float64)

    def bool(self):
        return self._to(torch.bool)

    def type(self, dtype=None):
        if dtype is None:
            return "torch." + type(self).__name__
        if isinstance(dtype, str):
            names = {"torch." + c.__name__: c.dtype for c in _storage_classes.values()}
            if dtype not in names:
                raise ValueError("invalid storage type %r; expected one of %s" % (dtype, ", ".join(sorted(names))))
            dtype = names[dtype]
        elif isinstance(dtype, type) and issubclass(dtype, _StorageMethods):
            dtype = dtype.dtype
        if dtype not in _storage_classes:
            raise TypeError("type(): expected a storage type name, a storage class or a dtype, got %r" % (dtype,))
        return self if dtype is self.dtype else self._to(dtype)

    # ---- devices: a storage lives where its memory is (its device, from the core) ----
    def cpu(self):
        """This storage if it is on the CPU, else a copy there."""
        if not self.is_cuda:
            return self
        return type(self)._wrap(self._tensor().cpu()._storage())

    def cuda(self, device=None, non_blocking=False):
        """A copy on the GPU (this storage if it is there)."""
        if self.is_cuda:
            return self
        return type(self)._wrap(self._tensor().cuda(device)._storage())

    @property
    def is_cuda(self):
        return self.device.type == "cuda"

    is_sparse = False

    def is_pinned(self):
        return False

    # ---- shared memory and files ----
    def share_memory_(self):
        """Moves the data to POSIX shared memory (views of this storage keep seeing it); a no-op
        on a GPU, as in PyTorch."""
        if not self.is_cuda:
            self._share_memory()
        return self

    @classmethod
    def _new_shared(cls, size):
        return cls._wrap(_C._StorageBase._new_shared_cdata(cls.dtype, size))

    @classmethod
    def from_file(cls, filename, shared=False, size=0):
        """A storage on a memory-mapped file; with shared=True writes reach the file (which is
        created or grown as needed), else the mapping is private. size 0: the whole file."""
        return cls._wrap(_C._StorageBase._from_file_cdata(cls.dtype, str(filename), shared, size))

    @classmethod
    def from_buffer(cls, buffer, byte_order="native", count=-1, offset=0):
        """A new storage holding a copy of the elements in a bytes-like object."""
        if byte_order not in ("native", "little", "big"):
            raise ValueError("byte_order must be 'native', 'little' or 'big', got %r" % (byte_order,))
        np_type = np.dtype(_NUMPY_TYPES[cls.dtype])
        if byte_order != "native" and np_type.itemsize > 1:
            np_type = np_type.newbyteorder("<" if byte_order == "little" else ">")
        raw = memoryview(buffer).cast("B")
        if offset < 0 or offset > len(raw):
            raise ValueError("offset must be within the buffer of %d bytes, got %d" % (len(raw), offset))
        available = len(raw) - offset
        if count < 0:
            if available % np_type.itemsize != 0:
                raise ValueError(
                    "buffer size (%d) must be a multiple of element size (%d)" % (available, np_type.itemsize)
                )
            count = available // np_type.itemsize
        elif count * np_type.itemsize > available:
            raise ValueError(
                "buffer has only %d bytes after offset %d, %d elements need %d"
                % (available, offset, count, count * np_type.itemsize)
            )
        values = np.frombuffer(raw, dtype=np_type, count=count, offset=offset).astype(np_type.newbyteorder("="))
        storage = cls(count)
        if count:
            storage._tensor().copy_(torch.from_numpy(values))
        return storage

    # ---- Python protocol ----
    def __repr__(self):
        values = " " + "\n ".join(str(v) for v in self.tolist())
        return "%s\n[%s of size %d]" % (values, self._repr_kind(), len(self))

    __str__ = __repr__

    def __copy__(self):
        return self.clone()

    def __deepcopy__(self, memo):
        key = ("storage", self._cdata)
        if key not in memo:
            memo[key] = (self, self.clone())  # the original is kept so its address stays unique
        return memo[key][1]

    def __reduce__(self):
        # As PyTorch: the pickle holds a torch.save file (legacy layout) of this storage.
        buffer = io.BytesIO()
        torch.save(self, buffer, _use_new_zipfile_serialization=False)
        return (_load_from_bytes, (buffer.getvalue(),))

    def __sizeof__(self):
        return object.__sizeof__(self) + self.nbytes()


def _check_cpu(device):
    if device is not None and torch.device(device).type != "cpu":
        raise RuntimeError("storages are made on the CPU here; move them with .cuda(), got device=%s" % device)


class TypedStorage(_StorageMethods):
    """A storage of one dtype (Note [Typed and untyped storages]): TypedStorage(size or sequence,
    dtype=torch.get_default_dtype()), or TypedStorage(wrap_storage=untyped, dtype=d) to read an
    UntypedStorage's bytes as d."""

    def __new__(cls, *args, dtype=None, device=None, wrap_storage=None):
        _check_cpu(device)
        if cls is TypedStorage:
            cls = _storage_classes.get(torch.get_default_dtype() if dtype is None else dtype)
            if cls is None:
                raise TypeError("TypedStorage: no storage of dtype %s" % (dtype,))
        elif dtype is not None and dtype is not cls.dtype:
            raise RuntimeError("%s: dtype must be %s, got %s" % (cls.__name__, cls.dtype, dtype))
        if wrap_storage is None:
            return _C._StorageBase.__new__(cls)
        if args or not isinstance(wrap_storage, UntypedStorage):
            raise TypeError("TypedStorage: wrap_storage must be an UntypedStorage, given alone")
        return cls._wrap(wrap_storage._reinterpret(cls.dtype))

    def __init__(self, *args, dtype=None, device=None, wrap_storage=None):
        if wrap_storage is None:  # else __new__ made the view
            _StorageMethods.__init__(self, *args)

    def _repr_kind(self):
        # PyTorch 1.13 prints its typed storages (whatever legacy class made them) this way.
        return "torch.storage.TypedStorage(dtype=%s, device=%s)" % (self.dtype, self.device)

    def untyped(self):
        """This storage's memory as bytes (a view: writes go through)."""
        return UntypedStorage._wrap(self._reinterpret(torch.uint8))

    def pickle_storage_type(self):
        return _storage_classes[self.dtype].__name__


class UntypedStorage(_StorageMethods):
    """A storage of bytes (Note [Typed and untyped storages]): UntypedStorage(nbytes or a
    sequence of byte values)."""

    dtype = torch.uint8

    def __init__(self, *args, device=None):
        _check_cpu(device)
        _StorageMethods.__init__(self, *args)

    def _repr_kind(self):
        return "torch.storage.UntypedStorage(device=%s)" % self.device

    def untyped(self):
        return self


def _index(key):
    if isinstance(key, bool) or not hasattr(key, "__index__"):
        raise TypeError("storage indices must be integers, not %s" % type(key).__name__)
    return key.__index__()


def _load_from_bytes(b):
    return torch.load(io.BytesIO(b))


_NUMPY_TYPES = {
    torch.uint8: np.uint8,
    torch.int8: np.int8,
    torch.int16: np.int16,
    torch.int32: np.int32,
    torch.int64: np.int64,
    torch.float16: np.float16,
    torch.float32: np.float32,
    torch.float64: np.float64,
    torch.bool: np.bool_,
    torch.complex64: np.complex64,
    torch.complex128: np.complex128,
}


def _make_storage_class(name, dtype):
    return type(name, (TypedStorage,), {"dtype": dtype, "__module__": "torch", "__qualname__": name})


ByteStorage = _make_storage_class("ByteStorage", torch.uint8)
CharStorage = _make_storage_class("CharStorage", torch.int8)
ShortStorage = _make_storage_class("ShortStorage", torch.int16)
IntStorage = _make_storage_class("IntStorage", torch.int32)
LongStorage = _make_storage_class("LongStorage", torch.int64)
HalfStorage = _make_storage_class("HalfStorage", torch.float16)
BFloat16Storage = _make_storage_class("BFloat16Storage", torch.bfloat16)
FloatStorage = _make_storage_class("FloatStorage", torch.float32)
DoubleStorage = _make_storage_class("DoubleStorage", torch.float64)
BoolStorage = _make_storage_class("BoolStorage", torch.bool)
ComplexFloatStorage = _make_storage_class("ComplexFloatStorage", torch.complex64)
ComplexDoubleStorage = _make_storage_class("ComplexDoubleStorage", torch.complex128)
_storage_classes = {
    c.dtype: c
    for c in (
        ByteStorage,
        CharStorage,
        ShortStorage,
        IntStorage,
        LongStorage,
        HalfStorage,
        BFloat16Storage,
        FloatStorage,
        DoubleStorage,
        BoolStorage,
        ComplexFloatStorage,
        ComplexDoubleStorage,
    )
}


def _typed(cdata):
    """The typed storage object of a core storage handle."""
    return _storage_classes[cdata.dtype]._wrap(cdata)


def is_storage(obj):
    return isinstance(obj, _C._StorageBase)


# ---- storage-related Tensor methods ----
def _tensor_storage(self):
    """The storage this tensor views (a new Python object on the same memory)."""
    return _typed(self._storage())


def _tensor_storage_type(self):
    return _storage_classes[self.dtype]


def _tensor_reduce_ex(self, protocol):
    # The layout PyTorch 1.x pickles, so that files written here load there and back.
    from torch import _utils

    # A tensor on a storage[a:b] view is pickled on the storage that owns the memory, so that
    # it keeps sharing with the other tensors on it (the zip layout has no storage views).
    root, start = self._storage()._root()
    args = (
        _typed(root),
        self.storage_offset() + start,
        tuple(self.size()),
        tuple(self.stride()),
        bool(getattr(self, "requires_grad", False)),
        _utils._empty_hooks(),
    )
    return (_utils._rebuild_tensor_v2, args)


def _tensor_deepcopy(self, memo):
    if id(self) in memo:
        return memo[id(self)]
    storage = copy.deepcopy(self.storage(), memo)  # one copy per storage: views stay views
    result = torch.tensor([], dtype=self.dtype, device=self.device)
    result.set_(storage, self.storage_offset(), self.size(), self.stride())
    if getattr(self, "requires_grad", False):
        result.requires_grad_(True)
    grad = getattr(self, "grad", None)
    if grad is not None:
        result.grad = copy.deepcopy(grad, memo)
    memo[id(self)] = result
    return result


torch.Tensor.storage = _tensor_storage
torch.Tensor.storage_type = _tensor_storage_type
torch.Tensor.__reduce_ex__ = _tensor_reduce_ex
torch.Tensor.__deepcopy__ = _tensor_deepcopy
