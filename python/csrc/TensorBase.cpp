// The Tensor class: construction, geometry, views, copies, conversions, the numpy bridge.
#include <pybind11/numpy.h>

#include <cctype>

#include <Python.h>

#include "autograd/Autograd.h"
#include "core/BFloat16.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Shape.h"
#include "core/ops/Complex.h"
#include "python/csrc/Bind.h"
#include "python/csrc/Factory.h"

namespace torch::python {

// ---- numpy bridge ----

namespace {

// numpy's kind letter of t ('b' bool, 'u' unsigned, 'i' signed, 'f' floating, 'c' complex).
char numpyKind(ScalarType t) {
  if (t == ScalarType::Bool) return 'b';
  if (t == ScalarType::Byte) return 'u';
  if (isComplex(t)) return 'c';
  return isFloating(t) ? 'f' : 'i';
}

std::string numpyFormat(ScalarType t) {
  if (t == ScalarType::Bool) return "?";
  return numpyKind(t) + std::to_string(elementSize(t));
}

ScalarType fromNumpyType(const py::dtype &d) {
  for (int i = 0; i < kNumScalarTypes; i++) {
    ScalarType t = static_cast<ScalarType>(i);
    if (d.kind() == numpyKind(t) && static_cast<size_t>(d.itemsize()) == elementSize(t)) return t;
  }
  throw py::type_error("can't convert np.ndarray of type " + std::string(py::str(static_cast<py::handle>(d))) +
                       ". The only supported types are: float64, float32, float16, complex64, complex128, int64, "
                       "int32, int16, int8, uint8, and bool.");
}

// Storage memory owned by a numpy array: the context is the array, freed with the GIL.
void *numpyMalloc(void *, ptrdiff_t) { throw std::bad_alloc(); }
void numpyFree(void *ctx, void *) {
  if (!Py_IsInitialized()) return;
  py::gil_scoped_acquire gil;
  Py_DECREF(static_cast<PyObject *>(ctx));
}
THAllocator numpyAllocator = {numpyMalloc, nullptr, numpyFree};

}  // namespace

Tensor fromNumpy(const py::array &array) {
  ScalarType type = fromNumpyType(array.dtype());
  size_t item = elementSize(type);
  if (!array.dtype().attr("isnative").cast<bool>()) {
    throw py::value_error(
        "given numpy array has byte order different from the native byte order. Conversion "
        "between byte orders is currently not supported.");
  }
  int nd = static_cast<int>(array.ndim());
  IntList sizes(nd), strides(nd);
  int64_t span = 1;  // elements from the first to the last one, inclusive
  bool emptyArray = false;
  for (int d = 0; d < nd; d++) {
    sizes[d] = array.shape(d);
    ssize_t s = array.strides(d);
    if (s < 0) {
      throw py::value_error(
          "At least one stride in the given numpy array is negative, and tensors with negative "
          "strides are not currently supported. (You can probably work around this by making a "
          "copy of your array  with array.copy().) ");
    }
    if (s % static_cast<ssize_t>(item) != 0) {
      throw py::value_error(
          "given numpy array strides not a multiple of the element byte size. Copy the numpy "
          "array to reallocate the memory.");
    }
    strides[d] = s / static_cast<ssize_t>(item);
    if (sizes[d] == 0) emptyArray = true;
    span += (sizes[d] - 1) * strides[d];
  }
  if (emptyArray) span = 0;
  PyObject *owner = array.ptr();
  Py_INCREF(owner);
  Storage storage;
  try {
    storage = dispatch(type, [&](auto tag) {
      using T = typename decltype(tag)::type;
      return Storage::adopt(type,
                            TH<T>::S::newWithDataAndAllocator(reinterpret_cast<T *>(const_cast<void *>(array.data())),
                                                              isComplex(type) ? 2 * span : span,  // in reals
                                                              &numpyAllocator, owner),
                            Device::CPU);
    });
  } catch (...) {
    Py_DECREF(owner);
    throw;
  }
  dispatch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::S::clearFlag(storage.th<T>(), TH_STORAGE_RESIZABLE);
  });
  return fromStorage(storage, 0, sizes, strides);
}

