#include "core/ops/Shape.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <numeric>

#include "autograd/Derivatives.h"
#include "core/Autocast.h"
#include "core/ops/Factory.h"
#include "core/ops/Indexing.h"
#include "core/ops/MathKernels.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"

namespace torch {

namespace {

template <typename E>
E *dataOf(const Tensor &t) {
  return reinterpret_cast<E *>(t.dataPtr());
}

bool legacyEmpty(const Tensor &t) { return t.dim() == 1 && t.size(0) == 0; }

void checkNonEmpty(const TensorList &tensors, const char *op) {
  TORCH_CHECK(!tensors.empty(), Runtime, "%s expects a non-empty TensorList", op);
}

// Keeps (tril) or drops (triu) below diagonal `offset` of the last two dims of in, into
// out of the same sizes; out may be in itself. Not TH's tril/triu: those take one matrix
// of an arithmetic type, this takes batches of any type: a mask of the kept positions
// (column - row against offset) selects between in and zero, on in's device.
void triangle(const Tensor &out, const Tensor &in, int64_t offset, bool upper, const char *op) {
  int nd = in.dim();
  TORCH_CHECK(nd >= 2, Runtime, "%s: input tensor must have at least 2 dimensions", op);
  NoGradGuard plain;  // the callers record the op themselves
  const int64_t rows = in.size(nd - 2), cols = in.size(nd - 1);
  Tensor row =
      view(arange(Scalar(int64_t(0)), Scalar(rows), Scalar(int64_t(1)), ScalarType::Long, in.device()), {rows, 1});
  Tensor col = arange(Scalar(int64_t(0)), Scalar(cols), Scalar(int64_t(1)), ScalarType::Long, in.device());
  Tensor diagonal = binary(BinaryOp::Sub, col, row);  // [rows, cols]: which diagonal each position is on
  Tensor keep = compare(upper ? CompareOp::Ge : CompareOp::Le, diagonal, Scalar(offset));
  copyValues_(out, where(keep, in, scalarTensor(Scalar(int64_t(0)), in.dtype(), in.device())));
}

Tensor triangleCopy(const Tensor &t, int64_t offset, bool upper, const char *op) {
  TORCH_CHECK(t.dim() >= 2, Runtime, "%s: input tensor must have at least 2 dimensions", op);
  Tensor r = emptyLike(t);
  triangle(r, t, offset, upper, op);
  return r;
}

Tensor triangleIndices(int64_t row, int64_t col, int64_t offset, ScalarType dtype, bool upper) {
  TORCH_CHECK(row >= 0, Runtime, "row must be non-negative, got%lld", static_cast<long long>(row));
  TORCH_CHECK(col >= 0, Runtime, "col must be non-negative, got%lld", static_cast<long long>(col));
  IntList rows, cols;
  for (int64_t i = 0; i < row; i++) {
    // tril: columns 0 .. i + offset; triu: i + offset .. col - 1
    int64_t lo = upper ? std::max<int64_t>(i + offset, 0) : 0;
    int64_t hi = upper ? col : std::min<int64_t>(i + offset + 1, col);
    for (int64_t j = lo; j < hi; j++) {
      rows.push_back(i);
      cols.push_back(j);
    }
  }
  int64_t n = static_cast<int64_t>(rows.size());
  Tensor r = empty({2, n}, ScalarType::Long, Device::CPU);  // a factory, computed on the host
  int64_t *p = dataOf<int64_t>(r);
  std::copy(rows.begin(), rows.end(), p);
  std::copy(cols.begin(), cols.end(), p + n);
  return toType(r, dtype);
}

// t with sizes padded by leading ones to nd dimensions (a view).
Tensor padDims(const Tensor &t, int nd) {
  Tensor r = t;
  while (r.dim() < nd) r = unsqueeze(r, 0);
  return r;
}

// t as 1-D (a view when possible), for the ops whose absent dim means "flattened".
Tensor flat(const Tensor &t) { return reshape(t, {-1}); }

}  // namespace

// ---- joining ----

ScalarType resultType(const TensorList &tensors) {
  ScalarType type = tensors.front().dtype();
  for (const Tensor &t : tensors) type = promoteTypes(type, t.dtype());
  return type;
}

static Tensor catKernel(const TensorList &tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), Runtime, "torch.cat(): expected a non-empty list of Tensors");
  for (size_t i = 0; i < tensors.size(); i++) {
    TORCH_CHECK(tensors[i].dim() > 0, Runtime, "zero-dimensional tensor (at position %zu) cannot be concatenated", i);
  }
  ScalarType type = resultType(tensors);
  const Tensor *ref = nullptr;
  for (const Tensor &t : tensors) {
    if (!legacyEmpty(t)) {
      ref = &t;
      break;
    }
  }
  if (!ref) return empty({0}, type, tensors[0].device());  // Note [Legacy cat]: nothing but legacy empties
  int d = wrapDim(dim, ref->dim());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); i++) {
    const Tensor &t = tensors[i];
    if (legacyEmpty(t)) continue;
    checkSameDevice("cat", *ref, t);
    TORCH_CHECK(t.dim() == ref->dim(), Runtime, "Tensors must have same number of dimensions: got %d and %d",
                ref->dim(), t.dim());
    for (int k = 0; k < t.dim(); k++) {
      if (k == d) continue;
      TORCH_CHECK(t.size(k) == ref->size(k), Runtime,
                  "Sizes of tensors must match except in dimension %d. Expected size %lld but got size %lld for "
                  "tensor number %zu in the list (sizes %s and %s).",
                  d, static_cast<long long>(ref->size(k)), static_cast<long long>(t.size(k)), i,
                  ref->sizeString().c_str(), t.sizeString().c_str());
    }
    total += t.size(d);
  }
  IntList shape = ref->sizes();
  shape[d] = total;
  Tensor out = empty(shape, type, ref->device());
  int64_t offset = 0;
  for (const Tensor &t : tensors) {
    if (legacyEmpty(t)) continue;
    if (t.size(d) > 0 && t.numel() > 0) copy_(narrow(out, d, offset, t.size(d)), t);
    offset += t.size(d);
  }
  return out;
}

