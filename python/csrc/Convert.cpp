// Conversions between Python objects and the core's Scalar, ScalarType, sizes and tensors.
#include <pybind11/numpy.h>

#include "autograd/Autograd.h"
#include "core/BFloat16.h"
#include "core/ops/Pointwise.h"
#include "python/csrc/Bind.h"

namespace torch::python {

Tensor fromNumpy(const py::array &array);  // TensorBase.cpp

// numpy scalars (np.float32(1), np.int64(2), np.bool_(True)).
static bool isNumpyScalar(py::handle obj) {
  // Kept for the life of the process (never destroyed after the interpreter).
  static py::object *numpyGeneric = [] {
    try {
      return new py::object(py::module::import("numpy").attr("generic"));
    } catch (py::error_already_set &) {
      return new py::object();
    }
  }();
  return *numpyGeneric && py::isinstance(obj, *numpyGeneric);
}

bool isScalarLike(py::handle obj) {
  if (PyBool_Check(obj.ptr()) || PyLong_Check(obj.ptr()) || PyFloat_Check(obj.ptr()) || PyComplex_Check(obj.ptr())) {
    return true;
  }
  if (isTensor(obj)) return unwrap(obj).numel() == 1;
  return isNumpyScalar(obj);
}

Scalar toScalar(py::handle obj) {
  PyObject *p = obj.ptr();
  if (PyBool_Check(p)) return Scalar::boolean(p == Py_True);
  if (PyLong_Check(p)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow) throw py::value_error("Python int too large to convert to a 64-bit integer");
    return Scalar(static_cast<int64_t>(v));
  }
  if (PyFloat_Check(p)) return Scalar(PyFloat_AS_DOUBLE(p));
  if (PyComplex_Check(p)) return Scalar::complex(PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p));
  if (isTensor(obj)) return item(unwrap(obj));
  if (isScalarLike(obj)) {
    py::object kind = obj.attr("dtype").attr("kind");
    std::string k = kind.cast<std::string>();
    if (k == "b") return Scalar::boolean(obj.attr("__bool__")().cast<bool>());
    if (k == "i" || k == "u") return Scalar(static_cast<int64_t>(obj.attr("__int__")().cast<long long>()));
    if (k == "c") {
      py::object c = obj.attr("__complex__")();
      return Scalar::complex(PyComplex_RealAsDouble(c.ptr()), PyComplex_ImagAsDouble(c.ptr()));
    }
    return Scalar(obj.attr("__float__")().cast<double>());
  }
  throw py::type_error(std::string("expected a number, got ") + std::string(py::str(obj.get_type().attr("__name__"))));
}

py::object fromScalar(Scalar s) {
  if (s.isBool()) return py::bool_(s.i != 0);
  if (s.isFloating()) return py::float_(s.d);
  if (s.isComplex()) return py::reinterpret_steal<py::object>(PyComplex_FromDoubles(s.d, s.imag));
  return py::int_(s.i);
}

static py::object &dtypeSlot(ScalarType t) {
  static py::object *slots = new py::object[kNumScalarTypes];  // never destroyed
  return slots[static_cast<int>(t)];
}

py::object dtypeObject(ScalarType t) {
  py::object &slot = dtypeSlot(t);
  if (!slot) slot = py::cast(Dtype{t});
  return slot;
}

ScalarType toDtype(py::handle obj) {
  if (py::isinstance<Dtype>(obj)) return obj.cast<Dtype>().type;
  if (obj.ptr() == reinterpret_cast<PyObject *>(&PyFloat_Type)) return defaultFloatType();
  if (obj.ptr() == reinterpret_cast<PyObject *>(&PyLong_Type)) return ScalarType::Long;
  if (obj.ptr() == reinterpret_cast<PyObject *>(&PyBool_Type)) return ScalarType::Bool;
  if (py::hasattr(obj, "dtype") && py::isinstance<Dtype>(obj.attr("dtype"))) {
    return obj.attr("dtype").cast<Dtype>().type;  // torch.FloatTensor and friends
  }
  throw py::type_error(std::string("expected a torch.dtype, got ") + std::string(py::repr(obj)));
}

