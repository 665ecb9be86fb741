// Indexing from Python: t[key] and t[key] = value (the key parsed into the core's
// TensorIndex list, see Note [Index semantics] in core/ops/Indexing.h), and the index
// ops (index_select, gather, scatter, masked_*, nonzero, take, put, index_put) as methods,
// in-place `_` twins and torch.* functions.
//
// Note [Python index keys]: PyTorch 1.x's rules, applied here so that the core keeps
// ATen's meaning for index_put_ (every tensor an advanced index):
// - ints (and numpy integers, and objects with __index__) select; a 0-dim integer tensor
//   acts as an int; True/False and 0-dim bool tensors add a dimension;
// - a list, or any other sequence, becomes an index tensor: bool data makes a mask, uint8
//   numpy data a uint8 mask, anything else a Long tensor;
// - a list that holds a tensor, a sequence, a slice, None or Ellipsis and has fewer than
//   32 entries is read as a tuple (numpy's legacy heuristic, kept by PyTorch):
//   `t[[[0, 1], [1, 2]]]` is `t[[0, 1], [1, 2]]`. numpy arrays are never read as tuples:
//   PyTorch does read a short 2-D array that way, an accident its users report as a bug
//   (a 2-D bool array must be a mask, as in numpy).
#include "core/ops/Indexing.h"
#include "python/csrc/Bind.h"

namespace torch::python {
namespace {

// ---- key parsing ----

struct NumpyTypes {
  py::object ndarray, integer, boolean;  // empty when numpy is missing
};

const NumpyTypes &numpyTypes() {
  static const NumpyTypes *types = [] {  // never destroyed: outlives the interpreter's teardown
    auto *t = new NumpyTypes();
    try {
      py::module np = py::module::import("numpy");
      t->ndarray = np.attr("ndarray");
      t->integer = np.attr("integer");
      t->boolean = np.attr("bool_");
    } catch (py::error_already_set &) {
    }
    return t;
  }();
  return *types;
}

bool isInstance(py::handle obj, const py::object &type) {
  return type && PyObject_IsInstance(obj.ptr(), type.ptr()) == 1;
}

int64_t toInt64(PyObject *p) {
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
  if (overflow) throw py::index_error("index is too large for a 64-bit integer");
  if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
  return v;
}

TensorIndex sliceIndex(PyObject *p) {
  Py_ssize_t start, stop, step;
  if (PySlice_Unpack(p, &start, &stop, &step) < 0) throw py::error_already_set();
  if (step < 0) throw py::value_error("step must be greater than zero");
  return TensorIndex::slice(start, stop, step);
}

TensorIndex tensorIndex(const Tensor &t) {
  if (t.dim() == 0 && isIntegral(t.dtype()) && t.dtype() != ScalarType::Byte) return TensorIndex::integer(item(t).i);
  return TensorIndex::advanced(t);
}

// A list or array as an index tensor: masks stay bool (or uint8), everything else is Long.
Tensor sequenceIndex(py::handle seq) {
  Tensor t = tensorFromData(seq, std::nullopt);
  if (t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::Byte) return t;
  return toType(t, ScalarType::Long);
}

bool isStringLike(PyObject *p) { return PyUnicode_Check(p) || PyBytes_Check(p); }

TensorIndex toTensorIndex(py::handle item) {
  PyObject *p = item.ptr();
  if (PyLong_Check(p) && !PyBool_Check(p)) return TensorIndex::integer(toInt64(p));
  if (PySlice_Check(p)) return sliceIndex(p);
  if (p == Py_None) return TensorIndex::none();
  if (p == Py_Ellipsis) return TensorIndex::ellipsis();
  if (PyBool_Check(p)) return TensorIndex::boolean(p == Py_True);
  if (isTensor(item)) return tensorIndex(unwrap(item));
  const NumpyTypes &np = numpyTypes();
  if (isInstance(item, np.boolean)) return TensorIndex::boolean(PyObject_IsTrue(p) == 1);
  if (!isStringLike(p) && PySequence_Check(p)) return tensorIndex(sequenceIndex(item));
  py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(p));
  if (!index) {
    PyErr_Clear();
    throw py::index_error(
        "only integers, slices (`:`), ellipsis (`...`), None and long or byte tensors are valid "
        "indices (got " +
        std::string(Py_TYPE(p)->tp_name) + ")");
  }
  return TensorIndex::integer(toInt64(index.ptr()));
}

// See Note [Python index keys].
bool readAsTuple(py::handle key) {
  PyObject *p = key.ptr();
  if (isTensor(key) || isStringLike(p) || !PySequence_Check(p) || isInstance(key, numpyTypes().ndarray)) return false;
  Py_ssize_t n = PySequence_Size(p);
  if (n < 0) {
    PyErr_Clear();
    return false;
  }
  if (n >= 32) return false;
  for (Py_ssize_t i = 0; i < n; i++) {
    py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(p, i));
    if (!item) {
      PyErr_Clear();
      return false;
    }
    PyObject *q = item.ptr();
    if (isTensor(item) || PySequence_Check(q) || PySlice_Check(q) || q == Py_None || q == Py_Ellipsis) return true;
  }
  return false;
}