Tensor stack(const TensorList &tensors, int64_t dim) {
  if (autocast::on(tensors)) {
    return autocast::run(
        autocast::Policy::Promote, [](auto &&...x) { return stack(x...); }, tensors, dim);
  }
  checkNonEmpty(tensors, "stack");
  int d = wrapDim(dim, tensors[0].dim() + 1);
  TensorList parts;
  for (size_t i = 0; i < tensors.size(); i++) {
    TORCH_CHECK(tensors[i].isSameSizeAs(tensors[0]), Runtime,
                "stack expects each tensor to be equal size, but got %s at entry 0 and %s at entry %zu",
                tensors[0].sizeString().c_str(), tensors[i].sizeString().c_str(), i);
    parts.push_back(unsqueeze(tensors[i], d));
  }
  return cat(parts, d);
}

Tensor atleast1d(const Tensor &t) { return t.dim() == 0 ? unsqueeze(t, 0) : t; }

Tensor atleast2d(const Tensor &t) {
  if (t.dim() <= 1) return unsqueeze(atleast1d(t), 0);
  return t;
}

Tensor atleast3d(const Tensor &t) {
  if (t.dim() <= 1) return unsqueeze(atleast2d(t), 2);
  if (t.dim() == 2) return unsqueeze(t, 2);
  return t;
}

Tensor hstack(const TensorList &tensors) {
  checkNonEmpty(tensors, "hstack");
  TensorList parts;
  for (const Tensor &t : tensors) parts.push_back(atleast1d(t));
  return cat(parts, parts[0].dim() == 1 ? 0 : 1);
}

Tensor vstack(const TensorList &tensors) {
  checkNonEmpty(tensors, "vstack");
  TensorList parts;
  for (const Tensor &t : tensors) parts.push_back(atleast2d(t));
  return cat(parts, 0);
}

Tensor dstack(const TensorList &tensors) {
  checkNonEmpty(tensors, "dstack");
  TensorList parts;
  for (const Tensor &t : tensors) parts.push_back(atleast3d(t));
  return cat(parts, 2);
}

Tensor columnStack(const TensorList &tensors) {
  checkNonEmpty(tensors, "column_stack");
  TensorList parts;
  for (const Tensor &t : tensors) parts.push_back(t.dim() <= 1 ? reshape(t, {t.numel(), 1}) : t);
  return cat(parts, 1);
}

// ---- diagonals and triangles ----

Tensor diagonal(const Tensor &t, int64_t offset, int64_t dim1, int64_t dim2) {
  int d1 = wrapDim(dim1, t.dim()), d2 = wrapDim(dim2, t.dim());
  TORCH_CHECK(d1 != d2, Runtime, "diagonal dimensions cannot be identical %lld, %lld", static_cast<long long>(dim1),
              static_cast<long long>(dim2));
  int64_t n1 = t.size(d1), n2 = t.size(d2);
  int64_t length = offset >= 0 ? std::min(n1, n2 - offset) : std::min(n1 + offset, n2);
  length = std::max<int64_t>(length, 0);
  int64_t start = t.storageOffset();
  if (length > 0) start += offset >= 0 ? offset * t.stride(d2) : -offset * t.stride(d1);
  IntList sizes = t.sizes(), strides = t.strides();
  int64_t step = t.stride(d1) + t.stride(d2);
  for (int d : {std::max(d1, d2), std::min(d1, d2)}) {
    sizes.erase(sizes.begin() + d);
    strides.erase(strides.begin() + d);
  }
  sizes.push_back(length);
  strides.push_back(step);
  return asStrided(t, sizes, strides, start);
}

