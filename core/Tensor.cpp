#include "core/Tensor.h"

#include <numeric>

#include "autograd/Autograd.h"
#include "autograd/Derivatives.h"
#include "core/ops/Complex.h"
#include "core/ops/CopyKernels.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace torch {

CopyKernels &copyKernels() {
  static CopyKernels *tables = [] {
    auto *t = new CopyKernels();  // never destroyed: kernels may run during exit
    cpu::registerCopyKernels(*t);
    return t;
  }();
  return *tables;
}

void fail(th::ErrorKind kind, const char *fmt, ...) {
  char buffer[1024];
  va_list args;
  va_start(args, fmt);
  vsnprintf(buffer, sizeof(buffer), fmt, args);
  va_end(args);
  throw th::Error(buffer, kind, 0);
}

// ---- ScalarType ----

const char *scalarTypeName(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "Bool";
    case ScalarType::ComplexFloat: return "ComplexFloat";
    case ScalarType::ComplexDouble: return "ComplexDouble";
    case ScalarType::BFloat16: return "BFloat16";
    default: return th::typeName(thType(t));
  }
}

const char *dtypeName(ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return "bool";
    case ScalarType::ComplexFloat: return "complex64";
    case ScalarType::ComplexDouble: return "complex128";
    case ScalarType::BFloat16: return "bfloat16";
    default: return th::dtypeName(thType(t));
  }
}

size_t elementSize(ScalarType t) {
  size_t real = th::visit(thType(t), [](auto tag) { return sizeof(typename decltype(tag)::type); });
  return isComplex(t) ? 2 * real : real;
}

ScalarType promoteTypes(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (a == ScalarType::Bool) return b;
  if (b == ScalarType::Bool) return a;
  if (isComplex(a) || isComplex(b)) {
    // the complex type whose real part holds both real parts (double with complex64 is complex128)
    ScalarType real = promoteTypes(toRealType(a), toRealType(b));
    return real == ScalarType::Double ? ScalarType::ComplexDouble : ScalarType::ComplexFloat;
  }
  if (isFloating(a) || isFloating(b)) {
    if (!isFloating(a)) return b;
    if (!isFloating(b)) return a;
    // Float and Double rank by size; Half or BFloat16 with either gives the other, and with
    // each other Float, which holds both.
    if (isReducedFloat(a) && isReducedFloat(b)) return ScalarType::Float;
    return elementSize(a) >= elementSize(b) ? a : b;
  }
  // Two different integer types: the wider; uint8 with a signed type needs a signed
  // type that holds 0..255.
  if (a == ScalarType::Byte || b == ScalarType::Byte) {
    ScalarType other = a == ScalarType::Byte ? b : a;
    return other == ScalarType::Char ? ScalarType::Short : other;
  }
  return elementSize(a) >= elementSize(b) ? a : b;
}

template <typename T>
T Scalar::to() const {
  TORCH_CHECK(kind != Kind::Complex || imag == 0, Runtime, "value cannot be converted to type %s without overflow",
              th::TypeInfo<T>::dtypeName);
  if constexpr (std::is_same_v<T, THHalf>) {
    return TH_float2half(static_cast<float>(d));
  } else if constexpr (std::is_floating_point_v<T>) {
    return kind == Kind::Float || kind == Kind::Complex ? static_cast<T>(d) : static_cast<T>(i);
  } else {
    // Integral targets: floats truncate toward zero, like C and PyTorch.
    return kind == Kind::Float || kind == Kind::Complex ? static_cast<T>(static_cast<int64_t>(d)) : static_cast<T>(i);
  }
}
#define TORCH_SCALAR_TO(ctype, name, th) template ctype Scalar::to<ctype>() const;
TORCH_SCALAR_TO(uint8_t, Byte, Byte)
TORCH_SCALAR_TO(int8_t, Char, Char)
TORCH_SCALAR_TO(int16_t, Short, Short)
TORCH_SCALAR_TO(int32_t, Int, Int)
TORCH_SCALAR_TO(int64_t, Long, Long)
TORCH_SCALAR_TO(THHalf, Half, Half)
TORCH_SCALAR_TO(float, Float, Float)
TORCH_SCALAR_TO(double, Double, Double)
#undef TORCH_SCALAR_TO

std::string Scalar::str() const {
  char buffer[64];
  if (kind == Kind::Bool) return i ? "True" : "False";
  if (kind == Kind::Int) {
    snprintf(buffer, sizeof(buffer), "%lld", static_cast<long long>(i));
  } else if (kind == Kind::Complex) {
    snprintf(buffer, sizeof(buffer), "(%.17g%+.17gj)", d, imag);
  } else {
    snprintf(buffer, sizeof(buffer), "%.17g", d);
  }
  return buffer;
}

// ---- Storage ----

