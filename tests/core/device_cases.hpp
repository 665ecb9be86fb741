// The cases of tests/core/test_device.cpp (a stand-in device) and test_cuda.cpp (the GPU):
// what the core does with a device other than the CPU. The includer defines useDevice(),
// which makes Device::CUDA a device of the core, and DEVICE_SUITE_DECORATOR (what skips the
// suite where the device is absent).
#ifndef TESTS_CORE_DEVICE_CASES_HPP
#define TESTS_CORE_DEVICE_CASES_HPP

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>
#include <string>
#include <vector>

#include "autograd/Autograd.h"
#include "autograd/Engine.h"
#include "core/ops/Factory.h"
#include "core/ops/Indexing.h"
#include "core/ops/Linalg.h"
#include "core/ops/NNLayers.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Random.h"
#include "core/ops/Reduce.h"
#include "core/ops/Shape.h"

using torch::Device;
using torch::ScalarType;
using torch::Tensor;

void useDevice();

namespace {

// A Double tensor on device holding v (sizes given, row-major).
Tensor values(const std::vector<double> &v, const torch::IntList &sizes, Device device) {
  Tensor cpu = torch::empty(sizes, ScalarType::Double, Device::CPU);
  BOOST_REQUIRE_EQUAL(static_cast<size_t>(cpu.numel()), v.size());
  if (!v.empty()) std::memcpy(cpu.dataPtr(), v.data(), v.size() * sizeof(double));
  return torch::to(cpu, ScalarType::Double, device);
}

std::vector<double> read(const Tensor &t) {
  Tensor cpu = torch::contiguous(torch::to(t, ScalarType::Double, Device::CPU));
  const double *p = reinterpret_cast<const double *>(cpu.dataPtr());
  return std::vector<double>(p, p + cpu.numel());
}

// Same sizes and type, values within tol of each other relative to max(1, |CPU's value|);
// NaN matches NaN.
void checkClose(const Tensor &onDevice, const Tensor &onCpu, double tol) {
  BOOST_CHECK(onDevice.device() == Device::CUDA);
  BOOST_CHECK(onCpu.device() == Device::CPU);
  BOOST_CHECK_MESSAGE(onDevice.sizes() == onCpu.sizes(),
                      onDevice.sizeString() << " on the device, " << onCpu.sizeString() << " on the CPU");
  BOOST_CHECK(onDevice.dtype() == onCpu.dtype());
  std::vector<double> a = read(onDevice), b = read(onCpu);
  BOOST_REQUIRE_EQUAL(a.size(), b.size());
  for (size_t i = 0; i < a.size(); i++) {
    bool close = (std::isnan(a[i]) && std::isnan(b[i])) || a[i] == b[i] ||
                 std::fabs(a[i] - b[i]) <= tol * std::max(1.0, std::fabs(b[i]));
    BOOST_CHECK_MESSAGE(close, "element " << i << ": " << a[i] << " on the device, " << b[i] << " on the CPU");
  }
}

// Same sizes and type, values equal to a few ulps (a GPU's exp need not round as the CPU's).
void checkSame(const Tensor &onDevice, const Tensor &onCpu) { checkClose(onDevice, onCpu, 1e-13); }

// Both results of an op with indices.
void checkSame(const torch::ValuesIndices &onDevice, const torch::ValuesIndices &onCpu) {
  checkSame(onDevice.values, onCpu.values);
  checkSame(onDevice.indices, onCpu.indices);
}

// A copy of t on the device, of t's type.
Tensor onDevice(const Tensor &t) { return torch::to(t, t.dtype(), Device::CUDA); }

// A tensor of type on device holding v.
Tensor typed(const std::vector<double> &v, const torch::IntList &sizes, ScalarType type, Device device) {
  return torch::to(values(v, sizes, Device::CPU), type, device);
}

// Pairs (CPU tensor, the same on the device): t, and t transposed (not contiguous) on both.
std::vector<std::pair<Tensor, Tensor>> contiguousAndNot(const Tensor &t) {
  Tensor d = onDevice(t);
  return {{t, d}, {torch::transpose(t, 0, 1), torch::transpose(d, 0, 1)}};
}

// f(x) on the CPU and on the device, and the gradients of sum(f(x)^2) with respect to x;
// transposed: f of x transposed (not contiguous) instead.
template <typename F>
void checkSameWithGradient(F &&f, const Tensor &x, bool transposed = false) {
  Tensor cx = torch::clone(x), dx = onDevice(x);
  torch::setRequiresGrad(cx, true);
  torch::setRequiresGrad(dx, true);
  Tensor cy = f(transposed ? torch::transpose(cx, 0, 1) : cx), dy = f(transposed ? torch::transpose(dx, 0, 1) : dx);
  checkSame(dy, cy);
  for (const Tensor &y : {cy, dy}) {
    torch::runBackward({torch::sum(torch::binary(torch::BinaryOp::Mul, y, y), {}, false)}, {Tensor()}, {}, {});
  }
  Tensor cg = torch::grad(cx), dg = torch::grad(dx);
  BOOST_REQUIRE(cg.defined() && dg.defined());
  checkSame(dg, cg);
}

// f raises an error whose text contains every one of words.
template <typename F>
void checkRaises(F &&f, const std::vector<std::string> &words) {
  try {
    f();
  } catch (const th::Error &e) {
    std::string what = e.what();
    for (const std::string &w : words) BOOST_CHECK_MESSAGE(what.find(w) != std::string::npos, what);
    return;
  }
  BOOST_ERROR("no error raised");
}

const std::vector<double> kA = {1.5, -2, 3, 0.25, 8, -0.5}, kB = {2, 4, -1, 0.5, 3, 1};
const std::string kMixed = "Expected all tensors to be on the same device, but found at least two devices";

}  // namespace

BOOST_AUTO_TEST_SUITE(device, *DEVICE_SUITE_DECORATOR)

// Runs first (Boost runs the cases of a file in order): before a library registers a device's
// memory, asking for that memory is a clear error.
BOOST_AUTO_TEST_CASE(no_memory_before_a_library_registers_it) {
  BOOST_CHECK(!torch::hasDeviceAllocator(Device::CUDA));
  checkRaises([] { torch::empty({2}, ScalarType::Float, Device::CUDA); }, {"no cuda memory"});
}