Tensor diag(const Tensor &t, int64_t offset) {
  TORCH_CHECK(t.dim() == 1 || t.dim() == 2, Runtime, "diag(): Supports 1D or 2D tensors. Got %dD", t.dim());
  if (t.dim() == 2) return clone(diagonal(t, offset, 0, 1));
  int64_t n = t.size(0) + std::abs(offset);
  Tensor r = zeros({n, n}, t.dtype(), t.device());
  copy_(diagonal(r, offset, 0, 1), t);
  return r;
}

Tensor diagEmbed(const Tensor &t, int64_t offset, int64_t dim1, int64_t dim2) {
  TORCH_CHECK(t.dim() >= 1, Index, "diag_embed(): expected a tensor with at least 1 dimension, got a 0-dim tensor");
  int nd = t.dim() + 1;
  int d1 = wrapDim(dim1, nd), d2 = wrapDim(dim2, nd);
  TORCH_CHECK(d1 != d2, Runtime, "diagonal dimensions cannot be identical %lld, %lld", static_cast<long long>(dim1),
              static_cast<long long>(dim2));
  int64_t n = t.size(t.dim() - 1) + std::abs(offset);
  IntList sizes = t.sizes();
  sizes.pop_back();
  sizes.insert(sizes.begin() + std::min(d1, d2), n);
  sizes.insert(sizes.begin() + std::max(d1, d2), n);
  Tensor r = zeros(sizes, t.dtype(), t.device());
  copy_(diagonal(r, offset, d1, d2), t);
  return r;
}

Tensor diagflat(const Tensor &t, int64_t offset) { return diag(flat(t), offset); }

static Tensor triangleRecorded(const Tensor &t, int64_t offset, bool upper) {
  RecordScope rec({&t});
  Tensor r = triangleCopy(t, offset, upper, upper ? "triu" : "tril");
  if (rec) derivatives::triangle(upper, t, offset, r);
  return r;
}

static void triangleInPlace(const Tensor &t, int64_t offset, bool upper) {
  if (beginInplace(t, needsRecording({&t}))) {
    inplaceWithHistory(t, [&](const Tensor &before) { return triangleRecorded(before, offset, upper); });
    return;
  }
  triangle(t, t, offset, upper, upper ? "triu_" : "tril_");
}

Tensor tril(const Tensor &t, int64_t offset) { return triangleRecorded(t, offset, false); }
Tensor triu(const Tensor &t, int64_t offset) { return triangleRecorded(t, offset, true); }
void tril_(const Tensor &t, int64_t offset) { triangleInPlace(t, offset, false); }
void triu_(const Tensor &t, int64_t offset) { triangleInPlace(t, offset, true); }

Tensor trilIndices(int64_t row, int64_t col, int64_t offset, ScalarType dtype) {
  return triangleIndices(row, col, offset, dtype, false);
}
Tensor triuIndices(int64_t row, int64_t col, int64_t offset, ScalarType dtype) {
  return triangleIndices(row, col, offset, dtype, true);
}

// ---- products and statistics ----

static Tensor crossKernel(const Tensor &a, const Tensor &b, std::optional<int64_t> dim) {
  TORCH_CHECK(a.dim() == b.dim(), Runtime,
              "linalg.cross: inputs must have the same number of dimensions (got sizes %s and %s)",
              a.sizeString().c_str(), b.sizeString().c_str());
  TORCH_CHECK(a.dtype() == b.dtype(), Runtime, "cross: expected both inputs to have the same dtype, got %s and %s",
              scalarTypeName(a.dtype()), scalarTypeName(b.dtype()));
  TORCH_CHECK(a.dtype() != ScalarType::Bool, Type, "cross is not implemented for Bool tensors");
  TORCH_CHECK(a.dim() > 0, Index, "cross: expected tensors with at least 1 dimension, got 0-dim tensors");
  int d = -1;
  if (dim) {
    d = wrapDim(*dim, a.dim());
  } else {
    for (int k = 0; k < a.dim() && d < 0; k++) {
      if (a.size(k) == 3) d = k;
    }
    TORCH_CHECK(d >= 0, Runtime, "no dimension of size 3 in input (sizes %s)", a.sizeString().c_str());
  }
  TORCH_CHECK(a.size(d) == 3 && b.size(d) == 3, Runtime,
              "linalg.cross: inputs dimension %d must have length 3. Got %lld and %lld", d,
              static_cast<long long>(a.size(d)), static_cast<long long>(b.size(d)));
  IntList shape = broadcastShapes(a.sizes(), b.sizes());
  Tensor x = expand(a, shape), y = expand(b, shape);
  Tensor r = empty({0}, a.dtype(), a.device());
  mathKernels().cross(x.device(), x.dtype(), r, x, y, d);
  return r;
}

