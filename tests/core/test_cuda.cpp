// The core on the GPU: the cases of device_cases.hpp with THC's memory and kernels as the
// CUDA column (core/ops/cuda/Cuda.h), each compared with the same call on the CPU. Without a
// GPU the suite is skipped with "no CUDA GPU"; it is tagged "gpu" and run by
// scripts/device_check.sh on the GPU machine.
#define BOOST_TEST_MODULE core_cuda
#include <boost/test/included/unit_test.hpp>

#include "core/ops/cuda/Cuda.h"

namespace {

bool gpuPresent() {
  static const bool present = torch::cuda::init();
  return present;
}

boost::unit_test::decorator::precondition needsGPU() {
  return boost::unit_test::precondition([](boost::unit_test::test_unit_id) {
    boost::test_tools::assertion_result result(gpuPresent());
    if (!result) result.message() << "no CUDA GPU";
    return result;
  });
}

}  // namespace

#define DEVICE_SUITE_DECORATOR needsGPU()
#include "device_cases.hpp"

void useDevice() { BOOST_REQUIRE(torch::cuda::init()); }

BOOST_AUTO_TEST_CASE(a_kernel_the_device_lacks_is_named, *needsGPU()) {
  useDevice();
  Tensor da = values(kA, {2, 3}, Device::CUDA);
  // THC has no isclose, so the CUDA column has none.
  checkRaises([&] { torch::isclose(da, da, 1e-5, 1e-8, false); }, {"isclose", "not implemented for 'Double' on cuda"});
}