namespace {
struct DeviceMemory {
  THAllocator *allocator = nullptr;
  void *context = nullptr;
};
DeviceMemory gDeviceMemory[kNumDevices];
}  // namespace

void registerDeviceAllocator(Device device, THAllocator *allocator, void *context) {
  TORCH_CHECK(device != Device::CPU, Value, "the CPU's memory is TH's own allocator's");
  gDeviceMemory[static_cast<int>(device)] = DeviceMemory{allocator, context};
}

bool hasDeviceAllocator(Device device) {
  return device == Device::CPU || gDeviceMemory[static_cast<int>(device)].allocator != nullptr;
}

namespace {
DeviceMemory gPinnedMemory;
}

void registerPinnedAllocator(THAllocator *allocator, void *context) {
  gPinnedMemory = DeviceMemory{allocator, context};
}

Tensor pinMemory(const Tensor &t) {
  TORCH_CHECK(t.device() == Device::CPU, Runtime, "cannot pin '%s' memory: only dense CPU tensors can be pinned",
              deviceName(t.device()));
  TORCH_CHECK(gPinnedMemory.allocator, Runtime, "no pinned memory: no CUDA device is available");
  Tensor r = dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto *s = TH<T>::S::newWithAllocator(t.numel(), gPinnedMemory.allocator, gPinnedMemory.context);
    return fromStorage(Storage::adopt(t.dtype(), s, Device::CPU), 0, t.sizes(), {});
  });
  copy_(r, t);
  return r;
}

bool isPinned(const Tensor &t) {
  if (t.device() != Device::CPU || !gPinnedMemory.allocator || !t.raw()->storage) return false;
  return t.raw()->storage->allocator == gPinnedMemory.allocator;
}

static const DeviceMemory &deviceMemory(Device device) {
  const DeviceMemory &m = gDeviceMemory[static_cast<int>(device)];
  TORCH_CHECK(m.allocator, Runtime, "no %s memory: this build has no library for that device loaded, or no %s device",
              deviceName(device), deviceName(device));
  return m;
}

void checkSameDevice(const char *op, const Tensor &a, const Tensor &b) {
  if (a.device() == b.device()) return;
  fail(th::ErrorKind::Runtime,
       "Expected all tensors to be on the same device, but found at least two devices, %s and %s! (in %s)",
       deviceName(a.device()), deviceName(b.device()), op);
}

Device resultDevice(const char *op, std::initializer_list<const Tensor *> tensors) {
  const Tensor *chosen = nullptr;  // the first that is not a CPU scalar
  for (const Tensor *t : tensors) {
    if (!t->defined() || (t->device() == Device::CPU && t->dim() == 0)) continue;
    if (!chosen) {
      chosen = t;
    } else {
      checkSameDevice(op, *chosen, *t);
    }
  }
  return chosen ? chosen->device() : Device::CPU;
}

Device resultDevice(const char *op, const Tensor &a, const Tensor &b) { return resultDevice(op, {&a, &b}); }

void checkInplaceDevice(const char *op, const Tensor &self, const Tensor &other) {
  if (other.device() == self.device() || (other.device() == Device::CPU && other.dim() == 0)) return;
  checkSameDevice(op, self, other);
}

Storage Storage::create(ScalarType dtype, int64_t size, Device device) {
  TORCH_CHECK(size >= 0, Value, "storage size must be non-negative, got %lld", static_cast<long long>(size));
  int64_t reals = isComplex(dtype) ? 2 * size : size;  // Note [Complex tensors]
  return dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (device == Device::CPU) return Storage(dtype, TH<T>::S::newWithSize(reals), device);
    const DeviceMemory &m = deviceMemory(device);
    return Storage(dtype, TH<T>::S::newWithAllocator(reals, m.allocator, m.context), device);
  });
}

Storage Storage::withType(ScalarType dtype) const {
  TORCH_CHECK(thType(dtype) == thType(dtype_), Type, "a %s storage cannot be viewed as %s", scalarTypeName(dtype_),
              scalarTypeName(dtype));
  Storage r(dtype, raw_, device_);
  dispatch(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::S::retain(th<T>());
  });
  return r;
}

Storage::Storage(const Storage &o) : dtype_(o.dtype_), device_(o.device_), raw_(o.raw_) {
  if (raw_) {
    dispatch(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      TH<T>::S::retain(th<T>());
    });
  }
}

Storage::~Storage() {
  if (raw_) {
    dispatch(dtype_, [&](auto tag) {
      using T = typename decltype(tag)::type;
      TH<T>::S::free(th<T>());
    });
  }
}

bool Storage::isShared() const {
  if (raw_->allocator != &THMapAllocator) return false;
  auto *ctx = static_cast<THMapAllocatorContext *>(raw_->allocatorContext);
  return (THMapAllocatorContext_flags(ctx) & TH_ALLOCATOR_MAPPED_SHAREDMEM) != 0;
}

