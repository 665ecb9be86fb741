// torch._C._StorageBase: the core Storage for Python. The typed classes (torch.FloatStorage,
// ...) are Python subclasses written in torch/storage.py; the methods that touch memory
// live here. Storage-related Tensor methods (storage, share_memory_, is_shared) too.
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <utility>

#include "python/csrc/Bind.h"

namespace torch::python {

namespace {

// Note [Storage views]
// storage[a:b] (and the views that old checkpoints describe) is a storage of its own whose data
// points into its parent's memory; its allocator context is a handle on the parent, which keeps
// that memory alive until the view goes. The parent must not move its memory meanwhile
// (resize, share_memory_), or the view would dangle: while views exist, the parent is marked
// not resizable (so TH refuses to resize it, from a tensor too) and share_memory_ refuses.
struct ViewedParent {
  int views = 0;
  bool wasResizable = false;
};
std::mutex gViewedMutex;
std::unordered_map<THByteStorage *, ViewedParent> gViewed;

void viewAdded(THByteStorage *parent) {
  std::lock_guard<std::mutex> lock(gViewedMutex);
  ViewedParent &entry = gViewed[parent];
  if (entry.views++ == 0) {
    entry.wasResizable = (parent->flag & TH_STORAGE_RESIZABLE) != 0;
    parent->flag &= ~TH_STORAGE_RESIZABLE;
  }
}

void viewRemoved(THByteStorage *parent) {
  std::lock_guard<std::mutex> lock(gViewedMutex);
  auto it = gViewed.find(parent);
  if (it == gViewed.end()) return;
  if (--it->second.views == 0) {
    if (it->second.wasResizable) parent->flag |= TH_STORAGE_RESIZABLE;
    gViewed.erase(it);
  }
}

bool hasViews(const Storage &s) {
  std::lock_guard<std::mutex> lock(gViewedMutex);
  return gViewed.count(s.raw()) != 0;
}

void *viewMalloc(void *, ptrdiff_t) { throw std::bad_alloc(); }
void viewFree(void *ctx, void *) {
  auto *parent = static_cast<Storage *>(ctx);
  viewRemoved(parent->raw());
  delete parent;
}
THAllocator viewAllocator = {viewMalloc, nullptr, viewFree};

// TH's count of reals for n elements of dtype (Note [Complex tensors]: two per complex element).
int64_t thCount(ScalarType dtype, int64_t n) { return isComplex(dtype) ? 2 * n : n; }

// Elements [offset, offset + size) of parent, as a storage of dtype on the same memory (offset
// and size count elements of dtype: a view of another dtype reads the parent's bytes as it).
Storage storageView(const Storage &parent, int64_t offset, int64_t size, ScalarType dtype) {
  int64_t parentSize = parent.nbytes() / static_cast<int64_t>(elementSize(dtype));
  TORCH_CHECK(offset >= 0 && size >= 0 && offset <= parentSize && size <= parentSize - offset, Index,
              "storage view [%lld, %lld) is out of range for a storage of size %lld", static_cast<long long>(offset),
              static_cast<long long>(offset + size), static_cast<long long>(parentSize));
  viewAdded(parent.raw());
  Storage *owner = nullptr;
  try {
    owner = new Storage(parent);
    return dispatch(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      T *data = reinterpret_cast<T *>(parent.data()) + thCount(dtype, offset);
      return Storage::adopt(dtype, TH<T>::S::newWithDataAndAllocator(data, thCount(dtype, size), &viewAllocator, owner),
                            parent.device());
    });
  } catch (...) {
    delete owner;
    viewRemoved(parent.raw());
    throw;
  }
}

// The storage that owns s's memory and where s starts in it (s itself and 0 unless s is a view).
// A view of another dtype (UntypedStorage's bytes, TypedStorage(wrap_storage=...)) is a root of
// its own: offsets in the parent would count other elements.
std::pair<Storage, int64_t> rootOf(const Storage &s) {
  Storage root = s;
  while (root.raw()->allocator == &viewAllocator) {
    Storage parent = *static_cast<Storage *>(root.raw()->allocatorContext);
    if (parent.dtype() != root.dtype()) break;
    root = parent;
  }
  int64_t offset = (static_cast<const char *>(s.data()) - static_cast<const char *>(root.data())) /
                   static_cast<int64_t>(elementSize(s.dtype()));
  return {root, offset};
}

void shareMemory(Storage s) {
  TORCH_CHECK(s.isShared() || !hasViews(s), Runtime,
              "share_memory_: this storage has storage views (storage[a:b]) on it, which would be left pointing at "
              "its old memory; share it before slicing it");
  s.shareMemory();
}

// The whole storage as a 1-D tensor (element access, fill, copy and tolist reuse the tensor code).
Tensor asTensor(const Storage &s) { return fromStorage(s, 0, {s.size()}, {1}); }

int64_t checkedIndex(const Storage &s, int64_t i) {
  int64_t n = s.size();
  TORCH_CHECK(i >= -n && i < n, Index, "index %lld is out of range for a storage of size %lld",
              static_cast<long long>(i), static_cast<long long>(n));
  return i < 0 ? i + n : i;
}

Storage fromFile(ScalarType dtype, const std::string &filename, bool shared, int64_t size) {
  TORCH_CHECK(size >= 0, Value, "from_file: size must be non-negative, got %lld", static_cast<long long>(size));
  int flags = shared ? TH_ALLOCATOR_MAPPED_SHARED : 0;
  return dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Storage::adopt(dtype, TH<T>::S::newWithMapping(filename.c_str(), thCount(dtype, size), flags), Device::CPU);
  });
}