// PyTorch's bin rule (MathKernels::histc).
Tensor histc(const Tensor &t, int64_t bins, double min, double max) {
  TORCH_CHECK(bins > 0, Runtime, "torch.histc: bins must be > 0, but got %lld for dimension 0",
              static_cast<long long>(bins));
  Tensor r = empty({0}, t.dtype(), t.device());
  mathKernels().histc(t.device(), t.dtype(), r, t, bins, min, max);
  return r;
}

namespace {

int checkRenorm(const Tensor &t, double p, int64_t dim, double maxnorm) {
  TORCH_CHECK(hasFloatingKernels(t.dtype()), Type, "renorm is only implemented for floating point tensors (got %s)",
              scalarTypeName(t.dtype()));
  TORCH_CHECK(t.dim() > 1, Runtime, "renorm: input needs at least 2 dimensions, got %d dimensions", t.dim());
  int d = wrapDim(dim, t.dim());
  TORCH_CHECK(p > 0, Runtime, "renorm: non-positive-norm not supported (got p = %g)", p);
  TORCH_CHECK(maxnorm >= 0, Runtime, "renorm: expected maxnorm to be >= 0 but got %g", maxnorm);
  return d;
}

void renormInto(const Tensor &r, const Tensor &t, double p, int d, double maxnorm) {
  mathKernels().renorm(t.device(), t.dtype(), r, t, p, d, maxnorm);
}

}  // namespace

Tensor renorm(const Tensor &t, double p, int64_t dim, double maxnorm) {
  int d = checkRenorm(t, p, dim, maxnorm);
  if (needsRecording({&t})) {
    // Recorded through its definition: each slice along d scaled by maxnorm / (norm + 1e-7)
    // where its p-norm exceeds maxnorm (TH's kernel does the same in one pass).
    IntList others;
    for (int k = 0; k < t.dim(); k++) {
      if (k != d) others.push_back(k);
    }
    Tensor norms = norm(t, p, others, true);
    Tensor scale = binary(BinaryOp::Div, Scalar(maxnorm), binary(BinaryOp::Add, norms, Scalar(1e-7)));
    Tensor ones = empty(norms.sizes(), t.dtype(), t.device());
    fill_(ones, Scalar(int64_t(1)));
    return binary(BinaryOp::Mul, t, where(compare(CompareOp::Gt, norms, Scalar(maxnorm)), scale, ones));
  }
  Tensor r = empty({0}, t.dtype(), t.device());
  renormInto(r, t, p, d, maxnorm);
  return r;
}

void renorm_(const Tensor &t, double p, int64_t dim, double maxnorm) {
  int d = checkRenorm(t, p, dim, maxnorm);
  if (beginInplace(t, needsRecording({&t}))) {
    inplaceWithHistory(t, [&](const Tensor &before) { return renorm(before, p, d, maxnorm); });
    return;
  }
  renormInto(t, t, p, d, maxnorm);
}

// a's and b's dims interleaved ([a0, 1, a1, 1, ...] times [1, b0, 1, b1, ...]) so that one
// broadcast product holds every a[i] * b[j], then merged pairwise.
Tensor kron(const Tensor &a, const Tensor &b) {
  int nd = std::max(a.dim(), b.dim());
  Tensor x = padDims(a, nd), y = padDims(b, nd);
  IntList xs, ys, merged;
  for (int d = 0; d < nd; d++) {
    xs.insert(xs.end(), {x.size(d), 1});
    ys.insert(ys.end(), {1, y.size(d)});
    merged.push_back(x.size(d) * y.size(d));
  }
  return reshape(binary(BinaryOp::Mul, reshape(x, xs), reshape(y, ys)), merged);
}

// ---- reordering ----