void Storage::shareMemory() {
  if (isShared()) return;
  TORCH_CHECK(device_ == Device::CPU, Runtime, "share_memory_: only CPU memory can be shared this way (got %s)",
              deviceName(device_));
  size_t bytes = nbytes();
  // New shared memory with no name at all (a memfd): nothing in /dev/shm, not even for a
  // moment, so a process killed here leaves nothing behind. The mapping (inherited by forked
  // children) keeps the memory; it goes when the last process lets go of it.
  int fd = memfd_create("torch_shared", MFD_CLOEXEC);
  TORCH_CHECK(fd >= 0, Runtime, "share_memory_: cannot create shared memory: %s", strerror(errno));
  char path[64];
  snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
  // Note [Shared memory by descriptor] in TH/THAllocator.cpp: the mapping opens the memfd
  // through /proc; it sizes the memory itself.
  THMapAllocatorContext *ctx =
      THMapAllocatorContext_new(path, TH_ALLOCATOR_MAPPED_SHAREDMEM | TH_ALLOCATOR_MAPPED_SHARED);
  // A mapping cannot be empty: a 0-element storage gets one byte it never uses.
  void *data = nullptr;
  try {
    data = THMapAllocator.malloc(ctx, bytes > 0 ? bytes : 1);
  } catch (...) {
    close(fd);
    THMapAllocatorContext_free(ctx);
    throw;
  }
  close(fd);
  if (bytes > 0) memcpy(data, raw_->data, bytes);
  // Swap the new memory in; views of this storage see it because they point at the struct.
  void *oldData = raw_->data;
  THAllocator *oldAllocator = raw_->allocator;
  void *oldContext = raw_->allocatorContext;
  raw_->data = static_cast<uint8_t *>(data);
  raw_->allocator = &THMapAllocator;
  raw_->allocatorContext = ctx;
  raw_->flag = TH_STORAGE_REFCOUNTED | TH_STORAGE_FREEMEM;
  if (oldData && oldAllocator) oldAllocator->free(oldContext, oldData);
}

void Storage::resize(int64_t size) {
  TORCH_CHECK(size >= 0, Value, "storage size must be non-negative, got %lld", static_cast<long long>(size));
  dispatch(dtype_, [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::S::resize(th<T>(), isComplex(dtype_) ? 2 * size : size);
  });
}

// ---- Tensor ----

TensorImpl::~TensorImpl() {
  dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::free(reinterpret_cast<typename TH<T>::Tensor *>(th));
  });
  if (viewBase && viewBase->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete viewBase;
}

int64_t Tensor::numel() const {
  int64_t n = 1;
  for (int d = 0; d < dim(); d++) n *= size(d);
  return n;
}

bool Tensor::isContiguous() const {
  int64_t expected = 1;
  for (int d = dim() - 1; d >= 0; d--) {
    if (size(d) == 0) return true;
    if (size(d) == 1) continue;
    if (stride(d) != expected) return false;
    expected *= size(d);
  }
  return true;
}

Storage Tensor::storage() const {
  THByteStorage *s = raw()->storage;
  Storage result = Storage::adopt(dtype(), s, device());
  // adopt takes a reference: add the one it will drop.
  dispatch(dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::S::retain(result.th<T>());
  });
  return result;
}

bool Tensor::isSetTo(const Tensor &o) const {
  return raw()->storage == o.raw()->storage && storageOffset() == o.storageOffset() && sizes() == o.sizes() &&
         (dim() == 0 || strides() == o.strides());
}

std::string shapeString(const IntList &sizes) {
  std::string s = "[";
  for (size_t d = 0; d < sizes.size(); d++) {
    if (d) s += ", ";
    s += std::to_string(sizes[d]);
  }
  return s + "]";
}

std::string Tensor::sizeString() const { return shapeString(sizes()); }

int wrapDim(int64_t d, int ndim) {
  int64_t lo = ndim > 0 ? -ndim : -1, hi = ndim > 0 ? ndim - 1 : 0;
  if (d < lo || d > hi) {
    fail(th::ErrorKind::Index, "Dimension out of range (expected to be in range of [%lld, %lld], but got %lld)",
         static_cast<long long>(lo), static_cast<long long>(hi), static_cast<long long>(d));
  }
  return static_cast<int>(d < 0 ? d + (ndim > 0 ? ndim : 1) : d);
}

// ---- creation ----

static ScalarType gDefaultFloat = ScalarType::Float;
ScalarType defaultFloatType() { return gDefaultFloat; }
void setDefaultFloatType(ScalarType t) {
  TORCH_CHECK(t == ScalarType::Float || t == ScalarType::Double, Type,
              "only Float and Double can be the default floating point type, got %s", scalarTypeName(t));
  gDefaultFloat = t;
}

