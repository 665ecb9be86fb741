// THC's sort family (max/min with indices, sort, topk, kthvalue, median, mode, medianall)
// against TH's on the same inputs: values compared bit for bit (so -0.0 and NaN payloads
// count), indices exactly, errors by kind, argument and message, with the results left
// untouched. Built for TH_INDEX_BASE 0 and 1, each linking TH of the same base.
#define BOOST_TEST_MODULE THC sort
#include <boost/mpl/list.hpp>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "TH/THError.hpp"
#include "TH/THTensorSort.h"
#include "THC/THCTensorSort.h"
#include "thc_test_util.hpp"

namespace {

using AllTypes = boost::mpl::list<uint8_t, int8_t, int16_t, int32_t, int64_t, float, double>;
// the large cases: one 32-bit and one 64-bit key, an integer and a float
using LargeTypes = boost::mpl::list<int32_t, float, double>;
using FloatTypes = boost::mpl::list<float, double>;

using thct::DeviceTensor;
using thct::HostTensor;
using thct::Layout;
template <typename T>
using TH = th::TH<T>;
template <typename T>
using THC = thc::THC<T>;
template <typename T>
using Ops = thc::SortOps<T>;

template <typename T>
struct DeviceFree {
  void operator()(DeviceTensor<T> *t) const { THC<T>::free(thct::state(), t); }
};
template <typename T>
using DevicePtr = std::unique_ptr<DeviceTensor<T>, DeviceFree<T>>;
template <typename T>
using HostPtr = th::Owned<HostTensor<T>>;

template <typename T>
HostPtr<T> hostEmpty() {
  int64_t zero = 0;
  return th::own(TH<T>::newWithSize(1, &zero, nullptr));
}
template <typename T>
DevicePtr<T> deviceEmpty() {
  int64_t zero = 0;
  return DevicePtr<T>(THC<T>::newWithSize(thct::state(), 1, &zero, nullptr));
}
template <typename T>
DevicePtr<T> toDevice(HostTensor<T> *h) {
  return DevicePtr<T>(thct::toDevice<T>(h));
}
template <typename T>
HostPtr<T> toHost(DeviceTensor<T> *d) {
  return th::own(thct::toHost<T>(d));
}

template <typename TensorT>
std::vector<int64_t> shapeOf(const TensorT *t) {
  return std::vector<int64_t>(t->size, t->size + t->nDimension);
}

template <typename T>
constexpr bool kFloating = std::is_floating_point_v<T>;

// Values with many duplicates: small integers (halves for floats, with -0.0 beside 0.0 and
// infinities), and with nans NaNs of both signs and several payloads now and then; wide:
// from a larger range, fewer duplicates.
template <typename T>
T sampleValue(std::mt19937 &gen, bool nans, bool wide) {
  const int64_t span = wide ? (sizeof(T) == 1 ? 200 : 20000) : 8;
  int64_t x = std::uniform_int_distribution<int64_t>(0, span)(gen);
  if (std::is_signed_v<T>) x -= span / 2;
  if constexpr (kFloating<T>) {
    const unsigned r = gen() % 64;
    if (nans && r < 2) return r == 0 ? std::numeric_limits<T>::quiet_NaN() : -std::numeric_limits<T>::quiet_NaN();
    if (nans && r < 4) return static_cast<T>(std::nan(r == 2 ? "7" : "1234"));
    if (r < 7) return -T(0);
    if (r == 7) return std::numeric_limits<T>::infinity();
    if (r == 8) return -std::numeric_limits<T>::infinity();
    return static_cast<T>(x) / 2;
  } else {
    return static_cast<T>(x);
  }
}

template <typename T>
HostPtr<T> sampleHost(const std::vector<int64_t> &shape, unsigned seed, bool nans, bool wide = false) {
  HostPtr<T> h = th::own(TH<T>::newWithSize((int)shape.size(), shape.data(), nullptr));
  std::mt19937 gen(seed);
  T *p = TH<T>::data(h.get());
  const int64_t n = TH<T>::nElement(h.get());
  for (int64_t i = 0; i < n; i++) p[i] = sampleValue<T>(gen, nans, wide);
  return h;
}

// The same values as a host view and a device view in layout l, of shape rows x cols.
template <typename T>
struct Input {
  HostPtr<T> h;
  DevicePtr<T> d;
};

template <typename T>
Input<T> makeInput(Layout l, int64_t rows, int64_t cols, unsigned seed, bool nans, bool wide = false) {
  std::vector<int64_t> base = {rows, cols};
  if (l == Layout::Transposed) base = {cols, rows};
  if (l == Layout::Narrowed) base = {rows + 3, cols + 5};
  if (l == Layout::Expanded) base = {1, cols};
  HostPtr<T> hb = sampleHost<T>(base, seed, nans, wide);
  DevicePtr<T> db = toDevice<T>(hb.get());
  Input<T> in{th::own(TH<T>::newWithTensor(hb.get())), DevicePtr<T>(THC<T>::newWithTensor(thct::state(), db.get()))};
  HostTensor<T> *h = in.h.get();
  DeviceTensor<T> *d = in.d.get();
  THCState *s = thct::state();
  int64_t size[2] = {rows, cols};
  switch (l) {
    case Layout::Contiguous: break;
    case Layout::Transposed:
      TH<T>::transpose(h, nullptr, 0, 1);
      THC<T>::transpose(s, d, nullptr, 0, 1);
      break;
    case Layout::Narrowed:
      TH<T>::narrow(h, nullptr, 0, 1, rows);
      TH<T>::narrow(h, nullptr, 1, 2, cols);
      THC<T>::narrow(s, d, nullptr, 0, 1, rows);
      THC<T>::narrow(s, d, nullptr, 1, 2, cols);
      break;
    case Layout::Expanded:
      TH<T>::expand(h, nullptr, 2, size);
      THC<T>::expand(s, d, nullptr, 2, size);
      break;
  }
  return in;
}

// A host tensor and its copy on the device (contiguous).
template <typename T>
Input<T> makeInput(const std::vector<int64_t> &shape, unsigned seed, bool nans, bool wide = false) {
  HostPtr<T> h = sampleHost<T>(shape, seed, nans, wide);
  DevicePtr<T> d = toDevice<T>(h.get());
  return {std::move(h), std::move(d)};
}

// Same shape and the same bits in every element.
template <typename T>
void checkSame(HostTensor<T> *expected, HostTensor<T> *actual, const char *what) {
  BOOST_TEST_CONTEXT(what) {
    BOOST_TEST_REQUIRE(shapeOf(expected) == shapeOf(actual), "shapes differ");
    auto e = th::own(TH<T>::newContiguous(expected));
    auto a = th::own(TH<T>::newContiguous(actual));
    const T *pe = TH<T>::data(e.get()), *pa = TH<T>::data(a.get());
    const int64_t n = TH<T>::nElement(e.get());
    for (int64_t i = 0; i < n; i++) {
      if (std::memcmp(&pe[i], &pa[i], sizeof(T)) != 0) {
        BOOST_ERROR("element " << i << ": expected " << +pe[i] << ", got " << +pa[i]);
        return;
      }
    }
  }
}

// Runs an op with a values and an indices result on TH (host input) and on THC (device
// input), into fresh results (or the given ones), and compares both results.
template <typename T, typename HostOp, typename DeviceOp>
void checkPair(HostTensor<T> *h, DeviceTensor<T> *d, HostOp hostOp, DeviceOp deviceOp) {
  auto hv = hostEmpty<T>();
  auto hi = hostEmpty<int64_t>();
  hostOp(hv.get(), hi.get(), h);
  auto dv = deviceEmpty<T>();
  auto di = deviceEmpty<int64_t>();
  deviceOp(dv.get(), di.get(), d);
  checkSame<T>(hv.get(), toHost<T>(dv.get()).get(), "values");
  checkSame<int64_t>(hi.get(), toHost<int64_t>(di.get()).get(), "indices");
}

// OP(values, indices, t, args...) on both sides.
#define CHECK_OP(h, d, OP, ...)                                                  \
  checkPair<T>(                                                                  \
      h, d, [&](auto *v, auto *i, auto *t) { TH<T>::OP(v, i, t, __VA_ARGS__); }, \
      [&](auto *v, auto *i, auto *t) { Ops<T>::OP(thct::state(), v, i, t, __VA_ARGS__); })

// Every op along dim of a tensor whose lines are n long.
template <typename T>
void checkAllOps(HostTensor<T> *h, DeviceTensor<T> *d, int dim, int64_t n) {
  for (int desc = 0; desc < 2; desc++) BOOST_TEST_CONTEXT("sort, descending " << desc) {
      CHECK_OP(h, d, sort, dim, desc);
    }
  // a 0-dim tensor takes only k = 1 (the errors case checks that k = 0 is refused)
  const int64_t smallestK = h->nDimension == 0 ? 1 : 0;
  for (int64_t k : {smallestK, int64_t(1), std::min<int64_t>(4, n), n})
    for (int dir = 0; dir < 2; dir++)
      for (int sorted = 0; sorted < 2; sorted++)
        BOOST_TEST_CONTEXT("topk, k " << k << ", dir " << dir << ", sorted " << sorted) {
          // THC's topk is always in order: what TH gives with sorted = 1
          checkPair<T>(
              h, d, [&](auto *v, auto *i, auto *t) { TH<T>::topk(v, i, t, k, dim, dir, 1); },
              [&](auto *v, auto *i, auto *t) { Ops<T>::topk(thct::state(), v, i, t, k, dim, dir, sorted); });
        }
  if (n == 0) return;
  for (int keepdim = 0; keepdim < 2; keepdim++) {
    BOOST_TEST_CONTEXT("keepdim " << keepdim) {
      BOOST_TEST_CONTEXT("max") { CHECK_OP(h, d, max, dim, keepdim); }
      BOOST_TEST_CONTEXT("min") { CHECK_OP(h, d, min, dim, keepdim); }
      BOOST_TEST_CONTEXT("median") { CHECK_OP(h, d, median, dim, keepdim); }
      BOOST_TEST_CONTEXT("mode") { CHECK_OP(h, d, mode, dim, keepdim); }
      for (int64_t k : {int64_t(1), (n + 1) / 2, n}) BOOST_TEST_CONTEXT("kthvalue, k " << k) {
          CHECK_OP(h, d, kthvalue, k, dim, keepdim);
        }
    }
  }
}

// The same bits, or equal values: -0 and 0 are equal elements, and which of them is the
// median depends on how equal elements are ordered, which medianall leaves open.
template <typename T>
void checkMedianall(HostTensor<T> *h, DeviceTensor<T> *d) {
  const T expected = TH<T>::medianall(h), actual = Ops<T>::medianall(thct::state(), d);
  BOOST_TEST((std::memcmp(&expected, &actual, sizeof(T)) == 0 || expected == actual),
             "medianall: expected " << +expected << ", got " << +actual);
}

// The text of an error message without the source location, " (file:line)", at its end:
// TH and THC raise the same message from different files.
std::string text(const char *what) {
  std::string s = what;
  const size_t open = s.rfind(" (");
  if (open != std::string::npos && !s.empty() && s.back() == ')') s.erase(open);
  return s;
}

// fail() on TH and failDevice() on THC raise the same error (kind, argument, text).
template <typename HostCall, typename DeviceCall>
void checkSameError(HostCall fail, DeviceCall failDevice) {
  std::string expected;
  th::ErrorKind kind = th::ErrorKind::Runtime;
  int arg = -1;
  try {
    fail();
    BOOST_ERROR("TH raised no error");
    return;
  } catch (const th::Error &e) {
    expected = text(e.what());
    kind = e.kind();
    arg = e.argNumber();
  }
  try {
    failDevice();
    BOOST_ERROR("THC raised no error; TH raised: " << expected);
  } catch (const th::Error &e) {
    BOOST_TEST(text(e.what()) == expected);
    BOOST_TEST((int)e.kind() == (int)kind);
    BOOST_TEST(e.argNumber() == arg);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(sort_family, *thct::needsGPU())

// Every op, every layout, both dimensions, duplicates, NaNs, -0.0 and infinities.
BOOST_AUTO_TEST_CASE_TEMPLATE(every_layout, T, AllTypes) {
  unsigned seed = 1;
  for (Layout l : thct::kLayouts) {
    for (int nans = 0; nans < (kFloating<T> ? 2 : 1); nans++) {
      Input<T> in = makeInput<T>(l, 7, 13, seed++, nans);
      for (int dim = 0; dim < 2; dim++)
        BOOST_TEST_CONTEXT(thct::layoutName(l) << ", nans " << nans << ", dim " << dim) {
          checkAllOps<T>(in.h.get(), in.d.get(), dim, dim == 0 ? 7 : 13);
        }
      BOOST_TEST_CONTEXT(thct::layoutName(l) << ", nans " << nans) { checkMedianall<T>(in.h.get(), in.d.get()); }
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(three_dims, T, AllTypes) {
  Input<T> in = makeInput<T>({4, 5, 6}, 3, true);
  for (int dim = 0; dim < 3; dim++) BOOST_TEST_CONTEXT("dim " << dim) {
      checkAllOps<T>(in.h.get(), in.d.get(), dim, in.h->size[dim]);
    }
  checkMedianall<T>(in.h.get(), in.d.get());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(zero_dim_and_empty, T, AllTypes) {
  Input<T> scalar = makeInput<T>(std::vector<int64_t>{}, 5, true);
  BOOST_TEST_CONTEXT("0-dim") {
    checkAllOps<T>(scalar.h.get(), scalar.d.get(), 0, 1);
    checkMedianall<T>(scalar.h.get(), scalar.d.get());
  }
  Input<T> one = makeInput<T>({1}, 6, true);
  BOOST_TEST_CONTEXT("[1]") { checkAllOps<T>(one.h.get(), one.d.get(), 0, 1); }
  Input<T> empty = makeInput<T>({0, 5}, 7, false);
  BOOST_TEST_CONTEXT("[0, 5], dim 1") { checkAllOps<T>(empty.h.get(), empty.d.get(), 1, 5); }
  BOOST_TEST_CONTEXT("[0, 5], dim 0") {
    for (int desc = 0; desc < 2; desc++) CHECK_OP(empty.h.get(), empty.d.get(), sort, 0, desc);
    CHECK_OP(empty.h.get(), empty.d.get(), topk, 0, 0, 1, 1);
  }
  Input<T> flat = makeInput<T>({0}, 8, false);
  BOOST_TEST_CONTEXT("[0]") {
    CHECK_OP(flat.h.get(), flat.d.get(), sort, 0, 0);
    CHECK_OP(flat.h.get(), flat.d.get(), topk, 0, 0, 1, 1);
  }
}

// Rows longer than a thread block: a few long ones (a whole-device sort each), more of
// them (CUB's segmented sort), lines with a stride, and a single line of 2^20 (the float
// path of Note [Sorting one long line], with and without NaN).
BOOST_AUTO_TEST_CASE_TEMPLATE(long_lines, T, LargeTypes) {
  for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
    Input<T> few = makeInput<T>(l, 3, 100000, 11, true, true);
    BOOST_TEST_CONTEXT(thct::layoutName(l) << " [3, 100000], dim 1") {
      checkAllOps<T>(few.h.get(), few.d.get(), 1, 100000);
    }
    BOOST_TEST_CONTEXT(thct::layoutName(l) << " [3, 100000], dim 0") {
      CHECK_OP(few.h.get(), few.d.get(), max, 0, 0);
      CHECK_OP(few.h.get(), few.d.get(), min, 0, 1);
    }
  }
  Input<T> more = makeInput<T>(Layout::Contiguous, 40, 20000, 12, true, true);
  BOOST_TEST_CONTEXT("[40, 20000]") { checkAllOps<T>(more.h.get(), more.d.get(), 1, 20000); }
  for (int nans = 0; nans < 2; nans++) {
    Input<T> line = makeInput<T>({1 << 20}, 13 + nans, nans, true);
    BOOST_TEST_CONTEXT("[2^20], nans " << nans) {
      for (int desc = 0; desc < 2; desc++) CHECK_OP(line.h.get(), line.d.get(), sort, 0, desc);
      CHECK_OP(line.h.get(), line.d.get(), max, 0, 0);
      CHECK_OP(line.h.get(), line.d.get(), min, 0, 0);
      CHECK_OP(line.h.get(), line.d.get(), topk, 10, 0, 1, 1);
      checkMedianall<T>(line.h.get(), line.d.get());
    }
    Input<T> row = makeInput<T>(Layout::Contiguous, 1, 1 << 20, 15 + nans, nans, true);
    BOOST_TEST_CONTEXT("[1, 2^20], nans " << nans) {
      for (int desc = 0; desc < 2; desc++) CHECK_OP(row.h.get(), row.d.get(), sort, 1, desc);
    }
    // column 0 of [2^17, 2]: a line with stride 2
    auto base = sampleHost<T>({1 << 17, 2}, 17 + nans, nans, true);
    auto dBase = toDevice<T>(base.get());
    auto hColumn = th::own(TH<T>::newSelect(base.get(), 1, 0));
    DevicePtr<T> dColumn(THC<T>::newSelect(thct::state(), dBase.get(), 1, 0));
    BOOST_TEST_CONTEXT("[2^17] with stride 2, nans " << nans) {
      for (int desc = 0; desc < 2; desc++) CHECK_OP(hColumn.get(), dColumn.get(), sort, 0, desc);
    }
  }
}

// More lines than a grid dimension holds blocks (> 65535).
BOOST_AUTO_TEST_CASE_TEMPLATE(many_lines, T, LargeTypes) {
  for (Layout l : {Layout::Contiguous, Layout::Transposed}) {
    Input<T> in = makeInput<T>(l, 70000, 3, 21, true);
    BOOST_TEST_CONTEXT(thct::layoutName(l) << " [70000, 3], dim 1") { checkAllOps<T>(in.h.get(), in.d.get(), 1, 3); }
    BOOST_TEST_CONTEXT(thct::layoutName(l) << " [70000, 3], dim 0") {
      CHECK_OP(in.h.get(), in.d.get(), max, 0, 1);
      CHECK_OP(in.h.get(), in.d.get(), sort, 0, 1);
    }
  }
}

// Results that already have the right size keep their strides (as in TH) and are written
// through them.
BOOST_AUTO_TEST_CASE_TEMPLATE(strided_results, T, AllTypes) {
  Input<T> in = makeInput<T>(Layout::Contiguous, 7, 13, 31, true);
  auto hBase = sampleHost<T>({13, 7}, 32, false);
  auto hIndexBase = sampleHost<int64_t>({13, 7}, 33, false);
  auto hv = th::own(TH<T>::newTranspose(hBase.get(), 0, 1));
  auto hi = th::own(TH<int64_t>::newTranspose(hIndexBase.get(), 0, 1));
  auto dBase = toDevice<T>(hBase.get());
  auto dIndexBase = toDevice<int64_t>(hIndexBase.get());
  DevicePtr<T> dv(THC<T>::newWithTensor(thct::state(), dBase.get()));
  DevicePtr<int64_t> di(THC<int64_t>::newWithTensor(thct::state(), dIndexBase.get()));
  THC<T>::transpose(thct::state(), dv.get(), nullptr, 0, 1);
  THC<int64_t>::transpose(thct::state(), di.get(), nullptr, 0, 1);
  TH<T>::sort(hv.get(), hi.get(), in.h.get(), 1, 1);
  Ops<T>::sort(thct::state(), dv.get(), di.get(), in.d.get(), 1, 1);
  BOOST_TEST(dv->stride[0] == 1);
  checkSame<T>(hBase.get(), toHost<T>(dBase.get()).get(), "values");
  checkSame<int64_t>(hIndexBase.get(), toHost<int64_t>(dIndexBase.get()).get(), "indices");
}

// A result that is the input (or shares its storage) reads the input as it was.
BOOST_AUTO_TEST_CASE_TEMPLATE(results_sharing_the_input, T, AllTypes) {
  for (int op = 0; op < 3; op++) {
    Input<T> in = makeInput<T>(Layout::Transposed, 6, 9, 41 + op, true);
    auto hi = hostEmpty<int64_t>();
    auto di = deviceEmpty<int64_t>();
    BOOST_TEST_CONTEXT("op " << op) {
      if (op == 0) {
        TH<T>::sort(in.h.get(), hi.get(), in.h.get(), 1, 0);
        Ops<T>::sort(thct::state(), in.d.get(), di.get(), in.d.get(), 1, 0);
      } else if (op == 1) {
        TH<T>::topk(in.h.get(), hi.get(), in.h.get(), 3, 0, 1, 1);
        Ops<T>::topk(thct::state(), in.d.get(), di.get(), in.d.get(), 3, 0, 1, 1);
      } else {
        TH<T>::max(in.h.get(), hi.get(), in.h.get(), 1, 0);
        Ops<T>::max(thct::state(), in.d.get(), di.get(), in.d.get(), 1, 0);
      }
      checkSame<T>(in.h.get(), toHost<T>(in.d.get()).get(), "values");
      checkSame<int64_t>(hi.get(), toHost<int64_t>(di.get()).get(), "indices");
    }
  }
}

// Every error of TH, raised the same way, with the results unchanged.
BOOST_AUTO_TEST_CASE_TEMPLATE(errors, T, AllTypes) {
  THCState *s = thct::state();
  Input<T> in = makeInput<T>(Layout::Contiguous, 7, 13, 51, true);
  Input<T> scalar = makeInput<T>(std::vector<int64_t>{}, 52, false);
  Input<T> empty = makeInput<T>({0, 5}, 53, false);
  Input<T> values = makeInput<T>({2, 3}, 54, false);
  Input<int64_t> indices = makeInput<int64_t>({2, 3}, 55, false);
  HostTensor<T> *hv = values.h.get();
  HostTensor<int64_t> *hi = indices.h.get();
  DeviceTensor<T> *dv = values.d.get();
  DeviceTensor<int64_t> *di = indices.d.get();
  struct Case {
    const char *what;
    std::function<void()> host, device;
  };
  HostTensor<T> *h = in.h.get(), *h0 = scalar.h.get(), *he = empty.h.get();
  DeviceTensor<T> *d = in.d.get(), *d0 = scalar.d.get(), *de = empty.d.get();
  const Case cases[] = {
      {"sort dim 2", [&] { TH<T>::sort(hv, hi, h, 2, 0); }, [&] { Ops<T>::sort(s, dv, di, d, 2, 0); }},
      {"sort dim -1", [&] { TH<T>::sort(hv, hi, h, -1, 0); }, [&] { Ops<T>::sort(s, dv, di, d, -1, 0); }},
      {"sort 0-dim dim 1", [&] { TH<T>::sort(hv, hi, h0, 1, 0); }, [&] { Ops<T>::sort(s, dv, di, d0, 1, 0); }},
      {"topk k 14", [&] { TH<T>::topk(hv, hi, h, 14, 1, 1, 1); }, [&] { Ops<T>::topk(s, dv, di, d, 14, 1, 1, 1); }},
      {"topk k -1", [&] { TH<T>::topk(hv, hi, h, -1, 1, 1, 1); }, [&] { Ops<T>::topk(s, dv, di, d, -1, 1, 1, 1); }},
      {"topk dim 2", [&] { TH<T>::topk(hv, hi, h, 1, 2, 1, 1); }, [&] { Ops<T>::topk(s, dv, di, d, 1, 2, 1, 1); }},
      {"topk 0-dim k 2", [&] { TH<T>::topk(hv, hi, h0, 2, 0, 1, 1); },
       [&] { Ops<T>::topk(s, dv, di, d0, 2, 0, 1, 1); }},
      {"topk 0-dim k 0", [&] { TH<T>::topk(hv, hi, h0, 0, 0, 1, 1); },
       [&] { Ops<T>::topk(s, dv, di, d0, 0, 0, 1, 1); }},
      {"kthvalue k 0", [&] { TH<T>::kthvalue(hv, hi, h, 0, 1, 0); }, [&] { Ops<T>::kthvalue(s, dv, di, d, 0, 1, 0); }},
      {"kthvalue k 8", [&] { TH<T>::kthvalue(hv, hi, h, 8, 0, 0); }, [&] { Ops<T>::kthvalue(s, dv, di, d, 8, 0, 0); }},
      {"kthvalue dim 3", [&] { TH<T>::kthvalue(hv, hi, h, 1, 3, 0); },
       [&] { Ops<T>::kthvalue(s, dv, di, d, 1, 3, 0); }},
      {"kthvalue empty", [&] { TH<T>::kthvalue(hv, hi, he, 1, 0, 0); },
       [&] { Ops<T>::kthvalue(s, dv, di, de, 1, 0, 0); }},
      {"max dim 2", [&] { TH<T>::max(hv, hi, h, 2, 0); }, [&] { Ops<T>::max(s, dv, di, d, 2, 0); }},
      {"max empty", [&] { TH<T>::max(hv, hi, he, 0, 1); }, [&] { Ops<T>::max(s, dv, di, de, 0, 1); }},
      {"min empty", [&] { TH<T>::min(hv, hi, he, 0, 0); }, [&] { Ops<T>::min(s, dv, di, de, 0, 0); }},
      {"median empty", [&] { TH<T>::median(hv, hi, he, 0, 0); }, [&] { Ops<T>::median(s, dv, di, de, 0, 0); }},
      {"median 0-dim dim 1", [&] { TH<T>::median(hv, hi, h0, 1, 0); }, [&] { Ops<T>::median(s, dv, di, d0, 1, 0); }},
      {"mode empty", [&] { TH<T>::mode(hv, hi, he, 0, 0); }, [&] { Ops<T>::mode(s, dv, di, de, 0, 0); }},
      {"mode dim -2", [&] { TH<T>::mode(hv, hi, h, -2, 0); }, [&] { Ops<T>::mode(s, dv, di, d, -2, 0); }},
      {"medianall empty", [&] { TH<T>::medianall(he); }, [&] { Ops<T>::medianall(s, de); }},
  };
  for (const Case &c : cases) {
    BOOST_TEST_CONTEXT(c.what) {
      checkSameError(c.host, c.device);
      checkSame<T>(hv, toHost<T>(dv).get(), "values unchanged");
      checkSame<int64_t>(hi, toHost<int64_t>(di).get(), "indices unchanged");
    }
  }
  if constexpr (std::is_same_v<T, int64_t>) {
    // values and indices in one storage
    BOOST_TEST_CONTEXT("shared results") {
      checkSameError([&] { TH<T>::sort(hi, hi, h, 1, 0); }, [&] { Ops<T>::sort(s, di, di, d, 1, 0); });
      checkSameError([&] { TH<T>::max(hi, hi, h, 1, 0); }, [&] { Ops<T>::max(s, di, di, d, 1, 0); });
      checkSame<int64_t>(hi, toHost<int64_t>(di).get(), "indices unchanged");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
