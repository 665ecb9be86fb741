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

#include <cmath>

#include "core/Dispatch.h"
#include "core/ops/Composite.h"
#include "core/ops/NNKernels.h"
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

// Note [Composite kernels] (core/ops/Composite.h), on the stand-in device against THNN's
// kernels on the CPU: layer normalization forward and backward, embedding lookup and its
// gradient (padding row, frequency scaling, repeated rows).
BOOST_AUTO_TEST_CASE(composite_kernels_match_thnn) {
  useDevice();
  torch::NNKernels &nn = torch::nnKernels();
  auto both = [](const Tensor &cpu) { return torch::to(cpu, cpu.dtype(), Device::CUDA, true); };
  auto fresh = [](ScalarType t, Device d) { return torch::empty({0}, t, d); };
  std::vector<double> xs(24), ws(4), bs(4), gs(24);
  for (size_t i = 0; i < xs.size(); i++) xs[i] = std::sin(1.3 * i) * 2 + 0.1 * i, gs[i] = std::cos(0.7 * i);
  for (size_t i = 0; i < ws.size(); i++) ws[i] = 0.5 + 0.25 * i, bs[i] = -0.3 * i;
  Tensor x = values(xs, {2, 3, 4}, Device::CPU), w = values(ws, {4}, Device::CPU), b = values(bs, {4}, Device::CPU),
         g = values(gs, {2, 3, 4}, Device::CPU);
  for (bool affine : {true, false}) {
    Tensor cw = affine ? w : Tensor(), cb = affine ? b : Tensor(), dw = affine ? both(w) : Tensor(),
           db = affine ? both(b) : Tensor();
    Tensor out = fresh(ScalarType::Double, Device::CPU), mean = fresh(ScalarType::Double, Device::CPU),
           inv = fresh(ScalarType::Double, Device::CPU);
    nn.layerNormalization.updateOutput(Device::CPU, ScalarType::Double, x, out, cw, cb, mean, inv, 4, 1e-5);
    Tensor dout = fresh(ScalarType::Double, Device::CUDA), dmean = fresh(ScalarType::Double, Device::CUDA),
           dinv = fresh(ScalarType::Double, Device::CUDA);
    torch::composite::layerNormOutput(both(x), dout, dw, db, dmean, dinv, 4, 1e-5);
    checkSame(dout, out);
    checkSame(dmean, mean);
    checkSame(dinv, inv);
    Tensor gi = fresh(ScalarType::Double, Device::CPU), gw = torch::zeros({4}, ScalarType::Double, Device::CPU),
           gb = torch::zeros({4}, ScalarType::Double, Device::CPU);
    nn.layerNormalization.updateGradInput(Device::CPU, ScalarType::Double, x, g, gi, gw, gb, cw, mean, inv, 4, 0.5);
    Tensor dgi = fresh(ScalarType::Double, Device::CUDA),
           dgw = both(torch::zeros({4}, ScalarType::Double, Device::CPU)),
           dgb = both(torch::zeros({4}, ScalarType::Double, Device::CPU));
    torch::composite::layerNormBackward(both(x), both(g), dgi, dgw, dgb, dw, dmean, dinv, 4, 0.5);
    checkSame(dgi, gi);
    checkSame(dgw, gw);
    checkSame(dgb, gb);
  }
  // embedding: rows 1, 3, 1, 0, 3, 3 of a 5 x 4 table; padding row 3 in the gradient
  Tensor idx = torch::to(values({1, 3, 1, 0, 3, 3}, {2, 3}, Device::CPU), ScalarType::Long, Device::CPU);
  Tensor table = values(std::vector<double>(xs.begin(), xs.begin() + 20), {5, 4}, Device::CPU);
  Tensor rows = fresh(ScalarType::Double, Device::CPU), drows = fresh(ScalarType::Double, Device::CUDA);
  nn.lookupTable(Device::CPU, ScalarType::Double, idx, rows, table);
  torch::composite::lookupTable(both(idx), drows, both(table));
  checkSame(drows, rows);
  Tensor go = values(std::vector<double>(gs.begin(), gs.begin() + 24), {2, 3, 4}, Device::CPU);
  for (bool byFreq : {false, true}) {
    for (int padding : {-1, 3}) {
      Tensor gw = torch::zeros({5, 4}, ScalarType::Double, Device::CPU), count = fresh(ScalarType::Int, Device::CPU);
      nn.lookupTableAccGradParameters(Device::CPU, ScalarType::Double, idx, go, gw, count, byFreq, padding, 2.0);
      Tensor dgw = both(torch::zeros({5, 4}, ScalarType::Double, Device::CPU)),
             dcount = fresh(ScalarType::Int, Device::CUDA);
      torch::composite::lookupTableAccGrad(both(idx), both(go), dgw, dcount, byFreq, padding, 2.0);
      checkSame(dgw, gw);
      if (byFreq)
        checkSame(torch::to(dcount, ScalarType::Double, Device::CUDA),
                  torch::to(count, ScalarType::Double, Device::CPU));
    }
  }
}

