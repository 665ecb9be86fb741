#include <initializer_list>
#include <string>

#include "TH/THBlas.h"
#include "TH/THTensor.hpp"

namespace {

// THBlas_(gemm), _(gemv), _(ger) for element type T; specialised by the generic file.
template <typename T>
struct BlasOps;

// "[2, 3]" for messages that name two shapes (THTensor_(sizeDesc) keeps one per thread).
template <typename TensorT>
std::string shape(const TensorT *t) {
  std::string s = "[";
  for (int d = 0; d < t->nDimension; d++) s += (d ? ", " : "") + std::to_string(t->size[d]);
  return s + "]";
}

// A strided rows x cols matrix: a 2-d tensor or one matrix of a batch.
template <typename T>
struct Mat {
  T *data;
  int64_t size[2];
  int64_t stride[2];
  th::TensorRef<T> ref() { return {data, 2, size, stride}; }
  Mat transposed() const { return {data, {size[1], size[0]}, {stride[1], stride[0]}}; }
};

// A strided vector.
template <typename T>
struct Vec {
  T *data;
  int64_t size;
  int64_t stride;
  th::TensorRef<T> ref() { return {data, 1, &size, &stride}; }
  bool blasReadable() const { return size <= 1 || stride >= 1; }
  int64_t inc() const { return size <= 1 ? 1 : stride; }
};

template <typename TensorT>
auto matOf(TensorT *t) {
  auto r = th::ref(t);
  return Mat<std::remove_pointer_t<decltype(r.data)>>{r.data, {t->size[0], t->size[1]}, {t->stride[0], t->stride[1]}};
}

template <typename TensorT>
auto batchMatOf(TensorT *t, int64_t i) {
  auto r = th::ref(t);
  return Mat<std::remove_pointer_t<decltype(r.data)>>{
      r.data + i * t->stride[0], {t->size[1], t->size[2]}, {t->stride[1], t->stride[2]}};
}

template <typename TensorT>
auto vecOf(TensorT *t) {
  auto r = th::ref(t);
  return Vec<std::remove_pointer_t<decltype(r.data)>>{r.data, t->size[0], t->stride[0]};
}

// How BLAS can read a matrix in place: column-major ('n') or row-major, i.e. its
// transpose column-major ('t'), with leading dimension ld. The stride of a dimension of
// size <= 1 never matters, so ld then only has to satisfy BLAS's ld >= max(1, rows).
struct BlasLayout {
  bool ok;
  char trans;
  int64_t ld;
};

template <typename T>
BlasLayout layoutOf(const Mat<T> &a) {
  const int64_t rows = a.size[0], cols = a.size[1], rs = a.stride[0], cs = a.stride[1];
  const int64_t minRows = rows > 1 ? rows : 1, minCols = cols > 1 ? cols : 1;
  if ((rows <= 1 || rs == 1) && (cols <= 1 || cs >= minRows)) return {true, 'n', cols <= 1 ? minRows : cs};
  if ((cols <= 1 || cs == 1) && (rows <= 1 || rs >= minCols)) return {true, 't', rows <= 1 ? minCols : rs};
  return {false, 'n', 0};
}

template <typename T>
void copyRef(th::TensorRef<T> dst, th::TensorRef<T> src) {
  th::apply([](T &d, T &s) { d = s; }, dst, src);
}

// x = beta x, where beta == 0 clears x (NaNs included), as BLAS does.
template <typename T>
void scaleRef(th::TensorRef<T> x, T beta) {
  if (beta == 0)
    th::apply([](T &v) { v = 0; }, x);
  else if (beta != 1)
    th::apply([beta](T &v) { v = beta * v; }, x);
}

template <typename T>
using OwnedTensor = th::Owned<typename th::TH<T>::Tensor>;

// a itself when BLAS can read it, else a contiguous copy kept alive by holder.
template <typename T>
Mat<T> blasReadable(Mat<T> a, OwnedTensor<T> &holder) {
  if (layoutOf(a).ok) return a;
  holder = th::own(th::TH<T>::newWithSize(2, a.size, nullptr));
  Mat<T> copy = matOf(holder.get());
  copyRef(copy.ref(), a.ref());
  return copy;
}

template <typename T>
Vec<T> blasReadable(Vec<T> v, OwnedTensor<T> &holder) {
  if (v.blasReadable()) return v;
  holder = th::own(th::TH<T>::newWithSize(1, &v.size, nullptr));
  Vec<T> copy = vecOf(holder.get());
  copyRef(copy.ref(), v.ref());
  return copy;
}

// c = beta c + alpha a b
template <typename T>
void gemmMat(Mat<T> c, T beta, T alpha, Mat<T> a, Mat<T> b) {
  const int64_t m = c.size[0], n = c.size[1], k = a.size[1];
  if (m == 0 || n == 0) return;
  if (k == 0) return scaleRef(c.ref(), beta);
  const BlasLayout lc = layoutOf(c);
  if (!lc.ok) {
    OwnedTensor<T> buffer = th::own(th::TH<T>::newWithSize(2, c.size, nullptr));
    Mat<T> bc = matOf(buffer.get());
    if (beta != 0) copyRef(bc.ref(), c.ref());
    gemmMat(bc, beta, alpha, a, b);
    copyRef(c.ref(), bc.ref());
    return;
  }
  // A row-major c is a column-major c^T = b^T a^T.
  if (lc.trans == 't') return gemmMat(c.transposed(), beta, alpha, b.transposed(), a.transposed());
  OwnedTensor<T> holdA, holdB;
  a = blasReadable(a, holdA);
  b = blasReadable(b, holdB);
  const BlasLayout la = layoutOf(a), lb = layoutOf(b);
  BlasOps<T>::gemm(la.trans, lb.trans, m, n, k, alpha, a.data, la.ld, b.data, lb.ld, beta, c.data, lc.ld);
}

// y = beta y + alpha a x
template <typename T>
void gemvMat(Vec<T> y, T beta, T alpha, Mat<T> a, Vec<T> x) {
  const int64_t m = a.size[0], n = a.size[1];
  if (m == 0) return;
  if (n == 0) return scaleRef(y.ref(), beta);
  if (!y.blasReadable()) {
    OwnedTensor<T> buffer = th::own(th::TH<T>::newWithSize(1, &y.size, nullptr));
    Vec<T> by = vecOf(buffer.get());
    if (beta != 0) copyRef(by.ref(), y.ref());
    gemvMat(by, beta, alpha, a, x);
    copyRef(y.ref(), by.ref());
    return;
  }
  OwnedTensor<T> holdA, holdX;
  a = blasReadable(a, holdA);
  x = blasReadable(x, holdX);
  const BlasLayout la = layoutOf(a);
  if (la.trans == 'n')
    BlasOps<T>::gemv('n', m, n, alpha, a.data, la.ld, x.data, x.inc(), beta, y.data, y.inc());
  else  // a is stored as its transpose, an n x m column-major matrix
    BlasOps<T>::gemv('t', n, m, alpha, a.data, la.ld, x.data, x.inc(), beta, y.data, y.inc());
}

// a = a + alpha x y^T
template <typename T>
void gerMat(Mat<T> a, T alpha, Vec<T> x, Vec<T> y) {
  const int64_t m = a.size[0], n = a.size[1];
  if (m == 0 || n == 0) return;
  const BlasLayout la = layoutOf(a);
  if (!la.ok) {
    OwnedTensor<T> buffer = th::own(th::TH<T>::newWithSize(2, a.size, nullptr));
    Mat<T> ba = matOf(buffer.get());
    copyRef(ba.ref(), a.ref());
    gerMat(ba, alpha, x, y);
    copyRef(a.ref(), ba.ref());
    return;
  }
  OwnedTensor<T> holdX, holdY;
  x = blasReadable(x, holdX);
  y = blasReadable(y, holdY);
  if (la.trans == 'n')
    BlasOps<T>::ger(m, n, alpha, x.data, x.inc(), y.data, y.inc(), a.data, la.ld);
  else  // a^T = a^T + alpha y x^T
    BlasOps<T>::ger(n, m, alpha, y.data, y.inc(), x.data, x.inc(), a.data, la.ld);
}

template <typename TensorT>
void checkMatrix(const char *fn, const char *name, TensorT *t, int arg) {
  THArgCheck(t->nDimension == 2, arg, "%s: %s must be a matrix (2-d), got sizes %s", fn, name, shape(t).c_str());
}

template <typename TensorT>
void checkVector(const char *fn, const char *name, TensorT *t, int arg) {
  THArgCheck(t->nDimension == 1, arg, "%s: %s must be a vector (1-d), got sizes %s", fn, name, shape(t).c_str());
}

template <typename TensorT>
void checkBatch(const char *fn, const char *name, TensorT *t, int arg) {
  THArgCheck(t->nDimension == 3, arg, "%s: %s must be a batch of matrices (3-d), got sizes %s", fn, name,
             shape(t).c_str());
}

// t (when given) must have the shape of the result.
template <typename TensorT>
void checkAddend(const char *fn, TensorT *t, int arg, std::initializer_list<int64_t> size) {
  bool same = t->nDimension == (int)size.size();
  int d = 0;
  for (int64_t s : size) same = same && t->size[d++] == s;
  std::string want = "[";
  d = 0;
  for (int64_t s : size) want += (d++ ? ", " : "") + std::to_string(s);
  want += "]";
  THArgCheck(same, arg, "%s: t must have the result's sizes %s, got %s", fn, want.c_str(), shape(t).c_str());
}

}  // namespace

#define TH_GENERIC_FILE "TH/generic/THTensorBlas.cpp"
#include "TH/THGenerateAllTypes.h"
