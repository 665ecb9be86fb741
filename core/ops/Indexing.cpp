#include "core/ops/Indexing.h"

#include <algorithm>

#include "autograd/Derivatives.h"
#include "core/ops/Complex.h"
#include "core/ops/CopyKernels.h"
#include "core/ops/IndexKernels.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"

namespace torch {

IndexKernels &indexKernels() {
  static IndexKernels *tables = [] {
    auto *t = new IndexKernels();  // never destroyed: kernels may run during exit
    cpu::registerIndexKernels(*t);
    return t;
  }();
  return *tables;
}

namespace {

IndexKernels &kernels() { return indexKernels(); }

[[noreturn]] void outOfRange(int64_t index, int dim, int64_t size) {
  fail(th::ErrorKind::Index, "index %lld is out of range for dimension %d with size %lld",
       static_cast<long long>(index), dim, static_cast<long long>(size));
}

bool isMask(const Tensor &t) { return t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::Byte; }

// Sums in a bool tensor (accumulating index ops run on bytes) become 1.
void normalizeBool(const Tensor &t) {
  if (t.dtype() == ScalarType::Bool) copyKernels().boolFromBytes(t.device(), t.dtype(), t);
}

// ---- t[key]: basic indices first, then the advanced ones ----

// self with the basic indices applied, and for every dimension of that view the Long
// index tensor that indexes it (undefined where none does).
struct Indexed {
  Tensor view;
  std::vector<Tensor> advanced;
  bool hasAdvanced = false;
};

Indexed applyBasic(const Tensor &self, const std::vector<TensorIndex> &key) {
  int consumed = 0, ellipses = 0;
  for (const TensorIndex &x : key) {
    switch (x.kind) {
      case TensorIndex::Kind::Int:
      case TensorIndex::Kind::Slice: consumed++; break;
      case TensorIndex::Kind::Tensor: consumed += isMask(x.tensor) ? x.tensor.dim() : 1; break;
      case TensorIndex::Kind::Ellipsis: ellipses++; break;
      default: break;
    }
  }
  TORCH_CHECK(ellipses <= 1, Index, "an index can only have a single ellipsis ('...')");
  TORCH_CHECK(consumed <= self.dim(), Index, "too many indices for tensor of dimension %d", self.dim());

  Indexed r;
  r.view = self;
  int dim = 0;      // the next dimension of r.view to index
  int selfDim = 0;  // the dimension of self it comes from, for messages
  auto record = [&](Tensor index) {
    r.advanced.resize(dim + 1);
    r.advanced[dim] = std::move(index);
    r.hasAdvanced = true;
    dim++;
  };
  // A boolean: a new dimension of size 1, indexed by [0] (true) or [] (false).
  auto boolAxis = [&](bool keep) {
    r.view = unsqueeze(r.view, dim);
    Tensor positions = empty({keep ? 1 : 0}, ScalarType::Long, self.device());
    if (keep) zero_(positions);
    record(std::move(positions));
  };
  for (const TensorIndex &x : key) {
    switch (x.kind) {
      case TensorIndex::Kind::Int: {
        int64_t n = r.view.size(dim);
        if (x.start < -n || x.start >= n) outOfRange(x.start, selfDim, n);
        r.view = select(r.view, dim, x.start);
        selfDim++;
        break;
      }
      case TensorIndex::Kind::Slice:
        TORCH_CHECK(x.step > 0, Value, "step must be greater than zero");
        r.view = slice(r.view, dim, x.start, x.stop, x.step);
        dim++;
        selfDim++;
        break;
      case TensorIndex::Kind::None:
        r.view = unsqueeze(r.view, dim);
        dim++;
        break;
      case TensorIndex::Kind::Bool: boolAxis(x.start != 0); break;
      case TensorIndex::Kind::Ellipsis: {
        int skipped = self.dim() - consumed;
        dim += skipped;
        selfDim += skipped;
        break;
      }
      case TensorIndex::Kind::Tensor: {
        const Tensor &t = x.tensor;
        if (isMask(t) && t.dim() == 0) {
          boolAxis(item(t).i != 0);
          break;
        }
        if (isMask(t)) {
          for (int j = 0; j < t.dim(); j++) {
            if (t.size(j) != r.view.size(dim + j)) {
              fail(th::ErrorKind::Index,
                   "The shape of the mask %s at index %d does not match the shape of the indexed tensor %s at "
                   "index %d",
                   t.sizeString().c_str(), j, self.sizeString().c_str(), selfDim + j);
            }
          }
          // A mask over k dimensions is the k columns of its nonzero() positions.
          Tensor positions = nonzero(t);
          for (int j = 0; j < t.dim(); j++) record(select(positions, 1, j));
          selfDim += t.dim();
        } else {
          TORCH_CHECK(isIntegral(t.dtype()), Index,
                      "tensors used as indices must be long, int, byte or bool tensors (got %s)",
                      scalarTypeName(t.dtype()));
          record(toType(t, ScalarType::Long));
          selfDim++;
        }
        break;
      }
    }
  }
  r.advanced.resize(r.view.dim());
  return r;
}

// Advanced indexing reduced to one TH index op along one dimension: `tensor` is the view
// to index, `dim` the dimension, `index` a 1-D Long tensor of checked, 0-based positions.
// One index tensor indexes its own dimension. Several adjacent ones index a pseudo
// dimension of stride 1 that replaces them: position = sum of index_j * stride_j, the
// element offset from the first indexed element (the view has an element at every such
// offset, since each index is in range).
struct Target {
  Tensor tensor;  // undefined when there are no index positions: nothing to read or write
  int dim = 0;
  Tensor index;
  IntList resultShape;  // before + broadcast index shape + after
  IntList flatShape;    // before + [number of index positions] + after
};

Target planAdvanced(const Indexed &x) {
  std::vector<int> dims;
  for (int d = 0; d < x.view.dim(); d++) {
    if (x.advanced[d].defined()) dims.push_back(d);
  }
  const int k = static_cast<int>(dims.size());
  Tensor src = x.view;
  std::vector<Tensor> indices;
  for (int d : dims) indices.push_back(x.advanced[d]);
  int first = dims.front();
  if (dims.back() - dims.front() + 1 != k) {
    // Separated by a slice: the indexed dimensions go to the front (numpy's rule).
    IntList order(dims.begin(), dims.end());
    for (int d = 0; d < src.dim(); d++) {
      if (!x.advanced[d].defined()) order.push_back(d);
    }
    src = permute(src, order);
    first = 0;
  }
  IntList shape = indices[0].sizes();
  try {
    for (int j = 1; j < k; j++) shape = broadcastShapes(shape, indices[j].sizes());
  } catch (const th::Error &) {
    std::string shapes;
    for (const Tensor &i : indices) shapes += (shapes.empty() ? "" : ", ") + i.sizeString();
    fail(th::ErrorKind::Index, "shape mismatch: indexing tensors could not be broadcast together with shapes %s",
         shapes.c_str());
  }
  int64_t count = 1;
  for (int64_t s : shape) count *= s;

  Target t;
  t.index = empty({count}, ScalarType::Long, src.device());
  Tensor positions = view(t.index, shape);
  if (k > 1) zero_(t.index);
  for (int j = 0; j < k; j++) {
    const int d = first + j;
    const int64_t size = src.size(d), stride = src.stride(d);
    const int reportDim = dims[j];
    // Indices may come from the CPU for a tensor elsewhere, as in PyTorch.
    Tensor onSrc = to(indices[j], indices[j].dtype(), src.device());
    Tensor ij = onSrc.hasSizes(shape) ? onSrc : expand(onSrc, shape);
    kernels().advancedPositions(positions.device(), ScalarType::Long, positions, ij, size, stride, reportDim, k == 1);
  }

  const IntList srcSizes = src.sizes(), srcStrides = src.strides();
  IntList before(srcSizes.begin(), srcSizes.begin() + first);
  IntList after(srcSizes.begin() + first + k, srcSizes.end());
  t.resultShape = before;
  t.resultShape.insert(t.resultShape.end(), shape.begin(), shape.end());
  t.resultShape.insert(t.resultShape.end(), after.begin(), after.end());
  t.flatShape = before;
  t.flatShape.push_back(count);
  t.flatShape.insert(t.flatShape.end(), after.begin(), after.end());
  t.dim = first;
  if (count == 0) return t;
  if (k == 1) {
    t.tensor = src;
    return t;
  }
  // The pseudo dimension's size: the largest offset + 1 (count > 0 here).
  int64_t span = std::max<int64_t>(1, item(maxAll(t.index)).i + 1);
  IntList sizes = before, strides(srcStrides.begin(), srcStrides.begin() + first);
  sizes.push_back(span);
  strides.push_back(1);
  sizes.insert(sizes.end(), after.begin(), after.end());
  strides.insert(strides.end(), srcStrides.begin() + first + k, srcStrides.end());
  t.tensor = asStrided(src, sizes, strides, src.storageOffset());
  return t;
}

Tensor advancedGet(const Indexed &x) {
  Target t = planAdvanced(x);
  if (!t.tensor.defined()) return empty(t.resultShape, x.view.dtype(), x.view.device());
  Tensor r = empty({0}, x.view.dtype(), x.view.device());
  kernels().indexSelect(r.device(), r.dtype(), r, t.tensor, t.dim, t.index);
  return view(r, t.resultShape);
}

// value without leading size-1 dimensions beyond ndim (numpy and PyTorch drop them in
// assignments: `t[0] = ones(1, n)`).
Tensor dropLeadingOnes(const Tensor &value, int ndim) {
  Tensor v = value;
  while (v.dim() > ndim && v.size(0) == 1) v = select(v, 0, 0);
  return v;
}

void advancedPut(const Indexed &x, const Tensor &value, bool accumulate) {
  Target t = planAdvanced(x);
  Tensor v = dropLeadingOnes(value, static_cast<int>(t.resultShape.size()));
  TORCH_CHECK(isBroadcastableTo(v.sizes(), t.resultShape), Runtime,
              "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result of shape %s",
              v.sizeString().c_str(), shapeString(t.resultShape).c_str());
  if (!t.tensor.defined()) return;
  v = toType(v, x.view.dtype());
  if (!v.hasSizes(t.resultShape)) v = expand(v, t.resultShape);
  v = reshape(v, t.flatShape);
  (accumulate ? kernels().indexAdd : kernels().indexCopy)(v.device(), v.dtype(), t.tensor, t.dim, t.index, v);
  if (accumulate) normalizeBool(x.view);
}

// A Bool mask of self's shape as the only index: TH's masked kernels do it in one pass.
bool isFullMask(const Tensor &self, const std::vector<TensorIndex> &key) {
  return key.size() == 1 && key[0].kind == TensorIndex::Kind::Tensor && key[0].tensor.dtype() == ScalarType::Bool &&
         self.dim() > 0 && key[0].tensor.isSameSizeAs(self);
}

}  // namespace

Tensor index(const Tensor &self, const std::vector<TensorIndex> &key) {
  if (isComplex(self.dtype()) && self.dim() > 0) {
    // the real view with a full slice after the key, which keeps each element's two parts
    std::vector<TensorIndex> parts = key;
    TensorIndex all;
    all.kind = TensorIndex::Kind::Slice;
    parts.push_back(all);
    return viewAsComplex(contiguous(index(viewAsReal(self), parts)));
  }
  if (isFullMask(self, key)) return maskedSelect(self, key[0].tensor);
  Indexed x = applyBasic(self, key);  // views, recorded as such
  if (x.hasAdvanced) {
    RecordScope rec({&x.view});
    Tensor r = advancedGet(x);
    if (rec) {
      derivatives::rearranged("index", x.view, r, [advanced = x.advanced](const Tensor &positions) {
        return advancedGet(Indexed{positions, advanced, true});
      });
    }
    return r;
  }
  return x.view.isSameAs(self) ? alias(self) : x.view;
}

void indexPut_(const Tensor &self, const std::vector<TensorIndex> &key, const Tensor &value, bool accumulate) {
  Indexed x = applyBasic(self, key);
  if (x.hasAdvanced) {
    std::vector<Tensor> advanced = x.advanced;
    int valueDim = value.dim();
    std::function<Tensor(const Tensor &)> additive;
    if (accumulate) {
      additive = [advanced, valueDim](const Tensor &g) {
        Tensor picked = advancedGet(Indexed{g, advanced, true});
        while (picked.dim() < valueDim) picked = unsqueeze(picked, 0);  // see dropLeadingOnes
        return picked;
      };
    }
    derivatives::indexWrite(
        "index_put", x.view, value,
        [advanced, accumulate](const Tensor &dst, const Tensor &src) {
          advancedPut(Indexed{dst, advanced, true}, src, accumulate);
        },
        additive);
    return;
  }
  Tensor v = dropLeadingOnes(value, x.view.dim());
  // Read the value before writing when it shares memory with self (`t[1:] = t[:-1]`).
  if (v.storage().isSameAs(self.storage())) v = clone(v);
  if (accumulate) {
    binary_(BinaryOp::Add, x.view, v);
  } else {
    copy_(x.view, v);
  }
}

void indexPut_(const Tensor &self, const std::vector<TensorIndex> &key, Scalar value) {
  if (isFullMask(self, key)) {
    maskedFill_(self, key[0].tensor, value);
    return;
  }
  Indexed x = applyBasic(self, key);
  if (!x.hasAdvanced) {
    fill_(x.view, value);
    return;
  }
  std::vector<Tensor> advanced = x.advanced;
  derivatives::indexWrite(
      "index_put", x.view, Tensor(),
      [advanced, value](const Tensor &dst, const Tensor &) {
        Target t = planAdvanced(Indexed{dst, advanced, true});
        if (!t.tensor.defined()) return;
        kernels().indexFill(dst.device(), dst.dtype(), t.tensor, t.dim, t.index, value);
      },
      nullptr);
}

// ---- index ops ----

namespace {

// Type mismatches are RuntimeErrors, as in PyTorch.
void checkLong(const Tensor &index, const char *op) {
  TORCH_CHECK(index.dtype() == ScalarType::Long, Runtime, "%s(): expected a Long (int64) index tensor, got %s", op,
              scalarTypeName(index.dtype()));
}

void checkSameType(const Tensor &self, const Tensor &source, const char *op) {
  TORCH_CHECK(self.dtype() == source.dtype(), Runtime, "%s(): self and source must have the same dtype (got %s and %s)",
              op, scalarTypeName(self.dtype()), scalarTypeName(source.dtype()));
}

// gather and the scatters report a bad index as a RuntimeError, as PyTorch does (the other
// index ops, and TH's kernels, raise IndexError).
template <typename F>
void reportingBadIndexAsRuntime(F &&kernel) {
  try {
    kernel();
  } catch (const th::Error &e) {
    if (e.kind() != th::ErrorKind::Index) throw;
    throw th::Error(e.what(), th::ErrorKind::Runtime, e.argNumber());
  }
}

// TH's gather and scatter kernels need a dimension: 0-dim operands are viewed as [1].
Tensor atLeast1d(const Tensor &t) { return t.dim() == 0 ? unsqueeze(t, 0) : t; }

// A Bool mask (uint8 masks: any non-zero is true) broadcast to shape.
Tensor maskOf(const Tensor &mask, const IntList &shape, const char *op) {
  TORCH_CHECK(isMask(mask), Runtime, "%s(): expected a bool mask, got %s", op, scalarTypeName(mask.dtype()));
  Tensor m = mask.dtype() == ScalarType::Bool ? mask : compare(CompareOp::Ne, mask, Scalar(int64_t(0)));
  TORCH_CHECK(isBroadcastableTo(m.sizes(), shape), Runtime, "%s(): the mask of size %s cannot be broadcast to size %s",
              op, m.sizeString().c_str(), shapeString(shape).c_str());
  return m.hasSizes(shape) ? m : expand(m, shape);
}

}  // namespace

Tensor indexSelect(const Tensor &self, int64_t dim, const Tensor &index) {
  if (index.dtype() == ScalarType::Int) return indexSelect(self, dim, toType(index, ScalarType::Long));
  checkLong(index, "index_select");
  int d = wrapDim(dim, self.dim());
  if (isComplex(self.dtype()) && self.dim() > 0) {
    return viewAsComplex(contiguous(indexSelect(viewAsReal(self), d, index)));  // real-linear
  }
  if (self.dim() == 0) {
    TORCH_CHECK(index.numel() == 1, Index, "index_select(): index to a 0-dim tensor can have only 1 value");
    return squeeze(indexSelect(unsqueeze(self, 0), 0, atLeast1d(index)), 0);
  }
  RecordScope rec({&self});
  Tensor r = empty({0}, self.dtype(), self.device());
  kernels().indexSelect(self.device(), self.dtype(), r, self, d, index);
  if (rec)
    derivatives::rearranged("index_select", self, r, [d, index](const Tensor &x) { return indexSelect(x, d, index); });
  return r;
}

void indexCopy_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source) {
  checkNoInternalOverlap(self);
  checkLong(index, "index_copy_");
  checkSameType(self, source, "index_copy_");
  int d = wrapDim(dim, self.dim());
  derivatives::indexWrite(
      "index_copy", self, source,
      [d, index](const Tensor &dst, const Tensor &src) {
        kernels().indexCopy(dst.device(), dst.dtype(), dst, d, index, src);
      },
      nullptr);
}