// The taps' resampling as one matrix product (composite::resample), against the CPU's
// resample kernel: taps of several weights, an index read twice, an output with no tap.
BOOST_AUTO_TEST_CASE(composite_resample_matches_the_cpu_kernel) {
  useDevice();
  torch::Taps taps;
  taps.in = 4;
  taps.add(0, 0.25), taps.add(1, 0.75), taps.next();
  taps.add(2, 1.0), taps.add(2, 0.5), taps.next();  // index 2 twice: weights add up
  taps.next();                                      // nothing: 0
  taps.add(3, -2.0), taps.add(0, 0.125), taps.next();
  std::vector<double> xs(2 * 4 * 3);
  for (size_t i = 0; i < xs.size(); i++) xs[i] = std::sin(0.9 * i) + 0.05 * i;
  Tensor x = values(xs, {2, 4, 3}, Device::CPU);
  Tensor y = torch::empty({2, 4, 3}, ScalarType::Double, Device::CPU);
  torch::nnKernels().resample(Device::CPU, ScalarType::Double, x, y, 2, 3, taps);
  Tensor dy = torch::empty({2, 4, 3}, ScalarType::Double, Device::CUDA);
  torch::composite::resample(torch::to(x, ScalarType::Double, Device::CUDA), dy, 2, 3, taps);
  checkSame(dy, y);
}

// composite::linear* against THNN's Linear: batched and single rows, with and without bias.
BOOST_AUTO_TEST_CASE(composite_linear_matches_thnn) {
  useDevice();
  torch::NNKernels &nn = torch::nnKernels();
  auto dev = [](const Tensor &t) { return torch::to(t, t.dtype(), Device::CUDA, true); };
  std::vector<double> xs(15), ws(12), bs(4), gs(20);
  for (size_t i = 0; i < xs.size(); i++) xs[i] = std::sin(0.8 * i);
  for (size_t i = 0; i < ws.size(); i++) ws[i] = std::cos(0.6 * i) - 0.2;
  for (size_t i = 0; i < bs.size(); i++) bs[i] = 0.1 * i - 0.3;
  for (size_t i = 0; i < gs.size(); i++) gs[i] = std::sin(1.7 * i + 0.4);
  Tensor w = values(ws, {4, 3}, Device::CPU), b = values(bs, {4}, Device::CPU);
  for (bool batched : {true, false}) {
    Tensor x = batched ? values(xs, {5, 3}, Device::CPU) : values({0.5, -1.25, 2}, {3}, Device::CPU);
    Tensor g = batched ? values(gs, {5, 4}, Device::CPU) : values({1, -2, 0.5, 3}, {4}, Device::CPU);
    for (bool withBias : {true, false}) {
      Tensor bias = withBias ? b : Tensor();
      Tensor y = torch::empty({0}, ScalarType::Double, Device::CPU),
             buf = torch::empty({0}, ScalarType::Double, Device::CPU);
      nn.linear.updateOutput(Device::CPU, ScalarType::Double, x, y, w, bias, buf);
      Tensor dy = torch::empty({0}, ScalarType::Double, Device::CUDA);
      torch::composite::linearOutput(dev(x), dy, dev(w), withBias ? dev(b) : Tensor(), Tensor());
      checkSame(dy, y);
      Tensor gi = torch::empty({0}, ScalarType::Double, Device::CPU);
      nn.linear.updateGradInput(Device::CPU, ScalarType::Double, x, g, gi, w);
      Tensor dgi = torch::empty({0}, ScalarType::Double, Device::CUDA);
      torch::composite::linearGradInput(dev(x), dev(g), dgi, dev(w));
      checkSame(dgi, gi);
      Tensor gw = torch::zeros({4, 3}, ScalarType::Double, Device::CPU),
             gb = torch::zeros({4}, ScalarType::Double, Device::CPU);
      nn.linear.accGradParameters(Device::CPU, ScalarType::Double, x, g, w, gb, gw, gb, buf, 0.5);
      Tensor dgw = dev(torch::zeros({4, 3}, ScalarType::Double, Device::CPU)),
             dgb = dev(torch::zeros({4}, ScalarType::Double, Device::CPU));
      torch::composite::linearAccGrad(dev(x), dev(g), dev(w), dgb, dgw, dgb, Tensor(), 0.5);
      checkSame(dgw, gw);
      checkSame(dgb, gb);
    }
  }
}
