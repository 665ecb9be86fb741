// The core on the GPU: the cases of device_cases.hpp with THC's memory and kernels as the
// CUDA column (core/ops/cuda/Cuda.h), each compared with the same call on the CPU. Without a
// GPU the suite is skipped with "no CUDA GPU"; it is tagged "gpu" and run by
// scripts/device_check.sh on the GPU machine.
#define BOOST_TEST_MODULE core_cuda
#include <boost/test/included/unit_test.hpp>

#include <algorithm>
#include <functional>
#include <utility>

#include "core/ops/NNLayers.h"
#include "core/ops/NNSpatial.h"
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
  Tensor da = values({2, 1, 1, 3}, {2, 2}, Device::CUDA);
  // No library of the CUDA column has a general eigensolver (THC has symeig only).
  checkRaises([&] { torch::eig(da, true); }, {"eig", "not implemented for 'Double' on cuda"});
}

namespace {

// n pseudo-random values in [-1, 1) (a fixed LCG: the same on every machine).
std::vector<double> noise(size_t n, uint64_t seed) {
  std::vector<double> v(n);
  for (double &x : v) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    x = static_cast<double>(seed >> 11) / static_cast<double>(1ULL << 53) * 2 - 1;
  }
  return v;
}

Tensor noiseOn(const torch::IntList &sizes, uint64_t seed, ScalarType dtype, Device device) {
  size_t n = 1;
  for (int64_t s : sizes) n *= static_cast<size_t>(s);
  return torch::to(values(noise(n, seed), sizes, Device::CPU), dtype, device);
}

// a (on the GPU) and b (on the CPU) agree within rtol of the larger magnitude of b.
void checkClose(const Tensor &a, const Tensor &b, double rtol, const std::string &what) {
  BOOST_CHECK(a.device() == Device::CUDA);
  BOOST_REQUIRE(a.sizes() == b.sizes());
  std::vector<double> x = read(a), y = read(b);
  double scale = 1e-30;
  for (double v : y) scale = std::max(scale, std::fabs(v));
  for (size_t i = 0; i < x.size(); i++) {
    BOOST_CHECK_MESSAGE(std::fabs(x[i] - y[i]) <= rtol * scale,
                        what << " element " << i << ": " << x[i] << " on the GPU, " << y[i] << " on the CPU");
  }
}

}  // namespace

void convolutionsMatchTheCpu();

// cuDNN's convolutions (core/ops/cuda/CudnnConvolution.cpp) against THNN's on the CPU, with
// each of cuDNN's ways to choose an algorithm (heuristics or timed search, deterministic or not):
// output and the three gradients, 2-d and 3-d, strides, padding, dilation, groups (channel
// slices reach cuDNN strided), Float and Double.
BOOST_AUTO_TEST_CASE(convolutions_match_the_cpu, *needsGPU()) {
  useDevice();
  torch::cuda::cudnnFlags().allowTF32 = false;  // Float within float's tolerance of the CPU
  for (bool benchmark : {false, true}) {
    for (bool deterministic : {false, true}) {
      torch::cuda::cudnnFlags().benchmark = benchmark;
      torch::cuda::cudnnFlags().deterministic = deterministic;
      convolutionsMatchTheCpu();
    }
  }
  torch::cuda::cudnnFlags().benchmark = false;
  torch::cuda::cudnnFlags().deterministic = false;
  torch::cuda::cudnnFlags().allowTF32 = true;
}

void transposedConvolutionsMatchTheCpu();