static void checkSizes(const IntList &sizes) {
  for (int64_t s : sizes) {
    TORCH_CHECK(s >= 0, Runtime, "Trying to create tensor with negative dimension %lld", static_cast<long long>(s));
  }
}

Tensor empty(const IntList &sizes, ScalarType dtype, Device device) {
  checkSizes(sizes);
  if (device != Device::CPU || isComplex(dtype)) {  // a complex storage's size is not TH's (Note [Complex tensors])
    int64_t n = 1;
    for (int64_t size : sizes) n *= size;
    return fromStorage(Storage::create(dtype, n, device), 0, sizes, {});
  }
  return dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return Tensor::adopt(dtype, TH<T>::newWithSize(static_cast<int>(sizes.size()), sizes.data(), nullptr), device);
  });
}

Tensor emptyLike(const Tensor &t, ScalarType dtype) { return empty(t.sizes(), dtype, t.device()); }
Tensor emptyLike(const Tensor &t) { return empty(t.sizes(), t.dtype(), t.device()); }

Tensor emptyStrided(const IntList &sizes, const IntList &strides, ScalarType dtype, Device device) {
  TORCH_CHECK(sizes.size() == strides.size(), Runtime, "empty_strided: %zu sizes but %zu strides", sizes.size(),
              strides.size());
  int64_t span = 1;  // elements from the first to the last one
  for (size_t d = 0; d < sizes.size(); d++) {
    TORCH_CHECK(strides[d] >= 0, Runtime, "empty_strided: negative strides are not supported");
    if (sizes[d] == 0) span = 0;
  }
  if (span) {
    for (size_t d = 0; d < sizes.size(); d++) span += (sizes[d] - 1) * strides[d];
  }
  return fromStorage(Storage::create(dtype, span, device), 0, sizes, strides);
}

Tensor fromStorage(const Storage &storage, int64_t offset, const IntList &sizes, const IntList &strides) {
  checkSizes(sizes);
  TORCH_CHECK(strides.empty() || strides.size() == sizes.size(), Value,
              "sizes and strides must have the same length (%zu and %zu)", sizes.size(), strides.size());
  TORCH_CHECK(offset >= 0, Value, "storage offset must be non-negative, got %lld", static_cast<long long>(offset));
  IntList st = strides;
  if (st.empty()) {
    st.resize(sizes.size());
    int64_t s = 1;
    for (int d = static_cast<int>(sizes.size()) - 1; d >= 0; d--) {
      st[d] = s;
      s *= sizes[d] > 0 ? sizes[d] : 1;
    }
  }
  int64_t last = offset;  // largest element index reached
  bool emptyView = false;
  for (size_t d = 0; d < sizes.size(); d++) {
    TORCH_CHECK(st[d] >= 0, Value, "negative strides are not supported");
    if (sizes[d] == 0) emptyView = true;
    last += (sizes[d] - 1) * st[d];
  }
  TORCH_CHECK(emptyView || last < storage.size(), Runtime,
              "sizes %s, strides and offset %lld need a storage of %lld elements, but it has %lld",
              shapeString(sizes).c_str(), static_cast<long long>(offset), static_cast<long long>(last + 1),
              static_cast<long long>(storage.size()));
  return dispatch(storage.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto *th = TH<T>::newEmpty();
    TH<T>::setStorageNd(th, storage.th<T>(), offset, static_cast<int>(sizes.size()), sizes.data(), st.data());
    return Tensor::adopt(storage.dtype(), th, storage.device());
  });
}

Tensor scalarTensor(Scalar v, ScalarType dtype, Device device) {
  Tensor t = empty({}, dtype, device);
  fill_(t, v);
  return t;
}

// ---- views ----

template <typename Body>
static Tensor makeView(const Tensor &t, Body &&body) {
  return dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto *view = TH<T>::newWithTensor(t.th<T>());
    Tensor result = Tensor::adopt(t.dtype(), view, t.device());
    body(tag, view);
    return result;
  });
}

void markView(const Tensor &base, const Tensor &view) {
  if (view.raw()->storage != base.raw()->storage) return;  // reshape may have copied
  TensorImpl *root = base.impl()->viewBase ? base.impl()->viewBase : base.impl();
  root->refs.fetch_add(1, std::memory_order_relaxed);
  view.impl()->viewBase = root;
  shareVersion(view, base);
}

Tensor viewBase(const Tensor &view) {
  TensorImpl *root = view.impl()->viewBase;
  if (!root) return Tensor();
  root->refs.fetch_add(1, std::memory_order_relaxed);
  return Tensor::adoptImpl(root);
}

// A view made by body(tag, thView) on a copy of t's TH header, marked as a view of t, and
// recorded with backward when t needs a gradient.
template <typename Body>
static Tensor viewOp(const char *name, const Tensor &t, std::function<Tensor(const Tensor &)> backward, Body &&body) {
  Tensor r = makeView(t, std::forward<Body>(body));
  markView(t, r);
  if (needsRecording({&t})) recordView(name, t, r, std::move(backward));
  return r;
}

