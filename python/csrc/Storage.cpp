// torch._C._StorageBase: the core Storage for Python. The typed classes (torch.FloatStorage,
// ...) are Python subclasses written in torch/storage.py; the methods that touch memory
// live here. Storage-related Tensor methods (storage, share_memory_, is_shared) too.
#include <cstring>

#include "python/csrc/Bind.h"

namespace torch::python {

namespace {

// A storage that aliases part of another one (storage[a:b], old checkpoints' storage views):
// the context is a handle on the parent, which keeps the memory alive until the view goes.
void *viewMalloc(void *, ptrdiff_t) { throw std::bad_alloc(); }
void viewFree(void *ctx, void *) { delete static_cast<Storage *>(ctx); }
THAllocator viewAllocator = {viewMalloc, nullptr, viewFree};

Storage storageView(const Storage &parent, int64_t offset, int64_t size) {
  TORCH_CHECK(offset >= 0 && size >= 0 && offset + size <= parent.size(), Index,
              "storage view [%lld, %lld) is out of range for a storage of size %lld", static_cast<long long>(offset),
              static_cast<long long>(offset + size), static_cast<long long>(parent.size()));
  auto *owner = new Storage(parent);
  try {
    return dispatch(parent.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      T *data = reinterpret_cast<T *>(parent.data()) + offset;
      return Storage::adopt(parent.dtype(), TH<T>::S::newWithDataAndAllocator(data, size, &viewAllocator, owner));
    });
  } catch (...) {
    delete owner;
    throw;
  }
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
    return Storage::adopt(dtype, TH<T>::S::newWithMapping(filename.c_str(), size, flags));
  });
}

}  // namespace

void bindStorage(py::module &m, TensorClass &cls) {
  py::class_<Storage> base(m, "_StorageBase", py::buffer_protocol());
  base.def(py::init([](const Storage &s) { return Storage(s); }), py::arg("cdata"))
      .def_static("_new", [](py::handle dtype, int64_t size) { return Storage::create(toDtype(dtype), size); })
      .def_static("_new_shared_cdata",
                  [](py::handle dtype, int64_t size) {
                    Storage s = Storage::create(toDtype(dtype), size);
                    s.shareMemory();
                    return s;
                  })
      .def_static("_from_file_cdata",
                  [](py::handle dtype, const std::string &filename, bool shared, int64_t size) {
                    return fromFile(toDtype(dtype), filename, shared, size);
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
      .def("_share_memory", &Storage::shareMemory)
      .def("_resize", &Storage::resize)
      .def("_tensor", &asTensor)
      .def("_view", &storageView)
      .def("_get", [](const Storage &s, int64_t i) { return fromScalar(getFlat(asTensor(s), checkedIndex(s, i))); })
      .def("_set",
           [](const Storage &s, int64_t i, py::handle v) {
             Scalar value = toScalar(v);  // converted before anything is written
             fill_(fromStorage(s, checkedIndex(s, i), {}, {}), value);
           })
      // The raw bytes, writable, for file I/O without copies: memoryview(storage).
      .def_buffer([](const Storage &s) {
        return py::buffer_info(s.data(), 1, py::format_descriptor<uint8_t>::format(), 1,
                               {static_cast<ssize_t>(s.nbytes())}, {1});
      });

  cls.def("_storage", [](const Tensor &t) { return t.storage(); })
      .def("is_shared", [](const Tensor &t) { return t.storage().isShared(); })
      .def("share_memory_", [](py::object self) {
        self.cast<const Tensor &>().storage().shareMemory();
        return self;
      });
}

}  // namespace torch::python