BOOST_AUTO_TEST_CASE(new_tensors_and_their_views_live_on_the_device) {
  useDevice();
  Tensor t = torch::empty({2, 3}, ScalarType::Float, Device::CUDA);
  BOOST_CHECK(t.device() == Device::CUDA);
  BOOST_CHECK(t.storage().device() == Device::CUDA);
  BOOST_CHECK(t.raw()->storage->allocator == &THDefaultAllocator);
  for (const Tensor &v : {torch::select(t, 0, 1), torch::narrow(t, 1, 1, 2), torch::transpose(t, 0, 1),
                          torch::view(t, {3, 2}), torch::expand(torch::narrow(t, 0, 0, 1), {4, 3}),
                          torch::unsqueeze(t, 0), torch::emptyLike(t), torch::clone(t)}) {
    BOOST_CHECK(v.device() == Device::CUDA);
  }
  BOOST_CHECK(torch::zeros({3}, ScalarType::Long, Device::CUDA).device() == Device::CUDA);
}

BOOST_AUTO_TEST_CASE(copies_cross_devices_in_both_directions_with_conversion) {
  useDevice();
  Tensor cpu = values(kA, {2, 3}, Device::CPU);
  Tensor dev = torch::to(cpu, ScalarType::Float, Device::CUDA);
  BOOST_CHECK(dev.device() == Device::CUDA && dev.dtype() == ScalarType::Float);
  Tensor back = torch::to(dev, ScalarType::Double, Device::CPU);
  BOOST_CHECK(back.device() == Device::CPU);
  checkSame(torch::toType(dev, ScalarType::Double), cpu);
  checkSame(torch::toType(dev, ScalarType::Double), back);
  // Non-contiguous source, Bool destination (non-zero becomes 1) across devices.
  Tensor mask = torch::empty({3, 2}, ScalarType::Bool, Device::CUDA);
  torch::copy_(mask, torch::transpose(cpu, 0, 1));
  std::vector<double> got = read(mask), want = {1, 1, 1, 1, 1, 1};
  BOOST_CHECK_EQUAL_COLLECTIONS(got.begin(), got.end(), want.begin(), want.end());
  BOOST_CHECK(torch::to(dev, ScalarType::Float, Device::CUDA).isSameAs(dev));  // nothing to do
}

BOOST_AUTO_TEST_CASE(pointwise_results_live_on_the_inputs_device) {
  useDevice();
  using torch::BinaryOp;
  Tensor a = values(kA, {2, 3}, Device::CPU), b = values(kB, {2, 3}, Device::CPU);
  Tensor da = torch::to(a, a.dtype(), Device::CUDA), db = torch::to(b, b.dtype(), Device::CUDA);
  for (BinaryOp op : {BinaryOp::Add, BinaryOp::Sub, BinaryOp::Mul, BinaryOp::Div}) {
    checkSame(torch::binary(op, da, db), torch::binary(op, a, b));
    checkSame(torch::binary(op, da, torch::Scalar(2.5)), torch::binary(op, a, torch::Scalar(2.5)));
    checkSame(torch::binary(op, torch::Scalar(2.5), db), torch::binary(op, torch::Scalar(2.5), b));
  }
  // Broadcasting, and type promotion with a Long tensor.
  Tensor row = values({1, 2, 3}, {3}, Device::CPU), lrow = torch::toType(row, ScalarType::Long);
  checkSame(torch::binary(BinaryOp::Add, da, torch::to(row, row.dtype(), Device::CUDA)),
            torch::binary(BinaryOp::Add, a, row));
  checkSame(torch::binary(BinaryOp::Mul, torch::to(lrow, ScalarType::Long, Device::CUDA), da),
            torch::binary(BinaryOp::Mul, lrow, a));
  checkSame(torch::unary(torch::UnaryOp::Exp, da), torch::unary(torch::UnaryOp::Exp, a));
  checkSame(torch::compare(torch::CompareOp::Lt, da, db), torch::compare(torch::CompareOp::Lt, a, b));
  checkSame(torch::sum(da, {1}, false), torch::sum(a, {1}, false));
  checkSame(torch::sum(da, {}, false), torch::sum(a, {}, false));
}

BOOST_AUTO_TEST_CASE(a_cpu_number_goes_along_with_any_device) {
  useDevice();
  Tensor a = values(kA, {2, 3}, Device::CPU), da = torch::to(a, a.dtype(), Device::CUDA);
  Tensor two = values({2}, {}, Device::CPU);  // 0-dim, on the CPU
  checkSame(torch::binary(torch::BinaryOp::Mul, da, two), torch::binary(torch::BinaryOp::Mul, a, two));
  checkSame(torch::binary(torch::BinaryOp::Sub, two, da), torch::binary(torch::BinaryOp::Sub, two, a));
  Tensor copy = torch::clone(da);
  torch::binary_(torch::BinaryOp::Add, copy, two);
  checkSame(copy, torch::binary(torch::BinaryOp::Add, a, two));
}

BOOST_AUTO_TEST_CASE(other_mixes_raise_and_change_nothing) {
  useDevice();
  Tensor a = values(kA, {2, 3}, Device::CPU), b = values(kB, {2, 3}, Device::CPU);
  Tensor da = torch::to(a, a.dtype(), Device::CUDA);
  checkRaises([&] { torch::binary(torch::BinaryOp::Add, da, b); }, {kMixed, "cuda", "cpu"});
  checkRaises([&] { torch::compare(torch::CompareOp::Eq, b, da); }, {kMixed});
  // A CUDA 0-dim tensor is no number to the CPU: PyTorch refuses it too.
  Tensor dtwo = values({2}, {}, Device::CUDA);
  checkRaises([&] { torch::binary(torch::BinaryOp::Mul, a, dtwo); }, {kMixed});
  // In place: self stays as it was.
  checkRaises([&] { torch::binary_(torch::BinaryOp::Add, da, b); }, {kMixed});
  checkRaises([&] { torch::binary_(torch::BinaryOp::Add, b, torch::to(a, a.dtype(), Device::CUDA)); }, {kMixed});
  checkSame(da, a);
  std::vector<double> bNow = read(b);
  BOOST_CHECK_EQUAL_COLLECTIONS(bNow.begin(), bNow.end(), kB.begin(), kB.end());
  checkRaises([&] { torch::binary_(torch::BinaryOp::Add, a, dtwo); }, {kMixed});
}