void convolutionsMatchTheCpu() {
  transposedConvolutionsMatchTheCpu();
  struct Shape {
    torch::IntList input, weight, stride, padding, dilation;
    int64_t groups;
  };
  const Shape shapes[] = {
      {{2, 3, 9, 8}, {4, 3, 3, 3}, {1, 1}, {1, 1}, {1, 1}, 1},
      {{1, 4, 11, 7}, {6, 2, 3, 2}, {2, 1}, {0, 1}, {2, 1}, 2},
      {{3, 2, 5, 6, 7}, {2, 2, 3, 1, 2}, {1, 2, 1}, {1, 0, 1}, {1, 1, 2}, 1},
  };
  uint64_t seed = 1;
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    const double rtol = dtype == ScalarType::Float ? 1e-5 : 1e-10;
    for (const Shape &s : shapes) {
      Tensor x = noiseOn(s.input, seed++, dtype, Device::CPU), w = noiseOn(s.weight, seed++, dtype, Device::CPU),
             b = noiseOn({s.weight[0]}, seed++, dtype, Device::CPU);
      Tensor outs[2], grads[2][3];
      for (Device device : {Device::CPU, Device::CUDA}) {
        const int d = device == Device::CUDA;
        Tensor xd = torch::to(x, dtype, device), wd = torch::to(w, dtype, device), bd = torch::to(b, dtype, device);
        for (Tensor *t : {&xd, &wd, &bd}) torch::setRequiresGrad(*t, true);
        outs[d] = torch::nn::convolution(xd, wd, bd, s.stride, s.padding, s.dilation, s.groups);
        BOOST_REQUIRE(outs[d].device() == device);
        Tensor weights = noiseOn(outs[d].sizes(), 99, dtype, device);
        torch::runBackward({torch::sum(torch::binary(torch::BinaryOp::Mul, outs[d], weights), {}, false)}, {Tensor()},
                           {}, {});
        grads[d][0] = torch::grad(xd);
        grads[d][1] = torch::grad(wd);
        grads[d][2] = torch::grad(bd);
      }
      checkClose(outs[1], outs[0], rtol, "output");
      const char *names[3] = {"grad input", "grad weight", "grad bias"};
      for (int g = 0; g < 3; g++) checkClose(grads[1][g], grads[0][g], rtol, names[g]);
    }
  }
}

// cuDNN's batch normalization (core/ops/cuda/CudnnBatchNorm.cpp) against THNN's: training
// (batch statistics, running statistics updated) and evaluation, with and without affine
// parameters, 2-d and 4-d inputs; output, running statistics and the three gradients.
BOOST_AUTO_TEST_CASE(batch_normalization_matches_the_cpu, *needsGPU()) {
  useDevice();
  const torch::IntList shapes[] = {{8, 3}, {4, 3, 5, 6}};
  uint64_t seed = 100;
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    const double rtol = dtype == ScalarType::Float ? 1e-5 : 1e-10;
    for (const torch::IntList &shape : shapes) {
      for (bool affine : {true, false}) {
        for (bool training : {true, false}) {
          const int64_t C = shape[1];
          Tensor x = noiseOn(shape, seed++, dtype, Device::CPU), w = noiseOn({C}, seed++, dtype, Device::CPU),
                 b = noiseOn({C}, seed++, dtype, Device::CPU), mean = noiseOn({C}, seed++, dtype, Device::CPU),
                 var = torch::binary(torch::BinaryOp::Add, noiseOn({C}, seed++, dtype, Device::CPU),
                                     torch::Scalar(2.0));  // positive
          Tensor outs[2], stats[2][2], grads[2][3];
          for (Device device : {Device::CPU, Device::CUDA}) {
            const int d = device == Device::CUDA;
            Tensor xd = torch::to(x, dtype, device, true), wd = torch::to(w, dtype, device, true),
                   bd = torch::to(b, dtype, device, true);
            stats[d][0] = torch::to(mean, dtype, device, true);
            stats[d][1] = torch::to(var, dtype, device, true);
            torch::setRequiresGrad(xd, true);
            if (affine) {
              torch::setRequiresGrad(wd, true);
              torch::setRequiresGrad(bd, true);
            }
            outs[d] = torch::nn::batchNorm(xd, affine ? wd : Tensor(), affine ? bd : Tensor(), stats[d][0], stats[d][1],
                                           training, 0.1, 1e-5);
            Tensor weights = noiseOn(outs[d].sizes(), 7, dtype, device);
            torch::runBackward({torch::sum(torch::binary(torch::BinaryOp::Mul, outs[d], weights), {}, false)},
                               {Tensor()}, {}, {});
            grads[d][0] = torch::grad(xd);
            if (affine) {
              grads[d][1] = torch::grad(wd);
              grads[d][2] = torch::grad(bd);
            }
          }
          const std::string what = std::string(training ? "training" : "evaluation") + (affine ? ", affine" : "");
          checkClose(outs[1], outs[0], rtol, what + ": output");
          checkClose(stats[1][0], stats[0][0], rtol, what + ": running mean");
          checkClose(stats[1][1], stats[0][1], rtol, what + ": running var");
          checkClose(grads[1][0], grads[0][0], 10 * rtol, what + ": grad input");
          if (affine) {
            checkClose(grads[1][1], grads[0][1], 10 * rtol, what + ": grad weight");
            checkClose(grads[1][2], grads[0][2], 10 * rtol, what + ": grad bias");
          }
        }
      }
    }
  }
}

