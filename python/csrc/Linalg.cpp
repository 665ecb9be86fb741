// Linear algebra: products (torch.mm, @, addmm and friends with their in-place twins),
// decompositions and solvers (torch.svd, torch.solve, ...), the 0.1-era LAPACK names
// (gesv, gels, potrf, potrs, potri) and torch._C._linalg, which torch/linalg.py exports.
#include <map>

#include "core/ops/Complex.h"
#include "core/ops/Linalg.h"
#include "python/csrc/Bind.h"

namespace torch::python {
namespace {

Scalar factor(py::handle v, const char *name) {
  if (!isScalarLike(v)) throw py::type_error(std::string(name) + " must be a number");
  return toScalar(v);
}

// torch.return_types.<name>: a named tuple with the given fields, made once.
py::object returnType(const std::string &name, const std::vector<const char *> &fields) {
  static std::map<std::string, py::object> *types = new std::map<std::string, py::object>();
  py::object &type = (*types)[name];
  if (!type) {
    py::tuple names(fields.size());
    for (size_t i = 0; i < fields.size(); i++) names[i] = py::str(fields[i]);
    type = py::module::import("collections").attr("namedtuple")(name, names);
    type.attr("__module__") = "torch.return_types";
    type.attr("__qualname__") = name;
  }
  return type;
}

// The named tuple of results; with out=(t0, t1, ...) the results are written there first.
py::object pack(const std::string &name, const std::vector<const char *> &fields, const std::vector<Tensor> &results,
                py::handle out) {
  py::object type = returnType(name, fields);
  py::tuple items(results.size());
  if (out.is_none()) {
    for (size_t i = 0; i < results.size(); i++) items[i] = py::cast(results[i]);
    return type(*items);
  }
  if (!py::isinstance<py::sequence>(out) || py::len(out) != results.size()) {
    throw py::type_error(name + "(): out must be a tuple of " + std::to_string(results.size()) + " tensors");
  }
  py::sequence targets = out.cast<py::sequence>();
  for (py::handle o : targets) {
    if (!isTensor(o)) throw py::type_error(name + "(): out must be a tuple of tensors");
  }
  for (size_t i = 0; i < results.size(); i++) items[i] = writeOut(results[i], unwrap(targets[i]));
  return type(*items);
}

// The method and torch.<name>(input, ..., *, out=None) for an op with a named tuple result.
template <typename... Args, typename... Extra>
void defTuple(py::module &m, TensorClass &cls, const char *name, const std::vector<const char *> &fields,
              std::vector<Tensor> (*fn)(const Tensor &, Args...), const Extra &...extra) {
  std::string key = name;
  cls.def(
      name,
      [fn, key, fields](const Tensor &t, Args... args) {
        return pack(key, fields, withoutGil([&] { return fn(t, args...); }), py::none());
      },
      extra...);
  m.def(
      name,
      [fn, key, fields](const Tensor &t, Args... args, py::handle out) {
        return pack(key, fields, withoutGil([&] { return fn(t, args...); }), out);
      },
      py::arg("input"), extra..., py::kw_only(), py::arg("out") = py::none());
}

std::vector<Tensor> both(const std::pair<Tensor, Tensor> &r) { return {r.first, r.second}; }
std::vector<Tensor> all3(const std::tuple<Tensor, Tensor, Tensor> &r) {
  return {std::get<0>(r), std::get<1>(r), std::get<2>(r)};
}

// lu(A, pivot, get_infos): (LU, pivots) or (LU, pivots, infos). See Note [Singular LU]:
// a matrix that LU cannot factor raises, so the infos are all 0.
py::object luAny(const Tensor &a, bool pivot, bool getInfos) {
  TORCH_CHECK(pivot, Runtime, "lu without pivoting is not implemented on the CPU");
  std::pair<Tensor, Tensor> r = lu(a);
  if (!getInfos) return py::make_tuple(r.first, r.second);
  IntList batch = a.sizes();
  batch.resize(batch.size() - 2);
  Tensor infos = empty(batch, ScalarType::Int, a.device());
  zero_(infos);
  return py::make_tuple(r.first, r.second, infos);
}

std::vector<Tensor> luUnpackAny(const Tensor &data, const Tensor &pivots, bool unpackData, bool unpackPivots) {
  auto [p, l, u] = luUnpack(data, pivots);
  Tensor none = empty({0}, data.dtype(), data.device());
  return {unpackPivots ? p : none, unpackData ? l : none, unpackData ? u : none};
}

std::vector<Tensor> tensorList(py::handle seq, const char *op) {
  std::vector<Tensor> r;
  for (py::handle t : seq) {
    if (!isTensor(t)) throw py::type_error(std::string(op) + "(): expected a sequence of tensors");
    r.push_back(unwrap(t));
  }
  return r;
}

void bindProducts(py::module &m, TensorClass &cls) {
  m.def(
      "dot", [](const Tensor &a, const Tensor &b, std::optional<Tensor> out) { return writeOut(dot(a, b), out); },
      py::arg("input"), py::arg("tensor"), py::kw_only(), py::arg("out") = py::none());
  cls.def(
      "dot", [](const Tensor &a, const Tensor &b) { return dot(a, b); }, py::arg("tensor"));
  // vdot conjugates its first argument (which changes nothing for real tensors).
  defWithOut(
      m, cls, "vdot", +[](const Tensor &a, const Tensor &b) { return dot(conj(a), b); }, py::arg("other"));
  defWithOut(
      m, cls, "mv", +[](const Tensor &a, const Tensor &b) { return mv(a, b); }, py::arg("vec"));
  defWithOut(
      m, cls, "mm", +[](const Tensor &a, const Tensor &b) { return mm(a, b); }, py::arg("mat2"));
  defWithOut(
      m, cls, "bmm", +[](const Tensor &a, const Tensor &b) { return bmm(a, b); }, py::arg("mat2"));
  defWithOut(
      m, cls, "matmul", +[](const Tensor &a, const Tensor &b) { return matmul(a, b); }, py::arg("other"));
  defWithOut(
      m, cls, "outer", +[](const Tensor &a, const Tensor &b) { return outer(a, b); }, py::arg("vec2"));
  defWithOut(
      m, cls, "ger", +[](const Tensor &a, const Tensor &b) { return outer(a, b); }, py::arg("vec2"));
  m.def(
      "chain_matmul",
      [](py::args matrices, std::optional<Tensor> out) {
        std::vector<Tensor> ts = tensorList(matrices, "chain_matmul");
        for (const Tensor &t : ts) {
          TORCH_CHECK(t.dim() == 2, Runtime, "chain_matmul(): Expected all tensors to be 2D, got sizes %s",
                      t.sizeString().c_str());
        }
        TORCH_CHECK(!ts.empty(), Runtime, "chain_matmul(): Expected one or more matrices");
        return writeOut(withoutGil([&] { return ts.size() == 1 ? clone(ts[0]) : multiDot(ts); }), out);
      },
      py::arg("out") = py::none());

  // @ for tensors only: other operands get NotImplemented, so Python tries their side.
  cls.def(
      "__matmul__",
      [](py::handle self, py::handle other) -> py::object {
        if (!isTensor(other)) return pyNotImplemented();
        const Tensor &a = unwrap(self), &b = unwrap(other);
        return py::cast(withoutGil([&] { return matmul(a, b); }));
      },
      py::is_operator());
  cls.def(
      "__rmatmul__",
      [](py::handle self, py::handle other) -> py::object {
        if (!isTensor(other)) return pyNotImplemented();
        const Tensor &a = unwrap(other), &b = unwrap(self);
        return py::cast(withoutGil([&] { return matmul(a, b); }));
      },
      py::is_operator());

  struct AddEntry {
    AddProduct kind;
    const char *x, *y;  // PyTorch's argument names
  };
  static const AddEntry adds[] = {
      {AddProduct::Mm, "mat1", "mat2"},      {AddProduct::Mv, "mat", "vec"},         {AddProduct::R, "vec1", "vec2"},
      {AddProduct::Bmm, "batch1", "batch2"}, {AddProduct::Bbmm, "batch1", "batch2"},
  };
  for (const AddEntry &e : adds) {
    const AddProduct kind = e.kind;
    const char *name = addProductName(kind);
    const std::string inplace = std::string(name) + "_";
    auto outOfPlace = [kind](const Tensor &self, const Tensor &x, const Tensor &y, py::handle beta, py::handle alpha) {
      Scalar b = factor(beta, "beta"), a = factor(alpha, "alpha");
      return withoutGil([&] { return addProduct(kind, self, x, y, b, a); });
    };
    auto inPlace = [kind](const Tensor &self, const Tensor &x, const Tensor &y, py::handle beta, py::handle alpha) {
      Scalar b = factor(beta, "beta"), a = factor(alpha, "alpha");
      withoutGil([&] { addProduct_(kind, self, x, y, b, a); });
      return self;
    };
    m.def(
        name,
        [outOfPlace](const Tensor &self, const Tensor &x, const Tensor &y, py::handle beta, py::handle alpha,
                     std::optional<Tensor> out) { return writeOut(outOfPlace(self, x, y, beta, alpha), out); },
        py::arg("input"), py::arg(e.x), py::arg(e.y), py::kw_only(), py::arg("beta") = 1, py::arg("alpha") = 1,
        py::arg("out") = py::none());
    cls.def(name, outOfPlace, py::arg(e.x), py::arg(e.y), py::kw_only(), py::arg("beta") = 1, py::arg("alpha") = 1);
    cls.def(inplace.c_str(), inPlace, py::arg(e.x), py::arg(e.y), py::kw_only(), py::arg("beta") = 1,
            py::arg("alpha") = 1);
    // The deprecated positional forms of PyTorch 0.x and 1.x: f(beta, input, [alpha,] x, y)
    // and input.f(beta, [alpha,] x, y).
    m.def(
        name,
        [outOfPlace](py::handle beta, const Tensor &self, py::handle alpha, const Tensor &x, const Tensor &y,
                     std::optional<Tensor> out) { return writeOut(outOfPlace(self, x, y, beta, alpha), out); },
        py::arg("beta"), py::arg("input"), py::arg("alpha"), py::arg(e.x), py::arg(e.y), py::kw_only(),
        py::arg("out") = py::none());
    m.def(
        name,
        [outOfPlace](py::handle beta, const Tensor &self, const Tensor &x, const Tensor &y, std::optional<Tensor> out) {
          return writeOut(outOfPlace(self, x, y, beta, py::int_(1)), out);
        },
        py::arg("beta"), py::arg("input"), py::arg(e.x), py::arg(e.y), py::kw_only(), py::arg("out") = py::none());
    for (bool inplaceForm : {false, true}) {
      const std::string method = inplaceForm ? inplace : std::string(name);
      cls.def(
          method.c_str(),
          [outOfPlace, inPlace, inplaceForm](const Tensor &self, py::handle beta, py::handle alpha, const Tensor &x,
                                             const Tensor &y) {
            return inplaceForm ? inPlace(self, x, y, beta, alpha) : outOfPlace(self, x, y, beta, alpha);
          },
          py::arg("beta"), py::arg("alpha"), py::arg(e.x), py::arg(e.y));
      cls.def(
          method.c_str(),
          [outOfPlace, inPlace, inplaceForm](const Tensor &self, py::handle beta, const Tensor &x, const Tensor &y) {
            return inplaceForm ? inPlace(self, x, y, beta, py::int_(1)) : outOfPlace(self, x, y, beta, py::int_(1));
          },
          py::arg("beta"), py::arg(e.x), py::arg(e.y));
    }
  }
}

void bindLapack(py::module &m, TensorClass &cls) {
  defWithOut(
      m, cls, "inverse", +[](const Tensor &a) { return inverse(a); });
  defBoth(m, cls, "det", [](const Tensor &a) { return det(a); });
  defBoth(m, cls, "logdet", [](const Tensor &a) { return logdet(a); });
  defTuple(
      m, cls, "slogdet", {"sign", "logabsdet"}, +[](const Tensor &a) { return both(slogdet(a)); });
  defWithOut(
      m, cls, "matrix_power", +[](const Tensor &a, int64_t n) { return matrixPower(a, n); }, py::arg("n"));
  defBoth(
      m, cls, "pinverse", [](const Tensor &a, double rcond) { return pinverse(a, rcond); }, py::arg("rcond") = 1e-15);

  // 1.x argument order: the right-hand side B first, then A.
  defTuple(
      m, cls, "solve", {"solution", "LU"}, +[](const Tensor &b, const Tensor &a) { return both(solve(b, a)); },
      py::arg("A"));
  defTuple(
      m, cls, "lstsq", {"solution", "QR"}, +[](const Tensor &b, const Tensor &a) { return both(lstsq(b, a)); },
      py::arg("A"));

  defWithOut(
      m, cls, "cholesky", +[](const Tensor &a, bool upper) { return cholesky(a, upper); }, py::arg("upper") = false);
  defWithOut(
      m, cls, "cholesky_solve",
      +[](const Tensor &b, const Tensor &factor, bool upper) { return choleskySolve(b, factor, upper); },
      py::arg("input2"), py::arg("upper") = false);
  defWithOut(
      m, cls, "cholesky_inverse", +[](const Tensor &f, bool upper) { return choleskyInverse(f, upper); },
      py::arg("upper") = false);

  defTuple(
      m, cls, "symeig", {"eigenvalues", "eigenvectors"},
      +[](const Tensor &a, bool vectors, bool upper) { return both(symeig(a, vectors, upper)); },
      py::arg("eigenvectors") = false, py::arg("upper") = true);
  defTuple(
      m, cls, "eig", {"eigenvalues", "eigenvectors"},
      +[](const Tensor &a, bool vectors) { return both(eig(a, vectors)); }, py::arg("eigenvectors") = false);
  defTuple(
      m, cls, "svd", {"U", "S", "V"},
      +[](const Tensor &a, bool some, bool computeUv) { return all3(svd(a, some, computeUv)); }, py::arg("some") = true,
      py::arg("compute_uv") = true);
  defTuple(
      m, cls, "qr", {"Q", "R"}, +[](const Tensor &a, bool some) { return both(qr(a, some)); }, py::arg("some") = true);

  cls.def("lu", luAny, py::arg("pivot") = true, py::arg("get_infos") = false);
  m.def(
      "lu",
      [](const Tensor &a, bool pivot, bool getInfos, py::handle out) -> py::object {
        py::tuple r = luAny(a, pivot, getInfos);
        if (out.is_none()) return std::move(r);
        if (!py::isinstance<py::sequence>(out) || py::len(out) != r.size()) {
          throw py::type_error("lu(): out must be a tuple of " + std::to_string(r.size()) + " tensors");
        }
        py::sequence targets = out.cast<py::sequence>();
        py::tuple written(r.size());
        for (size_t i = 0; i < r.size(); i++) {
          if (!isTensor(targets[i])) throw py::type_error("lu(): out must be a tuple of tensors");
          written[i] = writeOut(unwrap(r[i]), unwrap(targets[i]));
        }
        return std::move(written);
      },
      py::arg("A"), py::arg("pivot") = true, py::arg("get_infos") = false, py::arg("out") = py::none());
  m.def(
      "lu_unpack",
      [](const Tensor &data, const Tensor &pivots, bool unpackData, bool unpackPivots, py::handle out) {
        return pack("lu_unpack", {"P", "L", "U"}, luUnpackAny(data, pivots, unpackData, unpackPivots), out);
      },
      py::arg("LU_data"), py::arg("LU_pivots"), py::arg("unpack_data") = true, py::arg("unpack_pivots") = true,
      py::kw_only(), py::arg("out") = py::none());

  // The 0.1-era LAPACK names TH had: gesv and gels (solve and lstsq), potrf, potrs and
  // potri (the Cholesky trio, upper by default as then).
  defTuple(
      m, cls, "gesv", {"solution", "LU"}, +[](const Tensor &b, const Tensor &a) { return both(solve(b, a)); },
      py::arg("A"));
  defTuple(
      m, cls, "gels", {"solution", "QR"}, +[](const Tensor &b, const Tensor &a) { return both(lstsq(b, a)); },
      py::arg("A"));
  defWithOut(
      m, cls, "potrf", +[](const Tensor &a, bool upper) { return cholesky(a, upper); }, py::arg("upper") = true);
  defWithOut(
      m, cls, "potrs",
      +[](const Tensor &b, const Tensor &factor, bool upper) { return choleskySolve(b, factor, upper); },
      py::arg("input2"), py::arg("upper") = true);
  defWithOut(
      m, cls, "potri", +[](const Tensor &f, bool upper) { return choleskyInverse(f, upper); }, py::arg("upper") = true);
}

// torch.linalg (PyTorch 1.13's names, the real-valued part).
void bindLinalgModule(py::module &m) {
  py::module l = m.def_submodule("_linalg", "torch.linalg's functions; torch/linalg.py exports them");
  auto withOut = [](const Tensor &r, py::handle out) {
    return writeOut(r, out.is_none() ? std::nullopt : std::optional<Tensor>(out.cast<Tensor>()));
  };
  l.def(
      "matmul",
      [withOut](const Tensor &a, const Tensor &b, py::handle out) {
        return withOut(withoutGil([&] { return matmul(a, b); }), out);
      },
      py::arg("input"), py::arg("other"), py::kw_only(), py::arg("out") = py::none());
  l.def(
      "multi_dot",
      [withOut](py::handle tensors, py::handle out) {
        std::vector<Tensor> ts = tensorList(tensors, "multi_dot");
        return withOut(withoutGil([&] { return multiDot(ts); }), out);
      },
      py::arg("tensors"), py::kw_only(), py::arg("out") = py::none());
  l.def(
      "inv",
      [withOut](const Tensor &a, py::handle out) { return withOut(withoutGil([&] { return inverse(a); }), out); },
      py::arg("A"), py::kw_only(), py::arg("out") = py::none());
  l.def(
      "det", [withOut](const Tensor &a, py::handle out) { return withOut(withoutGil([&] { return det(a); }), out); },
      py::arg("A"), py::kw_only(), py::arg("out") = py::none());
  l.def(
      "slogdet",
      [](const Tensor &a, py::handle out) {
        return pack("linalg_slogdet", {"sign", "logabsdet"}, withoutGil([&] { return both(slogdet(a)); }), out);
      },
      py::arg("A"), py::kw_only(), py::arg("out") = py::none());
  l.def(
      "matrix_power",
      [withOut](const Tensor &a, int64_t n, py::handle out) {
        return withOut(withoutGil([&] { return matrixPower(a, n); }), out);
      },
      py::arg("A"), py::arg("n"), py::kw_only(), py::arg("out") = py::none());
  l.def(
      "pinv",
      [withOut](const Tensor &a, double rcond, bool, py::handle out) {
        return withOut(withoutGil([&] { return pinverse(a, rcond); }), out);
      },
      py::arg("A"), py::arg("rcond") = 1e-15, py::arg("hermitian") = false, py::kw_only(), py::arg("out") = py::none());
  l.def(
      "solve",
      [withOut](const Tensor &a, const Tensor &b, py::handle out) {
        return withOut(withoutGil([&] { return linalgSolve(a, b); }), out);
      },
      py::arg("A"), py::arg("B"), py::kw_only(), py::arg("out") = py::none());
  l.def(
      "cholesky",
      [withOut](const Tensor &a, bool upper, py::handle out) {
        return withOut(withoutGil([&] { return cholesky(a, upper); }), out);
      },
      py::arg("A"), py::kw_only(), py::arg("upper") = false, py::arg("out") = py::none());
  auto upperOf = [](const std::string &uplo) {
    if (uplo != "L" && uplo != "U") throw py::value_error("Expected UPLO argument to be 'L' or 'U', but got " + uplo);
    return uplo == "U";
  };
  l.def(
      "eigh",
      [upperOf](const Tensor &a, const std::string &uplo, py::handle out) {
        bool upper = upperOf(uplo);
        return pack("linalg_eigh", {"eigenvalues", "eigenvectors"},
                    withoutGil([&] { return both(symeig(a, true, upper)); }), out);
      },
      py::arg("A"), py::arg("UPLO") = "L", py::kw_only(), py::arg("out") = py::none());
  l.def(
      "eigvalsh",
      [withOut, upperOf](const Tensor &a, const std::string &uplo, py::handle out) {
        bool upper = upperOf(uplo);
        return withOut(withoutGil([&] { return symeig(a, false, upper).first; }), out);
      },
      py::arg("A"), py::arg("UPLO") = "L", py::kw_only(), py::arg("out") = py::none());
  l.def(
      "svd",
      [](const Tensor &a, bool fullMatrices, py::handle out) {
        std::vector<Tensor> usvh = withoutGil([&] {
          auto [u, s, v] = svd(a, !fullMatrices, true);
          return std::vector<Tensor>{u, s, contiguous(transpose(v, v.dim() - 2, v.dim() - 1))};
        });
        return pack("linalg_svd", {"U", "S", "Vh"}, usvh, out);
      },
      py::arg("A"), py::arg("full_matrices") = true, py::kw_only(), py::arg("out") = py::none());
  l.def(
      "svdvals",
      [withOut](const Tensor &a, py::handle out) {
        return withOut(withoutGil([&] { return std::get<1>(svd(a, true, false)); }), out);
      },
      py::arg("A"), py::kw_only(), py::arg("out") = py::none());
  l.def(
      "qr",
      [](const Tensor &a, const std::string &mode, py::handle out) {
        if (mode != "reduced" && mode != "complete" && mode != "r") {
          throw py::value_error("qr received unrecognized mode '" + mode +
                                "' but expected one of 'reduced' (default), "
                                "'r', or 'complete'");
        }
        auto [q, r] = withoutGil([&] { return qr(a, mode != "complete"); });
        return pack("linalg_qr", {"Q", "R"}, {mode == "r" ? empty({0}, a.dtype(), a.device()) : q, r}, out);
      },
      py::arg("A"), py::arg("mode") = "reduced", py::kw_only(), py::arg("out") = py::none());
  l.def(
      "lu_factor",
      [](const Tensor &a, bool pivot, py::handle out) {
        TORCH_CHECK(pivot, Runtime, "linalg.lu_factor: LU without pivoting is not implemented on the CPU");
        return pack("linalg_lu_factor", {"LU", "pivots"}, both(withoutGil([&] { return lu(a); })), out);
      },
      py::arg("A"), py::kw_only(), py::arg("pivot") = true, py::arg("out") = py::none());
}

}  // namespace

void bindLinalg(py::module &m, TensorClass &cls) {
  bindProducts(m, cls);
  bindLapack(m, cls);
  bindLinalgModule(m);
  py::module returnTypes = m.attr("return_types");
  const std::vector<std::pair<const char *, std::vector<const char *>>> types = {
      {"slogdet", {"sign", "logabsdet"}},
      {"solve", {"solution", "LU"}},
      {"lstsq", {"solution", "QR"}},
      {"symeig", {"eigenvalues", "eigenvectors"}},
      {"gesv", {"solution", "LU"}},
      {"gels", {"solution", "QR"}},
      {"eig", {"eigenvalues", "eigenvectors"}},
      {"svd", {"U", "S", "V"}},
      {"qr", {"Q", "R"}},
      {"lu_unpack", {"P", "L", "U"}},
      {"linalg_slogdet", {"sign", "logabsdet"}},
      {"linalg_eigh", {"eigenvalues", "eigenvectors"}},
      {"linalg_svd", {"U", "S", "Vh"}},
      {"linalg_qr", {"Q", "R"}},
      {"linalg_lu_factor", {"LU", "pivots"}},
  };
  for (const auto &[name, fields] : types) returnTypes.attr(name) = returnType(name, fields);
}

}  // namespace torch::python