static py::array toNumpy(py::handle self) {
  const Tensor &t = self.cast<const Tensor &>();
  if (t.device() != Device::CPU) {
    throw py::type_error("can't convert " + py::str(deviceObject(t.device())).cast<std::string>() +
                         " device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.");
  }
  // numpy has no bfloat16 (1.13's error)
  if (t.dtype() == ScalarType::BFloat16) throw py::type_error("Got unsupported ScalarType BFloat16");
  // The array would share memory that autograd does not see change (PyTorch refuses too,
  // outside no_grad).
  TORCH_CHECK(!(GradMode::enabled() && requiresGrad(t)), Runtime,
              "Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.");
  std::vector<ssize_t> shape(t.dim()), strides(t.dim());
  size_t item = elementSize(t.dtype());
  for (int d = 0; d < t.dim(); d++) {
    shape[d] = t.size(d);
    strides[d] = t.stride(d) * item;
  }
  // The array keeps the tensor object alive, which keeps the storage alive.
  return py::array(py::dtype(numpyFormat(t.dtype())), shape, strides, t.dataPtr(), self);
}

// ---- helpers ----

namespace {

// The user's conversions of a complex tensor to a real type keep the real parts, as PyTorch's
// (the core refuses the conversion inside ops: Note [Complex tensors]).
Tensor realIfNeeded(const Tensor &t, ScalarType type) { return isComplex(t.dtype()) && !isComplex(type) ? real(t) : t; }

py::object tolist(const Tensor &t, int dim, int64_t offset) {
  if (dim == t.dim()) {
    return dispatch(t.dtype(), [&](auto tag) -> py::object {
      using T = typename decltype(tag)::type;
      T v = reinterpret_cast<const T *>(t.raw()->storage->data)[offset];
      if constexpr (std::is_same_v<T, THHalf>) {
        return py::float_(reducedToFloat(v, t.dtype()));
      } else if constexpr (std::is_floating_point_v<T>) {
        if (isComplex(t.dtype())) {
          const T *pair = reinterpret_cast<const T *>(t.raw()->storage->data) + 2 * offset;
          return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(pair[0], pair[1]));
        }
        return py::float_(v);
      } else {
        if (t.dtype() == ScalarType::Bool) return py::bool_(v != 0);
        return py::int_(static_cast<int64_t>(v));
      }
    });
  }
  py::list l(t.size(dim));
  for (int64_t i = 0; i < t.size(dim); i++) l[i] = tolist(t, dim + 1, offset + i * t.stride(dim));
  return std::move(l);
}

int64_t toIndex(py::handle obj) { return intArg(obj, "index"); }

// The tensor class name of a dtype: "torch.FloatTensor".
std::string typeName(ScalarType t) {
  return std::string("torch.") + (t == ScalarType::Bool ? "Bool" : scalarTypeName(t)) + "Tensor";
}

// size cut into pieces of each (the last one shorter): chunk's and split's sizes.
IntList equalParts(int64_t size, int64_t each) {
  IntList sizes;
  for (int64_t start = 0; each > 0 && start < size; start += each) sizes.push_back(std::min(each, size - start));
  return sizes;
}

// torch.Tensor(...) and the typed classes: (), (*sizes), (torch.Size), (sequence), (tensor),
// (storage).
Tensor legacyNew(ScalarType type, const py::args &args) {
  if (args.size() == 0) return empty({0}, type, Device::CPU);
  if (args.size() == 1) {
    py::handle a = args[0];
    if (py::isinstance<Tensor>(a)) {
      const Tensor &t = a.cast<const Tensor &>();
      TORCH_CHECK(t.dtype() == type, Type, "expected %s (got %s)", typeName(type).c_str(), typeName(t.dtype()).c_str());
      return alias(t);
    }
    if (py::hasattr(a, "_cdata_storage")) {
      Storage s = a.attr("_cdata_storage")().cast<Storage>();
      TORCH_CHECK(s.dtype() == type, Type, "expected a %s storage", scalarTypeName(type));
      return fromStorage(s, 0, {s.size()}, {1});
    }
    py::object sizeType = py::module::import("torch").attr("Size");
    if (!PyLong_Check(a.ptr()) && !py::isinstance(a, sizeType)) return tensorFromData(a, type);
  }
  return empty(toSizes(args, "size"), type, Device::CPU);
}

}  // namespace

