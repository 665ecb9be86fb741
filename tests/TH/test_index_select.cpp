// Indexing ops (indexSelect ... put) checked against plain loops over std::vector values,
// on row-major, column-major, gapped (every stride doubled) and expanded (0-stride) inputs.
// Index inputs are written, and index outputs read, with TH_INDEX_BASE, so the _base0 and
// _base1 builds each check their own convention.
#define BOOST_TEST_MODULE TH indexing ops
#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "th_test_util.hpp"

namespace {

constexpr int64_t B = TH_INDEX_BASE;

// The C API of one element type (TH's type table), so that one test body serves every type.
template <typename T>
using Ops = th::TH<T>;

using Types = boost::mpl::list<uint8_t, int32_t, int64_t, float, double>;

// A plain row-major array: the reference side of every test.
struct Arr {
  std::vector<int64_t> size;
  std::vector<double> v;
  int64_t numel() const {
    int64_t n = 1;
    for (auto s : size) n *= s;
    return n;
  }
  std::vector<int64_t> coords(int64_t k) const {
    std::vector<int64_t> c(size.size());
    for (int d = (int)size.size() - 1; d >= 0; d--) {
      c[d] = k % size[d];
      k /= size[d];
    }
    return c;
  }
  int64_t flat(const std::vector<int64_t> &c) const {
    int64_t k = 0;
    for (size_t d = 0; d < size.size(); d++) k = k * size[d] + c[d];
    return k;
  }
  double &at(const std::vector<int64_t> &c) { return v[flat(c)]; }
  double at(const std::vector<int64_t> &c) const { return v[flat(c)]; }
};

std::mt19937 &rng() {
  static std::mt19937 gen(20240611);
  return gen;
}
int64_t randInt(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi - 1)(rng()); }

// Integers in [lo, hi): exact in every element type.
Arr randArr(const std::vector<int64_t> &size, int64_t lo, int64_t hi) {
  Arr a{size, {}};
  a.v.resize(a.numel());
  for (auto &x : a.v) x = (double)randInt(lo, hi);
  return a;
}

enum Layout { RowMajor, ColumnMajor, Gapped };
const Layout kLayouts[] = {RowMajor, ColumnMajor, Gapped};

// A tensor with the given strides whose elements are a's values (0-stride dimensions:
// the last write wins, so read the tensor back for its values).
int64_t offsetOf(const std::vector<int64_t> &coords, const int64_t *stride) {
  int64_t offset = 0;
  for (size_t d = 0; d < coords.size(); d++) offset += coords[d] * stride[d];
  return offset;
}

template <typename T>
auto makeStrided(const Arr &a, const std::vector<int64_t> &stride) {
  auto *t = th::TH<T>::newWithSize((int)a.size.size(), a.size.data(), stride.data());
  T *data = t->storage->data + t->storageOffset;
  for (int64_t k = 0; k < a.numel(); k++) data[offsetOf(a.coords(k), stride.data())] = (T)a.v[k];
  return t;
}

template <typename T>
auto make(const Arr &a, Layout layout) {
  const int nd = (int)a.size.size();
  std::vector<int64_t> stride(nd);
  int64_t s = 1;
  if (layout == ColumnMajor) {
    for (int d = 0; d < nd; d++) {
      stride[d] = s;
      s *= std::max<int64_t>(a.size[d], 1);
    }
  } else {
    for (int d = nd - 1; d >= 0; d--) {
      stride[d] = s * (layout == Gapped ? 2 : 1);
      s *= std::max<int64_t>(a.size[d], 1);
    }
  }
  return makeStrided<T>(a, stride);
}

template <typename TensorT>
Arr read(TensorT *t) {
  Arr a{std::vector<int64_t>(t->size, t->size + t->nDimension), {}};
  const auto *data = t->storage->data + t->storageOffset;
  for (int64_t k = 0; k < a.numel(); k++) a.v.push_back((double)data[offsetOf(a.coords(k), t->stride)]);
  return a;
}

template <typename TensorT>
void check(TensorT *t, const Arr &ref) {
  Arr got = read(t);
  BOOST_TEST(got.size == ref.size, boost::test_tools::per_element());
  BOOST_TEST(got.v == ref.v, boost::test_tools::per_element());
}

template <typename TensorT>
bool contiguous(TensorT *t) {
  return th::isContiguous(th::ref(t));
}

