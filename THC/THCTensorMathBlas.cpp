#include "THC/THCTensorMathBlas.h"

#include <algorithm>
#include <climits>
#include <initializer_list>
#include <string>
#include <type_traits>

#include "THC/THCBlas.h"
#include "THC/THCTensor.hpp"

namespace {

template <typename T>
using Api = thc::THC<T>;
template <typename T>
using TensorOf = typename Api<T>::Tensor;

// The scalar type cuBLAS computes in: float for Half.
template <typename T>
struct ScalarType {
  using type = T;
};
template <>
struct ScalarType<THHalf> {
  using type = float;
};
template <typename T>
using Scalar = typename ScalarType<T>::type;

template <typename T>
Scalar<T> scalar(T v) {
  if constexpr (std::is_same_v<T, THHalf>)
    return TH_half2float(v);
  else
    return v;
}

template <typename T>
T constant(float v) {
  if constexpr (std::is_same_v<T, THHalf>)
    return TH_float2half(v);
  else
    return static_cast<T>(v);
}

template <typename T>
bool isZero(T v) {
  return scalar(v) == 0;
}

// THCudaBlas_ of element type T (gemm, gemmBatched, dot; gemv for Float and Double) and
// newWithStorage; specialised by the generic file.
template <typename T>
struct BlasOps;

// Owns one reference to a CUDA tensor, freed when the scope ends (also when an error
// unwinds the stack).
template <typename T>
class Owned {
 public:
  explicit Owned(THCState *state, TensorOf<T> *t = nullptr) : state_(state), t_(t) {}
  ~Owned() {
    if (t_) Api<T>::free(state_, t_);
  }
  Owned(const Owned &) = delete;
  Owned &operator=(const Owned &) = delete;
  void reset(TensorOf<T> *t) {
    if (t_) Api<T>::free(state_, t_);
    t_ = t;
  }
  TensorOf<T> *get() const { return t_; }