IntList toIntList(py::handle obj, const char *what) {
  IntList sizes;
  if (PyLong_Check(obj.ptr())) return {obj.cast<int64_t>()};
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) {
    throw py::type_error(std::string(what) + " must be a sequence of ints, got " +
                         std::string(py::str(obj.get_type().attr("__name__"))));
  }
  for (py::handle item : obj) {
    if (!PyLong_Check(item.ptr()) && !PyIndex_Check(item.ptr())) {
      throw py::type_error(std::string(what) + " must contain ints, got " +
                           std::string(py::str(item.get_type().attr("__name__"))));
    }
    PyObject *index = PyNumber_Index(item.ptr());  // a tensor with several elements raises here
    if (!index) throw py::error_already_set();
    sizes.push_back(py::reinterpret_steal<py::object>(index).cast<int64_t>());
  }
  return sizes;
}

int64_t intArg(py::handle obj, const char *what) {
  if (!PyIndex_Check(obj.ptr()) || PyBool_Check(obj.ptr())) {
    throw py::type_error(std::string(what) + " must be an int, got " +
                         std::string(py::str(obj.get_type().attr("__name__"))));
  }
  PyObject *index = PyNumber_Index(obj.ptr());  // a tensor with several elements raises here
  if (!index) throw py::error_already_set();
  return py::reinterpret_steal<py::object>(index).cast<int64_t>();
}

IntList toSizes(const py::args &args, const char *what) {
  if (args.size() == 1 && !PyLong_Check(args[0].ptr())) return toIntList(args[0], what);
  return toIntList(args, what);
}

py::object makeSize(const IntList &sizes) {
  static py::object *sizeType = new py::object(py::module::import("torch").attr("Size"));
  py::tuple t(sizes.size());
  for (size_t i = 0; i < sizes.size(); i++) t[i] = py::int_(sizes[i]);
  return (*sizeType)(t);
}

namespace {

// Shape, element type and leaves of nested sequences.
struct DataScan {
  IntList shape;
  std::vector<Scalar> leaves;
  // The promoted type of the elements: tensors and numpy values keep theirs, Python numbers
  // count as Long, the default float type or Bool (PyTorch's inference).
  std::optional<ScalarType> type;
  void meet(ScalarType t) { type = type ? promoteTypes(*type, t) : t; }
};

void scan(py::handle obj, size_t depth, DataScan &s) {
  // A numpy scalar keeps its type, as a 0-dim array does (torch.tensor(np.float64(1.5)) is float64).
  bool numpyScalar = isNumpyScalar(obj);
  if (py::isinstance<Tensor>(obj) || py::isinstance<py::array>(obj) || numpyScalar) {
    Tensor t = py::isinstance<Tensor>(obj) ? obj.cast<Tensor>()
               : numpyScalar               ? fromNumpy(py::array::ensure(obj))
                                           : fromNumpy(py::reinterpret_borrow<py::array>(obj));
    if (t.dim() > 0 || depth < s.shape.size()) {
      // A tensor inside a list: its elements are leaves of deeper levels.
      if (depth == s.shape.size()) {
        for (int64_t d : t.sizes()) s.shape.push_back(d);
      }
      for (int d = 0; d < t.dim(); d++) {
        if (depth + d >= s.shape.size() || s.shape[depth + d] != t.size(d)) {
          throw py::value_error("expected sequence of equal lengths (found a tensor of size " + t.sizeString() + ")");
        }
      }
    }
    s.meet(t.dtype());
    int64_t n = t.numel();
    for (int64_t i = 0; i < n; i++) s.leaves.push_back(getFlat(t, i));
    return;
  }
  if (isScalarLike(obj)) {
    if (depth != s.shape.size()) throw py::value_error("expected sequence of equal lengths (found a number)");
    Scalar v = toScalar(obj);
    s.leaves.push_back(v);
    s.meet(v.naturalType(defaultFloatType()));
    return;
  }
  if (!py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj) || py::isinstance<py::bytes>(obj)) {
    throw py::type_error("Could not infer dtype of " + std::string(py::str(obj.get_type().attr("__name__"))));
  }
  py::sequence seq = py::reinterpret_borrow<py::sequence>(obj);
  int64_t n = static_cast<int64_t>(py::len(seq));
  if (depth == s.shape.size()) {
    if (!s.leaves.empty()) throw py::value_error("expected sequence of equal lengths (found a deeper list)");
    s.shape.push_back(n);
  } else if (depth > s.shape.size() || s.shape[depth] != n) {
    throw py::value_error("expected sequence of length " + std::to_string(depth < s.shape.size() ? s.shape[depth] : 0) +
                          " at dim " + std::to_string(depth) + " (got " + std::to_string(n) + ")");
  }
  for (py::handle item : seq) scan(item, depth + 1, s);
}

}  // namespace