Arr zeros(const std::vector<int64_t> &size) { return randArr(size, 0, 1); }

// Index values for a dimension of size n, in the caller's base.
Arr randIndex(const std::vector<int64_t> &size, int64_t n) { return randArr(size, B, n + B); }

const std::vector<std::vector<int64_t>> kShapes = {{4, 5, 3}, {5, 9, 16}};  // small and large slices

}  // namespace

BOOST_AUTO_TEST_CASE(layouts_are_what_they_claim) {
  Arr a = randArr({3, 4}, 0, 20);
  for (Layout l : kLayouts) {
    auto *t = make<float>(a, l);
    check(t, a);
    BOOST_TEST(contiguous(t) == (l == RowMajor));
    THFloatTensor_free(t);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(index_select, T, Types) {
  for (const auto &shape : kShapes)
    for (int dim = 0; dim < 3; dim++)
      for (Layout srcLayout : kLayouts)
        for (Layout idxLayout : {RowMajor, Gapped}) {
          Arr src = randArr(shape, 0, 20);
          Arr idx = randIndex({7}, shape[dim]);
          Arr ref{shape, {}};
          ref.size[dim] = 7;
          for (int64_t k = 0; k < ref.numel(); k++) {
            auto c = ref.coords(k);
            c[dim] = (int64_t)idx.v[c[dim]] - B;
            ref.v.push_back(src.at(c));
          }
          auto *s = make<T>(src, srcLayout);
          auto *i = make<int64_t>(idx, idxLayout);
          auto *r = Ops<T>::newEmpty();
          Ops<T>::indexSelect(r, s, dim, i);
          check(r, ref);
          auto *rStrided = make<T>(zeros(ref.size), ColumnMajor);  // written through its strides
          Ops<T>::indexSelect(rStrided, s, dim, i);
          check(rStrided, ref);
          BOOST_TEST(!contiguous(rStrided));
          Ops<T>::indexSelect(s, s, dim, i);  // the result may be the source
          check(s, ref);
          for (auto *x : {r, rStrided, s}) Ops<T>::free(x);
          THLongTensor_free(i);
        }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(index_select_vector_large_and_expanded, T, Types) {
  Arr v = randArr({10}, 0, 20), vi = randIndex({12}, 10);
  auto *s = make<T>(v, Gapped);
  auto *i = make<int64_t>(vi, RowMajor);
  auto *r = Ops<T>::newEmpty();
  Ops<T>::indexSelect(r, s, 0, i);
  Arr ref{{12}, {}};
  for (double x : vi.v) ref.v.push_back(v.v[(int64_t)x - B]);
  check(r, ref);
  Ops<T>::free(s);
  THLongTensor_free(i);

  // above the OpenMP threshold, rows of a contiguous matrix
  Arr big = randArr({600, 70}, 0, 20), bi = randIndex({900}, 600);
  s = make<T>(big, RowMajor);
  i = make<int64_t>(bi, RowMajor);
  Ops<T>::indexSelect(r, s, 0, i);
  ref = Arr{{900, 70}, {}};
  for (int64_t k = 0; k < ref.numel(); k++) ref.v.push_back(big.at({(int64_t)bi.v[k / 70] - B, k % 70}));
  check(r, ref);
  Ops<T>::free(s);
  THLongTensor_free(i);

  // an expanded (0-stride) source and an expanded index
  s = makeStrided<T>(randArr({4, 6}, 0, 20), {0, 1});
  Arr se = read(s);
  i = makeStrided<int64_t>(randIndex({5}, 6), {0});
  Arr ie = read(i);
  Ops<T>::indexSelect(r, s, 1, i);
  ref = Arr{{4, 5}, {}};
  for (int64_t k = 0; k < 20; k++) ref.v.push_back(se.at({k / 5, (int64_t)ie.v[k % 5] - B}));
  check(r, ref);
  for (auto *x : {r, s}) Ops<T>::free(x);
  THLongTensor_free(i);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(index_copy_add_fill, T, Types) {
  for (const auto &shape : kShapes)
    for (int dim = 0; dim < 3; dim++)
      for (Layout tLayout : kLayouts)
        for (Layout srcLayout : kLayouts) {
          const int64_t n = 6;  // repeats are likely: later ones win (copy) or add up (add)
          Arr t0 = randArr(shape, 0, 20), idx = randIndex({n}, shape[dim]);
          std::vector<int64_t> srcSize = shape;
          srcSize[dim] = n;
          Arr src = randArr(srcSize, 0, 20);
          Arr refCopy = t0, refAdd = t0, refFill = t0;
          for (int64_t k = 0; k < src.numel(); k++) {  // row-major: index order within every line
            auto c = src.coords(k);
            c[dim] = (int64_t)idx.v[c[dim]] - B;
            refCopy.at(c) = src.v[k];
            refAdd.at(c) += src.v[k];
            refFill.at(c) = 7;
          }
          auto *s = make<T>(src, srcLayout);
          auto *i = make<int64_t>(idx, srcLayout == Gapped ? Gapped : RowMajor);
          auto *t = make<T>(t0, tLayout);
          Ops<T>::indexCopy(t, dim, i, s);
          check(t, refCopy);
          Ops<T>::free(t);
          t = make<T>(t0, tLayout);
          Ops<T>::indexAdd(t, dim, i, s);
          check(t, refAdd);
          Ops<T>::free(t);
          t = make<T>(t0, tLayout);
          Ops<T>::indexFill(t, dim, i, 7);
          check(t, refFill);
          for (auto *x : {t, s}) Ops<T>::free(x);
          THLongTensor_free(i);
        }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(index_add_large_with_repeats, T, Types) {
  for (Layout layout : kLayouts) {
    Arr t0 = randArr({300, 130}, 0, 3), idx = randIndex({500}, 300), src = randArr({500, 130}, 0, 3);
    Arr ref = t0;
    for (int64_t k = 0; k < src.numel(); k++) ref.at({(int64_t)idx.v[k / 130] - B, k % 130}) += src.v[k];
    auto *t = make<T>(t0, layout);
    auto *s = make<T>(src, layout);
    auto *i = make<int64_t>(idx, RowMajor);
    Ops<T>::indexAdd(t, 0, i, s);
    check(t, ref);
    for (auto *x : {t, s}) Ops<T>::free(x);
    THLongTensor_free(i);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(gather, T, Types) {
  const std::vector<int64_t> shape = {4, 5, 3};
  for (int dim = 0; dim < 3; dim++)
    for (Layout srcLayout : kLayouts)
      for (Layout idxLayout : kLayouts) {
        std::vector<int64_t> idxSize = {3, 4, 2};  // smaller than the source outside dim
        idxSize[dim] = 6;
        Arr src = randArr(shape, 0, 20), idx = randIndex(idxSize, shape[dim]);
        Arr ref{idxSize, {}};
        for (int64_t k = 0; k < idx.numel(); k++) {
          auto c = idx.coords(k);
          c[dim] = (int64_t)idx.v[k] - B;
          ref.v.push_back(src.at(c));
        }
        auto *s = make<T>(src, srcLayout);
        auto *i = make<int64_t>(idx, idxLayout);
        auto *r = make<T>(zeros({2, 2}), RowMajor);
        Ops<T>::gather(r, s, dim, i);
        check(r, ref);
        for (auto *x : {r, s}) Ops<T>::free(x);
        THLongTensor_free(i);

        // in place, with an index of the source's shape
        idx = randIndex(shape, shape[dim]);
        ref = Arr{shape, {}};
        for (int64_t k = 0; k < idx.numel(); k++) {
          auto c = idx.coords(k);
          c[dim] = (int64_t)idx.v[k] - B;
          ref.v.push_back(src.at(c));
        }
        s = make<T>(src, srcLayout);
        i = make<int64_t>(idx, idxLayout);
        Ops<T>::gather(s, s, dim, i);
        check(s, ref);
        Ops<T>::free(s);
        THLongTensor_free(i);
      }
  // large, parallel over lines
  Arr src = randArr({400, 120}, 0, 20), idx = randIndex({400, 120}, 400);
  Arr ref{{400, 120}, {}};
  for (int64_t k = 0; k < idx.numel(); k++) ref.v.push_back(src.at({(int64_t)idx.v[k] - B, k % 120}));
  auto *s = make<T>(src, ColumnMajor);
  auto *i = make<int64_t>(idx, RowMajor);
  auto *r = Ops<T>::newEmpty();
  Ops<T>::gather(r, s, 0, i);
  check(r, ref);
  for (auto *x : {r, s}) Ops<T>::free(x);
  THLongTensor_free(i);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(scatter_family, T, Types) {
  const std::vector<int64_t> shape = {4, 5, 3};
  for (int dim = 0; dim < 3; dim++)
    for (Layout tLayout : kLayouts)
      for (Layout srcLayout : kLayouts) {
        std::vector<int64_t> idxSize = {3, 4, 2};
        // scatter: distinct indices within each line (repeats have no specified winner)
        idxSize[dim] = shape[dim] - 1;
        Arr unique{idxSize, {}};
        unique.v.resize(unique.numel());
        std::map<int64_t, std::vector<int64_t>> perms;  // one permutation per line
        for (int64_t k = 0; k < unique.numel(); k++) {
          auto c = unique.coords(k);
          const int64_t pos = c[dim];
          c[dim] = 0;
          auto &perm = perms[unique.flat(c)];
          if (perm.empty()) {
            for (int64_t j = 0; j < shape[dim]; j++) perm.push_back(j);
            std::shuffle(perm.begin(), perm.end(), rng());
          }
          unique.v[k] = (double)(perm[pos] + B);
        }
        idxSize[dim] = 6;
        Arr repeated = randIndex(idxSize, shape[dim]);
        std::vector<int64_t> srcSize = {4, 5, 3};
        srcSize[dim] = 7;  // larger than the index everywhere
        Arr t0 = randArr(shape, 0, 20), src = randArr(srcSize, 0, 20);
        Arr refScatter = t0, refAdd = t0, refFill = t0;
        for (int64_t k = 0; k < unique.numel(); k++) {
          auto c = unique.coords(k), d = c;
          d[dim] = (int64_t)unique.v[k] - B;
          refScatter.at(d) = src.at(c);
        }
        for (int64_t k = 0; k < repeated.numel(); k++) {
          auto c = repeated.coords(k), d = c;
          d[dim] = (int64_t)repeated.v[k] - B;
          refAdd.at(d) += src.at(c);
          refFill.at(d) = 7;
        }
        auto *s = make<T>(src, srcLayout);
        auto *iu = make<int64_t>(unique, tLayout);
        auto *ir = make<int64_t>(repeated, srcLayout);
        auto *t = make<T>(t0, tLayout);
        Ops<T>::scatter(t, dim, iu, s);
        check(t, refScatter);
        Ops<T>::free(t);
        t = make<T>(t0, tLayout);
        Ops<T>::scatterAdd(t, dim, ir, s);
        check(t, refAdd);
        Ops<T>::free(t);
        t = make<T>(t0, tLayout);
        Ops<T>::scatterFill(t, dim, ir, 7);
        check(t, refFill);
        for (auto *x : {t, s}) Ops<T>::free(x);
        for (auto *x : {iu, ir}) THLongTensor_free(x);
      }
  // large scatterAdd with many repeats: threads split lines, so sums are exact
  Arr t0 = randArr({300, 150}, 0, 3), idx = randIndex({400, 150}, 300), src = randArr({400, 150}, 0, 3);
  Arr ref = t0;
  for (int64_t k = 0; k < idx.numel(); k++) ref.at({(int64_t)idx.v[k] - B, k % 150}) += src.v[k];
  auto *t = make<T>(t0, Gapped);
  auto *s = make<T>(src, RowMajor);
  auto *i = make<int64_t>(idx, ColumnMajor);
  Ops<T>::scatterAdd(t, 0, i, s);
  check(t, ref);
  for (auto *x : {t, s}) Ops<T>::free(x);
  THLongTensor_free(i);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(masked_ops, T, Types) {
  const std::vector<int64_t> shape = {4, 5, 3};
  for (Layout tLayout : kLayouts)
    for (Layout maskLayout : kLayouts)
      for (bool flatMask : {false, true}) {  // a mask of another shape with as many elements
        Arr t0 = randArr(shape, 1, 20);
        Arr mask = randArr(flatMask ? std::vector<int64_t>{3, 20} : shape, 0, 2);
        int64_t ones = 0;
        for (double m : mask.v) ones += m == 1;
        Arr src = randArr({ones + 3}, 0, 20);
        Arr refFill = t0, refCopy = t0, refSelect{{ones}, {}};
        for (int64_t k = 0, j = 0; k < t0.numel(); k++) {
          if (mask.v[k] == 0) continue;
          refFill.v[k] = 7;
          refCopy.v[k] = src.v[j++];
          refSelect.v.push_back(t0.v[k]);
        }
        auto *m = make<uint8_t>(mask, maskLayout);
        auto *s = make<T>(src, maskLayout == Gapped ? Gapped : RowMajor);
        auto *t = make<T>(t0, tLayout);
        Ops<T>::maskedFill(t, m, 7);
        check(t, refFill);
        Ops<T>::free(t);
        t = make<T>(t0, tLayout);
        Ops<T>::maskedCopy(t, m, s);
        check(t, refCopy);
        Ops<T>::free(t);
        t = make<T>(t0, tLayout);
        auto *r = make<T>(zeros({ones}), Gapped);
        Ops<T>::maskedSelect(r, t, m);
        check(r, refSelect);
        Ops<T>::maskedSelect(t, t, m);
        check(t, refSelect);
        check(m, mask);
        for (auto *x : {t, s, r}) Ops<T>::free(x);
        THByteTensor_free(m);
      }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nonzero, T, Types) {
  for (const auto &shape : std::vector<std::vector<int64_t>>{{4, 5, 3}, {9}, {}, {3, 0}})
    for (Layout layout : kLayouts) {
      Arr t0 = randArr(shape, 0, 3);  // about a third are zero
      const int nd = (int)shape.size();
      Arr ref{{0, nd}, {}};
      for (int64_t k = 0; k < t0.numel(); k++) {
        if (t0.v[k] == 0) continue;
        ref.size[0]++;
        for (int64_t c : t0.coords(k)) ref.v.push_back((double)(c + B));
      }
      auto *t = make<T>(t0, layout);
      auto *r = THLongTensor_new();
      Ops<T>::nonzero(r, t);
      check(r, ref);
      Ops<T>::free(t);
      THLongTensor_free(r);
    }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(take_and_put, T, Types) {
  const std::vector<int64_t> shape = {4, 5, 3};
  const int64_t n = 60;
  // a flat position k is written k + base, or k - n (negative: from the end)
  auto encode = [&](int64_t k) { return (double)(randInt(0, 2) ? k + B : k - n); };
  for (Layout srcLayout : kLayouts)
    for (Layout idxLayout : kLayouts) {
      Arr src = randArr(shape, 0, 20), idx = randArr({2, 6}, 0, n), positions = idx;
      for (auto &x : idx.v) x = encode((int64_t)x);
      Arr ref{{2, 6}, {}};
      for (double k : positions.v) ref.v.push_back(src.v[(int64_t)k]);
      auto *s = make<T>(src, srcLayout);
      auto *i = make<int64_t>(idx, idxLayout);
      auto *r = Ops<T>::newEmpty();
      Ops<T>::take(r, s, i);
      check(r, ref);
      Ops<T>::take(s, s, i);
      check(s, ref);
      for (auto *x : {r, s}) Ops<T>::free(x);
      THLongTensor_free(i);

      // put: distinct positions when overwriting, repeats when accumulating
      std::vector<int64_t> perm(n);
      for (int64_t k = 0; k < n; k++) perm[k] = k;
      std::shuffle(perm.begin(), perm.end(), rng());
      Arr t0 = randArr(shape, 0, 20), vals = randArr({3, 4}, 0, 20);
      Arr unique{{3, 4}, {}}, repeated = randArr({3, 4}, 0, 5);
      Arr refPut = t0, refAcc = t0;
      for (int64_t k = 0; k < 12; k++) {
        unique.v.push_back(encode(perm[k]));
        refPut.v[perm[k]] = vals.v[k];
        refAcc.v[(int64_t)repeated.v[k]] += vals.v[k];
        repeated.v[k] = encode((int64_t)repeated.v[k]);
      }
      auto *v = make<T>(vals, idxLayout);
      auto *iu = make<int64_t>(unique, idxLayout);
      auto *ir = make<int64_t>(repeated, srcLayout);
      auto *t = make<T>(t0, srcLayout);
      Ops<T>::put(t, iu, v, 0);
      check(t, refPut);
      Ops<T>::free(t);
      t = make<T>(t0, srcLayout);
      Ops<T>::put(t, ir, v, 1);
      check(t, refAcc);
      for (auto *x : {t, v}) Ops<T>::free(x);
      for (auto *x : {iu, ir}) THLongTensor_free(x);
    }
  // large take, parallel
  Arr src = randArr({200, 300}, 0, 20), idx = randArr({70000}, 0, 60000);
  Arr ref{{70000}, {}};
  for (double k : idx.v) ref.v.push_back(src.v[(int64_t)k]);
  for (auto &x : idx.v) x += B;
  auto *s = make<T>(src, ColumnMajor);
  auto *i = make<int64_t>(idx, RowMajor);
  auto *r = Ops<T>::newEmpty();
  Ops<T>::take(r, s, i);
  check(r, ref);
  for (auto *x : {r, s}) Ops<T>::free(x);
  THLongTensor_free(i);
}

// Long tensors can share memory with their index: the op reads the index as it was.
BOOST_AUTO_TEST_CASE(index_sharing_memory_with_the_destination) {
  Arr t0{{2, 3}, {B + 1, B, B + 1, B, B + 1, B}};
  auto *t = make<int64_t>(t0, RowMajor);
  THLongTensor_scatter(t, 0, t, t);  // t[t[p]][p[1]] = t[p]
  Arr ref = t0;
  for (int64_t k = 0; k < 6; k++) ref.at({(int64_t)t0.v[k] - B, k % 3}) = t0.v[k];
  check(t, ref);
  THLongTensor_free(t);

  t = make<int64_t>(t0, ColumnMajor);
  THLongTensor_gather(t, t, 0, t);
  ref = t0;
  for (int64_t k = 0; k < 6; k++) ref.v[k] = t0.at({(int64_t)t0.v[k] - B, k % 3});
  check(t, ref);
  THLongTensor_free(t);

  t = make<int64_t>(Arr{{2, 2}, {0, 3, 0, 5}}, Gapped);
  THLongTensor_nonzero(t, t);
  check(t, Arr{{2, 2}, {B, B + 1, B + 1, B + 1}});
  THLongTensor_free(t);
}

namespace {

template <typename F>
void expectError(F call, th::ErrorKind kind, const std::string &part) {
  try {
    call();
    BOOST_ERROR("no error raised, expected: " << part);
  } catch (const th::Error &e) {
    BOOST_TEST((e.kind() == kind));
    BOOST_TEST(std::string(e.what()).find(part) != std::string::npos, e.what() << " should say: " << part);
  }
}

std::string outOfRange(int64_t index, int dim, int64_t size) {
  return "index " + std::to_string(index) + " is out of range for dimension " + std::to_string(dim) + " of size " +
         std::to_string(size);
}

// Every tensor's sizes and values, to check that a failed call changed nothing.
struct Snapshot {
  std::vector<Arr> before;
  std::vector<std::function<Arr()>> readers;
  template <typename TensorT>
  Snapshot &add(TensorT *t) {
    readers.push_back([t] { return read(t); });
    before.push_back(read(t));
    return *this;
  }
  void verify() const {
    for (size_t k = 0; k < readers.size(); k++) {
      Arr now = readers[k]();
      BOOST_TEST(now.size == before[k].size, boost::test_tools::per_element());
      BOOST_TEST(now.v == before[k].v, boost::test_tools::per_element());
    }
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE_TEMPLATE(errors_leave_tensors_unchanged, T, Types) {
  const auto Index = th::ErrorKind::Index, Value = th::ErrorKind::Value, Runtime = th::ErrorKind::Runtime;
  auto *t = make<T>(randArr({5, 4}, 0, 20), ColumnMajor);
  auto *r = make<T>(randArr({2, 2}, 0, 20), RowMajor);
  auto *src = make<T>(randArr({2, 4}, 0, 20), Gapped);
  const int64_t bad[] = {5 + B, B - 1};  // one past the end, one before the start
  for (int64_t b : bad) {
    auto *i = make<int64_t>(Arr{{2}, {B + 1, (double)b}}, RowMajor);
    auto *i2 = make<int64_t>(Arr{{2, 4}, {B, B, B, B, B + 2, (double)b, B, B}}, Gapped);
    Snapshot snap;
    snap.add(t).add(r).add(src).add(i).add(i2);
    const std::string msg = outOfRange(b, 0, 5);
    expectError([&] { Ops<T>::indexSelect(r, t, 0, i); }, Index, msg);
    expectError([&] { Ops<T>::indexCopy(t, 0, i, src); }, Index, msg);
    expectError([&] { Ops<T>::indexAdd(t, 0, i, src); }, Index, msg);
    expectError([&] { Ops<T>::indexFill(t, 0, i, 1); }, Index, msg);
    expectError([&] { Ops<T>::gather(r, t, 0, i2); }, Index, msg);
    expectError([&] { Ops<T>::scatter(t, 0, i2, src); }, Index, msg);
    expectError([&] { Ops<T>::scatterAdd(t, 0, i2, src); }, Index, msg);
    expectError([&] { Ops<T>::scatterFill(t, 0, i2, 1); }, Index, msg);
    snap.verify();
    THLongTensor_free(i);
    THLongTensor_free(i2);
  }
  // flat indices of take/put: n + base and -n - 1 are the first ones out of range
  for (int64_t b : {20 + B, int64_t(-21)}) {
    auto *i = make<int64_t>(Arr{{2}, {-20, (double)b}}, Gapped);
    auto *v = make<T>(randArr({2}, 0, 20), RowMajor);
    Snapshot snap;
    snap.add(t).add(r).add(i).add(v);
    const std::string msg = "index " + std::to_string(b) + " is out of range for a tensor of 20 elements";
    expectError([&] { Ops<T>::take(r, t, i); }, Index, msg);
    expectError([&] { Ops<T>::put(t, i, v, 0); }, Index, msg);
    expectError([&] { Ops<T>::put(t, i, v, 1); }, Index, msg);
    snap.verify();
    THLongTensor_free(i);
    Ops<T>::free(v);
  }
  // shapes, dimensions and masks
  auto *i = make<int64_t>(Arr{{3}, {B, B, B}}, RowMajor);
  auto *matrixIndex = make<int64_t>(Arr{{1, 2}, {B, B}}, RowMajor);
  auto *wide = make<int64_t>(Arr{{2, 5}, std::vector<double>(10, B)}, RowMajor);
  auto *badMask = make<uint8_t>(randArr({5, 4}, 0, 2), RowMajor);
  THByteTensor_set2d(badMask, 1, 1, 2);
  auto *shortMask = make<uint8_t>(randArr({19}, 0, 2), RowMajor);
  auto *allOnes = make<uint8_t>(Arr{{20}, std::vector<double>(20, 1)}, RowMajor);
  Snapshot snap;
  snap.add(t).add(r).add(src).add(i).add(matrixIndex).add(wide).add(badMask).add(shortMask).add(allOnes);
  expectError([&] { Ops<T>::indexSelect(r, t, 2, i); }, Index, "dimension 2 (argument 3) out of range");
  expectError([&] { Ops<T>::indexFill(t, -1, i, 1); }, Index, "dimension -1 (argument 2) out of range");
  expectError([&] { Ops<T>::indexSelect(r, t, 0, matrixIndex); }, Runtime, "index must be a vector");
  expectError([&] { Ops<T>::indexCopy(t, 0, i, src); }, Runtime, "source sizes [2, 4] do not match");  // 3 indices
  expectError([&] { Ops<T>::gather(r, t, 0, wide); }, Runtime, "index sizes [2, 5]");
  expectError([&] { Ops<T>::scatter(t, 0, wide, src); }, Runtime, "index sizes [2, 5]");
  expectError([&] { Ops<T>::scatter(t, 1, i, src); }, Runtime, "index sizes [3]");
  expectError([&] { Ops<T>::maskedFill(t, shortMask, 1); }, Runtime, "mask sizes [19] have 19 elements");
  expectError([&] { Ops<T>::maskedFill(t, badMask, 1); }, Value, "a mask can hold only 0 and 1, found 2");
  expectError([&] { Ops<T>::maskedSelect(r, t, badMask); }, Value, "found 2");
  expectError([&] { Ops<T>::maskedCopy(t, allOnes, src); }, Runtime, "source has 8 elements but the mask selects 20");
  expectError([&] { Ops<T>::put(t, i, src, 0); }, Runtime,
              "source sizes [2, 4] have 8 elements but the index sizes [3] have 3");
  snap.verify();
  for (auto *x : {t, r, src}) Ops<T>::free(x);
  for (auto *x : {i, matrixIndex, wide}) THLongTensor_free(x);
  for (auto *x : {badMask, shortMask, allOnes}) THByteTensor_free(x);
}
