// The core tensor: a reference-counted handle on a TH tensor of any element type, the
// object the Python binding wraps and the autograd engine records. Python-free.
//
// Tensor is a value type (copying it shares the tensor, like a Python reference);
// TensorImpl owns one reference to the TH tensor and the autograd state. Every TH
// tensor struct has the same layout whatever its element type, so sizes, strides,
// storage and offset are read through THByteTensor without a type switch. Element work
// goes through the kernel tables (Note [Dispatch by device and type] in core/Dispatch.h);
// what stays on dispatch() and TH<T> here is the tensor's own memory and header (making,
// freeing, resizing, viewing a storage), TH's code for every device: a tensor knows its
// device, and its storage was made with that device's allocator (Note [Memory of a device]).
#ifndef TORCH_TENSOR_H
#define TORCH_TENSOR_H

#include <atomic>
#include <cstdarg>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "TH/THError.hpp"
#include "TH/THTensor.hpp"
#include "core/Device.h"
#include "core/ScalarType.h"

namespace torch {

using IntList = std::vector<int64_t>;

// Errors: th::Error with a kind, which the bindings turn into Python or Lua exceptions.
[[noreturn]] void fail(th::ErrorKind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#define TORCH_CHECK(cond, kind, ...)                              \
  do {                                                            \
    if (!(cond)) ::torch::fail(th::ErrorKind::kind, __VA_ARGS__); \
  } while (0)

using th::Tag;
using th::TH;

// f(Tag<T>{}) for the C element type T of t (uint8_t for Bool).
template <typename F>
decltype(auto) dispatch(ScalarType t, F &&f) {
  TORCH_CHECK(static_cast<int>(t) >= 0 && static_cast<int>(t) < kNumScalarTypes, Type, "unknown element type %d",
              static_cast<int>(t));
  return th::visit(thType(t), std::forward<F>(f));
}

// As dispatch, for ops with arithmetic: Half and BFloat16 (storage-only types on the CPU)
// raise a TypeError.
template <typename F>
decltype(auto) dispatchArith(ScalarType t, const char *op, F &&f) {
  if (isReducedFloat(t)) fail(th::ErrorKind::Type, "%s is not implemented for %s tensors", op, scalarTypeName(t));
  return dispatch(t, [&](auto tag) -> decltype(auto) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, THHalf>) {
      return f(Tag<float>{});  // unreachable; keeps the return type of the other types
    } else {
      return f(tag);
    }
  });
}

// As dispatch, for Float and Double only.
template <typename F>
decltype(auto) dispatchFloating(ScalarType t, const char *op, F &&f) {
  switch (t) {
    case ScalarType::Float: return f(Tag<float>{});
    case ScalarType::Double: return f(Tag<double>{});
    default:
      fail(th::ErrorKind::Type, "%s is only implemented for floating point tensors (got %s)", op, scalarTypeName(t));
  }
}

struct AutogradMeta;  // defined by the autograd engine

// A handle on a TH storage of any element type.
class Storage {
 public:
  Storage() = default;
  // Takes over one reference of raw (a TH<T>::Storage* of dtype's C type, whose memory is on
  // device).
  static Storage adopt(ScalarType dtype, void *raw, Device device) { return Storage(dtype, raw, device); }
  // New memory on device (Note [Memory of a device]).
  static Storage create(ScalarType dtype, int64_t size, Device device);
  Storage(const Storage &o);
  Storage(Storage &&o) noexcept : dtype_(o.dtype_), device_(o.device_), raw_(o.raw_) { o.raw_ = nullptr; }
  Storage &operator=(Storage o) noexcept {
    std::swap(dtype_, o.dtype_);
    std::swap(device_, o.device_);
    std::swap(raw_, o.raw_);
    return *this;
  }
  ~Storage();

  bool defined() const { return raw_ != nullptr; }
  ScalarType dtype() const { return dtype_; }
  Device device() const { return device_; }
  // In elements: a complex storage holds two of TH's reals per element (Note [Complex tensors]).
  int64_t size() const { return isComplex(dtype_) ? raw_->size / 2 : raw_->size; }
  size_t nbytes() const { return size() * elementSize(dtype_); }
  char *data() const { return reinterpret_cast<char *>(raw_->data); }
  THByteStorage *raw() const { return raw_; }
  template <typename T>
  typename TH<T>::Storage *th() const {
    return reinterpret_cast<typename TH<T>::Storage *>(raw_);
  }
  bool isSameAs(const Storage &o) const { return raw_ == o.raw_; }
  // The same memory as a storage of another type on the same TH type (a complex storage and
  // its real parts).
  Storage withType(ScalarType dtype) const;
  // The storage in POSIX shared memory (no-op when it already is): data is copied once.
  void shareMemory();
  bool isShared() const;
  void resize(int64_t size);

 private:
  Storage(ScalarType dtype, void *raw, Device device)
      : dtype_(dtype), device_(device), raw_(static_cast<THByteStorage *>(raw)) {}
  ScalarType dtype_ = ScalarType::Float;
  Device device_ = Device::CPU;
  THByteStorage *raw_ = nullptr;
};

