// Construction and shape operations: cat/stack and friends, diagonals and triangles,
// cross/histc/renorm/kron, flip/roll/rot90, repeat/tile/repeat_interleave, meshgrid,
// dimension moves and the in-place view changes.
#include "core/ops/Shape.h"
#include "python/csrc/Bind.h"
#include "python/csrc/Factory.h"

namespace torch::python {
namespace {

std::string typeNameOf(py::handle obj) { return py::str(obj.get_type().attr("__name__")); }

// A tuple or list of tensors (argument `tensors` of cat, stack, ...).
TensorList tensorList(py::handle obj, const char *fn) {
  if (isTensor(obj) || !py::isinstance<py::sequence>(obj) || py::isinstance<py::str>(obj)) {
    throw py::type_error(std::string(fn) + "(): argument 'tensors' (position 1) must be tuple of Tensors, not " +
                         typeNameOf(obj));
  }
  TensorList list;
  for (py::handle item : obj) {
    if (!isTensor(item)) {
      throw py::type_error(std::string(fn) + "(): expected Tensor as element " + std::to_string(list.size()) +
                           " in argument 0, but got " + typeNameOf(item));
    }
    list.push_back(unwrap(item));
  }
  return list;
}

// f(t1, t2, ...) or f([t1, t2, ...]): the tensors of atleast_* and meshgrid.
TensorList tensorArgs(const py::args &args, const char *fn) {
  if (args.size() == 1 && !isTensor(args[0])) return tensorList(args[0], fn);
  return tensorList(args, fn);
}

std::optional<int64_t> optionalDim(py::handle dim) {
  if (dim.is_none()) return std::nullopt;
  if (PyBool_Check(dim.ptr()) || !PyIndex_Check(dim.ptr())) {
    throw py::type_error("dim must be an int, got " + typeNameOf(dim));
  }
  return dim.cast<int64_t>();
}

double number(py::handle obj, const char *what) {
  if (!isScalarLike(obj)) throw py::type_error(std::string(what) + " must be a number, got " + typeNameOf(obj));
  return toScalar(obj).d;
}

// Integer lists a method takes spread out or as one sequence (x.flip(0, 1), x.flip((0, 1)),
// x.flip(dims=(0, 1))); `name` is the keyword.
IntList spreadInts(const py::args &args, const py::kwargs &kwargs, const char *name, const char *fn) {
  for (auto item : kwargs) {
    if (std::string(py::str(item.first)) != name) {
      throw py::type_error(std::string(fn) + "() got an unexpected keyword argument '" +
                           std::string(py::str(item.first)) + "'");
    }
  }
  if (kwargs.contains(name)) {
    if (args.size() > 0) throw py::type_error(std::string(fn) + "() got multiple values for argument '" + name + "'");
    return toIntList(kwargs[name], name);
  }
  return toSizes(args, name);
}

// torch.<name>(tensors, ..., *, out=None) for the joining functions.
template <typename... Args, typename... Extra>
void defJoin(py::module &m, const char *name, Tensor (*fn)(const TensorList &, Args...), const Extra &...extra) {
  std::string fnName = name;
  m.def(
      name,
      [fn, fnName](py::handle tensors, Args... args, std::optional<Tensor> out) {
        TensorList list = tensorList(tensors, fnName.c_str());
        return writeOut(withoutGil([&] { return fn(list, args...); }), out);
      },
      py::arg("tensors"), extra..., py::kw_only(), py::arg("out") = py::none());
}

// atleast_1d(t) is a tensor; atleast_1d(t1, t2) and atleast_1d([t1, t2]) are tuples.
void defAtLeast(py::module &m, const char *name, Tensor (*fn)(const Tensor &)) {
  std::string fnName = name;
  m.def(name, [fn, fnName](py::args args) -> py::object {
    if (args.size() == 1 && isTensor(args[0])) return py::cast(fn(unwrap(args[0])));
    TensorList list = tensorArgs(args, fnName.c_str());
    py::tuple result(list.size());
    for (size_t i = 0; i < list.size(); i++) result[i] = py::cast(fn(list[i]));
    return std::move(result);
  });
}

Tensor repeatInterleaveAny(const Tensor &t, py::handle repeats, py::handle dim, py::handle outputSize) {
  std::optional<int64_t> d = optionalDim(dim);
  Tensor r;
  if (isTensor(repeats)) {
    Tensor counts = unwrap(repeats);
    r = withoutGil([&] { return repeatInterleave(t, counts, d); });
  } else if (PyIndex_Check(repeats.ptr()) && !PyBool_Check(repeats.ptr())) {
    int64_t count = repeats.cast<int64_t>();
    r = withoutGil([&] { return repeatInterleave(t, count, d); });
  } else {
    throw py::type_error("repeat_interleave(): repeats must be an int or a tensor, got " + typeNameOf(repeats));
  }
  if (!outputSize.is_none()) {
    int64_t expected = outputSize.cast<int64_t>();
    int64_t got = r.size(d && t.dim() > 0 ? wrapDim(*d, t.dim()) : 0);
    TORCH_CHECK(expected == got, Runtime, "repeat_interleave: output_size %lld does not match the result's size %lld",
                static_cast<long long>(expected), static_cast<long long>(got));
  }
  return r;
}

}  // namespace

void bindShape(py::module &m, TensorClass &cls) {
  // joining
  defJoin(
      m, "cat", +[](const TensorList &ts, int64_t dim) { return cat(ts, dim); }, py::arg("dim") = 0);
  defJoin(
      m, "concat", +[](const TensorList &ts, int64_t dim) { return cat(ts, dim); }, py::arg("dim") = 0);
  defJoin(
      m, "stack", +[](const TensorList &ts, int64_t dim) { return stack(ts, dim); }, py::arg("dim") = 0);
  defJoin(
      m, "hstack", +[](const TensorList &ts) { return hstack(ts); });
  defJoin(
      m, "vstack", +[](const TensorList &ts) { return vstack(ts); });
  defJoin(
      m, "row_stack", +[](const TensorList &ts) { return vstack(ts); });
  defJoin(
      m, "dstack", +[](const TensorList &ts) { return dstack(ts); });
  defJoin(
      m, "column_stack", +[](const TensorList &ts) { return columnStack(ts); });
  defAtLeast(
      m, "atleast_1d", +[](const Tensor &t) { return atleast1d(t); });
  defAtLeast(
      m, "atleast_2d", +[](const Tensor &t) { return atleast2d(t); });
  defAtLeast(
      m, "atleast_3d", +[](const Tensor &t) { return atleast3d(t); });

  // diagonals and triangles
  defWithOut(
      m, cls, "diag", +[](const Tensor &t, int64_t offset) { return diag(t, offset); }, py::arg("diagonal") = 0);
  defBoth(
      m, cls, "diagonal",
      [](const Tensor &t, int64_t offset, int64_t dim1, int64_t dim2) { return diagonal(t, offset, dim1, dim2); },
      py::arg("offset") = 0, py::arg("dim1") = 0, py::arg("dim2") = 1);
  defBoth(
      m, cls, "diag_embed",
      [](const Tensor &t, int64_t offset, int64_t dim1, int64_t dim2) { return diagEmbed(t, offset, dim1, dim2); },
      py::arg("offset") = 0, py::arg("dim1") = -2, py::arg("dim2") = -1);
  defBoth(
      m, cls, "diagflat", [](const Tensor &t, int64_t offset) { return diagflat(t, offset); }, py::arg("offset") = 0);
  defWithOut(
      m, cls, "tril", +[](const Tensor &t, int64_t offset) { return tril(t, offset); }, py::arg("diagonal") = 0);
  defWithOut(
      m, cls, "triu", +[](const Tensor &t, int64_t offset) { return triu(t, offset); }, py::arg("diagonal") = 0);
  cls.def(
      "tril_",
      [](const Tensor &t, int64_t offset) {
        tril_(t, offset);
        return t;
      },
      py::arg("diagonal") = 0, ReleaseGil());
  cls.def(
      "triu_",
      [](const Tensor &t, int64_t offset) {
        triu_(t, offset);
        return t;
      },
      py::arg("diagonal") = 0, ReleaseGil());
  for (bool upper : {false, true}) {
    m.def(
        upper ? "triu_indices" : "tril_indices",
        [upper](int64_t row, int64_t col, int64_t offset, py::handle dtype, py::handle device, py::handle) {
          Device where = toDevice(device).value_or(defaultFactoryDevice());
          ScalarType type = dtype.is_none() ? ScalarType::Long : toDtype(dtype);
          return withoutGil([&] {
            Tensor r = upper ? triuIndices(row, col, offset, type) : trilIndices(row, col, offset, type);
            return to(r, type, where);
          });
        },
        py::arg("row"), py::arg("col"), py::arg("offset") = 0, py::kw_only(), py::arg("dtype") = py::none(),
        py::arg("device") = py::none(), py::arg("layout") = py::none());
  }

  // products and statistics
  defWithOut(
      m, cls, "cross",
      +[](const Tensor &a, const Tensor &b, py::handle dim) {
        std::optional<int64_t> d = optionalDim(dim);
        return withoutGil([&] { return cross(a, b, d); });
      },
      py::arg("other"), py::arg("dim") = py::none());
  defWithOut(
      m, cls, "histc",
      +[](const Tensor &t, int64_t bins, py::handle min, py::handle max) {
        double low = number(min, "min"), high = number(max, "max");
        return withoutGil([&] { return histc(t, bins, low, high); });
      },
      py::arg("bins") = 100, py::arg("min") = 0, py::arg("max") = 0);
  defWithOut(
      m, cls, "renorm",
      +[](const Tensor &t, py::handle p, int64_t dim, py::handle maxnorm) {
        double order = number(p, "p"), most = number(maxnorm, "maxnorm");
        return withoutGil([&] { return renorm(t, order, dim, most); });
      },
      py::arg("p"), py::arg("dim"), py::arg("maxnorm"));
  cls.def(
      "renorm_",
      [](const Tensor &t, py::handle p, int64_t dim, py::handle maxnorm) {
        double order = number(p, "p"), most = number(maxnorm, "maxnorm");
        withoutGil([&] { renorm_(t, order, dim, most); });
        return t;
      },
      py::arg("p"), py::arg("dim"), py::arg("maxnorm"));
  defWithOut(
      m, cls, "kron", +[](const Tensor &a, const Tensor &b) { return kron(a, b); }, py::arg("other"));

  // reordering
  cls.def("flip", [](const Tensor &t, py::args dims, py::kwargs kwargs) {
    IntList list = spreadInts(dims, kwargs, "dims", "flip");
    return withoutGil([&] { return flip(t, list); });
  });
  m.def(
      "flip",
      [](const Tensor &t, py::handle dims) {
        IntList list = toIntList(dims, "dims");
        return withoutGil([&] { return flip(t, list); });
      },
      py::arg("input"), py::arg("dims"));
  defBoth(m, cls, "fliplr", [](const Tensor &t) { return fliplr(t); });
  defBoth(m, cls, "flipud", [](const Tensor &t) { return flipud(t); });
  defBoth(
      m, cls, "roll",
      [](const Tensor &t, py::handle shifts, py::handle dims) {
        IntList by = toIntList(shifts, "shifts"), along = dims.is_none() ? IntList{} : toIntList(dims, "dims");
        return withoutGil([&] { return roll(t, by, along); });
      },
      py::arg("shifts"), py::arg("dims") = py::none());
  defBoth(
      m, cls, "rot90",
      [](const Tensor &t, int64_t k, py::handle dims) {
        IntList plane = toIntList(dims, "dims");
        return withoutGil([&] { return rot90(t, k, plane); });
      },
      py::arg("k") = 1, py::arg("dims") = py::make_tuple(0, 1));

  // repetition
  cls.def("repeat", [](const Tensor &t, py::args repeats, py::kwargs kwargs) {
    IntList counts = spreadInts(repeats, kwargs, "repeats", "repeat");
    return withoutGil([&] { return repeat(t, counts); });
  });
  cls.def("tile", [](const Tensor &t, py::args dims, py::kwargs kwargs) {
    IntList counts = spreadInts(dims, kwargs, "dims", "tile");
    return withoutGil([&] { return tile(t, counts); });
  });
  m.def(
      "tile",
      [](const Tensor &t, py::handle dims) {
        IntList counts = toIntList(dims, "dims");
        return withoutGil([&] { return tile(t, counts); });
      },
      py::arg("input"), py::arg("dims"));
  cls.def("repeat_interleave", repeatInterleaveAny, py::arg("repeats"), py::arg("dim") = py::none(), py::kw_only(),
          py::arg("output_size") = py::none());
  // torch.repeat_interleave(repeats) alone gives the index i repeated repeats[i] times.
  m.def(
      "repeat_interleave",
      [](const Tensor &t, py::handle repeats, py::handle dim, py::handle outputSize) {
        if (repeats.is_none()) return withoutGil([&] { return repeatInterleave(t); });
        return repeatInterleaveAny(t, repeats, dim, outputSize);
      },
      py::arg("input"), py::arg("repeats") = py::none(), py::arg("dim") = py::none(), py::kw_only(),
      py::arg("output_size") = py::none());

  // grids
  m.def(
      "meshgrid",
      [](py::args args, py::handle indexing) {
        TensorList tensors = tensorArgs(args, "meshgrid");
        std::string mode = "ij";
        if (indexing.is_none()) {
          PyErr_WarnEx(PyExc_UserWarning,
                       "torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.", 1);
        } else {
          mode = py::str(indexing);
        }
        TORCH_CHECK(mode == "ij" || mode == "xy", Runtime,
                    "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: %s", mode.c_str());
        return py::tuple(py::cast(meshgrid(tensors, mode == "xy")));
      },
      py::kw_only(), py::arg("indexing") = py::none());

  // dimension moves
  for (const char *name : {"movedim", "moveaxis"}) {
    defBoth(
        m, cls, name,
        [](const Tensor &t, py::handle source, py::handle destination) {
          return movedim(t, toIntList(source, "source"), toIntList(destination, "destination"));
        },
        py::arg("source"), py::arg("destination"));
  }
  defBoth(
      m, cls, "swapaxes", [](const Tensor &t, int64_t a, int64_t b) { return transpose(t, a, b); }, py::arg("axis0"),
      py::arg("axis1"));
  defBoth(
      m, cls, "swapdims", [](const Tensor &t, int64_t a, int64_t b) { return transpose(t, a, b); }, py::arg("dim0"),
      py::arg("dim1"));
  defBoth(
      m, cls, "unflatten",
      [](const Tensor &t, int64_t dim, py::handle sizes) { return unflatten(t, dim, toIntList(sizes, "sizes")); },
      py::arg("dim"), py::arg("sizes"));
  defBoth(
      m, cls, "narrow_copy",
      [](const Tensor &t, int64_t dim, int64_t start, int64_t length) { return narrowCopy(t, dim, start, length); },
      py::arg("dim"), py::arg("start"), py::arg("length"));
  cls.def(
      "type_as", [](const Tensor &t, const Tensor &other) { return toType(t, other.dtype()); }, py::arg("other"),
      ReleaseGil());

  // in-place geometry changes
  cls.def("t_", [](const Tensor &t) {
    t_(t);
    return t;
  });
  struct SwapEntry {
    const char *name, *arg0, *arg1;
  };
  static const SwapEntry swaps[] = {
      {"transpose_", "dim0", "dim1"}, {"swapaxes_", "axis0", "axis1"}, {"swapdims_", "dim0", "dim1"}};
  for (const SwapEntry &e : swaps) {
    cls.def(
        e.name,
        [](const Tensor &t, int64_t a, int64_t b) {
          transpose_(t, a, b);
          return t;
        },
        py::arg(e.arg0), py::arg(e.arg1));
  }
  cls.def(
      "squeeze_",
      [](const Tensor &t, py::handle dim) {
        std::optional<int64_t> d = optionalDim(dim);
        if (d)
          squeeze_(t, *d);
        else
          squeeze_(t);
        return t;
      },
      py::arg("dim") = py::none());
  cls.def(
      "unsqueeze_",
      [](const Tensor &t, int64_t dim) {
        unsqueeze_(t, dim);
        return t;
      },
      py::arg("dim"));
}

}  // namespace torch::python