static Tensor flipKernel(const Tensor &t, const IntList &dims) {
  int nd = t.dim();
  std::vector<bool> flipped(std::max(nd, 1), false);
  for (int64_t d : dims) {
    int w = wrapDim(d, nd);
    TORCH_CHECK(!flipped[w], Runtime, "dim %d appears multiple times in the list of dims", w);
    flipped[w] = true;
  }
  if (t.numel() == 0 || nd == 0) return clone(t);
  // Half and BFloat16 have no index kernels: their values go through Float exactly.
  if (isReducedFloat(t.dtype())) return toType(flipKernel(toType(t, ScalarType::Float), dims), t.dtype());
  // Each flipped dim read through a reversed index (TH's strides cannot be negative).
  Tensor r = t;
  for (int d = 0; d < nd; d++) {
    if (!flipped[d] || t.size(d) < 2) continue;
    Tensor reversed =
        arange(Scalar(t.size(d) - 1), Scalar(int64_t(-1)), Scalar(int64_t(-1)), ScalarType::Long, t.device());
    r = indexSelect(r, d, reversed);
  }
  return r.isSameAs(t) ? clone(t) : r;
}

Tensor fliplr(const Tensor &t) {
  TORCH_CHECK(t.dim() >= 2, Runtime, "Input must be >= 2-d.");
  return flip(t, {1});
}

Tensor flipud(const Tensor &t) {
  TORCH_CHECK(t.dim() >= 1, Runtime, "Input must be >= 1-d.");
  return flip(t, {0});
}

Tensor roll(const Tensor &t, const IntList &shifts, const IntList &dims) {
  if (dims.empty()) {
    TORCH_CHECK(shifts.size() == 1, Runtime, "shifts and dimensions must align. shifts: %zu, dims:0", shifts.size());
    return view(roll(flat(t), shifts, {0}), t.sizes());
  }
  TORCH_CHECK(shifts.size() == dims.size(), Runtime, "shifts and dimensions must align. shifts: %zu, dims:%zu",
              shifts.size(), dims.size());
  int nd = t.dim();
  IntList shift(std::max(nd, 1), 0);
  for (size_t i = 0; i < dims.size(); i++) shift[wrapDim(dims[i], nd)] += shifts[i];
  if (nd == 0 || t.numel() == 0) return clone(t);
  // Along a rolled dim of size n with shift s: out[s:] = t[:n-s] and out[:s] = t[n-s:].
  // Every combination of those two halves over the rolled dims is one block copy.
  std::vector<int> rolled;
  for (int d = 0; d < nd; d++) {
    int64_t n = t.size(d);
    shift[d] = ((shift[d] % n) + n) % n;
    if (shift[d] != 0) rolled.push_back(d);
  }
  Tensor r = emptyLike(t);
  for (int64_t block = 0; block < (int64_t(1) << rolled.size()); block++) {
    Tensor src = t, dst = r;
    for (size_t k = 0; k < rolled.size(); k++) {
      int d = rolled[k];
      int64_t n = t.size(d), s = shift[d];
      if (block >> k & 1) {
        src = narrow(src, d, n - s, s);
        dst = narrow(dst, d, 0, s);
      } else {
        src = narrow(src, d, 0, n - s);
        dst = narrow(dst, d, s, n - s);
      }
    }
    copy_(dst, src);
  }
  return r;
}

Tensor rot90(const Tensor &t, int64_t k, const IntList &dims) {
  TORCH_CHECK(dims.size() == 2, Runtime, "expected total rotation dims == 2, but got dims = %zu", dims.size());
  int64_t nd = t.dim();
  TORCH_CHECK(nd >= 2, Runtime, "expected total dims >= 2, but got total dims = %lld", static_cast<long long>(nd));
  TORCH_CHECK(dims[0] != dims[1] && std::abs(dims[0] - dims[1]) != nd, Runtime,
              "expected rotation dims to be different, but got dim0 = %lld and dim1 = %lld",
              static_cast<long long>(dims[0]), static_cast<long long>(dims[1]));
  TORCH_CHECK(dims[0] < nd && dims[0] >= -nd, Runtime, "Rotation dim0 out of range, dim0 = %lld",
              static_cast<long long>(dims[0]));
  TORCH_CHECK(dims[1] < nd && dims[1] >= -nd, Runtime, "Rotation dim1 out of range, dim1 = %lld",
              static_cast<long long>(dims[1]));
  switch (((k % 4) + 4) % 4) {
    case 1: return transpose(flip(t, {dims[1]}), dims[0], dims[1]);
    case 2: return flip(t, dims);
    case 3: return transpose(flip(t, {dims[0]}), dims[0], dims[1]);
    default: return clone(t);
  }
}

// ---- repetition ----

