// torch._C._to_dlpack / _from_dlpack: tensors exchanged as DLPack capsules, without copies,
// with numpy (np.from_dlpack), real PyTorch and any other DLPack consumer or producer.
//
// Note [DLPack capsules]: a capsule named "dltensor" holds a DLManagedTensor, the producer's
// description of its memory and a deleter that releases it. The consumer renames the capsule
// "used_dltensor" and calls the deleter when it is done with the memory (here: when the
// storage made over it is freed); a capsule nobody consumed is released by its destructor.
// The structs are the DLPack ABI (dlpack.h, version 0.x), declared here as its spec lays
// them out.
#include "python/csrc/Bind.h"

namespace torch::python {
namespace {

struct DLDevice {
  int32_t device_type;  // 1: CPU, 2: CUDA
  int32_t device_id;
};
struct DLDataType {
  uint8_t code;  // 0: int, 1: uint, 2: float, 4: bfloat, 6: bool
  uint8_t bits;
  uint16_t lanes;
};
struct DLTensor {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape;
  int64_t *strides;  // in elements; NULL for a compact row-major tensor
  uint64_t byte_offset;
};
struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(DLManagedTensor *self);
};

constexpr int32_t kDLCPU = 1;
constexpr uint8_t kDLInt = 0, kDLUInt = 1, kDLFloat = 2, kDLBfloat = 4, kDLBool = 6;
const char *const kCapsule = "dltensor";
const char *const kUsedCapsule = "used_dltensor";

DLDataType dlType(ScalarType t) {
  const uint8_t bits = static_cast<uint8_t>(8 * elementSize(t));
  switch (t) {
    case ScalarType::Byte: return {kDLUInt, bits, 1};
    case ScalarType::Char:
    case ScalarType::Short:
    case ScalarType::Int:
    case ScalarType::Long: return {kDLInt, bits, 1};
    case ScalarType::Half:
    case ScalarType::Float:
    case ScalarType::Double: return {kDLFloat, bits, 1};
    case ScalarType::BFloat16: return {kDLBfloat, bits, 1};
    default: break;
  }
  // as PyTorch 1.13, which has no DLPack code for its bool
  throw std::runtime_error(std::string(scalarTypeName(t)) + " type is not supported by dlpack");
}

ScalarType fromDlType(const DLDataType &d) {
  if (d.lanes == 1) {
    for (int i = 0; i < kNumScalarTypes; i++) {
      ScalarType t = static_cast<ScalarType>(i);
      if (t == ScalarType::Bool) continue;
      DLDataType ours = dlType(t);
      if (ours.code == d.code && ours.bits == d.bits) return t;
    }
    if (d.code == kDLBool && d.bits == 8) return ScalarType::Bool;
  }
  throw std::runtime_error("from_dlpack: unsupported DLPack data type (code " + std::to_string(d.code) + ", bits " +
                           std::to_string(d.bits) + ", lanes " + std::to_string(d.lanes) + ")");
}

// What an exported capsule keeps alive: the tensor (and so its storage) and the arrays the
// DLTensor points to.
struct Exported {
  Tensor tensor;
  std::vector<int64_t> shape, strides;
  DLManagedTensor managed;
};

void deleteExported(DLManagedTensor *m) { delete static_cast<Exported *>(m->manager_ctx); }

void capsuleDestructor(PyObject *capsule) {
  if (!PyCapsule_IsValid(capsule, kCapsule)) return;  // consumed: the consumer releases it
  auto *m = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule, kCapsule));
  if (m && m->deleter) m->deleter(m);
}

// Storage memory owned by a producer's DLManagedTensor, released by its deleter.
void *dlpackMalloc(void *, ptrdiff_t) { throw std::bad_alloc(); }
void dlpackFree(void *ctx, void *) {
  auto *m = static_cast<DLManagedTensor *>(ctx);
  if (m->deleter) m->deleter(m);
}
THAllocator dlpackAllocator = {dlpackMalloc, nullptr, dlpackFree};

py::capsule toDlpack(const Tensor &t) {
  if (t.device() != Device::CPU) {
    throw std::runtime_error("to_dlpack: only CPU tensors can be exported here (got a " +
                             std::string(deviceName(t.device())) + " tensor)");
  }
  auto *e = new Exported{t, std::vector<int64_t>(t.dim()), std::vector<int64_t>(t.dim()), {}};
  try {
    for (int d = 0; d < t.dim(); d++) {
      e->shape[d] = t.size(d);
      e->strides[d] = t.stride(d);
    }
    DLTensor &dl = e->managed.dl_tensor;
    dl.data = t.dataPtr();
    dl.device = {kDLCPU, 0};
    dl.ndim = t.dim();
    dl.dtype = dlType(t.dtype());
    dl.shape = e->shape.data();
    dl.strides = e->strides.data();
    dl.byte_offset = 0;
    e->managed.manager_ctx = e;
    e->managed.deleter = deleteExported;
  } catch (...) {
    delete e;
    throw;
  }
  return py::capsule(&e->managed, kCapsule, capsuleDestructor);
}

Tensor fromDlpack(const py::capsule &capsule) {
  if (!PyCapsule_IsValid(capsule.ptr(), kCapsule)) {
    throw std::runtime_error(
        "from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only once, so you "
        "might have already constructed a tensor from it once.");
  }
  auto *m = static_cast<DLManagedTensor *>(PyCapsule_GetPointer(capsule.ptr(), kCapsule));
  const DLTensor &dl = m->dl_tensor;
  if (dl.device.device_type != kDLCPU) {
    throw std::runtime_error(
        "from_dlpack: only CPU memory (DLPack device type 1) can be imported here, got device type " +
        std::to_string(dl.device.device_type));
  }
  const ScalarType type = fromDlType(dl.dtype);
  IntList sizes(dl.ndim), strides(dl.ndim);
  int64_t span = 1, compact = 1;
  bool empty = false;
  for (int d = dl.ndim - 1; d >= 0; d--) {
    sizes[d] = dl.shape[d];
    strides[d] = dl.strides ? dl.strides[d] : compact;
    if (strides[d] < 0) throw std::runtime_error("from_dlpack: negative strides are not supported");
    compact *= sizes[d];
    if (sizes[d] == 0) empty = true;
    span += (sizes[d] - 1) * strides[d];
  }
  if (empty) span = 0;
  char *data = static_cast<char *>(dl.data) + dl.byte_offset;
  Storage storage = dispatch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Storage::adopt(
        type, TH<T>::S::newWithDataAndAllocator(reinterpret_cast<T *>(data), span, &dlpackAllocator, m), Device::CPU);
  });
  // the storage now releases the producer's memory (Note [DLPack capsules])
  PyCapsule_SetName(capsule.ptr(), kUsedCapsule);
  dispatch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::S::clearFlag(storage.th<T>(), TH_STORAGE_RESIZABLE);
  });
  return fromStorage(storage, 0, sizes, strides);
}

}  // namespace

void bindDlpack(py::module &m) {
  m.def("_to_dlpack", &toDlpack, py::arg("tensor"));
  m.def("_from_dlpack", &fromDlpack, py::arg("capsule"));
}

}  // namespace torch::python