void indexAdd_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source, Scalar alpha) {
  checkNoInternalOverlap(self);
  checkLong(index, "index_add_");
  checkSameType(self, source, "index_add_");
  int d = wrapDim(dim, self.dim());
  bool unitAlpha = alpha.isFloating() ? alpha.d == 1 : alpha.i == 1;
  Tensor scaled = unitAlpha ? source : binary(BinaryOp::Mul, source, alpha);
  TORCH_CHECK(scaled.dtype() == self.dtype(), Runtime, "index_add_(): alpha %s does not fit the %s tensor",
              alpha.str().c_str(), scalarTypeName(self.dtype()));
  derivatives::indexWrite(
      "index_add", self, source,
      [d, index, alpha, unitAlpha](const Tensor &dst, const Tensor &src) {
        Tensor scaledSource = unitAlpha ? src : binary(BinaryOp::Mul, src, alpha);
        kernels().indexAdd(dst.device(), dst.dtype(), dst, d, index, scaledSource);
        normalizeBool(dst);
      },
      [d, index, alpha](const Tensor &g) { return binary(BinaryOp::Mul, indexSelect(g, d, index), alpha); });
}

void indexFill_(const Tensor &self, int64_t dim, const Tensor &index, Scalar value) {
  checkLong(index, "index_fill_");
  int d = wrapDim(dim, self.dim());
  derivatives::indexWrite(
      "index_fill", self, Tensor(),
      [d, index, value](const Tensor &dst, const Tensor &) {
        kernels().indexFill(dst.device(), dst.dtype(), dst, d, index, value);
      },
      nullptr);
}