BOOST_AUTO_TEST_CASE(gradients_live_on_their_tensors_device) {
  useDevice();
  Tensor a = values(kA, {2, 3}, Device::CPU);
  Tensor x = torch::to(a, a.dtype(), Device::CUDA);
  torch::setRequiresGrad(x, true);
  Tensor y = torch::sum(torch::binary(torch::BinaryOp::Mul, x, x), {}, false);
  BOOST_CHECK(y.device() == Device::CUDA);
  torch::runBackward({y}, {Tensor()}, {}, {});
  Tensor g = torch::grad(x);
  BOOST_REQUIRE(g.defined());
  checkSame(g, torch::binary(torch::BinaryOp::Mul, a, torch::Scalar(2.0)));
  // Moving to the device is differentiable: the CPU leaf gets a CPU gradient.
  Tensor leaf = values(kB, {2, 3}, Device::CPU);
  torch::setRequiresGrad(leaf, true);
  Tensor moved = torch::to(leaf, ScalarType::Double, Device::CUDA);
  torch::runBackward({torch::sum(torch::binary(torch::BinaryOp::Mul, moved, torch::Scalar(3.0)), {}, false)},
                     {Tensor()}, {}, {});
  Tensor lg = torch::grad(leaf);
  BOOST_REQUIRE(lg.defined());
  BOOST_CHECK(lg.device() == Device::CPU);
  std::vector<double> got = read(lg), want(6, 3.0);
  BOOST_CHECK_EQUAL_COLLECTIONS(got.begin(), got.end(), want.begin(), want.end());
}

// ---- the device's kernels against the CPU's (on the GPU: THC's and THCUNN's) ----

// Distinct values but for the 8s of row 1 (max's first occurrence), 3 x 4.
const std::vector<double> kM = {1.5, -2, 3, 0.25, 8, -0.5, 8, 2, -1, 4, 0.5, -3};

BOOST_AUTO_TEST_CASE(reductions_match_the_cpu) {
  useDevice();
  using torch::CompareOp;
  for (const auto &[x, dx] : contiguousAndNot(values(kM, {3, 4}, Device::CPU))) {
    for (int64_t dim : {0, 1}) {
      for (bool keepdim : {false, true}) {
        checkSame(torch::max(dx, dim, keepdim), torch::max(x, dim, keepdim));
        checkSame(torch::min(dx, dim, keepdim), torch::min(x, dim, keepdim));
        checkSame(torch::median(dx, dim, keepdim), torch::median(x, dim, keepdim));
        checkSame(torch::mode(dx, dim, keepdim), torch::mode(x, dim, keepdim));
        checkSame(torch::kthvalue(dx, 2, dim, keepdim), torch::kthvalue(x, 2, dim, keepdim));
        checkSame(torch::argmax(dx, dim, keepdim), torch::argmax(x, dim, keepdim));
        checkSame(torch::argmin(dx, dim, keepdim), torch::argmin(x, dim, keepdim));
        checkSame(torch::amax(dx, {dim}, keepdim), torch::amax(x, {dim}, keepdim));
        checkSame(torch::sum(dx, {dim}, keepdim), torch::sum(x, {dim}, keepdim));
        checkSame(torch::prod(dx, {dim}, keepdim), torch::prod(x, {dim}, keepdim));
        checkSame(torch::mean(dx, {dim}, keepdim), torch::mean(x, {dim}, keepdim));
        for (bool unbiased : {false, true}) {
          checkSame(torch::var(dx, {dim}, unbiased, keepdim), torch::var(x, {dim}, unbiased, keepdim));
          checkSame(torch::std(dx, {dim}, unbiased, keepdim), torch::std(x, {dim}, unbiased, keepdim));
        }
        for (double p : {1.0, 2.0, 3.0, double(INFINITY)}) {
          checkSame(torch::norm(dx, p, {dim}, keepdim), torch::norm(x, p, {dim}, keepdim));
        }
        checkSame(torch::logsumexp(dx, {dim}, keepdim), torch::logsumexp(x, {dim}, keepdim));
        Tensor mask = torch::compare(CompareOp::Gt, x, torch::Scalar(0.0));
        Tensor dmask = torch::compare(CompareOp::Gt, dx, torch::Scalar(0.0));
        checkSame(torch::all(dmask, dim, keepdim), torch::all(mask, dim, keepdim));
        checkSame(torch::any(dmask, dim, keepdim), torch::any(mask, dim, keepdim));
      }
      checkSame(torch::cumsum(dx, dim), torch::cumsum(x, dim));
      checkSame(torch::cumprod(dx, dim), torch::cumprod(x, dim));
    }
    // Over the whole tensor.
    checkSame(torch::maxAll(dx), torch::maxAll(x));
    checkSame(torch::minAll(dx), torch::minAll(x));
    checkSame(torch::medianAll(dx), torch::medianAll(x));
    checkSame(torch::argmax(dx, std::nullopt, false), torch::argmax(x, std::nullopt, false));
    checkSame(torch::sum(dx, {}, false), torch::sum(x, {}, false));
    checkSame(torch::prod(dx, {}, false), torch::prod(x, {}, false));
    checkSame(torch::mean(dx, {}, false), torch::mean(x, {}, false));
    checkSame(torch::var(dx, {}, true, false), torch::var(x, {}, true, false));
    checkSame(torch::std(dx, {}, false, false), torch::std(x, {}, false, false));
    checkSame(torch::norm(dx, 2, {}, false), torch::norm(x, 2, {}, false));
    checkSame(torch::logsumexp(dx, {}, false), torch::logsumexp(x, {}, false));
    checkSame(torch::all(torch::compare(CompareOp::Ne, dx, torch::Scalar(0.0)), std::nullopt, false),
              torch::all(torch::compare(CompareOp::Ne, x, torch::Scalar(0.0)), std::nullopt, false));
    checkSame(torch::any(torch::compare(CompareOp::Gt, dx, torch::Scalar(5.0)), std::nullopt, false),
              torch::any(torch::compare(CompareOp::Gt, x, torch::Scalar(5.0)), std::nullopt, false));
  }
  Tensor a = values(kA, {2, 3}, Device::CPU), b = values(kB, {2, 3}, Device::CPU);
  Tensor da = onDevice(a), db = onDevice(b);
  checkSame(torch::dist(da, db, 2), torch::dist(a, b, 2));
  checkSame(torch::dist(da, db, 1), torch::dist(a, b, 1));
  BOOST_CHECK(torch::equal(da, onDevice(a)) && !torch::equal(da, db));
  Tensor square = values({1, 2, 3, 4, 5, 6, 7, 8, 9}, {3, 3}, Device::CPU);
  checkSame(torch::trace(onDevice(square)), torch::trace(square));
  // logsumexp's shift where a line holds -inf or inf
  Tensor inf = values({1, -INFINITY, 2, -INFINITY, -INFINITY, -INFINITY, 3, INFINITY, 0}, {3, 3}, Device::CPU);
  checkSame(torch::logsumexp(onDevice(inf), {1}, false), torch::logsumexp(inf, {1}, false));
  // Float, on values whose sums and products are exact in any order.
  for (const auto &[x, dx] : contiguousAndNot(typed(kM, {3, 4}, ScalarType::Float, Device::CPU))) {
    for (int64_t dim : {0, 1}) {
      checkSame(torch::max(dx, dim, true), torch::max(x, dim, true));
      checkSame(torch::median(dx, dim, false), torch::median(x, dim, false));
      checkSame(torch::sum(dx, {dim}, false), torch::sum(x, {dim}, false));
      checkSame(torch::prod(dx, {dim}, true), torch::prod(x, {dim}, true));
      checkSame(torch::cumsum(dx, dim), torch::cumsum(x, dim));
    }
    checkSame(torch::sum(dx, {}, false), torch::sum(x, {}, false));
    checkSame(torch::minAll(dx), torch::minAll(x));
  }
  // Integers: Long sums and products, their extremes and running sums.
  for (const auto &[x, dx] :
       contiguousAndNot(typed({3, -1, 4, 1, -5, 9, 2, 6, -5, 3, 5, 8}, {3, 4}, ScalarType::Long, Device::CPU))) {
    checkSame(torch::sum(dx, {1}, false), torch::sum(x, {1}, false));
    checkSame(torch::prod(dx, {0}, true), torch::prod(x, {0}, true));
    checkSame(torch::max(dx, 1, false), torch::max(x, 1, false));
    checkSame(torch::cumsum(dx, 0), torch::cumsum(x, 0));
    checkSame(torch::sum(dx, {}, false), torch::sum(x, {}, false));
    checkSame(torch::trace(dx), torch::trace(x));
  }
}