// The result seen as [r0, s0, r1, s1, ...] (a view of its contiguous memory) takes t seen
// as [1, s0, 1, s1, ...] expanded: one copy.
Tensor repeat(const Tensor &t, const IntList &repeats) {
  TORCH_CHECK(static_cast<int>(repeats.size()) >= t.dim(), Runtime,
              "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor (got %zu "
              "repeats for sizes %s)",
              repeats.size(), t.sizeString().c_str());
  for (int64_t r : repeats) {
    TORCH_CHECK(r >= 0, Runtime, "Trying to create tensor with negative dimension %lld: %s", static_cast<long long>(r),
                shapeString(repeats).c_str());
  }
  Tensor x = padDims(t, static_cast<int>(repeats.size()));
  IntList outSizes, pairs, srcStrides;
  for (int d = 0; d < x.dim(); d++) {
    outSizes.push_back(repeats[d] * x.size(d));
    pairs.insert(pairs.end(), {repeats[d], x.size(d)});
    srcStrides.insert(srcStrides.end(), {0, x.stride(d)});
  }
  Tensor r = empty(outSizes, t.dtype(), t.device());
  if (r.numel() == 0) return r;
  copy_(view(r, pairs), asStrided(x, pairs, srcStrides, x.storageOffset()));
  return r;
}

Tensor tile(const Tensor &t, const IntList &reps) {
  IntList full = reps;
  if (static_cast<int>(full.size()) < t.dim()) full.insert(full.begin(), t.dim() - full.size(), 1);
  return repeat(t, full);
}

Tensor repeatInterleave(const Tensor &t, int64_t repeats, std::optional<int64_t> dim) {
  TORCH_CHECK(repeats >= 0, Runtime, "repeats can not be negative (got %lld)", static_cast<long long>(repeats));
  Tensor x = dim && t.dim() > 0 ? t : flat(t);
  int d = dim && t.dim() > 0 ? wrapDim(*dim, t.dim()) : 0;
  if (dim && t.dim() == 0) wrapDim(*dim, 0);
  IntList sizes = x.sizes(), split = x.sizes();
  sizes[d] *= repeats;
  split.insert(split.begin() + d + 1, repeats);
  Tensor r = empty(sizes, t.dtype(), t.device());
  if (r.numel() == 0) return r;
  copy_(view(r, split), expand(unsqueeze(x, d + 1), split));
  return r;
}

namespace {

// The counts of a repeats tensor as contiguous Long, checked.
Tensor countsOf(const Tensor &repeats) {
  TORCH_CHECK(repeats.dtype() == ScalarType::Long || repeats.dtype() == ScalarType::Int, Runtime,
              "repeats has to be Long or Int tensor (got %s)", scalarTypeName(repeats.dtype()));
  TORCH_CHECK(repeats.dim() <= 1, Runtime, "repeat_interleave only accept 1D vector as repeat (got sizes %s)",
              repeats.sizeString().c_str());
  Tensor counts = contiguous(to(repeats, ScalarType::Long, Device::CPU));  // read on the host
  const int64_t *c = dataOf<int64_t>(counts);
  for (int64_t i = 0; i < counts.numel(); i++) {
    TORCH_CHECK(c[i] >= 0, Runtime, "repeats can not be negative (got %lld at index %lld)",
                static_cast<long long>(c[i]), static_cast<long long>(i));
  }
  return counts;
}

}  // namespace

Tensor repeatInterleave(const Tensor &repeats) {
  TORCH_CHECK(repeats.dim() == 1, Runtime, "repeat_interleave only accept 1D vector as repeat (got sizes %s)",
              repeats.sizeString().c_str());
  Tensor counts = countsOf(repeats);
  const int64_t *c = dataOf<int64_t>(counts);
  const int64_t n = counts.numel();
  Tensor r = empty({std::accumulate(c, c + n, int64_t(0))}, ScalarType::Long, Device::CPU);
  int64_t *p = dataOf<int64_t>(r);
  for (int64_t i = 0; i < n; i++) p = std::fill_n(p, c[i], i);
  return to(r, ScalarType::Long, repeats.device());
}

Tensor repeatInterleave(const Tensor &t, const Tensor &repeats, std::optional<int64_t> dim) {
  Tensor counts = countsOf(repeats);
  if (counts.numel() == 1) return repeatInterleave(t, item(counts).i, dim);
  Tensor x = dim && t.dim() > 0 ? t : flat(t);
  int d = dim && t.dim() > 0 ? wrapDim(*dim, t.dim()) : 0;
  const int64_t n = x.size(d);
  TORCH_CHECK(counts.numel() == n, Runtime,
              "repeats must have the same size as input along dim, but got repeats.size(0) = %lld and "
              "input.size(%d) = %lld",
              static_cast<long long>(counts.numel()), d, static_cast<long long>(n));
  // block i along d taken c[i] times: an index_select, so that it runs on x's device
  Tensor positions = to(repeatInterleave(counts), ScalarType::Long, x.device());
  return indexSelect(x, d, positions);
}