Tensor gather(const Tensor &self, int64_t dim, const Tensor &index) {
  checkLong(index, "gather");
  int d = wrapDim(dim, self.dim());
  if (isComplex(self.dtype()) && self.dim() > 0 && index.dim() == self.dim()) {
    // the same index for both parts: gather the real view along d
    return viewAsComplex(contiguous(gather(viewAsReal(self), d, expand(unsqueeze(index, -1), [&] {
                                             IntList s = index.sizes();
                                             s.push_back(2);
                                             return s;
                                           }()))));
  }
  RecordScope rec({&self});
  Tensor r = empty({0}, self.dtype(), self.device());
  Tensor src = atLeast1d(self), idx = atLeast1d(index);
  reportingBadIndexAsRuntime([&] { kernels().gather(self.device(), self.dtype(), r, src, d, idx); });
  if (index.dim() == 0) r = squeeze(r, 0);
  if (rec) derivatives::rearranged("gather", self, r, [d, index](const Tensor &x) { return gather(x, d, index); });
  return r;
}

void scatter_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source) {
  checkNoInternalOverlap(self);
  checkLong(index, "scatter_");
  checkSameType(self, source, "scatter_");
  int d = wrapDim(dim, self.dim());
  derivatives::indexWrite(
      "scatter", self, source,
      [d, index](const Tensor &target, const Tensor &source) {
        Tensor dst = atLeast1d(target), idx = atLeast1d(index), src = atLeast1d(source);
        reportingBadIndexAsRuntime([&] { kernels().scatter(dst.device(), dst.dtype(), dst, d, idx, src); });
      },
      nullptr);
}