BOOST_AUTO_TEST_CASE(sort_and_topk_match_the_cpu) {
  useDevice();
  // Ties (a stable sort keeps their order) and a NaN (above every number).
  const std::vector<double> v = {3, 1, NAN, 1, 2, 3, -1, 0.5, 2, 2, 7, -4};
  for (ScalarType type : {ScalarType::Double, ScalarType::Float}) {
    for (const auto &[x, dx] : contiguousAndNot(typed(v, {3, 4}, type, Device::CPU))) {
      for (int64_t dim : {0, 1}) {
        for (bool descending : {false, true}) {
          checkSame(torch::sort(dx, dim, descending), torch::sort(x, dim, descending));
          checkSame(torch::argsort(dx, dim, descending), torch::argsort(x, dim, descending));
        }
        for (bool largest : {false, true}) {
          checkSame(torch::topk(dx, 2, dim, largest, true), torch::topk(x, 2, dim, largest, true));
        }
      }
    }
  }
  // Integers, and one long line with many ties.
  Tensor l = typed({5, 3, 5, 1, 3, 0, 2, 2}, {2, 4}, ScalarType::Long, Device::CPU);
  checkSame(torch::sort(onDevice(l), 1, true), torch::sort(l, 1, true));
  std::vector<double> line(5000);
  for (size_t i = 0; i < line.size(); i++) line[i] = static_cast<double>((i * 37) % 101) - 50;
  Tensor longLine = typed(line, {5000}, ScalarType::Float, Device::CPU);
  checkSame(torch::sort(onDevice(longLine), 0, false), torch::sort(longLine, 0, false));
  checkSame(torch::topk(onDevice(longLine), 7, 0, true, true), torch::topk(longLine, 7, 0, true, true));
}

BOOST_AUTO_TEST_CASE(element_wise_math_matches_the_cpu) {
  useDevice();
  using torch::CompareOp;
  using torch::Scalar;
  Tensor a = values(kA, {2, 3}, Device::CPU), b = values(kB, {2, 3}, Device::CPU);
  Tensor da = onDevice(a), db = onDevice(b);
  // where: broadcast condition, transposed operands, a Long and a Bool result
  Tensor row = torch::compare(CompareOp::Gt, values({1, -1, 1}, {3}, Device::CPU), Scalar(0.0));
  checkSame(torch::where(onDevice(row), da, db), torch::where(row, a, b));
  checkRaises([&] { torch::where(row, da, b); }, {kMixed});
  Tensor gt = torch::compare(CompareOp::Gt, a, b), dgt = torch::compare(CompareOp::Gt, da, db);
  checkSame(torch::where(torch::transpose(dgt, 0, 1), torch::transpose(da, 0, 1), torch::transpose(db, 0, 1)),
            torch::where(torch::transpose(gt, 0, 1), torch::transpose(a, 0, 1), torch::transpose(b, 0, 1)));
  Tensor la = torch::toType(a, ScalarType::Long), lb = torch::toType(b, ScalarType::Long);
  checkSame(torch::where(dgt, onDevice(la), onDevice(lb)), torch::where(gt, la, lb));
  checkSame(torch::where(dgt, dgt, torch::logicalNot(dgt)), torch::where(gt, gt, torch::logicalNot(gt)));
  // clamp: both bounds, one, crossed bounds (the upper wins), integers
  checkSame(torch::clamp(da, Scalar(-1.0), Scalar(2.0)), torch::clamp(a, Scalar(-1.0), Scalar(2.0)));
  checkSame(torch::clamp(da, Scalar(0.0), std::nullopt), torch::clamp(a, Scalar(0.0), std::nullopt));
  checkSame(torch::clamp(da, std::nullopt, Scalar(1.0)), torch::clamp(a, std::nullopt, Scalar(1.0)));
  checkSame(torch::clamp(da, Scalar(2.0), Scalar(-1.0)), torch::clamp(a, Scalar(2.0), Scalar(-1.0)));
  checkSame(torch::clamp(onDevice(la), Scalar(int64_t(-1)), Scalar(int64_t(2))),
            torch::clamp(la, Scalar(int64_t(-1)), Scalar(int64_t(2))));
  checkSame(torch::addcmul(da, torch::transpose(torch::transpose(da, 0, 1), 0, 1), db, Scalar(0.5)),
            torch::addcmul(a, a, b, Scalar(0.5)));
  checkSame(torch::addcdiv(da, da, db, Scalar(2.0)), torch::addcdiv(a, a, b, Scalar(2.0)));
  checkSame(torch::lerp(da, db, Scalar(0.25)), torch::lerp(a, b, Scalar(0.25)));
  checkSame(torch::cross(da, db, 1), torch::cross(a, b, 1));
  checkSame(torch::cross(torch::transpose(da, 0, 1), torch::transpose(db, 0, 1), 0),
            torch::cross(torch::transpose(a, 0, 1), torch::transpose(b, 0, 1), 0));
  checkSame(torch::renorm(da, 2, 0, 3.0), torch::renorm(a, 2, 0, 3.0));
  checkSame(torch::renorm(da, 1, 1, 2.0), torch::renorm(a, 1, 1, 2.0));
}

