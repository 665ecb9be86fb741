#include "core/ops/Linalg.h"

#include "core/ops/Complex.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

#include "autograd/Derivatives.h"
#include "core/Autocast.h"
#include "core/ops/Factory.h"
#include "core/ops/Indexing.h"
#include "core/ops/LinalgKernels.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"
#include "core/ops/Shape.h"

namespace torch {

LinalgKernels &linalgKernels() {
  static LinalgKernels *tables = [] {
    auto *t = new LinalgKernels();  // never destroyed: kernels may run during exit
    cpu::registerLinalgKernels(*t);
    return t;
  }();
  return *tables;
}

namespace {

// ---- argument checks ----

std::string matrixShape(int64_t rows, int64_t cols) { return std::to_string(rows) + "x" + std::to_string(cols); }

IntList concat(IntList a, const IntList &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

int64_t numelOf(const IntList &sizes) {
  return std::accumulate(sizes.begin(), sizes.end(), int64_t(1), std::multiplies<int64_t>());
}

// Note [BLAS types]
void checkBlasType(const char *op, const Tensor &t) {
  TORCH_CHECK(t.dtype() != ScalarType::Half && t.dtype() != ScalarType::Bool, Runtime,
              "\"%s\" not implemented for '%s'", op, scalarTypeName(t.dtype()));
}

void checkSameType(const char *op, const Tensor &a, const Tensor &b) {
  TORCH_CHECK(a.dtype() == b.dtype(), Runtime, "%s: expected scalar type %s but found %s", op,
              scalarTypeName(a.dtype()), scalarTypeName(b.dtype()));
}

void checkFactors(const char *op, ScalarType type, Scalar beta, Scalar alpha) {
  if (isFloating(type)) return;
  TORCH_CHECK(!beta.isFloating(), Runtime,
              "%s: for integral input tensors, argument beta must not be a floating point number", op);
  TORCH_CHECK(!alpha.isFloating(), Runtime,
              "%s: for integral input tensors, argument alpha must not be a floating point number", op);
}

// PyTorch refuses to write a result into a tensor whose elements overlap (an expanded one).
void checkNoOverlap(const char *op, const Tensor &t) {
  for (int d = 0; d < t.dim(); d++) {
    TORCH_CHECK(t.size(d) <= 1 || t.stride(d) != 0, Runtime,
                "%s: unsupported operation: more than one element of the written-to tensor refers to a single "
                "memory location. Please clone() the tensor before performing the operation.",
                op);
  }
}

// The shape of the product x y of kind, after checking x and y (types and sizes).
IntList productShape(AddProduct kind, const char *op, const Tensor &x, const Tensor &y) {
  checkSameDevice(op, x, y);
  switch (kind) {
    case AddProduct::Mm:
      TORCH_CHECK(x.dim() == 2, Runtime, "%s: self must be a matrix, got %d-D tensor of sizes %s", op, x.dim(),
                  x.sizeString().c_str());
      TORCH_CHECK(y.dim() == 2, Runtime, "%s: mat2 must be a matrix, got %d-D tensor of sizes %s", op, y.dim(),
                  y.sizeString().c_str());
      TORCH_CHECK(x.size(1) == y.size(0), Runtime, "mat1 and mat2 shapes cannot be multiplied (%s and %s)",
                  matrixShape(x.size(0), x.size(1)).c_str(), matrixShape(y.size(0), y.size(1)).c_str());
      break;
    case AddProduct::Mv:
      TORCH_CHECK(x.dim() == 2 && y.dim() == 1, Runtime, "%s: vector + matrix @ vector expected, got mat %s, vec %s",
                  op, x.sizeString().c_str(), y.sizeString().c_str());
      TORCH_CHECK(x.size(1) == y.size(0), Runtime, "%s: size mismatch, got mat (%s), vec (%lld)", op,
                  matrixShape(x.size(0), x.size(1)).c_str(), static_cast<long long>(y.size(0)));
      break;
    case AddProduct::R:
      TORCH_CHECK(x.dim() == 1, Runtime, "%s: Expected 1-D argument vec1, but got %d-D", op, x.dim());
      TORCH_CHECK(y.dim() == 1, Runtime, "%s: Expected 1-D argument vec2, but got %d-D", op, y.dim());
      break;
    case AddProduct::Bmm:
    case AddProduct::Bbmm:
      TORCH_CHECK(x.dim() == 3, Runtime, "%s: batch1 must be a 3D tensor, got sizes %s", op, x.sizeString().c_str());
      TORCH_CHECK(y.dim() == 3, Runtime, "%s: batch2 must be a 3D tensor, got sizes %s", op, y.sizeString().c_str());
      TORCH_CHECK(x.size(0) == y.size(0) && x.size(2) == y.size(1), Runtime,
                  "%s: Expected size for first two dimensions of batch2 tensor to be: [%lld, %lld] but got: "
                  "[%lld, %lld].",
                  op, static_cast<long long>(x.size(0)), static_cast<long long>(x.size(2)),
                  static_cast<long long>(y.size(0)), static_cast<long long>(y.size(1)));
      break;
  }
  checkSameType(op, x, y);
  checkBlasType(op, x);
  switch (kind) {
    case AddProduct::Mm: return {x.size(0), y.size(1)};
    case AddProduct::Mv: return {x.size(0)};
    case AddProduct::R: return {x.size(0), y.size(0)};
    case AddProduct::Bmm: return {x.size(1), y.size(2)};
    case AddProduct::Bbmm: return {x.size(0), x.size(1), y.size(2)};
  }
  return {};
}

// r = beta t + alpha x y through TH, which resizes r (keeping the strides of a result of
// the right size), leaves t unread when beta is 0 and copes with r sharing memory with x
// or y. Arguments are checked already.
void runProduct(AddProduct kind, const Tensor &r, Scalar beta, const Tensor &t, Scalar alpha, const Tensor &x,
                const Tensor &y) {
  LinalgKernels &k = linalgKernels();
  const Kernels<AddProductKernel, Types::Arith> *product = nullptr;
  switch (kind) {
    case AddProduct::Mm: product = &k.addmm; break;
    case AddProduct::Mv: product = &k.addmv; break;
    case AddProduct::R: product = &k.addr; break;
    case AddProduct::Bmm: product = &k.addbmm; break;
    case AddProduct::Bbmm: product = &k.baddbmm; break;
  }
  (*product)(r.device(), r.dtype(), r, beta, t, alpha, x, y);
}

// x y alone, in a new tensor.
Tensor plainProduct(AddProduct kind, const char *op, const Tensor &x, const Tensor &y) {
  RecordScope rec({&x, &y});
  Tensor r = empty(productShape(kind, op, x, y), x.dtype(), x.device());
  runProduct(kind, r, Scalar(int64_t(0)), r, Scalar(int64_t(1)), x, y);
  if (rec && isFloating(r.dtype())) {
    derivatives::product(static_cast<int>(kind), Tensor(), x, y, Scalar(int64_t(0)), Scalar(int64_t(1)), r);
  }
  return r;
}

// Whether all dims of t but the last merge into one without a copy. When they do not (a
// batch of transposed matrices), matmul takes the batched path, which expands the other
// operand with stride 0 instead of copying either.
bool rowsMerge(const Tensor &t) {
  for (int d = 0; d + 2 < t.dim(); d++) {
    if (t.size(d) != 1 && t.stride(d) != t.stride(d + 1) * t.size(d + 1)) return false;
  }
  return true;
}

// ---- batches of matrices (Note [LAPACK batches]) ----

void checkFloating(const char *op, const Tensor &a) {
  TORCH_CHECK(a.dtype() == ScalarType::Float || a.dtype() == ScalarType::Double, Runtime,
              "%s: Expected a floating point tensor (Float or Double) as input. Got %s", op, scalarTypeName(a.dtype()));
}

void checkMatrices(const char *op, const Tensor &a) {
  checkFloating(op, a);
  TORCH_CHECK(a.dim() >= 2, Runtime, "%s: The input tensor A must have at least 2 dimensions, got sizes %s", op,
              a.sizeString().c_str());
}

void checkSquare(const char *op, const Tensor &a) {
  checkMatrices(op, a);
  TORCH_CHECK(a.size(a.dim() - 1) == a.size(a.dim() - 2), Runtime,
              "%s: A must be batches of square matrices, but they are %lld by %lld matrices", op,
              static_cast<long long>(a.size(a.dim() - 2)), static_cast<long long>(a.size(a.dim() - 1)));
}

// A and B (or factor and B) of one element type.
void checkPair(const char *op, const Tensor &a, const Tensor &b) {
  TORCH_CHECK(a.dtype() == b.dtype(), Runtime, "%s: expected scalar type %s but found %s (both inputs need one type)",
              op, scalarTypeName(a.dtype()), scalarTypeName(b.dtype()));
}

IntList batchOf(const Tensor &t) {
  IntList s = t.sizes();
  return IntList(s.begin(), s.end() - 2);
}

// Item i (row-major) of the leading batch dims of t.
Tensor batchItem(const Tensor &t, const IntList &batch, int64_t i) {
  IntList index(batch.size());
  for (size_t d = batch.size(); d-- > 0;) {
    index[d] = i % batch[d];
    i /= batch[d];
  }
  Tensor r = t;
  for (int64_t k : index) r = select(r, 0, k);
  return r;
}

struct OutSpec {
  IntList shape;  // of one matrix's result
  ScalarType dtype;
};

// TH's error, told which op and which matrix of a batch it is about.
[[noreturn]] void rethrow(const char *op, const th::Error &e, bool batched, int64_t i) {
  std::string where = batched ? "(Batch element " + std::to_string(i) + "): " : "";
  throw th::Error(std::string(op) + ": " + where + e.what(), e.kind(), e.argNumber());
}

// f(the matrices of inputs at one batch index) -> one tensor per spec, stacked into
// batch + spec.shape. inputs all have the leading dims batch.
template <typename F>
std::vector<Tensor> eachMatrix(const char *op, const IntList &batch, const std::vector<Tensor> &inputs,
                               const std::vector<OutSpec> &specs, F &&f) {
  for (size_t i = 1; i < inputs.size(); i++) checkSameDevice(op, inputs[0], inputs[i]);
  if (batch.empty()) {
    try {
      return f(inputs);
    } catch (const th::Error &e) {
      rethrow(op, e, false, 0);
    }
  }
  std::vector<Tensor> results;
  for (const OutSpec &s : specs) results.push_back(empty(concat(batch, s.shape), s.dtype, inputs[0].device()));
  const int64_t count = numelOf(batch);
  std::vector<Tensor> mats(inputs.size());
  for (int64_t i = 0; i < count; i++) {
    for (size_t j = 0; j < inputs.size(); j++) mats[j] = batchItem(inputs[j], batch, i);
    std::vector<Tensor> rs;
    try {
      rs = f(mats);
    } catch (const th::Error &e) {
      rethrow(op, e, true, i);
    }
    for (size_t j = 0; j < specs.size(); j++) copy_(batchItem(results[j], batch, i), rs[j]);
  }
  return results;
}

// a and b expanded to their common batch dims (the last two dims of each are its own).
IntList broadcastBatch(Tensor &a, Tensor &b) {
  IntList batch = broadcastShapes(batchOf(a), batchOf(b));
  IntList sa = a.sizes(), sb = b.sizes();
  a = expand(a, concat(batch, {sa[sa.size() - 2], sa.back()}));
  b = expand(b, concat(batch, {sb[sb.size() - 2], sb.back()}));
  return batch;
}

template <typename F>
void floating(ScalarType t, const char *op, F &&f) {
  dispatchFloating(t, op, std::forward<F>(f));
}

// LAPACK's eigenvalue drivers reject non-finite input with a message on stderr.
void checkFinite(const char *op, const Tensor &t) {
  floating(t.dtype(), op, [](auto) {});
  // |x| < inf fails for infinities and NaNs alike.
  Tensor finite = compare(CompareOp::Lt, unary(UnaryOp::Abs, t), Scalar(INFINITY));
  TORCH_CHECK(t.numel() == 0 || item(all(finite, std::nullopt, false)).i != 0, Runtime,
              "%s: input tensor should not contain infs or NaNs", op);
}

// Note [Singular LU]: false when getrf finds an exactly zero pivot.
bool luFactor(const Tensor &mat, const Tensor &lu, const Tensor &pivots) {
  static const char singular[] = "getrf: a is singular";
  try {
    linalgKernels().luFactor(mat.device(), mat.dtype(), lu, pivots, mat);
    return true;
  } catch (const th::Error &e) {
    if (std::strncmp(e.what(), singular, sizeof(singular) - 1) == 0) return false;
    throw;
  }
}

// The sign, log |det| and det of each matrix of a batch, from its LU factors.
std::vector<Tensor> determinants(const char *op, const Tensor &a) {
  checkSquare(op, a);
  const ScalarType type = a.dtype();
  return eachMatrix(op, batchOf(a), {a}, {{{}, type}, {{}, type}, {{}, type}}, [&](const std::vector<Tensor> &m) {
    Tensor lu = empty({0}, type, m[0].device()), pivots = empty({0}, ScalarType::Int, m[0].device());
    if (!luFactor(m[0], lu, pivots)) {
      return std::vector<Tensor>{scalarTensor(Scalar(0.0), type, m[0].device()),
                                 scalarTensor(Scalar(-std::numeric_limits<double>::infinity()), type, m[0].device()),
                                 scalarTensor(Scalar(0.0), type, m[0].device())};
    }
    std::vector<Tensor> d = {empty({}, type, m[0].device()), empty({}, type, m[0].device()),
                             empty({}, type, m[0].device())};
    linalgKernels().luDeterminant(lu.device(), type, d[0], d[1], d[2], lu, pivots);
    return d;
  });
}

// Identity matrices of t's shape [*, n, n] and type.
Tensor identityLike(const Tensor &t) {
  const int64_t n = t.size(t.dim() - 1);
  return contiguous(expand(eye(n, n, t.dtype(), t.device()), t.sizes()));
}

}  // namespace

const char *addProductName(AddProduct kind) {
  switch (kind) {
    case AddProduct::Mm: return "addmm";
    case AddProduct::Mv: return "addmv";
    case AddProduct::R: return "addr";
    case AddProduct::Bmm: return "addbmm";
    case AddProduct::Bbmm: return "baddbmm";
  }
  return "?";
}

// ---- products ----

Tensor dot(const Tensor &a, const Tensor &b) {
  TORCH_CHECK(a.dim() == 1 && b.dim() == 1, Runtime, "dot: 1D tensors expected, but got %dD and %dD tensors", a.dim(),
              b.dim());
  TORCH_CHECK(a.size(0) == b.size(0), Runtime,
              "inconsistent tensor size, expected tensor [%lld] and src [%lld] to have the same number of elements, "
              "but got %lld and %lld elements respectively",
              static_cast<long long>(a.size(0)), static_cast<long long>(b.size(0)), static_cast<long long>(a.size(0)),
              static_cast<long long>(b.size(0)));
  checkSameType("dot", a, b);
  if (isComplex(a.dtype())) return complexSum(binary(BinaryOp::Mul, a, b), {}, false, false);
  checkBlasType("dot", a);
  RecordScope rec({&a, &b});
  Tensor r = empty({}, a.dtype(), a.device());
  // Integers accumulate in int64_t: the conversion wraps the sum as arithmetic in the type would.
  fill_(r, linalgKernels().dot(a.device(), a.dtype(), a, b));
  if (rec && isFloating(r.dtype())) derivatives::dot(a, b, r);
  return r;
}

Tensor mv(const Tensor &mat, const Tensor &vec) {
  if (isComplex(mat.dtype()) || isComplex(vec.dtype())) return complexMatmul("mv", mat, vec);
  return plainProduct(AddProduct::Mv, "mv", mat, vec);
}
Tensor mm(const Tensor &a, const Tensor &b) {
  if (autocast::on(a))
    return autocast::run(
        autocast::Policy::Lower, [](auto &&...x) { return mm(x...); }, a, b);
  if (isComplex(a.dtype()) || isComplex(b.dtype())) return complexMatmul("mm", a, b);
  return plainProduct(AddProduct::Mm, "mm", a, b);
}
Tensor bmm(const Tensor &a, const Tensor &b) {
  if (autocast::on(a))
    return autocast::run(
        autocast::Policy::Lower, [](auto &&...x) { return bmm(x...); }, a, b);
  if (isComplex(a.dtype()) || isComplex(b.dtype())) return complexMatmul("bmm", a, b);
  return plainProduct(AddProduct::Bbmm, "bmm", a, b);
}

Tensor matmul(const Tensor &a, const Tensor &b) {
  if (autocast::on(a))
    return autocast::run(
        autocast::Policy::Lower, [](auto &&...x) { return matmul(x...); }, a, b);
  if (isComplex(a.dtype()) || isComplex(b.dtype())) return complexMatmul("matmul", a, b);
  const int da = a.dim(), db = b.dim();
  TORCH_CHECK(da >= 1 && db >= 1, Runtime, "both arguments to matmul need to be at least 1D, but they are %dD and %dD",
              da, db);
  if (da == 1 && db == 1) return dot(a, b);
  if (da == 2 && db == 1) return mv(a, b);
  if (da == 1 && db == 2) return squeeze(mm(unsqueeze(a, 0), b), 0);
  if (da == 2 && db == 2) return mm(a, b);
  if (da >= 3 && db <= 2 && rowsMerge(a)) {
    // The batch folds into the rows of one matrix product.
    IntList shape = a.sizes();
    shape.pop_back();
    Tensor rows = reshape(a, {-1, a.size(da - 1)});
    if (db == 1) return view(mv(rows, b), shape);
    shape.push_back(b.size(1));
    return view(mm(rows, b), shape);
  }
  const IntList sa = a.sizes(), sb = b.sizes();
  const int64_t n = da > 1 ? sa[da - 2] : 1, k = sa[da - 1];
  const int64_t kb = db > 1 ? sb[db - 2] : sb[0], p = db > 1 ? sb[db - 1] : 1;
  TORCH_CHECK(k == kb, Runtime, "matmul: mat1 and mat2 shapes cannot be multiplied (%s and %s) for inputs %s and %s",
              matrixShape(n, k).c_str(), matrixShape(kb, p).c_str(), a.sizeString().c_str(), b.sizeString().c_str());
  checkSameType("matmul", a, b);
  checkBlasType("matmul", a);
  const IntList batch =
      broadcastShapes(IntList(sa.begin(), sa.end() - std::min(da, 2)), IntList(sb.begin(), sb.end() - std::min(db, 2)));
  const int64_t count = numelOf(batch);
  Tensor a3 = reshape(expand(da > 1 ? a : unsqueeze(a, 0), concat(batch, {n, k})), {count, n, k});
  Tensor b3 = reshape(expand(db > 1 ? b : unsqueeze(b, 1), concat(batch, {k, p})), {count, k, p});
  IntList shape = batch;
  if (da > 1) shape.push_back(n);
  if (db > 1) shape.push_back(p);
  return view(bmm(a3, b3), shape);
}

Tensor outer(const Tensor &a, const Tensor &b) {
  TORCH_CHECK(a.dim() == 1, Runtime, "outer: Expected 1-D argument self, but got %d-D", a.dim());
  TORCH_CHECK(b.dim() == 1, Runtime, "outer: Expected 1-D argument vec2, but got %d-D", b.dim());
  const ScalarType type = promoteTypes(a.dtype(), b.dtype());
  TORCH_CHECK(type != ScalarType::Half, Runtime, "\"outer\" not implemented for 'Half'");
  if (isComplex(type)) return binary(BinaryOp::Mul, unsqueeze(a, 1), unsqueeze(b, 0));
  // A Bool product runs on the Byte kernels: 0/1 times 0/1 stays 0/1.
  RecordScope rec({&a, &b});
  Tensor x = toType(a, type), y = toType(b, type);
  Tensor r = empty({a.size(0), b.size(0)}, type, a.device());
  runProduct(AddProduct::R, r, Scalar(int64_t(0)), r, Scalar(int64_t(1)), x, y);
  if (rec && isFloating(type)) {
    derivatives::product(static_cast<int>(AddProduct::R), Tensor(), a, b, Scalar(int64_t(0)), Scalar(int64_t(1)), r);
  }
  return r;
}

Tensor multiDot(const std::vector<Tensor> &tensors) {
  const size_t count = tensors.size();
  TORCH_CHECK(count >= 2, Runtime, "multi_dot(): expected at least 2 tensors but got %zu", count);
  for (size_t i = 0; i < count; i++) {
    const int d = tensors[i].dim();
    const bool end = i == 0 || i == count - 1;
    TORCH_CHECK(d == 2 || (end && d == 1), Runtime, "multi_dot(): tensor %zu must be %s but got %dD", i,
                end ? "1D or 2D" : "2D", d);
    TORCH_CHECK(tensors[i].dtype() == tensors[0].dtype(), Runtime,
                "multi_dot(): all tensors must have the same dtype but tensor 0 is %s and tensor %zu is %s",
                scalarTypeName(tensors[0].dtype()), i, scalarTypeName(tensors[i].dtype()));
  }
  checkBlasType("multi_dot", tensors[0]);
  std::vector<Tensor> mats = tensors;
  const bool rowFirst = mats.front().dim() == 1, columnLast = mats.back().dim() == 1;
  if (rowFirst) mats.front() = unsqueeze(mats.front(), 0);
  if (columnLast) mats.back() = unsqueeze(mats.back(), 1);
  // dims[i] x dims[i + 1] is the shape of matrix i.
  IntList dims{mats[0].size(0)};
  for (size_t i = 0; i < count; i++) {
    TORCH_CHECK(mats[i].size(0) == dims.back(), Runtime,
                "multi_dot(): tensors %zu and %zu with shapes %s and %s cannot be multiplied", i - 1, i,
                tensors[i - 1].sizeString().c_str(), tensors[i].sizeString().c_str());
    dims.push_back(mats[i].size(1));
  }
  // The classic chain-order dynamic programme: cost[i][j] for the product of matrices i..j.
  std::vector<std::vector<double>> cost(count, std::vector<double>(count, 0));
  std::vector<std::vector<size_t>> split(count, std::vector<size_t>(count, 0));
  for (size_t len = 1; len < count; len++) {
    for (size_t i = 0; i + len < count; i++) {
      const size_t j = i + len;
      cost[i][j] = std::numeric_limits<double>::infinity();
      for (size_t s = i; s < j; s++) {
        const double c = cost[i][s] + cost[s + 1][j] + double(dims[i]) * double(dims[s + 1]) * double(dims[j + 1]);
        if (c < cost[i][j]) {
          cost[i][j] = c;
          split[i][j] = s;
        }
      }
    }
  }
  auto chain = [&](auto &&self, size_t i, size_t j) -> Tensor {
    if (i == j) return mats[i];
    return mm(self(self, i, split[i][j]), self(self, split[i][j] + 1, j));
  };
  Tensor r = chain(chain, 0, count - 1);
  if (columnLast) r = squeeze(r, 1);
  if (rowFirst) r = squeeze(r, 0);
  return r;
}

Tensor addProduct(AddProduct kind, const Tensor &self, const Tensor &x, const Tensor &y, Scalar beta, Scalar alpha) {
  // addmm, addbmm and baddbmm in lower precision; addmv and addr in their inputs' types (Note [Autocast])
  if (kind != AddProduct::Mv && kind != AddProduct::R && autocast::on(x)) {
    return autocast::run(
        autocast::Policy::Lower, [kind](auto &&...a) { return addProduct(kind, a...); }, self, x, y, beta, alpha);
  }
  if (isComplex(self.dtype()) || isComplex(x.dtype()) || isComplex(y.dtype())) {
    // beta self + alpha product from the complex products (Note [beta zero]: self unread at 0)
    Tensor product = kind == AddProduct::Mm    ? mm(x, y)
                     : kind == AddProduct::Mv  ? mv(x, y)
                     : kind == AddProduct::R   ? outer(x, y)
                     : kind == AddProduct::Bmm ? sum(bmm(x, y), {0}, false)
                                               : bmm(x, y);
    product = binary(BinaryOp::Mul, product, alpha);
    return beta.isZero() ? product : binary(BinaryOp::Add, binary(BinaryOp::Mul, self, beta), product);
  }
  const char *op = addProductName(kind);
  IntList shape = productShape(kind, op, x, y);
  checkSameType(op, self, x);
  checkFactors(op, x.dtype(), beta, alpha);
  TORCH_CHECK(isBroadcastableTo(self.sizes(), shape), Runtime,
              "%s: the input of sizes %s cannot be broadcast to the result's sizes %s", op, self.sizeString().c_str(),
              shapeString(shape).c_str());
  RecordScope rec({&self, &x, &y});
  Tensor r = empty(shape, x.dtype(), x.device());
  if (!beta.isZero()) copy_(r, self);  // Note [beta zero]
  runProduct(kind, r, beta, r, alpha, x, y);
  if (rec && isFloating(r.dtype())) derivatives::product(static_cast<int>(kind), self, x, y, beta, alpha, r);
  return r;
}

void addProduct_(AddProduct kind, const Tensor &self, const Tensor &x, const Tensor &y, Scalar beta, Scalar alpha) {
  const char *op = addProductName(kind);
  IntList shape = productShape(kind, op, x, y);
  checkSameType(op, self, x);
  checkFactors(op, x.dtype(), beta, alpha);
  TORCH_CHECK(self.hasSizes(shape), Runtime, "%s_: self must have the result's sizes %s, got %s", op,
              shapeString(shape).c_str(), self.sizeString().c_str());
  checkNoOverlap(op, self);
  if (beginInplace(self, needsRecording({&self, &x, &y}))) {
    inplaceWithHistory(self, [&](const Tensor &before) { return addProduct(kind, before, x, y, beta, alpha); });
    return;
  }
  runProduct(kind, self, beta, self, alpha, x, y);
}

// ---- inverses and determinants ----

static Tensor inverseKernel(const Tensor &a);

Tensor inverse(const Tensor &a) {
  RecordScope rec({&a});
  Tensor r = inverseKernel(a);
  if (rec) derivatives::inverse(a, r);
  return r;
}

static Tensor inverseKernel(const Tensor &a) {
  checkSquare("inverse", a);
  const int64_t n = a.size(a.dim() - 1);
  const ScalarType type = a.dtype();
  return eachMatrix("inverse", batchOf(a), {a}, {{{n, n}, type}}, [&](const std::vector<Tensor> &m) {
    Tensor r = empty({0}, type, m[0].device());
    linalgKernels().inverse(m[0].device(), type, r, m[0]);
    return std::vector<Tensor>{r};
  })[0];
}

Tensor det(const Tensor &a) {
  RecordScope rec({&a});
  Tensor r = determinants("det", a)[2];
  if (rec) derivatives::logAbsDet("det", a, r, true);  // d det = det A^-T
  return r;
}

std::pair<Tensor, Tensor> slogdet(const Tensor &a) {
  RecordScope rec({&a});
  std::vector<Tensor> d = determinants("slogdet", a);
  if (rec) derivatives::logAbsDet("slogdet", a, d[1], false);
  return {d[0], d[1]};
}

Tensor logdet(const Tensor &a) {
  RecordScope rec({&a});
  std::vector<Tensor> d = determinants("logdet", a);
  // log of a negative determinant is nan; of zero, -inf (already logAbs).
  Tensor r = d[1];
  maskedFill_(r, compare(CompareOp::Lt, d[0], Scalar(int64_t(0))), Scalar(NAN));
  if (rec) derivatives::logAbsDet("logdet", a, r, false);
  return r;
}

Tensor matrixPower(const Tensor &a, int64_t n) {
  TORCH_CHECK(a.dim() >= 2, Runtime, "matrix_power: The input tensor A must have at least 2 dimensions, got sizes %s",
              a.sizeString().c_str());
  TORCH_CHECK(a.size(a.dim() - 1) == a.size(a.dim() - 2), Runtime,
              "matrix_power: A must be batches of square matrices, but they are %lld by %lld matrices",
              static_cast<long long>(a.size(a.dim() - 2)), static_cast<long long>(a.size(a.dim() - 1)));
  if (n == 0) return identityLike(a);
  checkBlasType("matrix_power", a);
  Tensor base = n < 0 ? inverse(a) : a;
  if (n == 1) return clone(a);
  if (n == -1) return base;
  uint64_t e = n < 0 ? -static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  Tensor r;
  // Square-and-multiply: r collects the powers of base for the set bits of e.
  while (true) {
    if (e & 1) r = r.defined() ? matmul(r, base) : base;
    e >>= 1;
    if (!e) break;
    base = matmul(base, base);
  }
  return r;
}

Tensor pinverse(const Tensor &a, double rcond) {
  checkMatrices("pinverse", a);
  const int64_t m = a.size(a.dim() - 2), n = a.size(a.dim() - 1), k = std::min(m, n);
  const ScalarType type = a.dtype();
  return eachMatrix("pinverse", batchOf(a), {a}, {{{n, m}, type}}, [&](const std::vector<Tensor> &mat) {
    Tensor u = empty({0}, type, mat[0].device()), s = empty({0}, type, mat[0].device()),
           v = empty({0}, type, mat[0].device());
    LinalgKernels &kernels = linalgKernels();
    kernels.svd(mat[0].device(), type, u, s, v, mat[0], "S");
    // pinv = V diag(1 / s) U^T over the singular values above the cutoff
    Tensor vs = empty({n, k}, type, mat[0].device());
    kernels.pinverseFactor(vs.device(), type, vs, v, s, rcond);
    return std::vector<Tensor>{mm(vs, transpose(u, 0, 1))};
  })[0];
}

// ---- systems of equations ----

static std::pair<Tensor, Tensor> solveKernel(const Tensor &b, const Tensor &a) {
  checkSquare("solve", a);
  checkFloating("solve", b);
  checkPair("solve", b, a);
  TORCH_CHECK(b.dim() >= 2, Runtime, "solve: Expected B to have at least 2 dimensions, but it has sizes %s",
              b.sizeString().c_str());
  const int64_t n = a.size(a.dim() - 1), k = b.size(b.dim() - 1);
  TORCH_CHECK(b.size(b.dim() - 2) == n, Runtime,
              "Incompatible matrix sizes for solve: each A matrix is %lld by %lld but each B matrix is %lld by %lld",
              static_cast<long long>(n), static_cast<long long>(n), static_cast<long long>(b.size(b.dim() - 2)),
              static_cast<long long>(k));
  Tensor ea = a, eb = b;
  IntList batch = broadcastBatch(eb, ea);
  const ScalarType type = a.dtype();
  std::vector<Tensor> r =
      eachMatrix("solve", batch, {eb, ea}, {{{n, k}, type}, {{n, n}, type}}, [&](const std::vector<Tensor> &m) {
        Tensor x = empty({0}, type, m[0].device()), lu = empty({0}, type, m[0].device());
        linalgKernels().solve(m[0].device(), type, x, lu, m[0], m[1]);
        return std::vector<Tensor>{x, lu};
      });
  return {r[0], r[1]};
}

Tensor linalgSolve(const Tensor &a, const Tensor &b) {
  checkSquare("linalg.solve", a);
  // b is a vector (or a batch of vectors) when it has a's shape less the last dimension.
  IntList vectorShape = a.sizes();
  vectorShape.pop_back();
  const bool vector = b.dim() == 1 || b.sizes() == vectorShape;
  if (!vector) return solve(b, a).first;
  Tensor x = solve(unsqueeze(b, b.dim()), a).first;
  return squeeze(x, x.dim() - 1);
}

static std::pair<Tensor, Tensor> lstsqKernel(const Tensor &b, const Tensor &a) {
  checkFloating("lstsq", a);
  checkPair("lstsq", b, a);
  TORCH_CHECK(a.dim() == 2, Runtime, "lstsq: A must be a matrix (2-D), got sizes %s", a.sizeString().c_str());
  TORCH_CHECK(b.dim() == 1 || b.dim() == 2, Runtime, "lstsq: B must be a vector or a matrix, got sizes %s",
              b.sizeString().c_str());
  TORCH_CHECK(b.size(0) == a.size(0), Runtime, "lstsq: B of sizes %s has not as many rows as A of sizes %s",
              b.sizeString().c_str(), a.sizeString().c_str());
  Tensor x = empty({0}, a.dtype(), a.device()), qr = empty({0}, a.dtype(), a.device());
  eachMatrix("lstsq", {}, {b, a}, {}, [&](const std::vector<Tensor> &m) {
    linalgKernels().lstsq(m[0].device(), a.dtype(), x, qr, m[0], m[1]);
    return std::vector<Tensor>{};
  });
  return {x, qr};
}

// ---- Cholesky ----

static Tensor choleskyKernel(const Tensor &a, bool upper) {
  checkSquare("cholesky", a);
  const int64_t n = a.size(a.dim() - 1);
  const ScalarType type = a.dtype();
  return eachMatrix("cholesky", batchOf(a), {a}, {{{n, n}, type}}, [&](const std::vector<Tensor> &m) {
    Tensor r = empty({0}, type, m[0].device());
    linalgKernels().cholesky(m[0].device(), type, r, m[0], upper);
    return std::vector<Tensor>{r};
  })[0];
}

static Tensor choleskySolveKernel(const Tensor &b, const Tensor &factor, bool upper) {
  checkSquare("cholesky_solve", factor);
  checkFloating("cholesky_solve", b);
  checkPair("cholesky_solve", b, factor);
  TORCH_CHECK(b.dim() >= 2, Runtime, "cholesky_solve: b should have at least 2 dimensions, but has sizes %s",
              b.sizeString().c_str());
  const int64_t n = factor.size(factor.dim() - 1), k = b.size(b.dim() - 1);
  TORCH_CHECK(b.size(b.dim() - 2) == n, Runtime,
              "Incompatible matrix sizes for cholesky_solve: each A matrix is %lld by %lld but each b matrix is %lld "
              "by %lld",
              static_cast<long long>(n), static_cast<long long>(n), static_cast<long long>(b.size(b.dim() - 2)),
              static_cast<long long>(k));
  Tensor eb = b, ef = factor;
  IntList batch = broadcastBatch(eb, ef);
  const ScalarType type = b.dtype();
  return eachMatrix("cholesky_solve", batch, {eb, ef}, {{{n, k}, type}}, [&](const std::vector<Tensor> &m) {
    Tensor x = empty({0}, type, m[0].device());
    linalgKernels().choleskySolve(m[0].device(), type, x, m[0], m[1], upper);
    return std::vector<Tensor>{x};
  })[0];
}

static Tensor choleskyInverseKernel(const Tensor &factor, bool upper) {
  checkSquare("cholesky_inverse", factor);
  const int64_t n = factor.size(factor.dim() - 1);
  const ScalarType type = factor.dtype();
  return eachMatrix("cholesky_inverse", batchOf(factor), {factor}, {{{n, n}, type}}, [&](const std::vector<Tensor> &m) {
    Tensor r = empty({0}, type, m[0].device());
    linalgKernels().choleskyInverse(m[0].device(), type, r, m[0], upper);
    return std::vector<Tensor>{r};
  })[0];
}

// ---- decompositions ----

static std::pair<Tensor, Tensor> symeigKernel(const Tensor &a, bool eigenvectors, bool upper) {
  checkSquare("symeig", a);
  const int64_t n = a.size(a.dim() - 1);
  const ScalarType type = a.dtype();
  std::vector<OutSpec> specs{{{n}, type}};
  if (eigenvectors) specs.push_back({{n, n}, type});
  std::vector<Tensor> r = eachMatrix("symeig", batchOf(a), {a}, specs, [&](const std::vector<Tensor> &m) {
    Tensor e = empty({0}, type, m[0].device()), v = empty({0}, type, m[0].device());
    linalgKernels().symeig(m[0].device(), type, e, v, m[0], eigenvectors, upper);
    return eigenvectors ? std::vector<Tensor>{e, v} : std::vector<Tensor>{e};
  });
  // Without vectors PyTorch 1.13 gives an empty [0], or the input's shape when it is empty.
  return {r[0], eigenvectors ? r[1] : empty(a.numel() == 0 ? a.sizes() : IntList{0}, type, a.device())};
}

static std::pair<Tensor, Tensor> eigKernel(const Tensor &a, bool eigenvectors) {
  checkSquare("eig", a);
  TORCH_CHECK(a.dim() == 2, Runtime, "eig: input should be 2 dimensional, got sizes %s", a.sizeString().c_str());
  checkFinite("eig", a);
  Tensor e = empty({0}, a.dtype(), a.device()), v = empty({0}, a.dtype(), a.device());
  eachMatrix("eig", {}, {a}, {}, [&](const std::vector<Tensor> &m) {
    linalgKernels().eig(m[0].device(), a.dtype(), e, v, m[0], eigenvectors);
    return std::vector<Tensor>{};
  });
  return {e, v};
}

static std::tuple<Tensor, Tensor, Tensor> svdKernel(const Tensor &a, bool some, bool computeUv) {
  checkMatrices("svd", a);
  const int64_t m = a.size(a.dim() - 2), n = a.size(a.dim() - 1), k = std::min(m, n);
  const ScalarType type = a.dtype();
  const IntList batch = batchOf(a);
  const char *job = !computeUv ? "N" : some ? "S" : "A";
  std::vector<OutSpec> specs{{{k}, type}};
  if (computeUv) {
    specs.push_back({{m, some ? k : m}, type});
    specs.push_back({{n, some ? k : n}, type});
  }
  std::vector<Tensor> r = eachMatrix("svd", batch, {a}, specs, [&](const std::vector<Tensor> &mat) {
    Tensor u = empty({0}, type, mat[0].device()), s = empty({0}, type, mat[0].device()),
           v = empty({0}, type, mat[0].device());
    linalgKernels().svd(mat[0].device(), type, u, s, v, mat[0], job);
    return computeUv ? std::vector<Tensor>{s, u, v} : std::vector<Tensor>{s};
  });
  if (!computeUv)
    return {zeros(concat(batch, {m, m}), type, a.device()), r[0], zeros(concat(batch, {n, n}), type, a.device())};
  return {r[1], r[0], r[2]};
}

// Note [Complete QR]: TH's qr gives the reduced factors. For a tall a [m, n] the complete
// Q comes from the QR of [a, I_m]: Householder's reflector j depends on columns 0..j only,
// so the first n reflectors are a's own, the others leave a's columns alone, and the
// first n columns of the R of [a, I] are a's complete R [m, n].
static std::pair<Tensor, Tensor> qrKernel(const Tensor &a, bool some) {
  checkMatrices("qr", a);
  const int64_t m = a.size(a.dim() - 2), n = a.size(a.dim() - 1), k = std::min(m, n);
  const ScalarType type = a.dtype();
  const bool complete = !some && m > n;
  std::vector<OutSpec> specs{{{m, complete ? m : k}, type}, {{complete ? m : k, n}, type}};
  std::vector<Tensor> r = eachMatrix("qr", batchOf(a), {a}, specs, [&](const std::vector<Tensor> &mat) {
    Tensor q = empty({0}, type, mat[0].device()), rr = empty({0}, type, mat[0].device()), in = mat[0];
    if (complete) {
      in = zeros({m, n + m}, type, mat[0].device());
      copy_(narrow(in, 1, 0, n), mat[0]);
      fill_(asStrided(in, {m}, {n + m + 1}, n), Scalar(int64_t(1)));  // the diagonal of the I block
    }
    linalgKernels().qr(in.device(), type, q, rr, in);
    if (complete) rr = contiguous(narrow(rr, 1, 0, n));
    return std::vector<Tensor>{q, rr};
  });
  return {r[0], r[1]};
}

static std::pair<Tensor, Tensor> luKernel(const Tensor &a) {
  checkMatrices("lu", a);
  const int64_t m = a.size(a.dim() - 2), n = a.size(a.dim() - 1), k = std::min(m, n);
  const ScalarType type = a.dtype();
  std::vector<Tensor> r =
      eachMatrix("lu", batchOf(a), {a}, {{{m, n}, type}, {{k}, ScalarType::Int}}, [&](const std::vector<Tensor> &mat) {
        Tensor factors = empty({0}, type, mat[0].device()), pivots = empty({0}, ScalarType::Int, mat[0].device());
        linalgKernels().luFactor(mat[0].device(), type, factors, pivots, mat[0]);
        return std::vector<Tensor>{factors, pivots};
      });
  return {r[0], r[1]};
}

static std::tuple<Tensor, Tensor, Tensor> luUnpackKernel(const Tensor &lu, const Tensor &pivots);

std::tuple<Tensor, Tensor, Tensor> luUnpack(const Tensor &lu, const Tensor &pivots) {
  if (!needsRecording({&lu})) return luUnpackKernel(lu, pivots);
  std::tuple<Tensor, Tensor, Tensor> r;
  {
    NoGradGuard plain;
    r = luUnpackKernel(lu, pivots);  // checks; P has no history
  }
  // L and U recorded as the triangles of the factors (L's unit diagonal added).
  const int64_t m = lu.size(lu.dim() - 2), n = lu.size(lu.dim() - 1), k = std::min(m, n);
  Tensor unit = contiguous(expand(eye(m, k, lu.dtype(), lu.device()), std::get<1>(r).sizes()));
  Tensor l = binary(BinaryOp::Add, tril(narrow(lu, -1, 0, k), -1), unit);
  Tensor u = triu(narrow(lu, -2, 0, k), 0);
  return {std::get<0>(r), l, u};
}

static std::tuple<Tensor, Tensor, Tensor> luUnpackKernel(const Tensor &lu, const Tensor &pivots) {
  checkMatrices("lu_unpack", lu);
  const int64_t m = lu.size(lu.dim() - 2), n = lu.size(lu.dim() - 1), k = std::min(m, n);
  const IntList batch = batchOf(lu);
  TORCH_CHECK(pivots.dtype() == ScalarType::Int, Runtime, "lu_unpack: LU_pivots is expected to be Int, got %s",
              scalarTypeName(pivots.dtype()));
  TORCH_CHECK(pivots.sizes() == concat(batch, {k}), Runtime,
              "lu_unpack: LU_pivots of sizes %s do not fit LU_data of sizes %s (expected %s)",
              pivots.sizeString().c_str(), lu.sizeString().c_str(), shapeString(concat(batch, {k})).c_str());
  const ScalarType type = lu.dtype();
  // Checked in full before any result is made, with the ops (the pivots may live on a device).
  Tensor flat = reshape(pivots, {-1});
  Tensor outside = compare(CompareOp::Ne, clamp(flat, Scalar(int64_t(1)), Scalar(m)), flat);
  if (flat.numel() > 0 && item(any(outside, std::nullopt, false)).i != 0) {
    const int64_t i = item(select(select(nonzero(outside), 0, 0), 0, 0)).i;
    TORCH_CHECK(false, Runtime, "lu_unpack: pivot %lld is %lld, out of the range [1, %lld]", static_cast<long long>(i),
                static_cast<long long>(item(select(flat, 0, i)).i), static_cast<long long>(m));
  }
  std::vector<Tensor> r = eachMatrix(
      "lu_unpack", batch, {lu, pivots}, {{{m, m}, type}, {{m, k}, type}, {{k, n}, type}},
      [&](const std::vector<Tensor> &mat) {
        std::vector<Tensor> out = {empty({m, m}, type, mat[0].device()), empty({m, k}, type, mat[0].device()),
                                   empty({k, n}, type, mat[0].device())};
        linalgKernels().luUnpack(mat[0].device(), type, out[0], out[1], out[2], contiguous(mat[0]), contiguous(mat[1]));
        return out;
      });
  return {r[0], r[1], r[2]};
}

// ---- recording (Note [Recording scope]) ----

namespace {
TensorList floatingOnly(const TensorList &ts) {
  TensorList r;
  for (const Tensor &t : ts) {
    if (t.defined() && isFloating(t.dtype())) r.push_back(t);
  }
  return r;
}
}  // namespace

std::pair<Tensor, Tensor> solve(const Tensor &b, const Tensor &a) {
  RecordScope rec({&b, &a});
  std::pair<Tensor, Tensor> r = solveKernel(b, a);
  if (rec) derivatives::solve(b, a, r.first);
  return r;
}

Tensor cholesky(const Tensor &a, bool upper) {
  RecordScope rec({&a});
  Tensor r = choleskyKernel(a, upper);
  if (rec) derivatives::cholesky(a, upper, r);
  return r;
}

std::pair<Tensor, Tensor> lstsq(const Tensor &b, const Tensor &a) {
  if (!needsRecording({&b, &a})) return lstsqKernel(b, a);
  std::pair<Tensor, Tensor> r;
  {
    NoGradGuard plain;
    r = lstsqKernel(b, a);  // checks the arguments; its QR output has no history
  }
  // Recorded through its definition for A of full rank: the normal equations for a tall A,
  // the minimum-norm solution for a wide one.
  Tensor at = transpose(a, 0, 1), bb = b.dim() == 1 ? unsqueeze(b, 1) : b;
  Tensor x =
      a.size(0) >= a.size(1) ? solve(matmul(at, bb), matmul(at, a)).first : matmul(at, solve(bb, matmul(a, at)).first);
  return {reshape(x, r.first.sizes()), r.second};
}

// The matrix a Cholesky factor stands for: L L^T, or U^T U.
static Tensor choleskyProduct(const Tensor &factor, bool upper) {
  Tensor t = transpose(factor, -1, -2);
  return upper ? matmul(t, factor) : matmul(factor, t);
}

Tensor choleskySolve(const Tensor &b, const Tensor &factor, bool upper) {
  // Recorded through its definition: a solve with the product of the factors.
  if (needsRecording({&b, &factor})) return solve(b, choleskyProduct(factor, upper)).first;
  return choleskySolveKernel(b, factor, upper);
}

Tensor choleskyInverse(const Tensor &factor, bool upper) {
  if (needsRecording({&factor})) return inverse(choleskyProduct(factor, upper));
  return choleskyInverseKernel(factor, upper);
}

std::pair<Tensor, Tensor> symeig(const Tensor &a, bool eigenvectors, bool upper) {
  RecordScope rec({&a});
  std::pair<Tensor, Tensor> r = symeigKernel(a, eigenvectors, upper);
  if (rec && eigenvectors) derivatives::symeig(a, r.first, r.second, true);
  // Eigenvalues alone: the backward needs the eigenvectors, computed for it.
  if (rec && !eigenvectors) derivatives::symeig(a, r.first, symeigKernel(a, true, upper).second, false);
  return r;
}

std::pair<Tensor, Tensor> eig(const Tensor &a, bool eigenvectors) {
  RecordScope rec({&a});
  std::pair<Tensor, Tensor> r = eigKernel(a, eigenvectors);
  if (rec && eigenvectors) derivatives::eig(a, r.first, r.second, true);
  // Eigenvalues alone: the backward needs the eigenvectors, computed for it.
  if (rec && !eigenvectors) derivatives::eig(a, r.first, eigKernel(a, true).second, false);
  return r;
}

std::tuple<Tensor, Tensor, Tensor> svd(const Tensor &a, bool some, bool computeUv) {
  RecordScope rec({&a});
  std::tuple<Tensor, Tensor, Tensor> r = svdKernel(a, some, computeUv);
  if (rec) {
    if (computeUv) {
      derivatives::svd(a, std::get<0>(r), std::get<1>(r), std::get<2>(r), true);
    } else {
      std::tuple<Tensor, Tensor, Tensor> thin = svdKernel(a, true, true);
      derivatives::svd(a, std::get<0>(thin), std::get<1>(r), std::get<2>(thin), false);
    }
  }
  return r;
}

std::pair<Tensor, Tensor> qr(const Tensor &a, bool some) {
  const int64_t m = a.dim() >= 2 ? a.size(a.dim() - 2) : 0, n = a.dim() >= 2 ? a.size(a.dim() - 1) : 0;
  if (m < n && needsRecording({&a})) {
    // A wide A = [X Y] is recorded through the QR of its square part: Q R1 = X, R = [R1, Q^T Y]
    // (Householder QR of A builds Q from X alone).
    std::pair<Tensor, Tensor> square = qr(narrow(a, -1, 0, m), some);
    Tensor rest = matmul(transpose(square.first, -1, -2), narrow(a, -1, m, n - m));
    return {square.first, cat({square.second, rest}, -1)};
  }
  RecordScope rec({&a});
  std::pair<Tensor, Tensor> r = qrKernel(a, some);
  if (rec) {
    if (some || m == n) {
      derivatives::qr(a, r.first, r.second);
    } else {
      derivatives::notDifferentiable("qr",
                                     "the complete QR of a tall matrix is not unique (the extra columns of Q are "
                                     "any orthonormal basis of the complement); use some=True",
                                     {a}, floatingOnly({r.first, r.second}));
    }
  }
  return r;
}

// Note [LU of a rectangular matrix]: partial pivoting makes it a square LU in disguise. A wide
// A = [X Y] factors as X = P L U1 with U2 = L^-1 P^T Y; for a tall A, P^T A = [A1; A2] where
// the pivots already put each column's largest entry in A1, so A1 = L1 U needs no more row
// exchanges and L2 = A2 U^-1. Recording goes through those pieces.
std::pair<Tensor, Tensor> lu(const Tensor &a) {
  RecordScope rec({&a});
  std::pair<Tensor, Tensor> r = luKernel(a);
  if (!rec) return r;
  const int64_t m = a.size(a.dim() - 2), n = a.size(a.dim() - 1);
  if (m == n) {
    derivatives::lu(a, r.first, r.second);
    return r;
  }
  GradModeGuard recording(true);
  Tensor p = std::get<0>(luUnpack(r.first, r.second));
  Tensor permuted = matmul(transpose(p, -1, -2), a);  // P^T A: no more pivoting needed
  if (m < n) {
    Tensor square = lu(narrow(a, -1, 0, m)).first;
    Tensor l = std::get<1>(luUnpack(square, r.second));
    Tensor rest = matmul(inverse(l), narrow(permuted, -1, m, n - m));
    return {cat({square, rest}, -1), r.second};
  }
  Tensor top = narrow(permuted, -2, 0, n);
  std::pair<Tensor, Tensor> square = lu(top);
  Tensor u = std::get<2>(luUnpack(square.first, square.second));
  Tensor below = matmul(narrow(permuted, -2, n, m - n), inverse(u));
  return {cat({square.first, below}, -2), r.second};
}

}  // namespace torch