std::vector<TensorIndex> parseKey(py::handle key) {
  std::vector<TensorIndex> out;
  if (PyTuple_Check(key.ptr()) || readAsTuple(key)) {
    py::tuple items = PyTuple_Check(key.ptr()) ? py::reinterpret_borrow<py::tuple>(key)
                                               : py::reinterpret_steal<py::tuple>(PySequence_Tuple(key.ptr()));
    if (!items) throw py::error_already_set();
    out.reserve(items.size());
    for (py::handle item : items) out.push_back(toTensorIndex(item));
  } else {
    out.push_back(toTensorIndex(key));
  }
  return out;
}

// Int index i of dimension d, checked and counted from the start.
int64_t checkedIndex(const Tensor &t, int d, int64_t i) {
  int64_t n = t.size(d);
  if (i < -n || i >= n) {
    fail(th::ErrorKind::Index, "index %lld is out of range for dimension %d with size %lld", static_cast<long long>(i),
         d, static_cast<long long>(n));
  }
  return i < 0 ? i + n : i;
}

// The hot paths t[i] and t[i, j, ...]: for an int or a tuple of ints (no more than t has
// dimensions), the view they select, made in one step; else an undefined tensor.
Tensor intsView(const Tensor &t, PyObject *key) {
  if (PyLong_CheckExact(key)) {
    if (t.dim() == 0) return Tensor();
    return select(t, 0, checkedIndex(t, 0, toInt64(key)));
  }
  if (!PyTuple_CheckExact(key)) return Tensor();
  const Py_ssize_t n = PyTuple_GET_SIZE(key);
  if (n == 0 || n > t.dim()) return Tensor();
  for (Py_ssize_t d = 0; d < n; d++) {
    if (!PyLong_CheckExact(PyTuple_GET_ITEM(key, d))) return Tensor();
  }
  int64_t offset = t.storageOffset();
  for (int d = 0; d < n; d++) offset += checkedIndex(t, d, toInt64(PyTuple_GET_ITEM(key, d))) * t.stride(d);
  const IntList sizes = t.sizes(), strides = t.strides();
  return asStrided(t, IntList(sizes.begin() + n, sizes.end()), IntList(strides.begin() + n, strides.end()), offset);
}

// As PyTorch: index tensors on the CPU serve a tensor on any device (they are moved to it, masks
// included); for a CPU tensor, index tensors on a GPU are refused.
std::vector<TensorIndex> onDeviceOf(const Tensor &t, std::vector<TensorIndex> indices) {
  for (TensorIndex &i : indices) {
    if (i.kind != TensorIndex::Kind::Tensor || !i.tensor.defined() || i.tensor.device() == t.device()) continue;
    TORCH_CHECK(i.tensor.device() == Device::CPU, Index,
                "indices should be either on cpu or on the same device as the indexed tensor (%s)",
                deviceName(t.device()));
    i.tensor = to(i.tensor, i.tensor.dtype(), t.device());
  }
  return indices;
}