BOOST_AUTO_TEST_CASE(linear_algebra_matches_the_cpu) {
  useDevice();
  using torch::AddProduct;
  using torch::Scalar;
  const double tol = 1e-10;  // cuBLAS and cuSOLVER sum in their own order
  Tensor x = values(kA, {2, 3}, Device::CPU), y = values(kB, {3, 2}, Device::CPU);
  Tensor dx = onDevice(x), dy = onDevice(y);
  checkClose(torch::mm(dx, dy), torch::mm(x, y), tol);
  checkClose(torch::mm(torch::transpose(dy, 0, 1), torch::transpose(dx, 0, 1)),
             torch::mm(torch::transpose(y, 0, 1), torch::transpose(x, 0, 1)), tol);
  Tensor v = values({1, -2, 0.5}, {3}, Device::CPU), dv = onDevice(v);
  checkClose(torch::mv(dx, dv), torch::mv(x, v), tol);
  checkClose(torch::dot(dv, dv), torch::dot(v, v), tol);
  checkClose(torch::outer(dv, onDevice(values({3, 4}, {2}, Device::CPU))),
             torch::outer(v, values({3, 4}, {2}, Device::CPU)), tol);
  Tensor b1 = values({1, 2, 3, 4, 5, 6, -1, -2, -3, -4, -5, -6}, {2, 2, 3}, Device::CPU);
  Tensor b2 = values({0.5, 1, -1, 2, 0, 3, 1, 1, 2, -2, 0.25, 4}, {2, 3, 2}, Device::CPU);
  checkClose(torch::bmm(onDevice(b1), onDevice(b2)), torch::bmm(b1, b2), tol);
  Tensor c = values({1, 2, 3, 4}, {2, 2}, Device::CPU);
  checkClose(torch::addProduct(AddProduct::Mm, onDevice(c), dx, dy, Scalar(0.5), Scalar(2.0)),
             torch::addProduct(AddProduct::Mm, c, x, y, Scalar(0.5), Scalar(2.0)), tol);
  checkClose(torch::addProduct(AddProduct::Bmm, onDevice(c), onDevice(b1), onDevice(b2), Scalar(1.0), Scalar(-1.0)),
             torch::addProduct(AddProduct::Bmm, c, b1, b2, Scalar(1.0), Scalar(-1.0)), tol);
  Tensor cc = torch::stack({c, c}, 0);
  checkClose(torch::addProduct(AddProduct::Bbmm, onDevice(cc), onDevice(b1), onDevice(b2), Scalar(2.0), Scalar(1.0)),
             torch::addProduct(AddProduct::Bbmm, cc, b1, b2, Scalar(2.0), Scalar(1.0)), tol);
  Tensor w = values({1, -1}, {2}, Device::CPU);
  checkClose(torch::addProduct(AddProduct::Mv, onDevice(w), dx, dv, Scalar(3.0), Scalar(0.5)),
             torch::addProduct(AddProduct::Mv, w, x, v, Scalar(3.0), Scalar(0.5)), tol);
  checkClose(torch::addProduct(AddProduct::R, onDevice(c), onDevice(w), onDevice(w), Scalar(1.0), Scalar(2.0)),
             torch::addProduct(AddProduct::R, c, w, w, Scalar(1.0), Scalar(2.0)), tol);
  // Factorizations of a well-conditioned matrix and a symmetric positive definite one.
  Tensor m = values({2, -1, 0.5, 1, 3, 0, 1, 1, 4}, {3, 3}, Device::CPU), dm = onDevice(m);
  Tensor spd = torch::binary(torch::BinaryOp::Add, torch::mm(m, torch::transpose(m, 0, 1)),
                             torch::eye(3, 3, ScalarType::Double, Device::CPU));
  Tensor dspd = onDevice(spd);
  Tensor rhs = values({1, 0, -2, 1, 0.5, 3}, {3, 2}, Device::CPU), drhs = onDevice(rhs);
  checkClose(torch::inverse(dm), torch::inverse(m), tol);
  checkClose(torch::inverse(torch::transpose(dm, 0, 1)), torch::inverse(torch::transpose(m, 0, 1)), tol);
  checkClose(torch::solve(drhs, dm).first, torch::solve(rhs, m).first, tol);
  auto [lu, pivots] = torch::lu(dm);
  auto [cpuLu, cpuPivots] = torch::lu(m);
  checkClose(lu, cpuLu, tol);
  checkSame(pivots, cpuPivots);
  for (bool upper : {false, true}) {
    Tensor f = torch::cholesky(dspd, upper), cpuF = torch::cholesky(spd, upper);
    checkClose(f, cpuF, tol);
    checkClose(torch::choleskySolve(drhs, f, upper), torch::choleskySolve(rhs, cpuF, upper), tol);
    checkClose(torch::choleskyInverse(f, upper), torch::choleskyInverse(cpuF, upper), tol);
  }
  // Vectors are unique up to sign: the eigenvalues, the singular values and what the
  // factors multiply back to are compared.
  auto [e, vecs] = torch::symeig(dspd, true, false);
  checkClose(e, torch::symeig(spd, true, false).first, tol);
  checkClose(torch::mm(torch::binary(torch::BinaryOp::Mul, vecs, e), torch::transpose(vecs, 0, 1)), spd, tol);
  checkClose(torch::symeig(dspd, false, true).first, torch::symeig(spd, false, true).first, tol);
  auto [u, s, vt] = torch::svd(dx, true, true);
  checkClose(s, std::get<1>(torch::svd(x, true, true)), tol);
  checkClose(torch::mm(torch::binary(torch::BinaryOp::Mul, u, s), torch::transpose(vt, 0, 1)), x, tol);
  checkClose(std::get<1>(torch::svd(dx, false, false)), std::get<1>(torch::svd(x, false, false)), tol);
  auto [q, r] = torch::qr(dy, true);
  checkClose(torch::mm(q, r), y, tol);
  checkClose(torch::unary(torch::UnaryOp::Abs, r), torch::unary(torch::UnaryOp::Abs, torch::qr(y, true).second), tol);
}