struct TensorImpl {
  TensorImpl(ScalarType dtype, THByteTensor *th, Device device) : dtype(dtype), device(device), th(th) {}
  ~TensorImpl();
  std::atomic<int> refs{1};
  ScalarType dtype;
  Device device;     // where the storage's memory is; views keep their base's
  THByteTensor *th;  // really TH<T>::Tensor* for the C type of dtype; one reference owned
  std::shared_ptr<AutogradMeta> autograd;
  // Bumped by every in-place op; shared by a tensor and its views (made on first need), so
  // that autograd can tell when a tensor it saved was modified.
  std::shared_ptr<std::atomic<uint32_t>> version;
  // For a view: the tensor whose memory it views (the first non-view up the chain), one
  // reference held. In-place ops on the view rewrite base's autograd history.
  TensorImpl *viewBase = nullptr;
  // The binding's object for this tensor (a borrowed PyObject*), so that a tensor handed
  // back to Python is the same object (`a.add_(b) is a`); bindingHandle is the handle that
  // object holds, whose destruction clears the slot.
  void *bindingObject = nullptr;
  const void *bindingHandle = nullptr;
};

class Tensor {
 public:
  Tensor() = default;
  // Takes over one reference of th (a TH<T>::Tensor* of dtype's C type over memory on device).
  static Tensor adopt(ScalarType dtype, void *th, Device device) {
    return Tensor(new TensorImpl(dtype, static_cast<THByteTensor *>(th), device));
  }
  // Takes over one reference of impl.
  static Tensor adoptImpl(TensorImpl *impl) { return Tensor(impl); }
  Tensor(const Tensor &o) : impl_(o.impl_) {
    if (impl_) impl_->refs.fetch_add(1, std::memory_order_relaxed);
  }
  Tensor(Tensor &&o) noexcept : impl_(o.impl_) { o.impl_ = nullptr; }
  Tensor &operator=(Tensor o) noexcept {
    release();  // a binding's handle must not pass its role on through the swap
    impl_ = o.impl_;
    o.impl_ = nullptr;
    return *this;
  }
  ~Tensor() { release(); }

  bool defined() const { return impl_ != nullptr; }
  TensorImpl *impl() const { return impl_; }
  ScalarType dtype() const { return impl_->dtype; }
  Device device() const { return impl_->device; }
  THByteTensor *raw() const { return impl_->th; }
  template <typename T>
  typename TH<T>::Tensor *th() const {
    return reinterpret_cast<typename TH<T>::Tensor *>(impl_->th);
  }

  int dim() const { return raw()->nDimension; }
  int64_t size(int d) const { return raw()->size[d]; }
  int64_t stride(int d) const { return raw()->stride[d]; }
  IntList sizes() const { return IntList(raw()->size, raw()->size + dim()); }
  IntList strides() const { return IntList(raw()->stride, raw()->stride + dim()); }
  int64_t numel() const;
  int64_t storageOffset() const { return raw()->storageOffset; }
  bool isContiguous() const;
  // Address of the first element.
  char *dataPtr() const {
    return reinterpret_cast<char *>(raw()->storage->data) + storageOffset() * elementSize(dtype());
  }
  Storage storage() const;
  bool isSameAs(const Tensor &o) const { return impl_ == o.impl_; }
  bool hasSizes(const IntList &s) const {
    if (static_cast<int>(s.size()) != dim()) return false;
    for (int d = 0; d < dim(); d++) {
      if (size(d) != s[d]) return false;
    }
    return true;
  }
  bool isSameSizeAs(const Tensor &o) const {
    if (o.dim() != dim()) return false;
    for (int d = 0; d < dim(); d++) {
      if (size(d) != o.size(d)) return false;
    }
    return true;
  }
  // Same storage, offset, sizes and strides.
  bool isSetTo(const Tensor &o) const;
  std::string sizeString() const;  // "[2, 3]"

