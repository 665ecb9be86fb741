// The core's handling of a second device (Note [Memory of a device] in core/Tensor.h, Note
// [Dispatch by device and type] in core/Dispatch.h), checked without a GPU on a stand-in:
// "cuda" memory from the host allocator, and the CPU's kernels registered in the CUDA column
// for the ops tested here. What is checked is what the core itself does with a device — every
// result lives on its inputs' device, views and gradients keep it, a CPU number goes along
// with any device, other mixes raise PyTorch's error and leave the operands unchanged, a
// kernel a device lacks is named in the error — against the same calls on the CPU. THC's own
// kernels are checked by the GPU suites (tests/THC).
#define BOOST_TEST_MODULE core_device
#include <boost/test/included/unit_test.hpp>

#include "core/Dispatch.h"
#include "core/ops/CopyKernels.h"
#include "core/ops/MathKernels.h"
#include "core/ops/PointwiseKernels.h"
#include "core/ops/ReduceKernels.h"

// Every machine has the stand-in device.
#define DEVICE_SUITE_DECORATOR boost::unit_test::enabled()
#include "device_cases.hpp"

namespace {

// The CPU's kernel of every type, registered for the stand-in device too.
template <typename K>
void mirror(K &kernels) {
  for (int t = 0; t < torch::kNumScalarTypes; t++) {
    auto dtype = static_cast<ScalarType>(t);
    if (kernels.has(Device::CPU, dtype)) kernels.add(Device::CUDA, dtype, kernels.find(Device::CPU, dtype));
  }
}

template <typename Table>
void mirrorTable(Table &table, int numOps) {
  for (int op = 0; op < numOps; op++) {
    for (int t = 0; t < torch::kNumScalarTypes; t++) {
      auto dtype = static_cast<ScalarType>(t);
      if (table.has(op, Device::CPU, dtype)) table.add(op, Device::CUDA, dtype, table.find(op, Device::CPU, dtype, ""));
    }
  }
}

}  // namespace

void useDevice() {
  static bool done = [] {
    torch::registerDeviceAllocator(Device::CUDA, &THDefaultAllocator, nullptr);
    torch::PointwiseKernels &p = torch::pointwiseKernels();
    mirrorTable(p.unary, torch::kNumUnaryOps);
    mirrorTable(p.binary, torch::kNumBinaryOps);
    mirrorTable(p.binaryScalar, torch::kNumBinaryOps);
    mirrorTable(p.compare, torch::kNumCompareOps);
    mirrorTable(p.compareScalar, torch::kNumCompareOps);
    torch::CopyKernels &c = torch::copyKernels();
    mirror(c.copy);
    mirror(c.copyToBool);
    mirror(c.fill);
    mirror(c.boolFromBytes);
    mirror(c.read);
    torch::ReduceKernels &r = torch::reduceKernels();
    mirror(r.sumAll);
    mirror(r.sum);
    mirror(torch::mathKernels().where);
    mirror(torch::mathKernels().sequence);
    return true;
  }();
  (void)done;
}

// Ops whose kernels THC lacks (where, the sequences of arange): their device handling is the
// core's, checked here on the stand-in.
BOOST_AUTO_TEST_CASE(where_and_arange_follow_their_inputs) {
  useDevice();
  Tensor a = values({1.5, -2, 3, 0.25}, {2, 2}, Device::CPU), b = values({2, 4, -1, 0.5}, {2, 2}, Device::CPU);
  Tensor da = torch::to(a, a.dtype(), Device::CUDA), db = torch::to(b, b.dtype(), Device::CUDA);
  checkSame(torch::where(torch::compare(torch::CompareOp::Gt, da, db), da, db),
            torch::where(torch::compare(torch::CompareOp::Gt, a, b), a, b));
  checkRaises([&] { torch::where(torch::compare(torch::CompareOp::Gt, a, b), da, b); }, {kMixed});
  Tensor r = torch::arange(torch::Scalar(int64_t(0)), torch::Scalar(int64_t(5)), torch::Scalar(int64_t(1)),
                           std::nullopt, Device::CUDA);
  BOOST_CHECK(r.device() == Device::CUDA);
  std::vector<double> got = read(r), want = {0, 1, 2, 3, 4};
  BOOST_CHECK_EQUAL_COLLECTIONS(got.begin(), got.end(), want.begin(), want.end());
}