BOOST_AUTO_TEST_CASE(indexing_matches_the_cpu) {
  useDevice();
  using torch::CompareOp;
  using torch::Scalar;
  Tensor a = values(kM, {3, 4}, Device::CPU);
  Tensor rows = typed({2, 0, 2}, {3}, ScalarType::Long, Device::CPU), drows = onDevice(rows);
  for (const auto &[x, dx] : contiguousAndNot(a)) {
    checkSame(torch::indexSelect(dx, 0, drows), torch::indexSelect(x, 0, rows));
    checkSame(torch::indexSelect(dx, 1, drows), torch::indexSelect(x, 1, rows));
    Tensor g = typed({0, 2, 1, 1, 2, 0}, {3, 2}, ScalarType::Long, Device::CPU);
    checkSame(torch::gather(dx, 1, onDevice(g)), torch::gather(x, 1, g));
    Tensor mask = torch::compare(CompareOp::Gt, x, Scalar(0.0));
    checkSame(torch::maskedSelect(dx, onDevice(mask)), torch::maskedSelect(x, mask));
    checkSame(torch::nonzero(torch::compare(CompareOp::Gt, dx, Scalar(1.0))),
              torch::nonzero(torch::compare(CompareOp::Gt, x, Scalar(1.0))));
    Tensor flat = typed({0, 5, -1, 7}, {2, 2}, ScalarType::Long, Device::CPU);
    checkSame(torch::take(dx, onDevice(flat)), torch::take(x, flat));
  }
  // In place, on a transposed destination too.
  auto both = [&](auto &&write) {
    for (bool transposed : {false, true}) {
      Tensor c = torch::clone(a), d = onDevice(a);
      if (transposed) {
        c = torch::transpose(c, 0, 1);
        d = torch::transpose(d, 0, 1);
      }
      write(c);
      write(d);
      checkSame(d, c);
    }
  };
  Tensor src = values({10, 20, 30, 40, 50, 60}, {3, 2}, Device::CPU);
  Tensor perRow = typed({1, 0, 0, 2, 2, 1}, {3, 2}, ScalarType::Long, Device::CPU);  // distinct in each row
  Tensor twice = typed({0, 0, 1, 1, 2, 2}, {3, 2}, ScalarType::Long, Device::CPU);
  auto same = [](const Tensor &t, const Tensor &like) { return torch::to(t, t.dtype(), like.device()); };
  both([&](const Tensor &t) { torch::scatter_(t, 1, same(perRow, t), same(src, t)); });
  both([&](const Tensor &t) { torch::scatter_(t, 1, same(perRow, t), Scalar(-7.0)); });
  both([&](const Tensor &t) { torch::scatterAdd_(t, 1, same(twice, t), same(src, t)); });
  // sources of three rows of t's width, from t's own values
  auto threeRows = [](const Tensor &t) {
    return torch::binary(torch::BinaryOp::Mul, torch::narrow(t, 0, 0, 3), Scalar(3.0));
  };
  both([&](const Tensor &t) { torch::indexAdd_(t, 0, same(rows, t), threeRows(t), Scalar(2.0)); });
  Tensor order = typed({2, 0, 1}, {3}, ScalarType::Long, Device::CPU);
  both([&](const Tensor &t) { torch::indexCopy_(t, 0, same(order, t), threeRows(t)); });
  both([&](const Tensor &t) { torch::indexFill_(t, 1, same(rows, t), Scalar(-1.5)); });
  both([&](const Tensor &t) { torch::maskedFill_(t, torch::compare(CompareOp::Lt, t, Scalar(0.0)), Scalar(9.0)); });
  Tensor many = values(std::vector<double>(12, 0.5), {12}, Device::CPU);
  both(
      [&](const Tensor &t) { torch::maskedScatter_(t, torch::compare(CompareOp::Gt, t, Scalar(1.0)), same(many, t)); });
  Tensor at = typed({0, 11, 0, -2}, {4}, ScalarType::Long, Device::CPU), put = values({1, 2, 3, 4}, {4}, Device::CPU);
  for (bool accumulate : {false, true}) {
    Tensor c = torch::clone(a), d = onDevice(a);
    // without accumulating, one write per place: the repeated 0 only when adding
    Tensor where = accumulate ? at : typed({0, 11, 5, -2}, {4}, ScalarType::Long, Device::CPU);
    torch::put_(c, where, put, accumulate);
    torch::put_(d, onDevice(where), onDevice(put), accumulate);
    checkSame(d, c);
  }
  // Advanced indexing: one index tensor (negative entries count from the end), two
  // broadcast together, a Bool mask; reading, writing and adding, and an index out of range.
  using torch::TensorIndex;
  Tensor i1 = typed({2, -1, 0}, {3}, ScalarType::Long, Device::CPU);
  Tensor i2 = typed({2, 0, -2, 1}, {2, 2}, ScalarType::Long, Device::CPU);
  Tensor j2 = typed({1, 0}, {2, 1}, ScalarType::Long, Device::CPU);
  for (const auto &[x, dx] : contiguousAndNot(a)) {
    Tensor rowMask = torch::compare(CompareOp::Gt, torch::select(x, 1, 0), Scalar(0.0));
    const std::vector<std::vector<TensorIndex>> keys = {
        {TensorIndex::advanced(i1)},
        {TensorIndex::slice(0, 3, 1), TensorIndex::advanced(i1)},
        {TensorIndex::advanced(j2), TensorIndex::advanced(i1)},
        {TensorIndex::advanced(rowMask)},
    };
    for (const std::vector<TensorIndex> &key : keys) {
      std::vector<TensorIndex> dkey = key;
      for (TensorIndex &k : dkey) {
        if (k.kind == TensorIndex::Kind::Tensor) k.tensor = onDevice(k.tensor);
      }
      checkSame(torch::index(dx, dkey), torch::index(x, key));
      Tensor c = torch::clone(x), d = onDevice(c);
      torch::indexPut_(c, key, Scalar(-5.0));
      torch::indexPut_(d, dkey, Scalar(-5.0));
      checkSame(d, c);
    }
    Tensor c = torch::clone(x), d = onDevice(c);
    Tensor ones = values(std::vector<double>(4, 1.0), {2, 2}, Device::CPU);
    torch::indexPut_(c, {TensorIndex::slice(0, 2, 1), TensorIndex::advanced(i2)}, torch::expand(ones, {2, 2, 2}), true);
    torch::indexPut_(d, {TensorIndex::slice(0, 2, 1), TensorIndex::advanced(onDevice(i2))},
                     torch::expand(onDevice(ones), {2, 2, 2}), true);
    checkSame(d, c);
  }
  Tensor far = typed({1, 7, -9}, {3}, ScalarType::Long, Device::CUDA);
  checkRaises([&] { torch::index(onDevice(a), {TensorIndex::advanced(far)}); },
              {"index 7 is out of range for dimension 0 with size 3"});
  // A Bool tensor holds 1 for any non-zero value.
  Tensor flags = torch::compare(CompareOp::Gt, a, Scalar(2.0)), dflags = onDevice(flags);
  Tensor some = torch::compare(CompareOp::Lt, a, Scalar(0.0));
  torch::maskedFill_(flags, some, Scalar(2.0));
  torch::maskedFill_(dflags, onDevice(some), Scalar(2.0));
  checkSame(dflags, flags);
}