// THCUNN's max pooling (THCUNN/indexed/Pooling.cu) against THNN's: values and indices
// exactly (the first maximum wins on both), and the gradient to the bit (the same additions
// in the same order); 2-d and 3-d, padding, dilation, ceil mode, overlapping windows, ties.
BOOST_AUTO_TEST_CASE(max_pooling_matches_the_cpu, *needsGPU()) {
  useDevice();
  struct Shape {
    torch::IntList input, kernel, stride, padding, dilation;
    bool ceil;
  };
  const Shape shapes[] = {
      {{2, 3, 8, 8}, {2, 2}, {2, 2}, {0, 0}, {1, 1}, false},
      {{1, 2, 9, 7}, {3, 3}, {1, 2}, {1, 1}, {1, 1}, true},
      {{2, 2, 10, 9}, {3, 2}, {2, 1}, {1, 0}, {2, 3}, false},
      {{3, 7, 6}, {2, 3}, {2, 2}, {1, 1}, {1, 1}, true},  // unbatched
      {{2, 2, 5, 6, 7}, {2, 3, 2}, {1, 2, 2}, {1, 1, 0}, {2, 1, 1}, true},
  };
  uint64_t seed = 300;
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    for (const Shape &s : shapes) {
      // rounded to a coarse grid so that windows hold ties
      Tensor x = torch::unary(
          torch::UnaryOp::Round,
          torch::binary(torch::BinaryOp::Mul, noiseOn(s.input, seed++, dtype, Device::CPU), torch::Scalar(3.0)));
      Tensor values[2], indices[2], grads[2];
      for (Device device : {Device::CPU, Device::CUDA}) {
        const int d = device == Device::CUDA;
        Tensor xd = torch::to(x, dtype, device, true);
        torch::setRequiresGrad(xd, true);
        auto r = torch::nn::maxPool(xd, s.kernel, s.stride, s.padding, s.dilation, s.ceil);
        values[d] = r.first;
        indices[d] = r.second;
        Tensor weights = noiseOn(values[d].sizes(), 11, dtype, device);
        torch::runBackward({torch::sum(torch::binary(torch::BinaryOp::Mul, values[d], weights), {}, false)}, {Tensor()},
                           {}, {});
        grads[d] = torch::grad(xd);
      }
      checkClose(values[1], values[0], 0, "values");
      checkClose(indices[1], indices[0], 0, "indices");
      checkClose(grads[1], grads[0], 0, "grad input");
    }
  }
}

