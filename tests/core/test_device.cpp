// The core's handling of a second device (Note [Memory of a device] in core/Tensor.h, Note
// [Dispatch by device and type] in core/Dispatch.h), checked without a GPU on a stand-in:
// "cuda" memory from the host allocator, and the CPU's kernels copied into the CUDA column
// (core/ops/StandInDevice.h). What is checked is what the core itself does with a device — every
// result lives on its inputs' device, views and gradients keep it, a CPU number goes along
// with any device, other mixes raise PyTorch's error and leave the operands unchanged, a
// kernel a device lacks is named in the error — against the same calls on the CPU. THC's own
// kernels are checked by the GPU suites (tests/THC).
#define BOOST_TEST_MODULE core_device
#include <boost/test/included/unit_test.hpp>

#include "core/Dispatch.h"
#include "core/ops/StandInDevice.h"

// Every machine has the stand-in device.
#define DEVICE_SUITE_DECORATOR boost::unit_test::enabled()
#include "device_cases.hpp"

void useDevice() { BOOST_REQUIRE(torch::useStandInCuda()); }

// The sequences of arange, whose kernels THC lacks (the CUDA column has none): their device
// handling is the core's, checked here on the stand-in.
BOOST_AUTO_TEST_CASE(arange_follows_its_device) {
  useDevice();
  Tensor r = torch::arange(torch::Scalar(int64_t(0)), torch::Scalar(int64_t(5)), torch::Scalar(int64_t(1)),
                           std::nullopt, Device::CUDA);
  BOOST_CHECK(r.device() == Device::CUDA);
  std::vector<double> got = read(r), want = {0, 1, 2, 3, 4};
  BOOST_CHECK_EQUAL_COLLECTIONS(got.begin(), got.end(), want.begin(), want.end());
}

// A table that has a CPU kernel but none for the device names the device in its error; the
// stand-in copies only the kernels that exist when it is registered (the probe's CPU kernel
// comes after).
BOOST_AUTO_TEST_CASE(a_kernel_the_device_lacks_is_named) {
  useDevice();
  static torch::Kernels<double(double), torch::Types::Arith> probe("probe");
  probe.add(Device::CPU, ScalarType::Double, [](double x) { return 2 * x; });
  BOOST_CHECK_EQUAL(probe(Device::CPU, ScalarType::Double, 1.5), 3.0);
  checkRaises([&] { probe(Device::CUDA, ScalarType::Double, 1.5); }, {"probe", "not implemented for 'Double' on cuda"});
  // Copying the column again gives the device the CPU's kernel.
  torch::copyColumn(Device::CPU, Device::CUDA);
  BOOST_CHECK_EQUAL(probe(Device::CUDA, ScalarType::Double, 1.5), 3.0);
}