Tensor getitem(const Tensor &t, py::handle key) {
  PyObject *p = key.ptr();
  Tensor selected = intsView(t, p);
  if (selected.defined()) return selected;
  if (t.dim() > 0) {
    if (PySlice_Check(p)) {
      TensorIndex s = sliceIndex(p);
      return slice(t, 0, s.start, s.stop, s.step);
    }
  }
  if (p == Py_None) return unsqueeze(t, 0);
  if (p == Py_Ellipsis) return alias(t);
  // advanced indexing gathers every selected element: a kernel, run without the GIL once
  // the key is C++ values (Note [Releasing the GIL])
  const std::vector<TensorIndex> indices = onDeviceOf(t, parseKey(key));
  return withoutGil([&] { return index(t, indices); });
}

// A Python number (or numpy scalar) as the value of an assignment; tensors and sequences
// are not numbers here, even with one element.
bool isNumber(py::handle v) {
  PyObject *p = v.ptr();
  return PyFloat_Check(p) || PyLong_Check(p) || (!isTensor(v) && !PySequence_Check(p) && isScalarLike(v));
}

// The key and the value become C++ values first; the writes run without the GIL.
void setitem(const Tensor &t, py::handle key, py::handle value) {
  if (isNumber(value)) {
    Scalar s = toScalar(value);
    Tensor selected = intsView(t, key.ptr());
    if (selected.defined()) {
      withoutGil([&] { fill_(selected, s); });
      return;
    }
    const std::vector<TensorIndex> indices = onDeviceOf(t, parseKey(key));
    withoutGil([&] { indexPut_(t, indices, s); });
    return;
  }
  // Lists and arrays are converted to t's type here; tensors by indexPut_.
  Tensor v = isTensor(value) ? unwrap(value) : toTensor(value, t.dtype());
  const std::vector<TensorIndex> indices = onDeviceOf(t, parseKey(key));
  withoutGil([&] { indexPut_(t, indices, v); });
}

// ---- index ops ----

// The value of a fill: a number or a 0-dim tensor.
Scalar fillValue(py::handle v, const char *op) {
  if (isTensor(v)) {
    const Tensor &t = unwrap(v);
    TORCH_CHECK(t.dim() == 0, Runtime,
                "%s only supports a 0-dimensional value tensor, but got tensor with %d dimension(s).", op, t.dim());
    return item(t);
  }
  return toScalar(v);
}

std::optional<ScatterReduce> reduceOf(py::handle reduce) {
  if (reduce.is_none()) return std::nullopt;
  std::string name = py::str(reduce);
  if (name == "add") return ScatterReduce::Add;
  if (name == "multiply") return ScatterReduce::Multiply;
  throw py::value_error("reduce argument must be either add or multiply, got " + name);
}

// scatter_(dim, index, src) or scatter_(dim, index, value), with an optional reduction.
void scatterAny(const Tensor &self, int64_t dim, const Tensor &index, py::handle src, py::handle value,
                py::handle reduce) {
  TORCH_CHECK(src.is_none() != value.is_none(), Type, "scatter_(): expected exactly one of src and value");
  std::optional<ScatterReduce> op = reduceOf(reduce);
  if (!src.is_none() && isTensor(src)) {
    Tensor s = unwrap(src);
    withoutGil([&] {
      if (op)
        scatterReduce_(self, dim, index, s, *op);
      else
        scatter_(self, dim, index, s);
    });
    return;
  }
  Scalar v = fillValue(src.is_none() ? value : src, "scatter_");
  withoutGil([&] {
    if (op)
      scatterReduce_(self, dim, index, v, *op);
    else
      scatter_(self, dim, index, v);
  });
}

// index_put_'s indices: a tuple or list of index tensors, None standing for a full slice.
std::vector<TensorIndex> indexTensors(py::handle indices) {
  if (isTensor(indices)) return {TensorIndex::advanced(unwrap(indices))};
  if (!PyTuple_Check(indices.ptr()) && !PyList_Check(indices.ptr())) {
    throw py::type_error("index_put_(): indices must be a tuple of tensors");
  }
  std::vector<TensorIndex> key;
  for (py::handle i : indices) {
    if (i.is_none()) {
      key.push_back(TensorIndex::slice(0, std::numeric_limits<int64_t>::max(), 1));
    } else if (isTensor(i)) {
      key.push_back(TensorIndex::advanced(unwrap(i)));
    } else {
      throw py::type_error("index_put_(): indices must be tensors or None, got " +
                           std::string(Py_TYPE(i.ptr())->tp_name));
    }
  }
  return key;
}