 private:
  explicit Tensor(TensorImpl *impl) : impl_(impl) {}
  void release() {
    if (!impl_) return;
    if (impl_->bindingHandle == this) {
      impl_->bindingObject = nullptr;
      impl_->bindingHandle = nullptr;
    }
    if (impl_->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete impl_;
  }
  TensorImpl *impl_ = nullptr;
};

// Note [Memory of a device]: a tensor of any device is TH's struct (Note [CUDA tensors have
// TH's layout] in THC/THCTensor.hpp); what makes its memory a device's is the THAllocator its
// storage was made with. The CPU's is TH's default allocator; a device library registers its
// own (with the context it needs) when it loads, and Storage::create makes that device's
// memory with it. Freeing, resizing (the allocator's realloc) and every view are then TH's
// own code whatever the device; element work goes through the kernel tables.
void registerDeviceAllocator(Device device, THAllocator *allocator, void *context);
bool hasDeviceAllocator(Device device);
// Note [Pinned host memory]: page-locked CPU memory, which a device copies from and to
// without staging (and asynchronously); a device library registers its allocator. A pinned
// tensor is a CPU tensor whose storage that allocator made.
void registerPinnedAllocator(THAllocator *allocator, void *context);
Tensor pinMemory(const Tensor &t);  // a contiguous pinned copy; raises when none is registered
bool isPinned(const Tensor &t);

// PyTorch's error when the tensors of one op are on different devices.
void checkSameDevice(const char *op, const Tensor &a, const Tensor &b);
// The device of an element-wise op's result on a and b: theirs when they agree; a 0-dim CPU
// tensor goes along with a tensor of another device, as a number would (PyTorch's rule);
// any other mix raises checkSameDevice's error.
Device resultDevice(const char *op, const Tensor &a, const Tensor &b);
Device resultDevice(const char *op, std::initializer_list<const Tensor *> tensors);  // the same for several
// An in-place op writes self on its device: other must be there too, or a 0-dim CPU tensor.
void checkInplaceDevice(const char *op, const Tensor &self, const Tensor &other);

std::string shapeString(const IntList &sizes);  // "[2, 3]"

// Dimension d (negative counts from the end) of a tensor with ndim dimensions, checked.
int wrapDim(int64_t d, int ndim);

// ---- creation ----
ScalarType defaultFloatType();
void setDefaultFloatType(ScalarType t);  // Float or Double
// Every new tensor names its device: an op's results live on its inputs' device.
Tensor empty(const IntList &sizes, ScalarType dtype, Device device);
Tensor emptyLike(const Tensor &t, ScalarType dtype);  // on t's device
Tensor emptyLike(const Tensor &t);
// A new tensor with the given strides (non-negative), over just enough memory.
Tensor emptyStrided(const IntList &sizes, const IntList &strides, ScalarType dtype, Device device);
// A view on storage with the given geometry (checked against the storage's size).
Tensor fromStorage(const Storage &storage, int64_t offset, const IntList &sizes, const IntList &strides);
Tensor scalarTensor(Scalar v, ScalarType dtype, Device device);  // 0-dim

// ---- views (share storage) ----
// Makes view a view of base (the chain's root base) sharing its version counter.
void markView(const Tensor &base, const Tensor &view);
Tensor viewBase(const Tensor &view);  // undefined for a tensor that is not a view
Tensor alias(const Tensor &t);        // a new tensor object on the same view
Tensor select(const Tensor &t, int64_t dim, int64_t index);
Tensor narrow(const Tensor &t, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor &t, int64_t dim, int64_t start, int64_t stop, int64_t step);  // python rules
Tensor transpose(const Tensor &t, int64_t dim0, int64_t dim1);
Tensor permute(const Tensor &t, const IntList &dims);
Tensor unfold(const Tensor &t, int64_t dim, int64_t size, int64_t step);
Tensor view(const Tensor &t, IntList sizes);     // one -1 inferred; stride-compatible only
Tensor reshape(const Tensor &t, IntList sizes);  // a view when possible, else a copy
Tensor expand(const Tensor &t, IntList sizes);   // -1 keeps a size
Tensor squeeze(const Tensor &t);
Tensor squeeze(const Tensor &t, int64_t dim);
Tensor unsqueeze(const Tensor &t, int64_t dim);
Tensor asStrided(const Tensor &t, const IntList &sizes, const IntList &strides, int64_t offset);
Tensor flatten(const Tensor &t, int64_t startDim, int64_t endDim);

// ---- copies and conversions ----
Tensor contiguous(const Tensor &t);  // t itself when already contiguous
Tensor clone(const Tensor &t);
Tensor toType(const Tensor &t, ScalarType dtype, bool copy = false);  // t itself if same type
// t converted and moved (t itself when it has both already); the gradient goes back to t's
// device and type.
Tensor to(const Tensor &t, ScalarType dtype, Device device, bool copy = false);
// dst = src, src broadcast to dst's shape, any element types.
void copy_(const Tensor &dst, const Tensor &src);
// Raises PyTorch's error when elements of t share memory (a stride of 0 over a size above 1,
// as expand makes them) and t is to receive computed values: they would be written over one
// another. Fills (fill_, zero_, masked_fill_, index_fill_) write one value, and may.
void checkNoInternalOverlap(const Tensor &t);
// copy_ without a version bump or autograd recording, for autograd's own bookkeeping.
void copyValues_(const Tensor &dst, const Tensor &src);
void fill_(const Tensor &t, Scalar v);
// New sizes, contiguous strides; the storage grows when needed (values are kept only
// where the old and new layouts agree, as in PyTorch).
void resize_(const Tensor &t, const IntList &sizes);
// Makes t a view of src's storage, offset, sizes and strides.
void set_(const Tensor &t, const Tensor &src);
void zero_(const Tensor &t);
Scalar item(const Tensor &t);  // one-element tensors only
// Element i (row-major over the tensor's shape) as a Scalar; for printing and tolist.
Scalar getFlat(const Tensor &t, int64_t i);

// ---- broadcasting ----
IntList broadcastShapes(const IntList &a, const IntList &b);
bool isBroadcastableTo(const IntList &from, const IntList &to);

}  // namespace torch

#endif
