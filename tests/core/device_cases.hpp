// The cases of tests/core/test_device.cpp (a stand-in device) and test_cuda.cpp (the GPU):
// what the core does with a device other than the CPU. The includer defines useDevice(),
// which makes Device::CUDA a device of the core, and DEVICE_SUITE_DECORATOR (what skips the
// suite where the device is absent).
#ifndef TESTS_CORE_DEVICE_CASES_HPP
#define TESTS_CORE_DEVICE_CASES_HPP

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "autograd/Autograd.h"
#include "autograd/Engine.h"
#include "core/ops/Factory.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"

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

// Same sizes and type, values equal to a few ulps (a GPU's exp need not round as the CPU's).
void checkSame(const Tensor &onDevice, const Tensor &onCpu) {
  BOOST_CHECK(onDevice.device() == Device::CUDA);
  BOOST_CHECK(onCpu.device() == Device::CPU);
  BOOST_CHECK(onDevice.sizes() == onCpu.sizes());
  BOOST_CHECK(onDevice.dtype() == onCpu.dtype());
  std::vector<double> a = read(onDevice), b = read(onCpu);
  BOOST_REQUIRE_EQUAL(a.size(), b.size());
  for (size_t i = 0; i < a.size(); i++) {
    BOOST_CHECK_MESSAGE(std::fabs(a[i] - b[i]) <= 1e-13 * std::fabs(b[i]),
                        "element " << i << ": " << a[i] << " on the device, " << b[i] << " on the CPU");
  }
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

BOOST_AUTO_TEST_SUITE_END()

#endif