void indexPutChecked_(const Tensor &self, py::handle indices, const Tensor &values, bool accumulate) {
  TORCH_CHECK(self.dtype() == values.dtype(), Runtime,
              "Index put requires the source and destination dtypes match, got %s for the destination and %s for "
              "the source.",
              scalarTypeName(self.dtype()), scalarTypeName(values.dtype()));
  std::vector<TensorIndex> key = indexTensors(indices);
  withoutGil([&] { indexPut_(self, key, values, accumulate); });
}

py::object nonzeroAny(const Tensor &t, bool asTuple, const std::optional<Tensor> &out) {
  Tensor positions = withoutGil([&] { return nonzero(t); });
  if (!asTuple) return writeOut(positions, out);
  TORCH_CHECK(!out, Runtime, "nonzero(): out= is not supported with as_tuple=True");
  if (t.dim() == 0) {  // one column of zeros, one row per non-zero element (0 or 1)
    Tensor column = empty({positions.size(0)}, ScalarType::Long, positions.device());
    zero_(column);
    return py::make_tuple(column);
  }
  py::tuple columns(t.dim());
  for (int d = 0; d < t.dim(); d++) columns[d] = py::cast(select(positions, 1, d));
  return std::move(columns);
}

// An in-place op as the method name_ (returning self) and its out-of-place version as the
// method name and torch.name(input, ..., *, out=None) (on a copy of input). Without the GIL:
// fn itself when it takes C++ values only (one that takes Python objects converts them, then
// releases the GIL itself), and the copy always.
template <typename... Args, typename... Extra>
void defInPlace(py::module &m, TensorClass &cls, const char *name, void (*fn)(const Tensor &, Args...), bool withOut,
                const Extra &...extra) {
  auto apply = [fn](const Tensor &t, Args... args) {
    if constexpr ((detail::isPythonObject<Args> || ...)) {
      fn(t, args...);
    } else {
      withoutGil([&] { fn(t, args...); });
    }
  };
  auto copyOf = [](const Tensor &t) { return withoutGil([&] { return clone(t); }); };
  std::string inPlace = std::string(name) + "_";
  cls.def(
      inPlace.c_str(),
      [apply](const Tensor &t, Args... args) {
        apply(t, args...);
        return t;
      },
      extra...);
  auto outOfPlace = [apply, copyOf](const Tensor &t, Args... args) {
    Tensor r = copyOf(t);
    apply(r, args...);
    return r;
  };
  cls.def(name, outOfPlace, extra...);
  if (withOut) {
    defFunctionWithOut(
        m, name,
        [outOfPlace](const Tensor &t, Args... args, std::optional<Tensor> out) {
          return writeOut(outOfPlace(t, args...), out);
        },
        extra...);
  } else {
    m.def(name, outOfPlace, py::arg("input"), extra...);
  }
}

}  // namespace