void scatter_(const Tensor &self, int64_t dim, const Tensor &index, Scalar value) {
  checkNoInternalOverlap(self);
  checkLong(index, "scatter_");
  int d = wrapDim(dim, self.dim());
  derivatives::indexWrite(
      "scatter", self, Tensor(),
      [d, index, value](const Tensor &target, const Tensor &) {
        Tensor dst = atLeast1d(target), idx = atLeast1d(index);
        reportingBadIndexAsRuntime([&] { kernels().scatterFill(dst.device(), dst.dtype(), dst, d, idx, value); });
      },
      nullptr);
}

void scatterAdd_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source) {
  checkNoInternalOverlap(self);
  checkLong(index, "scatter_add_");
  checkSameType(self, source, "scatter_add_");
  int d = wrapDim(dim, self.dim());
  derivatives::indexWrite(
      "scatter_add", self, source,
      [d, index](const Tensor &target, const Tensor &source) {
        Tensor dst = atLeast1d(target), idx = atLeast1d(index), src = atLeast1d(source);
        reportingBadIndexAsRuntime([&] { kernels().scatterAdd(dst.device(), dst.dtype(), dst, d, idx, src); });
        normalizeBool(target);
      },
      [d, index, sourceSizes = source.sizes()](const Tensor &g) {
        // source may be larger than index: only the part index covers was added.
        Tensor picked = gather(g, d, index);
        if (picked.hasSizes(sourceSizes)) return picked;
        Tensor full = empty(sourceSizes, g.dtype(), g.device());
        zero_(full);
        Tensor part = full;
        for (int k = 0; k < picked.dim(); k++) part = narrow(part, k, 0, picked.size(k));
        copy_(part, picked);
        return full;
      });
}