Tensor alias(const Tensor &t) {
  return viewOp(
      "AliasBackward", t, [](const Tensor &g) { return g; }, [](auto, auto *) {});
}

static int64_t wrapIndex(int64_t index, int64_t size, int dim) {
  if (index < -size || index >= size) {
    fail(th::ErrorKind::Index, "index %lld is out of range for dimension %d of size %lld",
         static_cast<long long>(index), dim, static_cast<long long>(size));
  }
  return index < 0 ? index + size : index;
}

// The gradient of a view that picks part of base: zeros of base's shape with the view's
// part set to grad. region(x) makes the same view of x.
static std::function<Tensor(const Tensor &)> partBackward(const Tensor &base,
                                                          std::function<Tensor(const Tensor &)> region) {
  return [sizes = base.sizes(), region = std::move(region)](const Tensor &g) {
    Tensor r = empty(sizes, g.dtype(), g.device());
    zero_(r);
    copy_(region(r), g);
    return r;
  };
}

Tensor select(const Tensor &t, int64_t dim, int64_t index) {
  TORCH_CHECK(t.dim() > 0, Index, "select() cannot be applied to a 0-dim tensor");
  int d = wrapDim(dim, t.dim());
  int64_t i = wrapIndex(index, t.size(d), d);
  return viewOp("SelectBackward", t, partBackward(t, [d, i](const Tensor &x) { return select(x, d, i); }),
                [&](auto tag, auto *v) {
                  using T = typename decltype(tag)::type;
                  TH<T>::select(v, nullptr, d, i);
                });
}

Tensor narrow(const Tensor &t, int64_t dim, int64_t start, int64_t length) {
  TORCH_CHECK(t.dim() > 0, Index, "narrow() cannot be applied to a 0-dim tensor");
  int d = wrapDim(dim, t.dim());
  int64_t n = t.size(d);
  if (start < 0) start += n;
  TORCH_CHECK(start >= 0 && length >= 0 && start + length <= n, Index,
              "start (%lld) + length (%lld) exceeds dimension size (%lld)", static_cast<long long>(start),
              static_cast<long long>(length), static_cast<long long>(n));
  return viewOp("NarrowBackward", t,
                partBackward(t, [d, start, length](const Tensor &x) { return narrow(x, d, start, length); }),
                [&](auto tag, auto *v) {
                  using T = typename decltype(tag)::type;
                  TH<T>::narrow(v, nullptr, d, start, length);
                });
}

Tensor slice(const Tensor &t, int64_t dim, int64_t start, int64_t stop, int64_t step) {
  int d = wrapDim(dim, t.dim());
  TORCH_CHECK(step > 0, Value, "slice step must be positive, got %lld", static_cast<long long>(step));
  int64_t n = t.size(d);
  auto clampBound = [n](int64_t v) { return v < 0 ? std::max<int64_t>(v + n, 0) : std::min(v, n); };
  start = clampBound(start);
  stop = clampBound(stop);
  int64_t length = stop > start ? (stop - start + step - 1) / step : 0;
  IntList sizes = t.sizes(), strides = t.strides();
  sizes[d] = length;
  strides[d] *= step;
  int64_t offset = length > 0 ? start * t.stride(d) : 0;
  Tensor r;
  {
    NoGradGuard plain;  // recorded here as a slice, not as as_strided
    r = asStrided(t, sizes, strides, t.storageOffset() + offset);
  }
  if (needsRecording({&t})) {
    recordView("SliceBackward", t, r,
               partBackward(t, [d, start, stop, step](const Tensor &x) { return slice(x, d, start, stop, step); }));
  }
  return r;
}

Tensor transpose(const Tensor &t, int64_t dim0, int64_t dim1) {
  int d0 = wrapDim(dim0, t.dim()), d1 = wrapDim(dim1, t.dim());
  if (t.dim() == 0) return alias(t);
  return viewOp(
      "TransposeBackward", t, [d0, d1](const Tensor &g) { return transpose(g, d0, d1); },
      [&](auto tag, auto *v) {
        using T = typename decltype(tag)::type;
        TH<T>::transpose(v, nullptr, d0, d1);
      });
}