void bindIndexing(py::module &m, TensorClass &cls) {
  cls.def("__getitem__", getitem);
  cls.def("__setitem__", setitem);
  cls.def("__delitem__",
          [](const Tensor &, py::handle) { throw py::type_error("Tensor does not support deleting items"); });

  // gathering
  defWithOut(
      m, cls, "index_select",
      +[](const Tensor &t, int64_t dim, const Tensor &index) { return indexSelect(t, dim, index); }, py::arg("dim"),
      py::arg("index"));
  defWithOut(
      m, cls, "gather", +[](const Tensor &t, int64_t dim, const Tensor &index, bool) { return gather(t, dim, index); },
      py::arg("dim"), py::arg("index"), py::kw_only(), py::arg("sparse_grad") = false);
  defWithOut(
      m, cls, "masked_select", +[](const Tensor &t, const Tensor &mask) { return maskedSelect(t, mask); },
      py::arg("mask"));
  defWithOut(
      m, cls, "take", +[](const Tensor &t, const Tensor &index) { return take(t, index); }, py::arg("index"));
  cls.def(
      "nonzero", [](const Tensor &t, bool asTuple) { return nonzeroAny(t, asTuple, std::nullopt); }, py::kw_only(),
      py::arg("as_tuple") = false);
  m.def("nonzero", nonzeroAny, py::arg("input"), py::kw_only(), py::arg("as_tuple") = false,
        py::arg("out") = py::none());
  defBoth(m, cls, "argwhere", [](const Tensor &t) { return nonzero(t); });

  // writing along a dimension
  defInPlace(
      m, cls, "index_copy",
      +[](const Tensor &t, int64_t dim, const Tensor &index, const Tensor &source) {
        indexCopy_(t, dim, index, source);
      },
      true, py::arg("dim"), py::arg("index"), py::arg("source"));
  defInPlace(
      m, cls, "index_add",
      +[](const Tensor &t, int64_t dim, const Tensor &index, const Tensor &source, py::handle alpha) {
        Scalar a = toScalar(alpha);
        withoutGil([&] { indexAdd_(t, dim, index, source, a); });
      },
      true, py::arg("dim"), py::arg("index"), py::arg("source"), py::kw_only(), py::arg("alpha") = 1);
  defInPlace(
      m, cls, "index_fill",
      +[](const Tensor &t, int64_t dim, const Tensor &index, py::handle value) {
        Scalar v = fillValue(value, "index_fill_");
        withoutGil([&] { indexFill_(t, dim, index, v); });
      },
      false, py::arg("dim"), py::arg("index"), py::arg("value"));
  defInPlace(
      m, cls, "scatter",
      +[](const Tensor &t, int64_t dim, const Tensor &index, py::handle src, py::handle value, py::handle reduce) {
        scatterAny(t, dim, index, src, value, reduce);
      },
      true, py::arg("dim"), py::arg("index"), py::arg("src") = py::none(), py::kw_only(), py::arg("value") = py::none(),
      py::arg("reduce") = py::none());
  defInPlace(
      m, cls, "scatter_add",
      +[](const Tensor &t, int64_t dim, const Tensor &index, const Tensor &src) { scatterAdd_(t, dim, index, src); },
      true, py::arg("dim"), py::arg("index"), py::arg("src"));

  // masks; the out-of-place versions broadcast self and mask together
  cls.def(
      "masked_fill_",
      [](const Tensor &t, const Tensor &mask, py::handle value) {
        Scalar v = fillValue(value, "masked_fill_");
        withoutGil([&] { maskedFill_(t, mask, v); });
        return t;
      },
      py::arg("mask"), py::arg("value"));
  defBoth(
      m, cls, "masked_fill",
      [](const Tensor &t, const Tensor &mask, py::handle value) {
        Scalar v = fillValue(value, "masked_fill");
        return withoutGil([&] { return maskedFill(t, mask, v); });
      },
      py::arg("mask"), py::arg("value"));
  cls.def(
      "masked_scatter_",
      [](const Tensor &t, const Tensor &mask, const Tensor &source) {
        maskedScatter_(t, mask, source);
        return t;
      },
      py::arg("mask"), py::arg("source"), ReleaseGil());
  defBoth(
      m, cls, "masked_scatter",
      [](const Tensor &t, const Tensor &mask, const Tensor &source) { return maskedScatter(t, mask, source); },
      py::arg("mask"), py::arg("source"));

  // flat positions and index tuples
  defInPlace(
      m, cls, "put",
      +[](const Tensor &t, const Tensor &index, const Tensor &source, bool accumulate) {
        put_(t, index, source, accumulate);
      },
      false, py::arg("index"), py::arg("source"), py::arg("accumulate") = false);
  defInPlace(
      m, cls, "index_put",
      +[](const Tensor &t, py::handle indices, const Tensor &values, bool accumulate) {
        indexPutChecked_(t, indices, values, accumulate);
      },
      false, py::arg("indices"), py::arg("values"), py::arg("accumulate") = false);
  m.def(
      "index_put_",
      [](const Tensor &t, py::handle indices, const Tensor &values, bool accumulate) {
        indexPutChecked_(t, indices, values, accumulate);
        return t;
      },
      py::arg("input"), py::arg("indices"), py::arg("values"), py::arg("accumulate") = false);
}

}  // namespace torch::python