void scatterReduce_(const Tensor &self, int64_t dim, const Tensor &index, const Tensor &source, ScatterReduce op) {
  checkNoInternalOverlap(self);
  if (op == ScatterReduce::Add) {
    scatterAdd_(self, dim, index, source);
    return;
  }
  checkLong(index, "scatter_");
  checkSameType(self, source, "scatter_");
  const int d = wrapDim(dim, self.dim());
  TORCH_CHECK(!needsRecording({&self, &source}), Runtime,
              "scatter_ with reduce='multiply' does not support autograd (its inputs require grad)");
  bumpVersion(self);
  Tensor dst = atLeast1d(self), idx = atLeast1d(index), src = atLeast1d(source);
  // Inputs are read while dst is written: read them from copies when they share its memory.
  if (src.storage().isSameAs(dst.storage())) src = clone(src);
  if (idx.storage().isSameAs(dst.storage())) idx = clone(idx);
  // TH has no multiplying scatter. gather() checks index against self exactly as scatter
  // would (same rank, no larger outside dim, entries in range); src is checked here.
  gather(dst, d, idx);
  bool fits = src.dim() == idx.dim();
  for (int j = 0; fits && j < idx.dim(); j++) fits = idx.size(j) <= src.size(j);
  TORCH_CHECK(fits, Runtime,
              "scatter_(): source sizes %s must have as many dimensions as the index sizes %s and be no smaller",
              src.sizeString().c_str(), idx.sizeString().c_str());
  kernels().scatterMultiply(dst.device(), dst.dtype(), dst, d, idx, src);
}