Tensor permute(const Tensor &t, const IntList &dims) {
  TORCH_CHECK(static_cast<int>(dims.size()) == t.dim(), Runtime,
              "number of dims don't match in permute (%zu given, tensor has %d)", dims.size(), t.dim());
  std::vector<int> order(dims.size());
  std::vector<bool> seen(dims.size(), false);
  for (size_t i = 0; i < dims.size(); i++) {
    order[i] = wrapDim(dims[i], t.dim());
    TORCH_CHECK(!seen[order[i]], Runtime, "repeated dim %d in permute", order[i]);
    seen[order[i]] = true;
  }
  IntList inverse(dims.size());
  for (size_t i = 0; i < order.size(); i++) inverse[order[i]] = static_cast<int64_t>(i);
  return viewOp(
      "PermuteBackward", t, [inverse](const Tensor &g) { return permute(g, inverse); },
      [&](auto tag, auto *v) {
        using T = typename decltype(tag)::type;
        TH<T>::permute(v, nullptr, order.data());
      });
}

Tensor unfold(const Tensor &t, int64_t dim, int64_t size, int64_t step) {
  int d = wrapDim(dim, t.dim());
  return viewOp(
      "UnfoldBackward", t,
      derivatives::rearrangementBackward(t, [d, size, step](const Tensor &x) { return unfold(x, d, size, step); }),
      [&](auto tag, auto *v) {
        using T = typename decltype(tag)::type;
        TH<T>::unfold(v, nullptr, d, size, step);
      });
}

// Replaces one -1 by what makes the element count match.
static IntList inferSize(IntList sizes, int64_t numel, const char *op) {
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < sizes.size(); i++) {
    if (sizes[i] == -1) {
      TORCH_CHECK(infer < 0, Runtime, "%s: only one dimension can be inferred", op);
      infer = static_cast<int>(i);
    } else {
      TORCH_CHECK(sizes[i] >= 0, Runtime, "%s: invalid shape dimension %lld", op, static_cast<long long>(sizes[i]));
      known *= sizes[i];
    }
  }
  bool fits = infer >= 0 ? known > 0 && numel % known == 0 : known == numel;
  TORCH_CHECK(fits, Runtime, "shape '%s' is invalid for input of size %lld", shapeString(sizes).c_str(),
              static_cast<long long>(numel));
  if (infer >= 0) sizes[infer] = numel / known;
  return sizes;
}

// The gradient of an op that only changes sizes: grad reshaped to the input's sizes.
static std::function<Tensor(const Tensor &)> reshapeBackward(const Tensor &t) {
  return [sizes = t.sizes()](const Tensor &g) { return reshape(g, sizes); };
}

Tensor view(const Tensor &t, IntList sizes) {
  sizes = inferSize(std::move(sizes), t.numel(), "view");
  return viewOp("ViewBackward", t, reshapeBackward(t), [&](auto tag, auto *v) {
    using T = typename decltype(tag)::type;
    TH<T>::view(v, nullptr, static_cast<int>(sizes.size()), sizes.data());
  });
}

Tensor reshape(const Tensor &t, IntList sizes) {
  sizes = inferSize(std::move(sizes), t.numel(), "reshape");
  return viewOp("ReshapeBackward", t, reshapeBackward(t), [&](auto tag, auto *v) {
    using T = typename decltype(tag)::type;
    TH<T>::reshape(v, nullptr, static_cast<int>(sizes.size()), sizes.data());
  });
}

Tensor expand(const Tensor &t, IntList sizes) {
  TORCH_CHECK(static_cast<int>(sizes.size()) >= t.dim(), Runtime,
              "expand: the number of sizes provided (%zu) must be greater or equal to the number of "
              "dimensions in the tensor (%d)",
              sizes.size(), t.dim());
  int lead = static_cast<int>(sizes.size()) - t.dim();
  for (size_t i = 0; i < sizes.size(); i++) {
    if (sizes[i] == -1) {
      TORCH_CHECK(static_cast<int>(i) >= lead, Runtime, "expand: -1 is not allowed in a leading, new dimension");
      sizes[i] = t.size(static_cast<int>(i) - lead);
    }
    if (static_cast<int>(i) >= lead) {
      int64_t have = t.size(static_cast<int>(i) - lead);
      TORCH_CHECK(have == 1 || have == sizes[i], Runtime,
                  "The expanded size of the tensor (%lld) must match the existing size (%lld) at non-singleton "
                  "dimension %zu.  Target sizes: %s.  Tensor sizes: %s",
                  static_cast<long long>(sizes[i]), static_cast<long long>(have), i, shapeString(sizes).c_str(),
                  t.sizeString().c_str());
    }
  }
  return viewOp(
      "ExpandBackward", t, [base = t.sizes()](const Tensor &g) { return sumToShape(g, base); },
      [&](auto tag, auto *v) {
        using T = typename decltype(tag)::type;
        TH<T>::expand(v, nullptr, static_cast<int>(sizes.size()), sizes.data());
      });
}

Tensor squeeze(const Tensor &t) {
  return viewOp("SqueezeBackward", t, reshapeBackward(t), [&](auto tag, auto *v) {
    using T = typename decltype(tag)::type;
    TH<T>::squeeze(v, nullptr);
  });
}