Tensor tensorFromData(py::handle data, std::optional<ScalarType> dtype) {
  if (py::isinstance<Tensor>(data)) {
    const Tensor &t = data.cast<const Tensor &>();
    return toType(t, dtype.value_or(t.dtype()), /*copy=*/true);
  }
  if (py::isinstance<py::array>(data)) {
    Tensor t = fromNumpy(py::reinterpret_borrow<py::array>(data));
    return toType(t, dtype.value_or(t.dtype()), /*copy=*/true);
  }
  DataScan s;
  scan(data, 0, s);
  ScalarType type = dtype ? *dtype : s.type.value_or(defaultFloatType());
  Tensor r = empty(s.shape, type, Device::CPU);  // filled from Python data here
  if (isComplex(type)) {
    // interleaved (re, im) pairs (Note [Complex tensors])
    auto write = [&](auto *out) {
      using T = std::remove_pointer_t<decltype(out)>;
      for (size_t i = 0; i < s.leaves.size(); i++) {
        const Scalar &v = s.leaves[i];
        out[2 * i] = static_cast<T>(v.isComplex() || v.isFloating() ? v.d : static_cast<double>(v.i));
        out[2 * i + 1] = static_cast<T>(v.isComplex() ? v.imag : 0);
      }
    };
    if (type == ScalarType::ComplexFloat) {
      write(reinterpret_cast<float *>(r.dataPtr()));
    } else {
      write(reinterpret_cast<double *>(r.dataPtr()));
    }
    return r;
  }
  dispatch(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *out = reinterpret_cast<T *>(r.dataPtr());
    for (size_t i = 0; i < s.leaves.size(); i++) {
      Scalar v = s.leaves[i];
      if (type == ScalarType::Bool) v = Scalar(static_cast<int64_t>(v.isFloating() ? v.d != 0 : v.i != 0));
      if constexpr (std::is_same_v<T, THHalf>) {
        out[i] = floatToReduced(static_cast<float>(v.to<double>()), type);  // Half or BFloat16
      } else {
        out[i] = v.to<T>();
      }
    }
  });
  return r;
}

Tensor toTensor(py::handle obj, std::optional<ScalarType> dtype) {
  if (py::isinstance<Tensor>(obj)) {
    const Tensor &t = obj.cast<const Tensor &>();
    return dtype ? toType(t, *dtype) : t;
  }
  return tensorFromData(obj, dtype);
}

std::optional<Device> toDevice(py::handle device) {
  if (device.is_none()) return std::nullopt;
  if (PyUnicode_Check(device.ptr()) && py::str(device).cast<std::string>() == "cpu") return Device::CPU;
  py::object parsed = py::module::import("torch").attr("device")(device);  // raises for a bad one
  if (parsed.attr("type").cast<std::string>() == "cpu") return Device::CPU;
  py::object index = parsed.attr("index");
  requireCuda(index.is_none() ? -1 : index.cast<int64_t>());
  return Device::CUDA;
}

py::object writeOut(const Tensor &result, const std::optional<Tensor> &out) {
  if (!out) return py::cast(result);
  const Tensor &o = *out;
  // The copy into out would record nothing: a gradient through out would be silently wrong.
  TORCH_CHECK(!GradMode::enabled() || (!requiresGrad(result) && !requiresGrad(o)), Runtime,
              "functions with out=... arguments don't support automatic differentiation, but one of the "
              "arguments requires grad.");
  TORCH_CHECK(canCast(result.dtype(), o.dtype()), Runtime, "result type %s can't be cast to the desired output type %s",
              scalarTypeName(result.dtype()), scalarTypeName(o.dtype()));
  withoutGil([&] {
    resize_(o, result.sizes());
    copy_(o, result);
  });
  return py::cast(o);
}

}  // namespace torch::python