void scatterReduce_(const Tensor &self, int64_t dim, const Tensor &index, Scalar value, ScatterReduce op) {
  Tensor filled = empty(index.sizes(), self.dtype(), self.device());
  fill_(filled, value);
  scatterReduce_(self, dim, index, filled, op);
}

void maskedFill_(const Tensor &self, const Tensor &mask, Scalar value) {
  Tensor m = maskOf(mask, self.sizes(), "masked_fill_");
  derivatives::indexWrite(
      "masked_fill", self, Tensor(),
      [m, value](const Tensor &dst, const Tensor &) { kernels().maskedFill(dst.device(), dst.dtype(), dst, m, value); },
      nullptr);
}

void maskedScatter_(const Tensor &self, const Tensor &mask, const Tensor &source) {
  checkNoInternalOverlap(self);
  checkSameType(self, source, "masked_scatter_");
  Tensor m = maskOf(mask, self.sizes(), "masked_scatter_");
  derivatives::indexWrite(
      "masked_scatter", self, source,
      [m](const Tensor &dst, const Tensor &src) { kernels().maskedCopy(dst.device(), dst.dtype(), dst, m, src); },
      nullptr);
}

// The out-of-place masked ops broadcast self and mask together.
static Tensor broadcastClone(const Tensor &self, const Tensor &mask) {
  IntList shape = self.isSameSizeAs(mask) ? self.sizes() : broadcastShapes(self.sizes(), mask.sizes());
  Tensor r = empty(shape, self.dtype(), self.device());
  copy_(r, self);
  return r;
}