Tensor squeeze(const Tensor &t, int64_t dim) {
  int d = wrapDim(dim, t.dim());
  if (t.dim() == 0) return alias(t);
  return viewOp("SqueezeBackward", t, reshapeBackward(t), [&](auto tag, auto *v) {
    using T = typename decltype(tag)::type;
    TH<T>::squeeze1d(v, nullptr, d);
  });
}

Tensor unsqueeze(const Tensor &t, int64_t dim) {
  int d = wrapDim(dim, t.dim() + 1);
  return viewOp("UnsqueezeBackward", t, reshapeBackward(t), [&](auto tag, auto *v) {
    using T = typename decltype(tag)::type;
    TH<T>::unsqueeze1d(v, nullptr, d);
  });
}

Tensor asStrided(const Tensor &t, const IntList &sizes, const IntList &strides, int64_t offset) {
  TORCH_CHECK(sizes.size() == strides.size(), Runtime, "as_strided: %zu sizes but %zu strides", sizes.size(),
              strides.size());
  Tensor r = fromStorage(t.storage(), offset, sizes, strides);
  markView(t, r);
  if (needsRecording({&t})) {
    // t's element numbers laid out with t's strides, so that the view's storage positions
    // relative to t's first element pick the right ones.
    int64_t shift = offset - t.storageOffset();
    IntList baseStrides = t.strides();
    recordView("AsStridedBackward", t, r,
               derivatives::rearrangementBackward(t, [sizes, strides, shift, baseStrides](const Tensor &x) {
                 Tensor laidOut = emptyStrided(x.sizes(), baseStrides, x.dtype(), x.device());
                 copy_(laidOut, x);
                 return asStrided(laidOut, sizes, strides, laidOut.storageOffset() + shift);
               }));
  }
  return r;
}

Tensor flatten(const Tensor &t, int64_t startDim, int64_t endDim) {
  if (t.dim() == 0) return reshape(t, {1});
  int s = wrapDim(startDim, t.dim()), e = wrapDim(endDim, t.dim());
  TORCH_CHECK(s <= e, Runtime, "flatten() has invalid args: start_dim cannot come after end_dim");
  IntList sizes;
  for (int d = 0; d < s; d++) sizes.push_back(t.size(d));
  int64_t n = 1;
  for (int d = s; d <= e; d++) n *= t.size(d);
  sizes.push_back(n);
  for (int d = e + 1; d < t.dim(); d++) sizes.push_back(t.size(d));
  return reshape(t, sizes);
}

// ---- copies ----

Tensor contiguous(const Tensor &t) { return t.isContiguous() ? t : clone(t); }

Tensor clone(const Tensor &t) { return toType(t, t.dtype(), true); }

Tensor toType(const Tensor &t, ScalarType dtype, bool copy) { return to(t, dtype, t.device(), copy); }

Tensor to(const Tensor &t, ScalarType dtype, Device device, bool copy) {
  if (t.dtype() == dtype && t.device() == device && !copy) return t;
  // An op without a complex path would compute on the real parts and answer wrongly: it raises.
  // Dropping the imaginary part on purpose is real(t) first (the bindings' .to(), .float(), ...).
  TORCH_CHECK(!isComplex(t.dtype()) || isComplex(dtype), Runtime,
              "this operation is not implemented for '%s' tensors (it would compute in %s and discard the imaginary "
              "part)",
              scalarTypeName(t.dtype()), scalarTypeName(dtype));
  RecordScope rec({&t});
  Tensor r = empty(t.sizes(), dtype, device);
  copy_(r, t);
  // The engine converts a gradient to the type of the tensor it flows into; the device is
  // this node's to give back.
  if (rec && isDifferentiable(dtype)) {
    Device from = t.device();
    record("CopyBackward", {t}, {r}, [from](const TensorList &g) {
      return TensorList{g[0].device() == from ? g[0] : to(g[0], g[0].dtype(), from)};
    });
  }
  return r;
}

IntList broadcastShapes(const IntList &a, const IntList &b) {
  size_t n = std::max(a.size(), b.size());
  IntList r(n);
  for (size_t i = 0; i < n; i++) {
    int64_t sa = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t sb = i < n - b.size() ? 1 : b[i - (n - b.size())];
    if (sa != sb && sa != 1 && sb != 1) {
      fail(th::ErrorKind::Runtime,
           "The size of tensor a (%lld) must match the size of tensor b (%lld) at non-singleton dimension %zu",
           static_cast<long long>(sa), static_cast<long long>(sb), i);
    }
    r[i] = sa == 1 ? sb : sa;
  }
  return r;
}

bool isBroadcastableTo(const IntList &from, const IntList &to) {
  if (from.size() > to.size()) return false;
  size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); i++) {
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  }
  return true;
}