void bindTensorBase(py::module &m, TensorClass &cls) {
  m.def("_legacy_new", [](py::handle dtype, py::args args) { return legacyNew(toDtype(dtype), args); });
  cls.def(py::init([](py::args args) {
    Tensor t = legacyNew(defaultFloatType(), args);
    // torch.Tensor(sizes or data) follows set_default_tensor_type's device too; a tensor or a
    // storage given is shared as it is
    bool made = args.size() == 0 || (!py::isinstance<Tensor>(args[0]) && !py::hasattr(args[0], "_cdata_storage"));
    return made ? to(t, t.dtype(), defaultFactoryDevice()) : t;
  }));

  // geometry
  cls.def_property_readonly("dtype", [](const Tensor &t) { return dtypeObject(t.dtype()); })
      .def_property_readonly("shape", [](const Tensor &t) { return makeSize(t.sizes()); })
      .def_property_readonly("ndim", &Tensor::dim)
      .def_property_readonly("is_cuda", [](const Tensor &t) { return t.device() == Device::CUDA; })
      .def_property_readonly("device", [](const Tensor &t) { return deviceObject(t.device()); })
      .def(
          "size",
          [](const Tensor &t, py::object dim) -> py::object {
            if (dim.is_none()) return makeSize(t.sizes());
            if (t.dim() == 0) wrapDim(toIndex(dim), 0);
            return py::int_(t.size(wrapDim(toIndex(dim), t.dim())));
          },
          py::arg("dim") = py::none())
      .def(
          "stride",
          [](const Tensor &t, py::object dim) -> py::object {
            if (dim.is_none()) {
              py::tuple strides(t.dim());
              for (int d = 0; d < t.dim(); d++) strides[d] = py::int_(t.stride(d));
              return std::move(strides);
            }
            return py::int_(t.stride(wrapDim(toIndex(dim), t.dim())));
          },
          py::arg("dim") = py::none())
      .def("dim", &Tensor::dim)
      .def("ndimension", &Tensor::dim)
      .def("numel", &Tensor::numel)
      .def("nelement", &Tensor::numel)
      .def("element_size", [](const Tensor &t) { return elementSize(t.dtype()); })
      .def("storage_offset", &Tensor::storageOffset)
      .def("data_ptr", [](const Tensor &t) { return reinterpret_cast<uintptr_t>(t.dataPtr()); })
      .def("is_contiguous", &Tensor::isContiguous)
      .def("is_floating_point", [](const Tensor &t) { return isFloating(t.dtype()); })
      .def("is_set_to", &Tensor::isSetTo)
      .def("__len__",
           [](const Tensor &t) {
             if (t.dim() == 0) throw py::type_error("len() of a 0-d tensor");
             return t.size(0);
           })
      .def(
          "type",
          // type(): 'torch.FloatTensor' or 'torch.cuda.FloatTensor'; type(name or class) converts
          // and moves (a CPU name or class to the CPU, a torch.cuda one to the GPU); type(dtype)
          // converts on the tensor's device.
          [](const Tensor &t, py::object dtype) -> py::object {
            static const std::string kCuda = "torch.cuda.";
            if (dtype.is_none()) {
              std::string name = typeName(t.dtype());
              return py::str(t.device() == Device::CUDA ? kCuda + name.substr(6) : name);
            }
            ScalarType target;
            Device device = t.device();
            if (py::isinstance<py::str>(dtype)) {
              std::string name = dtype.cast<std::string>();
              device = name.rfind(kCuda, 0) == 0 ? Device::CUDA : Device::CPU;
              if (device == Device::CUDA) name = "torch." + name.substr(kCuda.size());
              bool found = false;
              for (int i = 0; i < kNumScalarTypes; i++) {
                if (typeName(static_cast<ScalarType>(i)) == name) {
                  target = static_cast<ScalarType>(i);
                  found = true;
                }
              }
              if (!found) throw py::value_error("invalid type: '" + dtype.cast<std::string>() + "'");
            } else {
              if (PyType_Check(dtype.ptr()) && py::hasattr(dtype, "is_cuda")) {  // torch[.cuda].FloatTensor
                device = dtype.attr("is_cuda").cast<bool>() ? Device::CUDA : Device::CPU;
              }
              target = toDtype(dtype);
            }
            if (device == Device::CUDA) requireCuda();
            return py::cast(withoutGil([&] { return to(realIfNeeded(t, target), target, device); }));
          },
          py::arg("dtype") = py::none());

  // conversions to Python and numpy
  cls.def("item", [](const Tensor &t) { return fromScalar(item(t)); })
      .def("tolist",
           [](const Tensor &t) {
             Tensor host = t.device() == Device::CPU ? t : withoutGil([&] { return to(t, t.dtype(), Device::CPU); });
             return tolist(host, 0, host.storageOffset());
           })
      .def("numpy", [](py::handle self) { return toNumpy(self); })
      .def(
          "__array__",
          [](py::handle self, py::object dtype, py::object /*copy: numpy copies when it must*/) -> py::object {
            py::array a = toNumpy(self);
            if (!dtype.is_none()) return a.attr("astype")(dtype);
            return std::move(a);
          },
          py::arg("dtype") = py::none(), py::arg("copy") = py::none())
      .def("__bool__",
           [](const Tensor &t) {
             TORCH_CHECK(t.numel() == 1, Runtime, "Boolean value of Tensor with more than one value is ambiguous");
             Scalar s = item(t);
             return s.isFloating() ? s.d != 0 : s.i != 0;
           })
      .def("__float__", [](const Tensor &t) { return item(t).d; })
      .def("__int__", [](const Tensor &t) { return item(t).i; })
      .def("__index__", [](const Tensor &t) {
        TORCH_CHECK(isIntegral(t.dtype()) && t.numel() == 1, Type,
                    "only integer tensors of a single element can be converted to an index");
        return item(t).i;
      });
  m.def("from_numpy", [](py::handle a) {
    if (!py::isinstance<py::array>(a)) {
      throw py::type_error("expected np.ndarray (got " + std::string(py::str(a.get_type().attr("__name__"))) + ")");
    }
    return fromNumpy(py::reinterpret_borrow<py::array>(a));
  });

  // type conversions
  cls.def("to",
          [](const Tensor &t, py::args args, py::kwargs kwargs) {
            // to(dtype), to(tensor), to(device), to(device, dtype); copy=, non_blocking= accepted.
            std::optional<ScalarType> target;
            std::optional<Device> where;
            bool copy = kwargs.contains("copy") && kwargs["copy"].cast<bool>();
            auto consider = [&](py::handle a) {
              if (py::isinstance<Tensor>(a)) {
                target = a.cast<const Tensor &>().dtype();
                where = a.cast<const Tensor &>().device();
              } else if (py::isinstance<Dtype>(a)) {
                target = a.cast<Dtype>().type;
              } else if (py::isinstance<py::str>(a) || py::hasattr(a, "type") || PyLong_Check(a.ptr())) {
                where = toDevice(a);
              }
            };
            for (py::handle a : args) consider(a);
            if (kwargs.contains("dtype")) target = toDtype(kwargs["dtype"]);
            if (kwargs.contains("device")) consider(kwargs["device"]);
            ScalarType type = target.value_or(t.dtype());
            Device device = where.value_or(t.device());
            return withoutGil([&] { return to(realIfNeeded(t, type), type, device, copy); });
          })
      .def(
          "cpu", [](const Tensor &t) { return to(t, t.dtype(), Device::CPU); }, ReleaseGil())
      // cuda(device=None, non_blocking=False): a copy on the GPU (t itself when it is there)
      .def(
          "cuda",
          [](const Tensor &t, py::handle device, py::handle, py::handle) {
            requireCuda();
            if (!device.is_none()) {
              std::optional<Device> d = PyLong_Check(device.ptr())
                                            ? toDevice(py::module::import("torch").attr("device")("cuda", device))
                                            : toDevice(device);
              TORCH_CHECK(d == Device::CUDA, Runtime, "Invalid device, must be cuda device");
            }
            return withoutGil([&] { return to(t, t.dtype(), Device::CUDA); });
          },
          py::arg("device") = py::none(), py::arg("non_blocking") = false, py::arg("memory_format") = py::none());
  // t.byte(), t.float(), ...: the type's name in lower case.
  for (int i = 0; i < kNumScalarTypes; i++) {
    ScalarType type = static_cast<ScalarType>(i);
    if (isComplex(type)) continue;  // cfloat() and cdouble(), in torch/_complex.py
    std::string name = scalarTypeName(type);
    for (char &c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    cls.def(
        name.c_str(), [type](const Tensor &t) { return toType(realIfNeeded(t, type), type); }, ReleaseGil());
  }

  // copies
  cls.def(
         "contiguous", [](const Tensor &t) { return contiguous(t); }, ReleaseGil())
      .def(
          "clone", [](const Tensor &t) { return clone(t); }, ReleaseGil())
      .def(
          "copy_",
          [](const Tensor &t, py::handle src, bool) {
            Tensor from = toTensor(src);
            withoutGil([&] { copy_(t, from); });
            return t;
          },
          py::arg("src"), py::arg("non_blocking") = false)
      .def("fill_",
           [](const Tensor &t, py::handle v) {
             Scalar value = toScalar(v);
             withoutGil([&] { fill_(t, value); });
             return t;
           })
      .def(
          "zero_",
          [](const Tensor &t) {
            zero_(t);
            return t;
          },
          ReleaseGil())
      .def("resize_",
           [](const Tensor &t, py::args sizes) {
             resize_(t, toSizes(sizes, "size"));
             return t;
           })
      .def("resize_as_",
           [](const Tensor &t, const Tensor &other) {
             resize_(t, other.sizes());
             return t;
           })
      .def(
          "set_",
          [](const Tensor &t, py::object source, py::object offset, py::object size, py::object stride) {
            if (source.is_none()) {
              set_(t, empty({0}, t.dtype(), t.device()));
            } else if (py::isinstance<Tensor>(source)) {
              set_(t, source.cast<const Tensor &>());
            } else {
              Storage s = source.attr("_cdata_storage")().cast<Storage>();
              IntList sizes = size.is_none() ? IntList{s.size()} : toIntList(size, "size");
              IntList strides = stride.is_none() ? IntList{} : toIntList(stride, "stride");
              set_(t, fromStorage(s, offset.is_none() ? 0 : offset.cast<int64_t>(), sizes, strides));
            }
            return t;
          },
          py::arg("source") = py::none(), py::arg("storage_offset") = py::none(), py::arg("size") = py::none(),
          py::arg("stride") = py::none());

  // views
  defBoth(m, cls, "view", [](const Tensor &t, py::args sizes) -> Tensor {
    if (sizes.size() == 1 && py::isinstance<Dtype>(sizes[0])) {
      ScalarType type = sizes[0].cast<Dtype>().type;
      TORCH_CHECK(elementSize(type) == elementSize(t.dtype()), Runtime,
                  "view(dtype) needs an element type of the same size");
      // a complex storage counts its elements in pairs of reals (Note [Complex tensors])
      TORCH_CHECK(type == t.dtype() || (!isComplex(type) && !isComplex(t.dtype())), Runtime,
                  "view(dtype) between %s and %s is not supported", scalarTypeName(t.dtype()), scalarTypeName(type));
      return fromStorage(Storage::adopt(
                             type,
                             [&] {
                               Storage s = t.storage();
                               THByteStorage *raw = s.raw();
                               dispatch(s.dtype(), [&](auto tag) {
                                 using T = typename decltype(tag)::type;
                                 TH<T>::S::retain(s.th<T>());
                               });
                               return raw;
                             }(),
                             t.device()),
                         t.storageOffset(), t.sizes(), t.strides());
    }
    return view(t, toSizes(sizes, "size"));
  });
  cls.def("view_as", [](const Tensor &t, const Tensor &o) { return view(t, o.sizes()); });
  // reshape copies when no view fits: without the GIL then
  defBoth(m, cls, "reshape", [](const Tensor &t, py::args sizes) {
    IntList shape = toSizes(sizes, "shape");
    return withoutGil([&] { return reshape(t, shape); });
  });
  cls.def(
      "reshape_as", [](const Tensor &t, const Tensor &o) { return reshape(t, o.sizes()); }, ReleaseGil());
  defBoth(
      m, cls, "transpose", [](const Tensor &t, int64_t d0, int64_t d1) { return transpose(t, d0, d1); },
      py::arg("dim0"), py::arg("dim1"));
  defBoth(m, cls, "t", [](const Tensor &t) {
    TORCH_CHECK(t.dim() <= 2, Runtime, "t() expects a tensor with <= 2 dimensions, but self is %dD", t.dim());
    return t.dim() < 2 ? alias(t) : transpose(t, 0, 1);
  });
  cls.def_property_readonly("T", [](const Tensor &t) {
    IntList dims(t.dim());
    for (int d = 0; d < t.dim(); d++) dims[d] = t.dim() - 1 - d;
    return permute(t, dims);
  });
  cls.def("permute", [](const Tensor &t, py::args dims) { return permute(t, toSizes(dims, "dims")); });
  m.def(
      "permute", [](const Tensor &t, py::handle dims) { return permute(t, toIntList(dims, "dims")); }, py::arg("input"),
      py::arg("dims"));
  defBoth(
      m, cls, "narrow",
      [](const Tensor &t, int64_t dim, int64_t start, int64_t length) { return narrow(t, dim, start, length); },
      py::arg("dim"), py::arg("start"), py::arg("length"));
  defBoth(
      m, cls, "select", [](const Tensor &t, int64_t dim, int64_t index) { return select(t, dim, index); },
      py::arg("dim"), py::arg("index"));
  cls.def(
      "unfold", [](const Tensor &t, int64_t dim, int64_t size, int64_t step) { return unfold(t, dim, size, step); },
      py::arg("dimension"), py::arg("size"), py::arg("step"));
  cls.def("expand", [](const Tensor &t, py::args sizes) { return expand(t, toSizes(sizes, "size")); });
  cls.def("expand_as", [](const Tensor &t, const Tensor &o) { return expand(t, o.sizes()); });
  defBoth(
      m, cls, "squeeze",
      [](const Tensor &t, std::optional<int64_t> dim) { return dim ? squeeze(t, *dim) : squeeze(t); },
      py::arg("dim") = py::none());
  defBoth(
      m, cls, "unsqueeze", [](const Tensor &t, int64_t dim) { return unsqueeze(t, dim); }, py::arg("dim"));
  defBoth(
      m, cls, "flatten", [](const Tensor &t, int64_t start, int64_t end) { return flatten(t, start, end); },
      py::arg("start_dim") = 0, py::arg("end_dim") = -1);
  defBoth(
      m, cls, "as_strided",
      [](const Tensor &t, py::handle size, py::handle stride, std::optional<int64_t> offset) {
        return asStrided(t, toIntList(size, "size"), toIntList(stride, "stride"), offset.value_or(t.storageOffset()));
      },
      py::arg("size"), py::arg("stride"), py::arg("storage_offset") = py::none());
  defBoth(
      m, cls, "chunk",
      [](const Tensor &t, int64_t chunks, int64_t dim) {
        TORCH_CHECK(chunks > 0, Runtime, "chunk expects `chunks` to be greater than 0, got: %lld",
                    static_cast<long long>(chunks));
        int d = wrapDim(dim, t.dim());
        int64_t each = (t.size(d) + chunks - 1) / chunks;
        TensorList parts = splitWithSizes(t, equalParts(t.size(d), each), d, "Split");
        py::tuple out(parts.size());
        for (size_t i = 0; i < parts.size(); i++) out[i] = py::cast(parts[i]);
        return out;
      },
      py::arg("chunks"), py::arg("dim") = 0);
  defBoth(
      m, cls, "split",
      [](const Tensor &t, py::handle splitSize, int64_t dim) {
        int d = wrapDim(dim, t.dim());
        IntList sizes;
        const bool bySize = PyLong_Check(splitSize.ptr());
        if (bySize) {
          int64_t each = splitSize.cast<int64_t>();
          TORCH_CHECK(each > 0 || t.size(d) == 0, Runtime, "split expects split_size be non-negative, but got %lld",
                      static_cast<long long>(each));
          sizes = equalParts(t.size(d), each);
        } else {
          sizes = toIntList(splitSize, "split_size_or_sections");
        }
        py::list parts;
        for (const Tensor &part : splitWithSizes(t, sizes, d, bySize ? "Split" : "SplitWithSizes")) {
          parts.append(py::cast(part));
        }
        return py::tuple(parts);
      },
      py::arg("split_size_or_sections"), py::arg("dim") = 0);
  defBoth(
      m, cls, "unbind",
      [](const Tensor &t, int64_t dim) {
        TensorList slices = unbind(t, dim);
        py::tuple parts(slices.size());
        for (size_t i = 0; i < slices.size(); i++) parts[i] = py::cast(slices[i]);
        return parts;
      },
      py::arg("dim") = 0);
}

}  // namespace torch::python