Tensor maskedFill(const Tensor &self, const Tensor &mask, Scalar value) {
  Tensor r = broadcastClone(self, mask);
  maskedFill_(r, mask, value);
  return r;
}

Tensor maskedScatter(const Tensor &self, const Tensor &mask, const Tensor &source) {
  Tensor r = broadcastClone(self, mask);
  maskedScatter_(r, mask, source);
  return r;
}

Tensor maskedSelect(const Tensor &self, const Tensor &mask) {
  IntList shape = self.isSameSizeAs(mask) ? self.sizes() : broadcastShapes(self.sizes(), mask.sizes());
  Tensor m = maskOf(mask, shape, "masked_select");
  RecordScope rec({&self});
  Tensor s = self.hasSizes(shape) ? self : expand(self, shape);
  Tensor r = empty({0}, self.dtype(), self.device());
  kernels().maskedSelect(s.device(), s.dtype(), r, s, m);
  if (rec) derivatives::rearranged("masked_select", self, r, [mask](const Tensor &x) { return maskedSelect(x, mask); });
  return r;
}

Tensor nonzero(const Tensor &self) {
  Tensor r = empty({0}, ScalarType::Long, self.device());
  kernels().nonzero(self.device(), self.dtype(), r, self);
  return r;
}

Tensor take(const Tensor &self, const Tensor &index) {
  checkLong(index, "take");
  RecordScope rec({&self});
  Tensor r = empty({0}, self.dtype(), self.device());
  kernels().take(self.device(), self.dtype(), r, self, index);
  if (rec) derivatives::rearranged("take", self, r, [index](const Tensor &x) { return take(x, index); });
  return r;
}

void put_(const Tensor &self, const Tensor &index, const Tensor &source, bool accumulate) {
  checkNoInternalOverlap(self);
  checkLong(index, "put_");
  checkSameType(self, source, "put_");
  std::function<Tensor(const Tensor &)> additive;
  if (accumulate) {
    additive = [index, sizes = source.sizes()](const Tensor &g) { return reshape(take(g, index), sizes); };
  }
  derivatives::indexWrite(
      "put", self, source,
      [index, accumulate](const Tensor &dst, const Tensor &src) {
        kernels().put(dst.device(), dst.dtype(), dst, index, src, accumulate);
        if (accumulate) normalizeBool(dst);
      },
      additive);
}

}  // namespace torch