BOOST_AUTO_TEST_CASE(random_fills_draw_on_the_device) {
  useDevice();
  using torch::CompareOp;
  using torch::Scalar;
  // The device draws from its own generator: its values are checked, not compared.
  auto within = [](const Tensor &t, double lo, double hi) {
    BOOST_CHECK(t.device() == Device::CUDA);
    for (double x : read(t)) BOOST_CHECK_MESSAGE(x >= lo && x <= hi, x << " outside [" << lo << ", " << hi << "]");
  };
  auto meanOf = [](const Tensor &t) {
    std::vector<double> v = read(t);
    double sum = 0;
    for (double x : v) sum += x;
    return sum / static_cast<double>(v.size());
  };
  auto integral = [](const Tensor &t) {
    for (double x : read(t)) BOOST_CHECK_EQUAL(x, std::floor(x));
  };
  const int64_t n = 20000;
  for (ScalarType type : {ScalarType::Float, ScalarType::Double}) {
    Tensor t = torch::empty({n / 100, 100}, type, Device::CUDA);
    Tensor strided = torch::transpose(t, 0, 1);
    torch::uniform_(strided, -2, 3, nullptr);
    within(t, -2, 3);
    BOOST_CHECK(std::fabs(meanOf(t) - 0.5) < 0.1);
    BOOST_CHECK(read(t) != std::vector<double>(n, read(t)[0]));
    torch::normal_(t, 1.5, 2, nullptr);
    BOOST_CHECK(std::fabs(meanOf(t) - 1.5) < 0.1);
    torch::normal_(t, 4, 0, nullptr);  // std 0: the mean
    within(t, 4, 4);
    torch::exponential_(t, 2, nullptr);
    within(t, 0, INFINITY);
    BOOST_CHECK(std::fabs(meanOf(t) - 0.5) < 0.05);
    torch::logNormal_(t, 0, 0.5, nullptr);
    within(t, 0, INFINITY);
    torch::cauchy_(t, 1, 2, nullptr);
    BOOST_CHECK(t.device() == Device::CUDA);
    torch::geometric_(t, 0.25, nullptr);  // trials until the first success: mean 1 / p
    within(t, 1, INFINITY);
    integral(t);
    BOOST_CHECK(std::fabs(meanOf(t) - 4) < 0.2);
    torch::bernoulli_(t, 0.3, nullptr);
    within(t, 0, 1);
    integral(t);
    BOOST_CHECK(std::fabs(meanOf(t) - 0.3) < 0.03);
    // Probabilities 0 and 1 (broadcast) give 0 and 1.
    Tensor p = typed({0, 1}, {2, 1}, type, Device::CUDA);
    Tensor two = torch::empty({2, 50}, type, Device::CUDA);
    torch::bernoulli_(two, p, nullptr);
    checkSame(two, torch::toType(torch::expand(typed({0, 1}, {2, 1}, type, Device::CPU), {2, 50}), type));
    // Means and standard deviations per element; a standard deviation of 0 gives the mean.
    Tensor means = typed({1, 2, 3}, {3}, type, Device::CUDA), stds = typed({0, 0, 0}, {3}, type, Device::CUDA);
    checkSame(torch::normal(means, stds, nullptr), typed({1, 2, 3}, {3}, type, Device::CPU));
  }
  for (ScalarType type : {ScalarType::Long, ScalarType::Int, ScalarType::Byte, ScalarType::Float}) {
    Tensor t = torch::empty({1000}, type, Device::CUDA);
    torch::random_(t, 3, 9, nullptr);
    within(t, 3, 8);
    torch::random_(t, 0, std::nullopt, nullptr);  // the type's whole non-negative range
    within(t, 0, INFINITY);
    integral(t);
  }
  Tensor b = torch::empty({100}, ScalarType::Bool, Device::CUDA);
  torch::random_(b, 0, std::nullopt, nullptr);
  within(b, 0, 1);
  Tensor h = torch::empty({100}, ScalarType::Half, Device::CUDA);  // Half through Float
  torch::bernoulli_(h, 0.5, nullptr);
  within(h, 0, 1);
  integral(h);
  // randperm: a permutation of 0 .. n - 1
  Tensor perm = torch::empty({0}, ScalarType::Long, Device::CUDA);
  torch::randpermInto(perm, 500, nullptr);
  BOOST_CHECK(perm.sizes() == torch::IntList{500});
  checkSame(torch::sort(perm, 0, false).values,
            torch::arange(Scalar(int64_t(0)), Scalar(int64_t(500)), Scalar(int64_t(1)), ScalarType::Long, Device::CPU));
  // multinomial with replacement never draws a category of probability 0
  Tensor probs = typed({0, 1, 0, 2, 3, 0, 0, 1}, {2, 4}, ScalarType::Double, Device::CUDA);
  Tensor drawn = torch::multinomial(probs, 200, true, nullptr);
  BOOST_CHECK(drawn.sizes() == (torch::IntList{2, 200}) && drawn.dtype() == ScalarType::Long);
  for (double k : read(torch::narrow(drawn, 0, 0, 1))) BOOST_CHECK(k == 1 || k == 3);
  for (double k : read(torch::narrow(drawn, 0, 1, 1))) BOOST_CHECK(k == 0 || k == 3);
}