void checkNoInternalOverlap(const Tensor &t) {
  for (int d = 0; d < t.dim(); d++) {
    TORCH_CHECK(t.stride(d) != 0 || t.size(d) <= 1, Runtime,
                "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                "location. Please clone() the tensor before performing the operation.");
  }
}

void copy_(const Tensor &dst, const Tensor &src) {
  checkNoInternalOverlap(dst);
  if (!isBroadcastableTo(src.sizes(), dst.sizes())) {
    fail(th::ErrorKind::Runtime, "copy_: the source of size %s cannot be broadcast to the destination of size %s",
         src.sizeString().c_str(), dst.sizeString().c_str());
  }
  if (needsRecording({&dst, &src}) && isDifferentiable(dst.dtype())) {
    checkInplace(dst);
    inplaceWithHistory(dst, [&](const Tensor &) { return expand(toType(src, dst.dtype(), true), dst.sizes()); });
    bumpVersion(dst);
    return;
  }
  bumpVersion(dst);
  copyValues_(dst, src);
}

void copyValues_(const Tensor &dst, const Tensor &src) {
  Tensor from = src.sizes() == dst.sizes() ? src : expand(src, dst.sizes());
  if (isComplex(dst.dtype()) || isComplex(from.dtype())) {
    complexCopy(dst, from);
    return;
  }
  // Bool destinations hold 0 or 1: anything non-zero becomes 1 (on the source's device
  // first, when the copy then crosses devices).
  if (dst.dtype() == ScalarType::Bool && from.dtype() != ScalarType::Bool) {
    Tensor mask = from.device() == dst.device() ? dst : empty(from.sizes(), ScalarType::Bool, from.device());
    copyKernels().copyToBool(from.device(), from.dtype(), mask, from);
    if (mask.isSameAs(dst)) return;
    from = mask;
  }
  // A copy between devices is the kernel of the side that is not the CPU: its library knows
  // both memories (Note [Dispatch by device and type]).
  Device side = dst.device() != Device::CPU ? dst.device() : from.device();
  copyKernels().copy(side, dst.dtype(), dst, from);
}

void fill_(const Tensor &t, Scalar v) {
  checkInplace(t);
  bumpVersion(t);
  if (GradMode::enabled() && requiresGrad(t)) {
    // A constant: self (or the part of its base it views) no longer depends on anything.
    inplaceWithHistory(t, [&](const Tensor &) {
      Tensor c = empty(t.sizes(), t.dtype(), t.device());
      fill_(c, v);
      return c;
    });
    return;
  }
  if (t.dtype() == ScalarType::Bool) {
    v = Scalar(static_cast<int64_t>(v.isFloating() || v.isComplex() ? v.d != 0 || v.imag != 0 : v.i != 0));
  }
  if (isComplex(t.dtype())) {
    complexFill(t, v);
    return;
  }
  if (isReducedFloat(t.dtype())) {
    // no arithmetic in 16 bits: a float value, copied over (rounded on the way)
    copyValues_(t, scalarTensor(v, ScalarType::Float, Device::CPU));
    return;
  }
  copyKernels().fill(t.device(), t.dtype(), t, v);
}

void resize_(const Tensor &t, const IntList &sizes) {
  checkSizes(sizes);
  if (t.sizes() == sizes) return;
  if (isComplex(t.dtype())) {
    // TH counts the storage in reals: it is grown here in elements first, so that TH finds it
    // large enough (Note [Complex tensors]).
    int64_t n = 1;
    for (int64_t size : sizes) n *= size;
    Storage s = t.storage();
    if (s.size() < t.storageOffset() + n) s.resize(t.storageOffset() + n);
  }
  dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::resizeNd(t.th<T>(), static_cast<int>(sizes.size()), sizes.data(), nullptr);
  });
}

void set_(const Tensor &t, const Tensor &src) {
  TORCH_CHECK(t.dtype() == src.dtype(), Type, "set_: expected a %s tensor, got %s", scalarTypeName(t.dtype()),
              scalarTypeName(src.dtype()));
  checkSameDevice("set_", t, src);
  dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::set(t.th<T>(), src.th<T>());
  });
}

void zero_(const Tensor &t) { fill_(t, Scalar(int64_t(0))); }

Scalar getFlat(const Tensor &t, int64_t i) {
  int64_t offset = 0;
  for (int d = t.dim() - 1; d >= 0; d--) {
    offset += (i % t.size(d)) * t.stride(d);
    i /= t.size(d);
  }
  if (isComplex(t.dtype())) return complexRead(t, offset);
  return copyKernels().read(t.device(), t.dtype(), t, offset);
}

Scalar item(const Tensor &t) {
  TORCH_CHECK(t.numel() == 1, Value, "only one element tensors can be converted to Python scalars (got %lld elements)",
              static_cast<long long>(t.numel()));
  return getFlat(t, 0);
}

}  // namespace torch