// ---- grids ----

TensorList meshgrid(const TensorList &tensors, bool xy) {
  TORCH_CHECK(!tensors.empty(), Runtime, "torch.meshgrid: expects a non-empty TensorList");
  for (const Tensor &t : tensors) {
    TORCH_CHECK(t.dim() <= 1, Runtime,
                "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got a tensor "
                "of sizes %s",
                t.sizeString().c_str());
    TORCH_CHECK(t.dtype() == tensors[0].dtype(), Runtime,
                "torch.meshgrid: Expected all tensors in the tensor list to have the same dtype (got %s and %s)",
                scalarTypeName(tensors[0].dtype()), scalarTypeName(t.dtype()));
  }
  // "xy" is "ij" over the inputs with the first two swapped, and their grids swapped back.
  const bool swap = xy && tensors.size() >= 2;
  TensorList in = tensors;
  if (swap) std::swap(in[0], in[1]);
  IntList shape;
  for (const Tensor &t : in) shape.push_back(t.numel());
  TensorList grids;
  for (size_t i = 0; i < in.size(); i++) {
    IntList single(in.size(), 1);
    single[i] = shape[i];
    grids.push_back(expand(view(atleast1d(in[i]), single), shape));
  }
  if (swap) std::swap(grids[0], grids[1]);
  return grids;
}

// ---- dimension moves ----

Tensor movedim(const Tensor &t, const IntList &source, const IntList &destination) {
  TORCH_CHECK(source.size() == destination.size(), Runtime,
              "movedim: Invalid source or destination dims: source (%s dims) should contain the same number of dims "
              "as destination (%s dims)",
              shapeString(source).c_str(), shapeString(destination).c_str());
  int nd = t.dim();
  std::vector<int> src, dst;
  std::vector<bool> srcSeen(std::max(nd, 1), false), dstSeen(std::max(nd, 1), false);
  for (size_t i = 0; i < source.size(); i++) {
    int s = wrapDim(source[i], nd), d = wrapDim(destination[i], nd);
    TORCH_CHECK(!srcSeen[s], Runtime, "movedim: repeated dim in `source` (%s)", shapeString(source).c_str());
    TORCH_CHECK(!dstSeen[d], Runtime, "movedim: repeated dim in `destination` (%s)", shapeString(destination).c_str());
    srcSeen[s] = dstSeen[d] = true;
    src.push_back(s);
    dst.push_back(d);
  }
  if (nd == 0) return alias(t);
  IntList order(nd, -1);
  for (size_t i = 0; i < src.size(); i++) order[dst[i]] = src[i];
  // The dims that do not move keep their relative order in the free places.
  int next = 0;
  for (int d = 0; d < nd; d++) {
    if (srcSeen[d]) continue;
    while (order[next] != -1) next++;
    order[next] = d;
  }
  return permute(t, order);
}

Tensor unflatten(const Tensor &t, int64_t dim, const IntList &sizes) {
  TORCH_CHECK(t.dim() > 0, Index, "unflatten: cannot unflatten a 0-dim tensor");
  int d = wrapDim(dim, t.dim());
  TORCH_CHECK(!sizes.empty(), Runtime, "unflatten: sizes must be non-empty");
  IntList split = sizes;
  int infer = -1;
  int64_t known = 1;
  for (size_t i = 0; i < split.size(); i++) {
    if (split[i] == -1) {
      TORCH_CHECK(infer < 0, Runtime, "unflatten: only one dimension can be inferred");
      infer = static_cast<int>(i);
    } else {
      TORCH_CHECK(split[i] >= 0, Runtime, "unflatten: invalid size %lld", static_cast<long long>(split[i]));
      known *= split[i];
    }
  }
  int64_t n = t.size(d);
  bool fits = infer >= 0 ? known > 0 && n % known == 0 : known == n;
  TORCH_CHECK(fits, Runtime,
              "unflatten: Provided sizes %s don't multiply up to the size of dim %d (%lld) in the "
              "input tensor",
              shapeString(sizes).c_str(), d, static_cast<long long>(n));
  if (infer >= 0) split[infer] = n / known;
  IntList shape = t.sizes();
  shape.erase(shape.begin() + d);
  shape.insert(shape.begin() + d, split.begin(), split.end());
  return view(t, shape);
}