BOOST_AUTO_TEST_CASE(nn_layers_match_the_cpu) {
  useDevice();
  namespace nn = torch::nn;
  const std::vector<double> v = {1.5, -2, 3, 0.25, 8, -0.5, 0.75, 2.5, -1.25, 4, 0.1, -3};
  Tensor x = values(v, {3, 4}, Device::CPU);
  for (bool tr : {false, true}) {
    checkSameWithGradient([](const Tensor &t) { return nn::relu(t); }, x, tr);
    checkSameWithGradient([](const Tensor &t) { return nn::threshold(t, 0.5, -1); }, x, tr);
    checkSameWithGradient([](const Tensor &t) { return nn::hardtanh(t, -1, 2); }, x, tr);
    checkSameWithGradient([](const Tensor &t) { return nn::leakyRelu(t, 0.1); }, x, tr);
    checkSameWithGradient([](const Tensor &t) { return nn::elu(t, 1.5); }, x, tr);
    checkSameWithGradient([](const Tensor &t) { return nn::softplus(t, 2, 10); }, x, tr);
    checkSameWithGradient([](const Tensor &t) { return nn::softshrink(t, 0.6); }, x, tr);
    checkSameWithGradient([](const Tensor &t) { return nn::hardshrink(t, 0.6); }, x, tr);
    checkSameWithGradient([](const Tensor &t) { return nn::logSigmoid(t); }, x, tr);
    for (int64_t dim : {0, 1}) {
      checkSameWithGradient([dim](const Tensor &t) { return nn::softmax(t, dim); }, x, tr);
      checkSameWithGradient([dim](const Tensor &t) { return nn::logSoftmax(t, dim); }, x, tr);
    }
  }
  Tensor x4 = values(std::vector<double>(kM.begin(), kM.end()), {1, 3, 2, 2}, Device::CPU);
  checkSameWithGradient([](const Tensor &t) { return nn::softmax(t, 1); }, x4);
  checkSameWithGradient([](const Tensor &t) { return nn::logSoftmax(t, 3); }, x4);
  // Losses, each reduction, with the gradient in the input.
  Tensor target = values({1, -1, 2, 0.5, 7, 0, 1, 3, -1, 4.5, 0, -2}, {3, 4}, Device::CPU), dtarget = onDevice(target);
  Tensor signs = values({1, -1, 1, 1, -1, -1, 1, -1, 1, 1, -1, 1}, {3, 4}, Device::CPU), dsigns = onDevice(signs);
  Tensor probs = values({0.1, 0.2, 0, 0.7, 0.25, 0.25, 0.25, 0.25, 0, 0, 1, 0}, {3, 4}, Device::CPU);
  Tensor dprobs = onDevice(probs);
  for (nn::Reduction red : {nn::Reduction::None, nn::Reduction::Mean, nn::Reduction::Sum}) {
    auto pick = [](const Tensor &t, const Tensor &cpu, const Tensor &dev) {
      return t.device() == Device::CUDA ? dev : cpu;
    };
    checkSameWithGradient([&](const Tensor &t) { return nn::l1Loss(t, pick(t, target, dtarget), red); }, x);
    checkSameWithGradient([&](const Tensor &t) { return nn::mseLoss(t, pick(t, target, dtarget), red); }, x);
    checkSameWithGradient([&](const Tensor &t) { return nn::smoothL1Loss(t, pick(t, target, dtarget), red, 1); }, x);
    checkSameWithGradient([&](const Tensor &t) { return nn::smoothL1Loss(t, pick(t, target, dtarget), red, 0.5); }, x);
    checkSameWithGradient([&](const Tensor &t) { return nn::softMarginLoss(t, pick(t, signs, dsigns), red); }, x);
    checkSameWithGradient([&](const Tensor &t) { return nn::klDiv(nn::logSoftmax(t, 1), pick(t, probs, dprobs), red); },
                          x);
    // Class targets, with and without class weights, an ignored class, and per pixel.
    Tensor classes = typed({2, 0, 3}, {3}, ScalarType::Long, Device::CPU), dclasses = onDevice(classes);
    Tensor weight = values({1, 0.5, 2, 1.5}, {4}, Device::CPU), dweight = onDevice(weight);
    checkSameWithGradient(
        [&](const Tensor &t) {
          return nn::nllLoss(nn::logSoftmax(t, 1), pick(t, classes, dclasses), Tensor(), red, -100);
        },
        x);
    checkSameWithGradient(
        [&](const Tensor &t) {
          return nn::nllLoss(nn::logSoftmax(t, 1), pick(t, classes, dclasses), pick(t, weight, dweight), red, 0);
        },
        x);
    Tensor pixels = typed({0, 2, 1, 1}, {1, 2, 2}, ScalarType::Long, Device::CPU), dpixels = onDevice(pixels);
    checkSameWithGradient(
        [&](const Tensor &t) {
          return nn::nllLoss(nn::logSoftmax(t, 1), pick(t, pixels, dpixels), Tensor(), red, -100);
        },
        x4);
  }
}

BOOST_AUTO_TEST_SUITE_END()

#endif