 private:
  THCState *state_;
  TensorOf<T> *t_;
};

template <typename TensorT>
auto dataOf(TensorT *t) -> decltype(t->storage->data) {
  return t->storage && t->storage->data ? t->storage->data + t->storageOffset : nullptr;
}

// Note [Layouts cuBLAS reads] (THCTensorMathBlas.h): how cuBLAS can read a rows x cols
// matrix with strides rs, cs in place: column-major ('n') or row-major, i.e. its transpose
// column-major ('t'), with leading dimension ld. The stride of a dimension of size <= 1
// never matters, so ld then only has to satisfy BLAS's ld >= max(1, rows); an empty
// matrix is never read.
struct BlasLayout {
  bool ok;
  char trans;
  int64_t ld;
};

BlasLayout layoutOf(int64_t rows, int64_t cols, int64_t rs, int64_t cs) {
  const int64_t minRows = std::max<int64_t>(rows, 1), minCols = std::max<int64_t>(cols, 1);
  if (rows == 0 || cols == 0) return {true, 'n', minRows};
  if ((rows <= 1 || rs == 1) && (cols <= 1 || (cs >= minRows && cs <= INT_MAX)))
    return {true, 'n', cols <= 1 ? minRows : cs};
  if ((cols <= 1 || cs == 1) && (rows <= 1 || (rs >= minCols && rs <= INT_MAX)))
    return {true, 't', rows <= 1 ? minCols : rs};
  return {false, 'n', 0};
}

// The layout of the matrices of t, which are its dimensions d and d + 1.
template <typename TensorT>
BlasLayout matLayout(const TensorT *t, int d = 0) {
  return layoutOf(t->size[d], t->size[d + 1], t->stride[d], t->stride[d + 1]);
}

char flip(char trans) { return trans == 'n' ? 't' : 'n'; }

// Can one strided-batched call write the matrices of the 3-d c: one layout for all, and no
// matrix overlapping the next.
template <typename TensorT>
bool batchWritable(const TensorT *c) {
  const BlasLayout l = matLayout(c, 1);
  if (!l.ok) return false;
  const int64_t rows = c->size[1], cols = c->size[2];
  if (c->size[0] <= 1 || rows == 0 || cols == 0) return true;
  const int64_t extent = l.trans == 'n' ? (cols - 1) * l.ld + rows : (rows - 1) * l.ld + cols;
  return c->stride[0] >= extent;
}

template <typename TensorT>
bool vecReadable(const TensorT *v) {
  return v->size[0] <= 1 || (v->stride[0] >= 1 && v->stride[0] <= INT_MAX);
}

// The increment of a vector; 1 for one element or a contiguous copy of another shape.
template <typename TensorT>
int64_t incOf(const TensorT *v) {
  return v->nDimension == 1 && v->size[0] > 1 ? v->stride[0] : 1;
}

// a itself when cuBLAS can read its matrices (a batch's in one strided call: not expanded
// along the batch), else a contiguous copy kept alive by holder.
template <typename T>
TensorOf<T> *readable(THCState *state, TensorOf<T> *a, Owned<T> &holder) {
  bool ok = matLayout(a, a->nDimension - 2).ok;
  if (a->nDimension == 3 && a->size[0] > 1) ok = ok && a->stride[0] >= 1;
  if (ok) return a;
  holder.reset(Api<T>::newContiguous(state, a));
  return holder.get();
}

template <typename T>
TensorOf<T> *readableVector(THCState *state, TensorOf<T> *v, Owned<T> &holder) {
  if (vecReadable(v)) return v;
  holder.reset(Api<T>::newContiguous(state, v));
  return holder.get();
}

// body(c) when cuBLAS can write c as it is (ok); otherwise body(buffer), a contiguous
// tensor holding c's values when keep, copied into c afterwards.
template <typename T, typename Body>
void intoWritable(THCState *state, TensorOf<T> *c, bool ok, bool keep, Body &&body) {
  if (ok) return body(c);
  Owned<T> buffer(state, Api<T>::newWithSize(state, c->nDimension, c->size, nullptr));
  if (keep) Api<T>::copy(state, buffer.get(), c);
  body(buffer.get());
  Api<T>::copy(state, c, buffer.get());
}

// A vector v [n] viewed as the matrix [n, 1] (column) or [1, n] (row).
template <typename T>
TensorOf<T> *newMatrixView(THCState *state, TensorOf<T> *v, bool column) {
  const int64_t size[2] = {column ? v->size[0] : 1, column ? 1 : v->size[0]};
  const int64_t stride[2] = {column ? v->stride[0] : 1, column ? 1 : v->stride[0]};
  return BlasOps<T>::newWithStorage(state, v->storage, v->storageOffset, 2, size, stride);
}

// c = beta c + alpha a b for matrices, c writable as it is (matLayout(c).ok). A row-major c
// is the column-major c^T = b^T a^T.
template <typename T>
void gemmWritable(THCState *state, TensorOf<T> *c, T beta, T alpha, TensorOf<T> *a, TensorOf<T> *b) {
  const int64_t m = c->size[0], n = c->size[1], k = a->size[1];
  if (m == 0 || n == 0) return;
  Owned<T> holdA(state), holdB(state);
  a = readable(state, a, holdA);
  b = readable(state, b, holdB);
  const BlasLayout lc = matLayout(c), la = matLayout(a), lb = matLayout(b);
  if (lc.trans == 'n')
    BlasOps<T>::gemm(state, la.trans, lb.trans, m, n, k, scalar(alpha), dataOf(a), la.ld, dataOf(b), lb.ld,
                     scalar(beta), dataOf(c), lc.ld);
  else
    BlasOps<T>::gemm(state, flip(lb.trans), flip(la.trans), n, m, k, scalar(alpha), dataOf(b), lb.ld, dataOf(a), la.ld,
                     scalar(beta), dataOf(c), lc.ld);
}

template <typename T>
void gemm(THCState *state, TensorOf<T> *c, T beta, T alpha, TensorOf<T> *a, TensorOf<T> *b) {
  intoWritable<T>(state, c, matLayout(c).ok, !isZero(beta),
                  [&](TensorOf<T> *w) { gemmWritable(state, w, beta, alpha, a, b); });
}

// y = beta y + alpha a x (y [m], a [m, n], x [n]). cuBLAS has no Half gemv: there y and x
// go to gemm as one-column matrices.
template <typename T>
void gemv(THCState *state, TensorOf<T> *y, T beta, T alpha, TensorOf<T> *a, TensorOf<T> *x) {
  if constexpr (std::is_same_v<T, THHalf>) {
    Owned<T> ym(state, newMatrixView<T>(state, y, true)), xm(state, newMatrixView<T>(state, x, true));
    gemm(state, ym.get(), beta, alpha, a, xm.get());
  } else {
    const int64_t m = a->size[0], n = a->size[1];
    if (m == 0) return;
    intoWritable<T>(state, y, vecReadable(y), !isZero(beta), [&](TensorOf<T> *w) {
      Owned<T> holdA(state), holdX(state);
      TensorOf<T> *ra = readable(state, a, holdA), *rx = readableVector(state, x, holdX);
      const BlasLayout la = matLayout(ra);
      if (la.trans == 'n')
        BlasOps<T>::gemv(state, 'n', m, n, alpha, dataOf(ra), la.ld, dataOf(rx), incOf(rx), beta, dataOf(w), incOf(w));
      else  // a is stored as its transpose, an n x m column-major matrix
        BlasOps<T>::gemv(state, 't', n, m, alpha, dataOf(ra), la.ld, dataOf(rx), incOf(rx), beta, dataOf(w), incOf(w));
    });
  }
}

// c[i] = beta c[i] + alpha a[i] b[i] for 3-d tensors, in one strided-batched call.
template <typename T>
void bgemmWritable(THCState *state, TensorOf<T> *c, T beta, T alpha, TensorOf<T> *a, TensorOf<T> *b) {
  const int64_t count = c->size[0], m = c->size[1], n = c->size[2], k = a->size[2];
  if (count == 0 || m == 0 || n == 0) return;
  Owned<T> holdA(state), holdB(state);
  a = readable(state, a, holdA);
  b = readable(state, b, holdB);
  const BlasLayout lc = matLayout(c, 1), la = matLayout(a, 1), lb = matLayout(b, 1);
  const int64_t sa = a->stride[0], sb = b->stride[0], sc = c->stride[0];
  if (lc.trans == 'n')
    BlasOps<T>::gemmBatched(state, la.trans, lb.trans, m, n, k, scalar(alpha), dataOf(a), la.ld, sa, dataOf(b), lb.ld,
                            sb, scalar(beta), dataOf(c), lc.ld, sc, count);
  else
    BlasOps<T>::gemmBatched(state, flip(lb.trans), flip(la.trans), n, m, k, scalar(alpha), dataOf(b), lb.ld, sb,
                            dataOf(a), la.ld, sa, scalar(beta), dataOf(c), lc.ld, sc, count);
}

template <typename T>
void bgemm(THCState *state, TensorOf<T> *c, T beta, T alpha, TensorOf<T> *a, TensorOf<T> *b) {
  intoWritable<T>(state, c, batchWritable(c), !isZero(beta),
                  [&](TensorOf<T> *w) { bgemmWritable(state, w, beta, alpha, a, b); });
}

// c = beta c + alpha sum_i a[i] b[i]: one gemm per matrix of the batch, summing into c.
template <typename T>
void addbgemm(THCState *state, TensorOf<T> *c, T beta, T alpha, TensorOf<T> *a, TensorOf<T> *b) {
  const int64_t count = a->size[0];
  intoWritable<T>(state, c, matLayout(c).ok, !isZero(beta), [&](TensorOf<T> *w) {
    if (count == 0) {  // an inner size of 0: beta c
      const int64_t mk[2] = {w->size[0], 0}, kn[2] = {0, w->size[1]};
      Owned<T> emptyA(state, Api<T>::newWithSize(state, 2, mk, nullptr));
      Owned<T> emptyB(state, Api<T>::newWithSize(state, 2, kn, nullptr));
      gemmWritable(state, w, beta, alpha, emptyA.get(), emptyB.get());
      return;
    }
    Owned<T> holdA(state), holdB(state);
    TensorOf<T> *ra = readable(state, a, holdA), *rb = readable(state, b, holdB);
    for (int64_t i = 0; i < count; i++) {
      Owned<T> ai(state, Api<T>::newSelect(state, ra, 0, i)), bi(state, Api<T>::newSelect(state, rb, 0, i));
      gemmWritable(state, w, i == 0 ? beta : constant<T>(1), alpha, ai.get(), bi.get());
    }
  });
}

// Sum of t[i] src[i]: a strided vector goes to cuBLAS as it is, other layouts are made
// contiguous; split in pieces that cuBLAS's int sizes can count, summed in double.
template <typename T>
double dotOf(THCState *state, TensorOf<T> *t, TensorOf<T> *src) {
  const int64_t n = thc::numel(t);
  THArgCheck(n == thc::numel(src), 2, "dot: t has %lld elements and src %lld (sizes %s and %s)", (long long)n,
             (long long)thc::numel(src), thc::shapeOf(t).c_str(), thc::shapeOf(src).c_str());
  thc::DeviceGuard guard(thc::commonDevice("dot", t, src));
  if (n == 0) return 0;
  auto line = [state](TensorOf<T> *x, Owned<T> &holder) {
    if (x->nDimension == 1 && vecReadable(x)) return x;
    holder.reset(Api<T>::newContiguous(state, x));
    return holder.get();
  };
  Owned<T> holdT(state), holdSrc(state);
  TensorOf<T> *a = line(t, holdT), *b = line(src, holdSrc);
  const int64_t incA = incOf(a), incB = incOf(b);
  const T *pa = dataOf(a), *pb = dataOf(b);
  constexpr int64_t kPiece = int64_t(1) << 30;
  double sum = 0;
  for (int64_t start = 0; start < n; start += kPiece) {
    const int64_t len = std::min(kPiece, n - start);
    sum += BlasOps<T>::dot(state, len, pa + start * incA, incA, pb + start * incB, incB);
  }
  return sum;
}

// Makes r the result, as TH's intoResult (TH/generic/THTensorBlas.cpp): compute(out) writes
// it into out, a tensor of the given sizes that holds t's values when beta != 0 (t == NULL
// stands for beta == 0). r may be t. When r shares memory with another operand, out is a
// temporary copied into r at the end, so no operand is overwritten before it is read.
template <typename T, typename Compute>
void intoResult(THCState *state, TensorOf<T> *r, TensorOf<T> *t, T beta, std::initializer_list<int64_t> sizes,
                std::initializer_list<TensorOf<T> *> operands, Compute &&compute) {
  const int nd = (int)sizes.size();
  const int64_t *size = sizes.begin();
  bool shared = t && t != r && t->storage == r->storage;
  for (TensorOf<T> *x : operands) shared = shared || x->storage == r->storage;
  const bool useT = t && !isZero(beta);
  if (!shared) {
    Api<T>::resizeNd(state, r, nd, size, nullptr);
    if (useT && t != r) Api<T>::copy(state, r, t);
    compute(r);
    return;
  }
  Owned<T> out(state, Api<T>::newWithSize(state, nd, size, nullptr));
  if (useT) Api<T>::copy(state, out.get(), t);
  compute(out.get());
  Api<T>::resizeNd(state, r, nd, size, nullptr);
  Api<T>::copy(state, r, out.get());
}

// TH's argument checks (TH/THTensorBlas.cpp), with the same messages.
template <typename TensorT>
void checkMatrix(const char *fn, const char *name, TensorT *t, int arg) {
  THArgCheck(t->nDimension == 2, arg, "%s: %s must be a matrix (2-d), got sizes %s", fn, name, thc::shapeOf(t).c_str());
}

template <typename TensorT>
void checkVector(const char *fn, const char *name, TensorT *t, int arg) {
  THArgCheck(t->nDimension == 1, arg, "%s: %s must be a vector (1-d), got sizes %s", fn, name, thc::shapeOf(t).c_str());
}

template <typename TensorT>
void checkBatch(const char *fn, const char *name, TensorT *t, int arg) {
  THArgCheck(t->nDimension == 3, arg, "%s: %s must be a batch of matrices (3-d), got sizes %s", fn, name,
             thc::shapeOf(t).c_str());
}

template <typename TensorT>
void checkAddend(const char *fn, TensorT *t, int arg, std::initializer_list<int64_t> size) {
  bool same = t->nDimension == (int)size.size();
  int d = 0;
  for (int64_t s : size) same = same && t->size[d++] == s;
  std::string want = "[";
  d = 0;
  for (int64_t s : size) want += (d++ ? ", " : "") + std::to_string(s);
  want += "]";
  THArgCheck(same, arg, "%s: t must have the result's sizes %s, got %s", fn, want.c_str(), thc::shapeOf(t).c_str());
}

template <typename TensorT>
void checkMv(const char *fn, TensorT *mat, int matArg, TensorT *vec, int vecArg) {
  checkMatrix(fn, "mat", mat, matArg);
  checkVector(fn, "vec", vec, vecArg);
  THArgCheck(mat->size[1] == vec->size[0], vecArg, "%s: size mismatch, mat %s cannot multiply vec %s", fn,
             thc::shapeOf(mat).c_str(), thc::shapeOf(vec).c_str());
}

template <typename TensorT>
void checkMm(const char *fn, TensorT *m1, int m1Arg, TensorT *m2, int m2Arg) {
  checkMatrix(fn, "m1", m1, m1Arg);
  checkMatrix(fn, "m2", m2, m2Arg);
  THArgCheck(m1->size[1] == m2->size[0], m2Arg, "%s: size mismatch, m1 %s cannot multiply m2 %s", fn,
             thc::shapeOf(m1).c_str(), thc::shapeOf(m2).c_str());
}

template <typename TensorT>
void checkBmm(const char *fn, TensorT *b1, int b1Arg, TensorT *b2, int b2Arg) {
  checkBatch(fn, "batch1", b1, b1Arg);
  checkBatch(fn, "batch2", b2, b2Arg);
  THArgCheck(b1->size[0] == b2->size[0] && b1->size[2] == b2->size[1], b2Arg,
             "%s: size mismatch, batch1 %s cannot multiply batch2 %s", fn, thc::shapeOf(b1).c_str(),
             thc::shapeOf(b2).c_str());
}

}  // namespace

#define THC_GENERIC_FILE "THC/generic/THCTensorMathBlas.cpp"
#include "THC/THCGenerateAllTypes.h"
