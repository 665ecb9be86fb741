// Reductions, scans, sorting and selection: methods, torch.* functions and the
// torch.return_types named tuples (values, indices).
#include <cmath>
#include <map>

#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"
#include "python/csrc/Bind.h"

namespace torch::python {
namespace {

// dim=None (every dimension), an int, or a tuple/list of ints.
IntList dimsOf(py::handle dim) {
  if (dim.is_none()) return {};
  if (PyBool_Check(dim.ptr())) throw py::type_error("dim must be an int or a tuple of ints, got bool");
  return toIntList(dim, "dim");
}

std::optional<int64_t> optionalDim(py::handle dim) {
  if (dim.is_none()) return std::nullopt;
  if (PyBool_Check(dim.ptr()) || !PyIndex_Check(dim.ptr())) {
    throw py::type_error("dim must be an int, got " + std::string(py::str(dim.get_type().attr("__name__"))));
  }
  return dim.cast<int64_t>();
}

std::optional<ScalarType> optionalDtype(py::handle dtype) {
  if (dtype.is_none()) return std::nullopt;
  return toDtype(dtype);
}

// p of norm and dist: a number, inf, 'fro' (the 2-norm over the reduced elements) or None.
double normOrder(py::handle p) {
  if (p.is_none()) return 2;
  if (py::isinstance<py::str>(p)) {
    std::string name = p.cast<std::string>();
    if (name == "fro") return 2;
    throw py::value_error("norm: p='" + name + "' is not supported (use a number, inf or 'fro')");
  }
  if (!isScalarLike(p)) throw py::type_error("norm: p must be a number or 'fro'");
  return toScalar(p).d;
}

// torch.return_types.<name>: a named tuple (values, indices).
py::object &returnType(const std::string &name) {
  static std::map<std::string, py::object> *types = new std::map<std::string, py::object>();
  py::object &type = (*types)[name];
  if (!type) {
    type = py::module::import("collections").attr("namedtuple")(name, py::make_tuple("values", "indices"));
    type.attr("__module__") = "torch.return_types";
    type.attr("__qualname__") = name;
  }
  return type;
}

// The named tuple; with out=(values, indices), the results are written there first.
py::object pack(const char *name, const ValuesIndices &r, py::handle out) {
  if (out.is_none()) return returnType(name)(r.values, r.indices);
  if (!py::isinstance<py::sequence>(out) || py::len(out) != 2) {
    throw py::type_error(std::string(name) + "(): out must be a tuple of two tensors (values, indices)");
  }
  py::sequence pair = out.cast<py::sequence>();
  for (py::handle o : pair) {
    if (!isTensor(o)) throw py::type_error(std::string(name) + "(): out must be a tuple of two tensors");
  }
  py::object values = writeOut(r.values, unwrap(pair[0]));
  py::object indices = writeOut(r.indices, unwrap(pair[1]));
  return returnType(name)(values, indices);
}

// max/min: no argument, a dim (values, indices) or another tensor (element-wise).
py::object extremeAny(bool largest, const Tensor &t, py::handle dimOrOther, bool keepdim, py::handle out) {
  std::optional<Tensor> outTensor;
  if (dimOrOther.is_none() || isTensor(dimOrOther)) {
    if (!out.is_none()) outTensor = out.cast<Tensor>();
    if (dimOrOther.is_none()) return writeOut(withoutGil([&] { return largest ? maxAll(t) : minAll(t); }), outTensor);
    Tensor other = unwrap(dimOrOther);
    return writeOut(withoutGil([&] { return binary(largest ? BinaryOp::Maximum : BinaryOp::Minimum, t, other); }),
                    outTensor);
  }
  int64_t dim = *optionalDim(dimOrOther);
  return pack(largest ? "max" : "min",
              withoutGil([&] { return largest ? max(t, dim, keepdim) : min(t, dim, keepdim); }), out);
}

// var(dim, unbiased, keepdim) also reads var(unbiased), as PyTorch does.
Tensor varStd(bool root, const Tensor &t, py::handle dim, py::handle unbiased, bool keepdim) {
  bool isUnbiased = true;
  IntList dims;
  if (PyBool_Check(dim.ptr())) {
    isUnbiased = dim.cast<bool>();
  } else {
    dims = dimsOf(dim);
    if (!unbiased.is_none()) isUnbiased = unbiased.cast<bool>();
  }
  return withoutGil([&] { return root ? std(t, dims, isUnbiased, keepdim) : var(t, dims, isUnbiased, keepdim); });
}

Tensor normAny(const Tensor &t, py::handle p, py::handle dim, bool keepdim, py::handle dtype) {
  std::optional<ScalarType> type = optionalDtype(dtype);
  double order = normOrder(p);
  IntList dims = dimsOf(dim);
  return withoutGil([&] { return norm(type ? toType(t, *type) : t, order, dims, keepdim); });
}

// The values come out sorted whatever sorted says (PyTorch's CPU unique sorts too).
py::object uniqueAny(const Tensor &t, bool /*sorted*/, bool returnInverse, bool returnCounts, py::handle dim) {
  std::optional<int64_t> d = optionalDim(dim);
  UniqueResult r = withoutGil(
      [&] { return d ? unique(t, *d, returnInverse, returnCounts) : unique(t, returnInverse, returnCounts); });
  if (!returnInverse && !returnCounts) return py::cast(r.values);
  py::list parts;
  parts.append(r.values);
  if (returnInverse) parts.append(r.inverse);
  if (returnCounts) parts.append(r.counts);
  return py::tuple(parts);
}

// The method and torch.<name>(input, ..., out=None) for an op returning (values, indices).
template <typename... Args, typename... Extra>
void defPair(py::module &m, TensorClass &cls, const char *name, ValuesIndices (*fn)(const Tensor &, Args...),
             const Extra &...extra) {
  std::string key = name;
  cls.def(
      name,
      [fn, key](const Tensor &t, Args... args) {
        return pack(key.c_str(), withoutGil([&] { return fn(t, args...); }), py::none());
      },
      extra...);
  m.def(
      name,
      [fn, key](const Tensor &t, Args... args, py::handle out) {
        return pack(key.c_str(), withoutGil([&] { return fn(t, args...); }), out);
      },
      py::arg("input"), extra..., py::kw_only(), py::arg("out") = py::none());
}

}  // namespace

void bindReduce(py::module &m, TensorClass &cls) {
  py::module returnTypes = m.def_submodule("return_types", "named tuples returned by max, sort, topk, ...");
  for (const char *name : {"max", "min", "median", "mode", "kthvalue", "sort", "topk"}) {
    returnTypes.attr(name) = returnType(name);
  }
  py::module::import("sys").attr("modules")["torch.return_types"] = returnTypes;

  // sums and statistics
  defWithOut(
      m, cls, "sum",
      +[](const Tensor &t, py::handle dim, bool keepdim, py::handle dtype) {
        IntList dims = dimsOf(dim);
        std::optional<ScalarType> type = optionalDtype(dtype);
        return withoutGil([&] { return sum(t, dims, keepdim, type); });
      },
      py::arg("dim") = py::none(), py::arg("keepdim") = false, py::arg("dtype") = py::none());
  defWithOut(
      m, cls, "prod",
      +[](const Tensor &t, py::handle dim, bool keepdim, py::handle dtype) {
        std::optional<int64_t> d = optionalDim(dim);
        std::optional<ScalarType> type = optionalDtype(dtype);
        return withoutGil([&] { return prod(t, d ? IntList{*d} : IntList{}, keepdim, type); });
      },
      py::arg("dim") = py::none(), py::arg("keepdim") = false, py::arg("dtype") = py::none());
  defWithOut(
      m, cls, "mean",
      +[](const Tensor &t, py::handle dim, bool keepdim, py::handle dtype) {
        IntList dims = dimsOf(dim);
        std::optional<ScalarType> type = optionalDtype(dtype);
        return withoutGil([&] { return mean(t, dims, keepdim, type); });
      },
      py::arg("dim") = py::none(), py::arg("keepdim") = false, py::arg("dtype") = py::none());
  defWithOut(
      m, cls, "var",
      +[](const Tensor &t, py::handle dim, py::handle unbiased, bool keepdim) {
        return varStd(false, t, dim, unbiased, keepdim);
      },
      py::arg("dim") = py::none(), py::arg("unbiased") = py::none(), py::arg("keepdim") = false);
  defWithOut(
      m, cls, "std",
      +[](const Tensor &t, py::handle dim, py::handle unbiased, bool keepdim) {
        return varStd(true, t, dim, unbiased, keepdim);
      },
      py::arg("dim") = py::none(), py::arg("unbiased") = py::none(), py::arg("keepdim") = false);
  defWithOut(
      m, cls, "norm",
      +[](const Tensor &t, py::handle p, py::handle dim, bool keepdim, py::handle dtype) {
        return normAny(t, p, dim, keepdim, dtype);
      },
      py::arg("p") = "fro", py::arg("dim") = py::none(), py::arg("keepdim") = false, py::arg("dtype") = py::none());
  defWithOut(
      m, cls, "dist",
      +[](const Tensor &a, const Tensor &b, py::handle p) {
        double order = normOrder(p);
        return withoutGil([&] { return dist(a, b, order); });
      },
      py::arg("other"), py::arg("p") = 2);
  defWithOut(
      m, cls, "logsumexp",
      +[](const Tensor &t, py::handle dim, bool keepdim) {
        IntList dims = dimsOf(dim);
        return withoutGil([&] { return logsumexp(t, dims, keepdim); });
      },
      py::arg("dim"), py::arg("keepdim") = false);

  // extremes
  for (bool largest : {true, false}) {
    const char *name = largest ? "max" : "min";
    cls.def(
        name,
        [largest](const Tensor &t, py::handle dim, bool keepdim) {
          return extremeAny(largest, t, dim, keepdim, py::none());
        },
        py::arg("dim") = py::none(), py::arg("keepdim") = false);
    m.def(
        name,
        [largest](const Tensor &t, py::handle dim, bool keepdim, py::handle out) {
          return extremeAny(largest, t, dim, keepdim, out);
        },
        py::arg("input"), py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(),
        py::arg("out") = py::none());
  }
  defWithOut(
      m, cls, "amax",
      +[](const Tensor &t, py::handle dim, bool keepdim) {
        IntList dims = dimsOf(dim);
        return withoutGil([&] { return amax(t, dims, keepdim); });
      },
      py::arg("dim") = py::tuple(), py::arg("keepdim") = false);
  defWithOut(
      m, cls, "amin",
      +[](const Tensor &t, py::handle dim, bool keepdim) {
        IntList dims = dimsOf(dim);
        return withoutGil([&] { return amin(t, dims, keepdim); });
      },
      py::arg("dim") = py::tuple(), py::arg("keepdim") = false);
  defWithOut(
      m, cls, "argmax",
      +[](const Tensor &t, py::handle dim, bool keepdim) {
        std::optional<int64_t> d = optionalDim(dim);
        return withoutGil([&] { return argmax(t, d, keepdim); });
      },
      py::arg("dim") = py::none(), py::arg("keepdim") = false);
  defWithOut(
      m, cls, "argmin",
      +[](const Tensor &t, py::handle dim, bool keepdim) {
        std::optional<int64_t> d = optionalDim(dim);
        return withoutGil([&] { return argmin(t, d, keepdim); });
      },
      py::arg("dim") = py::none(), py::arg("keepdim") = false);

  // logic
  defWithOut(
      m, cls, "all",
      +[](const Tensor &t, py::handle dim, bool keepdim) {
        std::optional<int64_t> d = optionalDim(dim);
        return withoutGil([&] { return all(t, d, keepdim); });
      },
      py::arg("dim") = py::none(), py::arg("keepdim") = false);
  defWithOut(
      m, cls, "any",
      +[](const Tensor &t, py::handle dim, bool keepdim) {
        std::optional<int64_t> d = optionalDim(dim);
        return withoutGil([&] { return any(t, d, keepdim); });
      },
      py::arg("dim") = py::none(), py::arg("keepdim") = false);
  defBoth(
      m, cls, "count_nonzero",
      [](const Tensor &t, py::handle dim) {
        IntList dims = dimsOf(dim);
        return withoutGil([&] { return countNonzero(t, dims); });
      },
      py::arg("dim") = py::none());

  // scans
  defWithOut(
      m, cls, "cumsum",
      +[](const Tensor &t, int64_t dim, py::handle dtype) {
        std::optional<ScalarType> type = optionalDtype(dtype);
        return withoutGil([&] { return cumsum(t, dim, type); });
      },
      py::arg("dim"), py::arg("dtype") = py::none());
  defWithOut(
      m, cls, "cumprod",
      +[](const Tensor &t, int64_t dim, py::handle dtype) {
        std::optional<ScalarType> type = optionalDtype(dtype);
        return withoutGil([&] { return cumprod(t, dim, type); });
      },
      py::arg("dim"), py::arg("dtype") = py::none());
  for (bool product : {false, true}) {
    cls.def(
        product ? "cumprod_" : "cumsum_",
        [product](const Tensor &t, int64_t dim, py::handle dtype) {
          std::optional<ScalarType> type = optionalDtype(dtype);
          withoutGil([&] {
            Tensor r = product ? cumprod(t, dim, type) : cumsum(t, dim, type);
            TORCH_CHECK(canCast(r.dtype(), t.dtype()), Runtime,
                        "result type %s can't be cast to the desired output type %s", scalarTypeName(r.dtype()),
                        scalarTypeName(t.dtype()));
            copy_(t, r);
          });
          return t;
        },
        py::arg("dim"), py::arg("dtype") = py::none());
  }

  // order statistics and sorting
  auto medianAny = [](const Tensor &t, py::handle dim, bool keepdim, py::handle out) -> py::object {
    if (dim.is_none()) {
      std::optional<Tensor> target = out.is_none() ? std::nullopt : std::optional<Tensor>(out.cast<Tensor>());
      return writeOut(withoutGil([&] { return medianAll(t); }), target);
    }
    int64_t d = *optionalDim(dim);
    return pack("median", withoutGil([&] { return median(t, d, keepdim); }), out);
  };
  cls.def(
      "median",
      [medianAny](const Tensor &t, py::handle dim, bool keepdim) { return medianAny(t, dim, keepdim, py::none()); },
      py::arg("dim") = py::none(), py::arg("keepdim") = false);
  m.def("median", medianAny, py::arg("input"), py::arg("dim") = py::none(), py::arg("keepdim") = false, py::kw_only(),
        py::arg("out") = py::none());
  defPair(
      m, cls, "mode", +[](const Tensor &t, int64_t dim, bool keepdim) { return mode(t, dim, keepdim); },
      py::arg("dim") = -1, py::arg("keepdim") = false);
  defPair(
      m, cls, "kthvalue",
      +[](const Tensor &t, int64_t k, int64_t dim, bool keepdim) { return kthvalue(t, k, dim, keepdim); }, py::arg("k"),
      py::arg("dim") = -1, py::arg("keepdim") = false);
  defPair(
      m, cls, "sort", +[](const Tensor &t, int64_t dim, bool descending, bool) { return sort(t, dim, descending); },
      py::arg("dim") = -1, py::arg("descending") = false, py::arg("stable") = false);
  // TH's sort is stable (TH/generic/THTensorSort.h): stable=True asks for what it does anyway
  defBoth(
      m, cls, "argsort",
      [](const Tensor &t, int64_t dim, bool descending, bool) { return argsort(t, dim, descending); },
      py::arg("dim") = -1, py::arg("descending") = false, py::kw_only(), py::arg("stable") = false);
  defPair(
      m, cls, "topk",
      +[](const Tensor &t, int64_t k, int64_t dim, bool largest, bool sorted) {
        return topk(t, k, dim, largest, sorted);
      },
      py::arg("k"), py::arg("dim") = -1, py::arg("largest") = true, py::arg("sorted") = true);
  defBoth(m, cls, "unique", uniqueAny, py::arg("sorted") = true, py::arg("return_inverse") = false,
          py::arg("return_counts") = false, py::arg("dim") = py::none());

  // comparisons of whole tensors
  defBoth(m, cls, "trace", [](const Tensor &t) { return trace(t); });
  defBoth(
      m, cls, "equal", [](const Tensor &a, const Tensor &b) { return equal(a, b); }, py::arg("other"));
  defBoth(
      m, cls, "isclose",
      [](const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan) {
        return isclose(a, b, rtol, atol, equalNan);
      },
      py::arg("other"), py::arg("rtol") = 1e-05, py::arg("atol") = 1e-08, py::arg("equal_nan") = false);
  defBoth(
      m, cls, "allclose",
      [](const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan) {
        return allclose(a, b, rtol, atol, equalNan);
      },
      py::arg("other"), py::arg("rtol") = 1e-05, py::arg("atol") = 1e-08, py::arg("equal_nan") = false);
}

}  // namespace torch::python