// Note [Shared memory by descriptor] in TH/THAllocator.cpp: the shared memory behind a
// descriptor this process holds (a memfd; one received over a Unix socket): how tensors travel
// through multiprocessing queues, with no name in /dev/shm to outlive the processes
// (torch/utils/data/_shared.py). The storage maps it and keeps a descriptor of its own (so it
// can be sent on: sharedDescriptor); the caller closes its own. is_shared() is true.
Storage sharedMemoryFromDescriptor(ScalarType dtype, int fd, int64_t size) {
  TORCH_CHECK(size > 0, Value, "a shared-memory storage needs a positive size, got %lld", static_cast<long long>(size));
  TORCH_CHECK(fd >= 0, Value, "not a file descriptor: %d", fd);
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  int flags = TH_ALLOCATOR_MAPPED_SHAREDMEM | TH_ALLOCATOR_MAPPED_SHARED | TH_ALLOCATOR_MAPPED_NOCREATE;
  return dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Storage::adopt(dtype, TH<T>::S::newWithMapping(path.c_str(), thCount(dtype, size), flags), Device::CPU);
  });
}

// The descriptor a shared storage keeps for its memory (share_memory_(), or memory received by
// descriptor), valid while the storage lives; -1 for any other storage. Sending a duplicate of it
// to another process gives that process a live view of this memory.
int sharedDescriptor(const Storage &s) {
  if (!s.isShared()) return -1;
  const char *name = THMapAllocatorContext_filename(static_cast<THMapAllocatorContext *>(s.raw()->allocatorContext));
  constexpr const char prefix[] = "/proc/self/fd/";
  if (strncmp(name, prefix, sizeof(prefix) - 1) != 0) return -1;
  return std::atoi(name + sizeof(prefix) - 1);
}

}  // namespace