TensorList splitWithSizes(const Tensor &t, const IntList &sizes, int64_t dim, const char *node) {
  TORCH_CHECK(t.dim() > 0, Runtime, "split: cannot split a 0-dim tensor");
  const int d = wrapDim(dim, t.dim());
  int64_t total = 0;
  for (int64_t s : sizes) {
    TORCH_CHECK(s >= 0, Runtime, "split_with_sizes expects split_sizes have only non-negative entries, but got %s",
                shapeString(sizes).c_str());
    total += s;
  }
  TORCH_CHECK(total == t.size(d), Runtime,
              "split_with_sizes expects split_sizes to sum exactly to %lld (input tensor's size at dimension %d), "
              "but got split_sizes=%s",
              static_cast<long long>(t.size(d)), d, shapeString(sizes).c_str());
  TensorList parts;
  {
    NoGradGuard plain;  // views of t all the same; recorded below as one node
    int64_t start = 0;
    for (int64_t s : sizes) {
      parts.push_back(narrow(t, d, start, s));
      start += s;
    }
  }
  // The engine gives every output a gradient (zeros where none arrived): one cat joins them.
  if (needsRecording({&t})) record(node, {t}, parts, [d](const TensorList &g) { return TensorList{cat(g, d)}; });
  return parts;
}

TensorList unbind(const Tensor &t, int64_t dim) {
  TORCH_CHECK(t.dim() > 0, Index, "Dimension specified as 0 but tensor has no dimensions");
  const int d = wrapDim(dim, t.dim());
  TensorList parts;
  {
    NoGradGuard plain;  // as in splitWithSizes: one node for all the slices
    for (int64_t i = 0; i < t.size(d); i++) parts.push_back(select(t, d, i));
  }
  // A select per step would give each slice a backward that zero-fills all of t and the
  // engine a full-size add per slice: quadratic in the number of slices (an RNN's steps).
  if (needsRecording({&t})) record("Unbind", {t}, parts, [d](const TensorList &g) { return TensorList{stack(g, d)}; });
  return parts;
}

Tensor narrowCopy(const Tensor &t, int64_t dim, int64_t start, int64_t length) {
  return clone(narrow(t, dim, start, length));
}

// ---- in-place geometry changes ----
// They rewrite the header alone, whose layout every tensor shares whatever its type or
// device (THC's too: Note [CUDA tensors have TH's layout]), so they need no kernel.

void transpose_(const Tensor &t, int64_t dim0, int64_t dim1) {
  int d0 = wrapDim(dim0, t.dim()), d1 = wrapDim(dim1, t.dim());
  if (t.dim() == 0) return;
  TH<uint8_t>::transpose(t.raw(), nullptr, d0, d1);
}

void t_(const Tensor &t) {
  TORCH_CHECK(t.dim() <= 2, Runtime, "t_() expects a tensor with <= 2 dimensions, but self is %dD", t.dim());
  if (t.dim() == 2) transpose_(t, 0, 1);
}

void squeeze_(const Tensor &t) { TH<uint8_t>::squeeze(t.raw(), nullptr); }

void squeeze_(const Tensor &t, int64_t dim) {
  int d = wrapDim(dim, t.dim());
  if (t.dim() == 0) return;
  TH<uint8_t>::squeeze1d(t.raw(), nullptr, d);
}

void unsqueeze_(const Tensor &t, int64_t dim) {
  int d = wrapDim(dim, t.dim() + 1);
  TH<uint8_t>::unsqueeze1d(t.raw(), nullptr, d);
}

// ---- recording (Note [Recording scope]) ----

Tensor cat(const TensorList &tensors, int64_t dim) {
  if (autocast::on(tensors)) {
    return autocast::run(
        autocast::Policy::Promote, [](auto &&...x) { return cat(x...); }, tensors, dim);
  }
  bool record = GradMode::enabled();
  if (record) {
    record = false;
    for (const Tensor &t : tensors) record = record || requiresGrad(t);
  }
  NoGradGuard plain;
  Tensor r = catKernel(tensors, dim);
  if (record && isFloating(r.dtype())) {
    GradModeGuard on(true);
    derivatives::cat(tensors, r.dim() > 0 ? wrapDim(dim, r.dim()) : 0, r);
  }
  return r;
}

Tensor flip(const Tensor &t, const IntList &dims) {
  RecordScope rec({&t});
  Tensor r = flipKernel(t, dims);
  if (rec) derivatives::rearranged("flip", t, r, [dims](const Tensor &x) { return flipKernel(x, dims); });
  return r;
}

Tensor cross(const Tensor &a, const Tensor &b, std::optional<int64_t> dim) {
  RecordScope rec({&a, &b});
  Tensor r = crossKernel(a, b, dim);
  if (rec) {
    int d = -1;
    if (dim) d = wrapDim(*dim, a.dim());
    for (int k = 0; k < a.dim() && d < 0; k++) {
      if (a.size(k) == 3) d = k;
    }
    derivatives::cross(a, b, d, r);
  }
  return r;
}

}  // namespace torch