// The core's own activations on the GPU (core/ops/cuda/MapActivations.cu, the CPU's formulas
// in core/ops/MapActivations.hpp) against the CPU: output and input gradient, on a
// transposed input (made contiguous by the op) that crosses every branch of the formulas.
BOOST_AUTO_TEST_CASE(activations_match_the_cpu, *needsGPU()) {
  useDevice();
  using Fn = std::function<Tensor(const Tensor &)>;
  const std::vector<std::pair<std::string, Fn>> fns = {
      {"selu", [](const Tensor &x) { return torch::nn::selu(x); }},
      {"celu", [](const Tensor &x) { return torch::nn::celu(x, 0.7); }},
      {"gelu", [](const Tensor &x) { return torch::nn::gelu(x, false); }},
      {"gelu tanh", [](const Tensor &x) { return torch::nn::gelu(x, true); }},
      {"silu", [](const Tensor &x) { return torch::nn::silu(x); }},
      {"mish", [](const Tensor &x) { return torch::nn::mish(x); }},
      {"hardsigmoid", [](const Tensor &x) { return torch::nn::hardsigmoid(x); }},
      {"hardswish", [](const Tensor &x) { return torch::nn::hardswish(x); }},
  };
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    const double rtol = dtype == ScalarType::Float ? 1e-5 : 1e-12;
    Tensor x = torch::transpose(
        torch::binary(torch::BinaryOp::Mul, noiseOn({40, 30}, 500, dtype, Device::CPU), torch::Scalar(6.0)), 0, 1);
    for (const auto &[name, f] : fns) {
      Tensor outs[2], grads[2];
      for (Device device : {Device::CPU, Device::CUDA}) {
        const int d = device == Device::CUDA;
        Tensor xd = torch::to(x, dtype, device, true);
        torch::setRequiresGrad(xd, true);
        outs[d] = f(xd);
        Tensor weights = noiseOn(outs[d].sizes(), 13, dtype, device);
        torch::runBackward({torch::sum(torch::binary(torch::BinaryOp::Mul, outs[d], weights), {}, false)}, {Tensor()},
                           {}, {});
        grads[d] = torch::grad(xd);
      }
      checkClose(outs[1], outs[0], rtol, name + ": output");
      checkClose(grads[1], grads[0], rtol, name + ": grad input");
    }
  }
}

// The transposed convolutions (cuDNN's passes with the roles exchanged) against THNN's:
// output and gradients, groups, stride with output padding, dilation, 2-d and 3-d.
void transposedConvolutionsMatchTheCpu() {
  struct Shape {
    torch::IntList input, weight, stride, padding, outputPadding, dilation;
    int64_t groups;
  };
  const Shape shapes[] = {
      {{2, 4, 5, 6}, {4, 3, 3, 3}, {2, 2}, {1, 1}, {1, 0}, {1, 1}, 1},
      {{1, 4, 6, 5}, {4, 2, 3, 2}, {1, 2}, {0, 1}, {0, 1}, {2, 1}, 2},
      {{2, 2, 3, 4, 4}, {2, 3, 2, 3, 2}, {2, 1, 2}, {0, 1, 0}, {1, 0, 1}, {1, 1, 1}, 1},
  };
  uint64_t seed = 700;
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    const double rtol = dtype == ScalarType::Float ? 1e-5 : 1e-10;
    for (const Shape &s : shapes) {
      Tensor x = noiseOn(s.input, seed++, dtype, Device::CPU), w = noiseOn(s.weight, seed++, dtype, Device::CPU),
             b = noiseOn({s.weight[1] * s.groups}, seed++, dtype, Device::CPU);
      Tensor outs[2], grads[2][3];
      for (Device device : {Device::CPU, Device::CUDA}) {
        const int d = device == Device::CUDA;
        Tensor xd = torch::to(x, dtype, device, true), wd = torch::to(w, dtype, device, true),
               bd = torch::to(b, dtype, device, true);
        for (Tensor *t : {&xd, &wd, &bd}) torch::setRequiresGrad(*t, true);
        outs[d] = torch::nn::convTranspose(xd, wd, bd, s.stride, s.padding, s.outputPadding, s.groups, s.dilation);
        Tensor weights = noiseOn(outs[d].sizes(), 98, dtype, device);
        torch::runBackward({torch::sum(torch::binary(torch::BinaryOp::Mul, outs[d], weights), {}, false)}, {Tensor()},
                           {}, {});
        grads[d][0] = torch::grad(xd);
        grads[d][1] = torch::grad(wd);
        grads[d][2] = torch::grad(bd);
      }
      checkClose(outs[1], outs[0], rtol, "transposed: output");
      const char *names[3] = {"transposed: grad input", "transposed: grad weight", "transposed: grad bias"};
      for (int g = 0; g < 3; g++) checkClose(grads[1][g], grads[0][g], rtol, names[g]);
    }
  }
}
