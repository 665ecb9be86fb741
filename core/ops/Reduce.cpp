#include "core/ops/Reduce.h"

#include "core/ops/Complex.h"

#include <algorithm>
#include <cmath>

#include "autograd/Derivatives.h"
#include "core/ops/CopyKernels.h"
#include "core/ops/Indexing.h"
#include "core/ops/Pointwise.h"
#include "core/ops/ReduceKernels.h"
#include "core/ops/Shape.h"

namespace torch {

ReduceKernels &reduceKernels() {
  static ReduceKernels *tables = [] {
    auto *t = new ReduceKernels();  // never destroyed: kernels may run during exit
    cpu::registerReduceKernels(*t);
    return t;
  }();
  return *tables;
}

namespace {

// See Note [Reduction dims]: t's dims to reduce, ascending; a 0-dim tensor has none.
std::vector<int> reductionDims(const Tensor &t, const IntList &dims) {
  std::vector<int> out;
  if (dims.empty()) {
    for (int d = 0; d < t.dim(); d++) out.push_back(d);
    return out;
  }
  std::vector<bool> seen(std::max(t.dim(), 1), false);
  for (int64_t d : dims) {
    int w = wrapDim(d, t.dim());
    TORCH_CHECK(!seen[w], Runtime, "dim %d appears multiple times in the list of dims", w);
    seen[w] = true;
    if (t.dim() > 0) out.push_back(w);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool reducesAll(const Tensor &t, const std::vector<int> &dims) { return static_cast<int>(dims.size()) == t.dim(); }

// r (0-dim) seen with size 1 in each of t's dimensions when keepdim.
Tensor keepAll(const Tensor &r, const Tensor &t, bool keepdim) {
  if (!keepdim || t.dim() == 0) return r;
  return asStrided(r, IntList(t.dim(), 1), IntList(t.dim(), 1), r.storageOffset());
}

// r (reduced with keepdim) without the reduced dimensions unless keepdim.
Tensor dropDims(Tensor r, const std::vector<int> &dims, bool keepdim) {
  if (keepdim) return r;
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) r = squeeze(r, *d);
  return r;
}

// Reduces a decomposable op one dimension at a time: reduceDim(x, d) reduces x along d
// keeping d with size 1. Each step shrinks the tensor, so later steps are cheap.
template <typename F>
Tensor reduceEach(const Tensor &t, const std::vector<int> &dims, bool keepdim, F &&reduceDim) {
  if (t.dim() == 0) return reduceDim(t, 0);
  Tensor r = t;
  for (int d : dims) r = reduceDim(r, d);
  return dropDims(r, dims, keepdim);
}

// t with the dims to reduce moved to the end and merged into one (a copy only when the
// view cannot express it), for ops that do not decompose dimension by dimension.
Tensor mergeDimsLast(const Tensor &t, const std::vector<int> &dims) {
  IntList order, shape;
  std::vector<bool> reduced(t.dim(), false);
  for (int d : dims) reduced[d] = true;
  for (int d = 0; d < t.dim(); d++) {
    if (reduced[d]) continue;
    order.push_back(d);
    shape.push_back(t.size(d));
  }
  int64_t merged = 1;
  for (int d : dims) {
    order.push_back(d);
    merged *= t.size(d);
  }
  shape.push_back(merged);
  return reshape(permute(t, order), shape);
}

IntList reducedShape(const Tensor &t, const std::vector<int> &dims, bool keepdim) {
  IntList shape = t.sizes();
  for (auto d = dims.rbegin(); d != dims.rend(); ++d) {
    if (keepdim)
      shape[*d] = 1;
    else
      shape.erase(shape.begin() + *d);
  }
  return shape;
}

// A reduction that does not decompose: over the merged last dim of mergeDimsLast, by
// reduceLast(x, d) which reduces x along d without keeping it.
template <typename F>
Tensor reduceMerged(const Tensor &t, const std::vector<int> &dims, bool keepdim, F &&reduceLast) {
  if (dims.size() == 1) return reduceLast(t, dims[0], keepdim);
  Tensor merged = mergeDimsLast(t, dims);
  Tensor r = reduceLast(merged, merged.dim() - 1, false);
  return keepdim ? view(r, reducedShape(t, dims, true)) : r;
}

ReduceKernels &kernels() { return reduceKernels(); }

// A whole-tensor reduction's value as a new 0-dim tensor of type (never Half: the
// reductions have no Half kernels), written by the fill kernel alone: the tensor is new,
// so fill_'s autograd and version bookkeeping has nothing to do.
Tensor zeroDim(ScalarType type, Scalar v, Device device) {
  Tensor r = empty({}, type, device);
  copyKernels().fill(r.device(), type, r, v);
  return r;
}

// A new tensor of x's type and device that kernel(r, x, args...) fills.
template <typename K, typename... Args>
Tensor intoNew(const K &kernel, const Tensor &x, Args... args) {
  Tensor r = empty({0}, x.dtype(), x.device());
  kernel(x.device(), x.dtype(), r, x, args...);
  return r;
}

// New values (x's type) and Long indices that kernel(values, indices, x, args...) fills.
template <typename K, typename... Args>
ValuesIndices withIndices(const K &kernel, const Tensor &x, Args... args) {
  ValuesIndices r{empty({0}, x.dtype(), x.device()), empty({0}, ScalarType::Long, x.device())};
  kernel(x.device(), x.dtype(), r.values, r.indices, x, args...);
  return r;
}

void checkFloating(const Tensor &t, const char *op) {
  TORCH_CHECK(isFloating(t.dtype()), Runtime,
              "%s(): input dtype should be a floating point type (Float or Double), got %s; convert it with "
              ".float() or .double() first",
              op, scalarTypeName(t.dtype()));
}

// Note [Reduction types]
ScalarType accumulateType(ScalarType t) { return isFloating(t) || isComplex(t) ? t : ScalarType::Long; }

Tensor withDtype(const Tensor &t, std::optional<ScalarType> dtype) { return dtype ? toType(t, *dtype) : t; }

void checkNonEmptyDims(const Tensor &t, const std::vector<int> &dims, const char *op) {
  if (t.dim() == 0) return;
  if (reducesAll(t, dims)) {
    TORCH_CHECK(t.numel() > 0, Runtime,
                "%s(): Expected reduction dim to be specified for input.numel() == 0 (sizes %s). Specify the "
                "reduction dim with the 'dim' argument.",
                op, t.sizeString().c_str());
    return;
  }
  for (int d : dims)
    TORCH_CHECK(t.size(d) > 0, Runtime, "%s(): Expected reduction dim %d to have non-zero size (sizes %s).", op, d,
                t.sizeString().c_str());
}

int checkedDim(const Tensor &t, int64_t dim) { return wrapDim(dim, t.dim()); }

// A Bool (or Byte) mask of t's non-zero elements, t itself when it already is one.
Tensor nonZeroMask(const Tensor &t) {
  if (t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::Byte) return t;
  return compare(CompareOp::Ne, t, Scalar(int64_t(0)));
}

}  // namespace

// ---- sums and statistics ----

static Tensor sumKernel(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype) {
  std::vector<int> ds = reductionDims(t, dims);
  if (reducesAll(t, ds)) {
    // TH accumulates integers in int64 and floats in double: no conversion of t needed
    Tensor x = withDtype(t, dtype);
    ScalarType type = dtype ? *dtype : accumulateType(t.dtype());
    Tensor r = zeroDim(type, kernels().sumAll(x.device(), x.dtype(), x), x.device());
    return keepAll(r, t, keepdim);
  }
  Tensor x = toType(t, dtype ? *dtype : accumulateType(t.dtype()));
  return reduceEach(x, ds, keepdim, [](const Tensor &in, int d) { return intoNew(kernels().sum, in, d, true); });
}

static Tensor prodKernel(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype) {
  std::vector<int> ds = reductionDims(t, dims);
  if (reducesAll(t, ds)) {
    Tensor x = withDtype(t, dtype);
    ScalarType type = dtype ? *dtype : accumulateType(t.dtype());
    Tensor r = zeroDim(type, kernels().prodAll(x.device(), x.dtype(), x), x.device());
    return keepAll(r, t, keepdim);
  }
  Tensor x = toType(t, dtype ? *dtype : accumulateType(t.dtype()));
  return reduceEach(x, ds, keepdim, [](const Tensor &in, int d) { return intoNew(kernels().prod, in, d, true); });
}

static Tensor meanKernel(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype) {
  Tensor x = withDtype(t, dtype);
  checkFloating(x, "mean");
  std::vector<int> ds = reductionDims(x, dims);
  if (reducesAll(x, ds)) {
    Tensor r = zeroDim(x.dtype(), kernels().meanAll(x.device(), x.dtype(), x), x.device());
    return keepAll(r, x, keepdim);
  }
  if (ds.size() == 1) return intoNew(kernels().mean, x, ds[0], keepdim);
  int64_t count = 1;
  for (int d : ds) count *= x.size(d);
  Tensor r = sum(x, dims, keepdim);
  binary_(BinaryOp::Div, r, Scalar(static_cast<double>(count)));  // r is new: nothing records
  return r;
}

namespace {

Tensor varOrStd(const Tensor &t, const IntList &dims, bool unbiased, bool keepdim, bool takeRoot) {
  const char *op = takeRoot ? "std" : "var";
  checkFloating(t, op);
  std::vector<int> ds = reductionDims(t, dims);
  if (reducesAll(t, ds)) {
    const auto &all = takeRoot ? kernels().stdDevAll : kernels().varAll;
    Tensor r = zeroDim(t.dtype(), all(t.device(), t.dtype(), t, !unbiased), t.device());
    return keepAll(r, t, keepdim);
  }
  const auto &alongDim = takeRoot ? kernels().stdDev : kernels().var;
  return reduceMerged(t, ds, keepdim,
                      [&](const Tensor &in, int d, bool keep) { return intoNew(alongDim, in, d, !unbiased, keep); });
}

}  // namespace

static Tensor varOrStdRecorded(const Tensor &t, const IntList &dims, bool unbiased, bool keepdim, bool isStd) {
  RecordScope rec({&t});
  Tensor r = varOrStd(t, dims, unbiased, keepdim, isStd);
  if (rec) derivatives::varOrStd(t, reductionDims(t, dims), unbiased, keepdim, isStd, r);
  return r;
}

Tensor var(const Tensor &t, const IntList &dims, bool unbiased, bool keepdim) {
  return varOrStdRecorded(t, dims, unbiased, keepdim, false);
}

Tensor std(const Tensor &t, const IntList &dims, bool unbiased, bool keepdim) {
  return varOrStdRecorded(t, dims, unbiased, keepdim, true);
}

static Tensor normKernel(const Tensor &t, double p, const IntList &dims, bool keepdim) {
  checkFloating(t, "norm");
  if (std::isinf(p) && p < 0) return amin(unary(UnaryOp::Abs, t), dims, keepdim);  // TH knows p >= 0 only
  std::vector<int> ds = reductionDims(t, dims);
  if (reducesAll(t, ds)) {
    Tensor r = zeroDim(t.dtype(), kernels().normAll(t.device(), t.dtype(), t, p), t.device());
    return keepAll(r, t, keepdim);
  }
  return reduceMerged(t, ds, keepdim,
                      [&](const Tensor &in, int d, bool keep) { return intoNew(kernels().norm, in, p, d, keep); });
}

Tensor dist(const Tensor &a, const Tensor &b, double p) {
  checkSameDevice("dist", a, b);
  // Recorded as the norm of the difference.
  if (!needsRecording({&a, &b}) && a.isSameSizeAs(b) && a.dtype() == b.dtype() && isFloating(a.dtype()) &&
      !(std::isinf(p) && p < 0)) {
    return zeroDim(a.dtype(), kernels().dist(a.device(), a.dtype(), a, b, p), a.device());
  }
  Tensor difference = binary(BinaryOp::Sub, a, b);
  checkFloating(difference, "dist");
  return norm(difference, p, {}, false);
}

static Tensor logsumexpKernel(const Tensor &t, const IntList &dims, bool keepdim) {
  Tensor x = isFloating(t.dtype()) ? t : toType(t, defaultFloatType());
  std::vector<int> ds = reductionDims(x, dims);
  if (x.numel() == 0) {
    Tensor r = empty(reducedShape(x, ds, keepdim), x.dtype(), x.device());
    fill_(r, Scalar(-INFINITY));  // log(0); sizes other than the reduced ones may be 0 too
    return r;
  }
  // log(sum(exp(x - m))) + m with m the largest element, so that exp cannot overflow; an
  // infinite m is replaced by 0 (all -inf gives -inf, a +inf gives +inf).
  Tensor shift = amax(x, dims, true);
  kernels().zeroNonFinite(shift.device(), shift.dtype(), shift);
  Tensor r = sum(unary(UnaryOp::Exp, binary(BinaryOp::Sub, x, shift)), dims, keepdim);
  unary_(UnaryOp::Log, r);
  binary_(BinaryOp::Add, r, dropDims(shift, ds, keepdim));
  return r;
}

// ---- extremes ----

namespace {

Tensor extremeAll(const Tensor &t, bool largest) {
  const char *op = largest ? "max" : "min";
  checkNonEmptyDims(t, reductionDims(t, {}), op);
  const auto &all = largest ? kernels().maxAll : kernels().minAll;
  return zeroDim(t.dtype(), all(t.device(), t.dtype(), t), t.device());
}

ValuesIndices extreme(const Tensor &t, int64_t dim, bool keepdim, bool largest) {
  const char *op = largest ? "max" : "min";
  int d = checkedDim(t, dim);
  checkNonEmptyDims(t, {d}, op);
  return withIndices(largest ? kernels().max : kernels().min, t, d, keepdim);
}

Tensor extremeDims(const Tensor &t, const IntList &dims, bool keepdim, bool largest) {
  const char *op = largest ? "amax" : "amin";
  std::vector<int> ds = reductionDims(t, dims);
  checkNonEmptyDims(t, ds, op);
  if (reducesAll(t, ds)) return keepAll(extremeAll(t, largest), t, keepdim);
  return reduceEach(t, ds, keepdim, [&](const Tensor &in, int d) { return extreme(in, d, true, largest).values; });
}

Tensor argExtreme(const Tensor &t, std::optional<int64_t> dim, bool keepdim, bool largest) {
  if (!dim) {
    Tensor flat = reshape(t, {-1});
    TORCH_CHECK(flat.numel() > 0, Runtime, "%s(): Expected reduction dim to be specified for input.numel() == 0.",
                largest ? "argmax" : "argmin");
    return extreme(flat, 0, false, largest).indices;
  }
  return extreme(t, *dim, keepdim, largest).indices;
}

}  // namespace

namespace {

// Extremes without indices: ties share the gradient.
Tensor extremeRecorded(const Tensor &t, const IntList &dims, bool keepdim, bool largest, bool all) {
  RecordScope rec({&t});
  Tensor r = all ? extremeAll(t, largest) : extremeDims(t, dims, keepdim, largest);
  if (rec && isFloating(t.dtype())) derivatives::extreme(t, reductionDims(t, dims), all ? false : keepdim, r);
  return r;
}

// Values picked at indices along dim: the gradient goes back to where they came from.
template <typename F>
ValuesIndices pickedRecorded(const char *name, const Tensor &t, int64_t dim, bool keepdim, F &&compute) {
  RecordScope rec({&t});
  ValuesIndices r = compute();
  if (rec && isFloating(t.dtype())) {
    derivatives::picked(name, t, t.dim() == 0 ? 0 : wrapDim(dim, t.dim()), keepdim, r.values, r.indices);
  }
  return r;
}

}  // namespace

Tensor maxAll(const Tensor &t) { return extremeRecorded(t, {}, false, true, true); }
Tensor minAll(const Tensor &t) { return extremeRecorded(t, {}, false, false, true); }
ValuesIndices max(const Tensor &t, int64_t dim, bool keepdim) {
  return pickedRecorded("max", t, dim, keepdim, [&] { return extreme(t, dim, keepdim, true); });
}
ValuesIndices min(const Tensor &t, int64_t dim, bool keepdim) {
  return pickedRecorded("min", t, dim, keepdim, [&] { return extreme(t, dim, keepdim, false); });
}
Tensor amax(const Tensor &t, const IntList &dims, bool keepdim) {
  return extremeRecorded(t, dims, keepdim, true, false);
}
Tensor amin(const Tensor &t, const IntList &dims, bool keepdim) {
  return extremeRecorded(t, dims, keepdim, false, false);
}
Tensor argmax(const Tensor &t, std::optional<int64_t> dim, bool keepdim) { return argExtreme(t, dim, keepdim, true); }
Tensor argmin(const Tensor &t, std::optional<int64_t> dim, bool keepdim) { return argExtreme(t, dim, keepdim, false); }

// ---- logic ----

namespace {

Tensor logical(const Tensor &t, std::optional<int64_t> dim, bool keepdim, bool every) {
  Tensor mask = nonZeroMask(t);
  if (!dim) {
    const auto &all = every ? kernels().allAll : kernels().anyAll;
    return zeroDim(ScalarType::Bool, all(mask.device(), mask.dtype(), mask), mask.device());
  }
  int d = checkedDim(mask, *dim);
  Tensor r = empty({0}, ScalarType::Bool, mask.device());
  (every ? kernels().all : kernels().any)(mask.device(), mask.dtype(), r, mask, d, keepdim);
  return r;
}

}  // namespace

Tensor all(const Tensor &t, std::optional<int64_t> dim, bool keepdim) { return logical(t, dim, keepdim, true); }
Tensor any(const Tensor &t, std::optional<int64_t> dim, bool keepdim) { return logical(t, dim, keepdim, false); }

Tensor countNonzero(const Tensor &t, const IntList &dims) {
  Tensor mask = compare(CompareOp::Ne, t, Scalar(int64_t(0)));
  return sum(mask, dims, false);
}

// ---- scans ----

static Tensor cumsumKernel(const Tensor &t, int64_t dim, std::optional<ScalarType> dtype) {
  int d = checkedDim(t, dim);
  Tensor x = toType(t, dtype ? *dtype : accumulateType(t.dtype()));
  return intoNew(kernels().cumsum, x, d);
}

static Tensor cumprodKernel(const Tensor &t, int64_t dim, std::optional<ScalarType> dtype) {
  int d = checkedDim(t, dim);
  Tensor x = toType(t, dtype ? *dtype : accumulateType(t.dtype()));
  return intoNew(kernels().cumprod, x, d);
}

// ---- order statistics and sorting ----

static Tensor medianAllKernel(const Tensor &t) {
  checkNonEmptyDims(t, reductionDims(t, {}), "median");
  return zeroDim(t.dtype(), kernels().medianAll(t.device(), t.dtype(), t), t.device());
}

static ValuesIndices medianKernel(const Tensor &t, int64_t dim, bool keepdim) {
  int d = checkedDim(t, dim);
  checkNonEmptyDims(t, {d}, "median");
  return withIndices(kernels().median, t, d, keepdim);
}

static ValuesIndices modeKernel(const Tensor &t, int64_t dim, bool keepdim) {
  int d = checkedDim(t, dim);
  checkNonEmptyDims(t, {d}, "mode");
  return withIndices(kernels().mode, t, d, keepdim);
}

static ValuesIndices kthvalueKernel(const Tensor &t, int64_t k, int64_t dim, bool keepdim) {
  int d = checkedDim(t, dim);
  int64_t n = t.dim() == 0 ? 1 : t.size(d);
  TORCH_CHECK(k >= 1 && k <= n, Runtime,
              "kthvalue(): selected number k = %lld out of range for dimension %d of size %lld",
              static_cast<long long>(k), d, static_cast<long long>(n));
  return withIndices(kernels().kthvalue, t, k, d, keepdim);
}

static ValuesIndices sortKernel(const Tensor &t, int64_t dim, bool descending) {
  int d = checkedDim(t, dim);
  return withIndices(kernels().sort, t, d, descending);
}

Tensor argsort(const Tensor &t, int64_t dim, bool descending) { return sort(t, dim, descending).indices; }

static ValuesIndices topkKernel(const Tensor &t, int64_t k, int64_t dim, bool largest, bool sorted) {
  int d = checkedDim(t, dim);
  int64_t n = t.dim() == 0 ? 1 : t.size(d);
  TORCH_CHECK(k >= 0 && k <= n, Runtime, "topk(): selected index k = %lld out of range for dimension %d of size %lld",
              static_cast<long long>(k), d, static_cast<long long>(n));
  return withIndices(kernels().topk, t, k, d, largest, sorted);
}

UniqueResult unique(const Tensor &t, bool returnInverse, bool returnCounts) {
  ValuesIndices sorted = sort(reshape(t, {-1}), 0, false);
  UniqueResult r{empty({0}, t.dtype(), t.device()), empty(t.sizes(), ScalarType::Long, t.device()),
                 empty({0}, ScalarType::Long, t.device())};
  kernels().uniqueSorted(t.device(), t.dtype(), sorted.values, sorted.indices, r.values, r.inverse, r.counts);
  if (!returnInverse) r.inverse = Tensor();
  if (!returnCounts) r.counts = Tensor();
  return r;
}

UniqueResult unique(const Tensor &t, int64_t dim, bool returnInverse, bool returnCounts) {
  TORCH_CHECK(t.dim() > 0, Index, "Dimension specified as %lld but tensor has no dimensions",
              static_cast<long long>(dim));
  const int d = checkedDim(t, dim);
  const int64_t n = t.size(d);
  for (int j = 0; j < t.dim(); j++) {
    TORCH_CHECK(j == d || t.size(j) > 0 || n == 0, Runtime,
                "There are 0 sized dimensions, and they aren't selected, so unique cannot be applied");
  }
  UniqueResult r{Tensor(), empty({n}, ScalarType::Long, t.device()), empty({0}, ScalarType::Long, t.device())};
  if (n == 0) {
    r.values = clone(t);
  } else {
    Tensor rows = contiguous(reshape(movedim(t, {d}, {0}), {n, -1}));
    Tensor firsts = empty({0}, ScalarType::Long, t.device());
    kernels().uniqueRows(rows.device(), rows.dtype(), rows, firsts, r.inverse, r.counts);
    r.values = indexSelect(t, d, firsts);
  }
  if (!returnInverse) r.inverse = Tensor();
  if (!returnCounts) r.counts = Tensor();
  return r;
}

// ---- comparisons of whole tensors ----

static Tensor traceKernel(const Tensor &t) {
  TORCH_CHECK(t.dim() == 2, Runtime, "trace: expected a matrix, but got a tensor with sizes %s",
              t.sizeString().c_str());
  return zeroDim(accumulateType(t.dtype()), kernels().trace(t.device(), t.dtype(), t), t.device());
}

bool equal(const Tensor &a, const Tensor &b) {
  checkSameDevice("equal", a, b);
  if (!a.isSameSizeAs(b)) return false;
  ScalarType type = promoteTypes(a.dtype(), b.dtype());
  if (isComplex(type)) {
    Tensor same = complexCompare(CompareOp::Eq, a, b, type);
    return kernels().allAll(same.device(), same.dtype(), same).i != 0;
  }
  Tensor ca = toType(a, type), cb = toType(b, type);
  return kernels().equal(ca.device(), type, ca, cb);
}

Tensor isclose(const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan) {
  TORCH_CHECK(rtol >= 0 && atol >= 0, Runtime, "isclose(): rtol (%g) and atol (%g) must be non-negative", rtol, atol);
  ScalarType type = promoteTypes(a.dtype(), b.dtype());
  if (isComplex(type)) return complexIsclose(a, b, rtol, atol, equalNan);
  IntList shape = a.isSameSizeAs(b) ? a.sizes() : broadcastShapes(a.sizes(), b.sizes());
  Device device = resultDevice("isclose", a, b);
  Tensor ca = to(a, type, device), cb = to(b, type, device);
  if (!ca.hasSizes(shape)) ca = expand(ca, shape);
  if (!cb.hasSizes(shape)) cb = expand(cb, shape);
  Tensor r = empty(shape, ScalarType::Bool, device);
  kernels().isclose(ca.device(), type, r, ca, cb, rtol, atol, equalNan);
  return r;
}

bool allclose(const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan) {
  Tensor close = isclose(a, b, rtol, atol, equalNan);
  return kernels().allAll(close.device(), close.dtype(), close).i != 0;
}

// ---- recording (Note [Recording scope]): the public ops over the kernels above ----

Tensor sum(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype) {
  if (isComplex(t.dtype()) && (!dtype || *dtype == t.dtype())) return complexSum(t, dims, keepdim, false);
  RecordScope rec({&t});
  Tensor r = sumKernel(t, dims, keepdim, dtype);
  if (rec && isFloating(r.dtype())) derivatives::sum(t, reductionDims(t, dims), keepdim, r);
  return r;
}

Tensor prod(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype) {
  if (isComplex(t.dtype()) && (!dtype || *dtype == t.dtype())) return complexProd(t, dims, keepdim);
  RecordScope rec({&t});
  Tensor r = prodKernel(t, dims, keepdim, dtype);
  if (rec && isFloating(r.dtype())) derivatives::prod(t, reductionDims(t, dims), keepdim, r);
  return r;
}

Tensor mean(const Tensor &t, const IntList &dims, bool keepdim, std::optional<ScalarType> dtype) {
  if (isComplex(t.dtype()) && (!dtype || *dtype == t.dtype())) return complexSum(t, dims, keepdim, true);
  RecordScope rec({&t});
  Tensor r = meanKernel(t, dims, keepdim, dtype);
  if (rec) derivatives::mean(t, reductionDims(t, dims), keepdim, r);
  return r;
}

Tensor norm(const Tensor &t, double p, const IntList &dims, bool keepdim) {
  RecordScope rec({&t});
  Tensor r = normKernel(t, p, dims, keepdim);
  if (rec) derivatives::norm(t, p, reductionDims(t, dims), keepdim, r);
  return r;
}

Tensor logsumexp(const Tensor &t, const IntList &dims, bool keepdim) {
  RecordScope rec({&t});
  Tensor r = logsumexpKernel(t, dims, keepdim);
  if (rec) derivatives::logsumexp(t, reductionDims(t, dims), keepdim, r);
  return r;
}

Tensor cumsum(const Tensor &t, int64_t dim, std::optional<ScalarType> dtype) {
  if (isComplex(t.dtype()) && t.dim() > 0 && (!dtype || *dtype == t.dtype())) {
    return viewAsComplex(contiguous(cumsum(viewAsReal(t), wrapDim(dim, t.dim()))));  // real-linear
  }
  RecordScope rec({&t});
  Tensor r = cumsumKernel(t, dim, dtype);
  if (rec && isFloating(r.dtype())) derivatives::cumsum(t, t.dim() == 0 ? 0 : wrapDim(dim, t.dim()), r);
  return r;
}

Tensor cumprod(const Tensor &t, int64_t dim, std::optional<ScalarType> dtype) {
  RecordScope rec({&t});
  Tensor r = cumprodKernel(t, dim, dtype);
  if (rec && isFloating(r.dtype())) derivatives::cumprod(t, t.dim() == 0 ? 0 : wrapDim(dim, t.dim()), r);
  return r;
}

Tensor medianAll(const Tensor &t) {
  RecordScope rec({&t});
  Tensor r = medianAllKernel(t);
  if (rec) derivatives::extreme(t, reductionDims(t, {}), false, r);
  return r;
}

ValuesIndices median(const Tensor &t, int64_t dim, bool keepdim) {
  return pickedRecorded("median", t, dim, keepdim, [&] { return medianKernel(t, dim, keepdim); });
}

ValuesIndices mode(const Tensor &t, int64_t dim, bool keepdim) {
  return pickedRecorded("mode", t, dim, keepdim, [&] { return modeKernel(t, dim, keepdim); });
}

ValuesIndices kthvalue(const Tensor &t, int64_t k, int64_t dim, bool keepdim) {
  return pickedRecorded("kthvalue", t, dim, keepdim, [&] { return kthvalueKernel(t, k, dim, keepdim); });
}

ValuesIndices sort(const Tensor &t, int64_t dim, bool descending) {
  return pickedRecorded("sort", t, dim, true, [&] { return sortKernel(t, dim, descending); });
}

ValuesIndices topk(const Tensor &t, int64_t k, int64_t dim, bool largest, bool sorted) {
  return pickedRecorded("topk", t, dim, true, [&] { return topkKernel(t, k, dim, largest, sorted); });
}

Tensor trace(const Tensor &t) {
  RecordScope rec({&t});
  Tensor r = traceKernel(t);
  if (rec && isFloating(r.dtype())) derivatives::trace(t, r);
  return r;
}

}  // namespace torch