void bindStorage(py::module &m, TensorClass &cls) {
  py::class_<Storage> base(m, "_StorageBase", py::buffer_protocol());
  base.def(py::init([](const Storage &s) { return Storage(s); }), py::arg("cdata"))
      .def_static("_new",
                  [](py::handle dtype, int64_t size) { return Storage::create(toDtype(dtype), size, Device::CPU); })
      .def_static("_new_shared_cdata",
                  [](py::handle dtype, int64_t size) {
                    ScalarType type = toDtype(dtype);
                    return withoutGil([&] {
                      Storage s = Storage::create(type, size, Device::CPU);
                      shareMemory(s);
                      return s;
                    });
                  })
      .def_static("_from_file_cdata", [](py::handle dtype, const std::string &filename, bool shared,
                                         int64_t size) { return fromFile(toDtype(dtype), filename, shared, size); })
      .def_static("_shm_fd_cdata", [](py::handle dtype, int fd,
                                      int64_t size) { return sharedMemoryFromDescriptor(toDtype(dtype), fd, size); })
      // A new reference on the TH storage at `address`, which any copy of TH in this process may
      // have made (the Lua bridge, torch/_lua.so): every copy shares the storage layout
      // (DESIGN.md, "Sharing between the bindings"), so this one can hold and free it.
      .def_static("_retain_cdata",
                  [](py::handle dtype, uintptr_t address) {
                    ScalarType type = toDtype(dtype);
                    TORCH_CHECK(address != 0, Value, "_retain_cdata: the storage address is null");
                    void *raw = reinterpret_cast<void *>(address);
                    dispatch(type, [&](auto tag) {
                      using T = typename decltype(tag)::type;
                      TH<T>::S::retain(static_cast<typename TH<T>::Storage *>(raw));
                    });
                    return Storage::adopt(type, raw, Device::CPU);
                  })
      .def("_cdata_storage", [](const Storage &s) { return s; })
      .def_property_readonly("_cdata", [](const Storage &s) { return reinterpret_cast<uintptr_t>(s.raw()); })
      .def_property_readonly("dtype", [](const Storage &s) { return dtypeObject(s.dtype()); })
      .def("size", &Storage::size)
      .def("__len__", &Storage::size)
      .def("nbytes", &Storage::nbytes)
      .def("element_size", [](const Storage &s) { return elementSize(s.dtype()); })
      .def("data_ptr", [](const Storage &s) { return reinterpret_cast<uintptr_t>(s.data()); })
      .def("is_shared", &Storage::isShared)
      .def("_share_memory", &shareMemory, ReleaseGil())
      .def("_shared_fd", &sharedDescriptor)
      .def("_resize", &Storage::resize, ReleaseGil())
      .def("_root", &rootOf)
      .def("_tensor", &asTensor)
      .def("_view",
           [](const Storage &s, int64_t offset, int64_t size) { return storageView(s, offset, size, s.dtype()); })
      // the whole memory read as dtype (UntypedStorage and TypedStorage(wrap_storage=...)); as
      // in PyTorch 1.13, bytes short of a whole last element are left out
      .def("_reinterpret",
           [](const Storage &s, py::handle dtype) {
             ScalarType to = toDtype(dtype);
             int64_t width = static_cast<int64_t>(elementSize(to));
             return storageView(s, 0, s.nbytes() / width, to);
           })
      .def("_get", [](const Storage &s, int64_t i) { return fromScalar(getFlat(asTensor(s), checkedIndex(s, i))); })
      .def("_set",
           [](const Storage &s, int64_t i, py::handle v) {
             Scalar value = toScalar(v);  // converted before anything is written
             fill_(fromStorage(s, checkedIndex(s, i), {}, {}), value);
           })
      // The raw bytes, writable, for file I/O without copies: memoryview(storage).
      .def_property_readonly("device", [](const Storage &s) { return deviceObject(s.device()); })
      .def_buffer([](const Storage &s) {
        TORCH_CHECK(s.device() == Device::CPU, Type,
                    "a storage on a CUDA device has no buffer on the host: copy it with .cpu() first");
        return py::buffer_info(s.data(), 1, py::format_descriptor<uint8_t>::format(), 1,
                               {static_cast<ssize_t>(s.nbytes())}, {1});
      });

  cls.def("_storage", [](const Tensor &t) { return t.storage(); })
      .def("is_shared", [](const Tensor &t) { return t.storage().isShared(); })
      .def("share_memory_", [](py::object self) {
        Storage s = self.cast<const Tensor &>().storage();
        if (s.device() != Device::CPU) return self;  // as PyTorch: a no-op for CUDA tensors
        withoutGil([&] { shareMemory(s); });
        return self;
      });
}

}  // namespace torch::python
