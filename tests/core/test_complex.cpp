// Complex tensors of the core (Note [Complex tensors] in core/ops/Complex.h) and the FFT
// primitives (core/ops/Fft.h), checked against std::complex arithmetic and a plain DFT loop.
#define BOOST_TEST_MODULE core_complex
#include <boost/test/included/unit_test.hpp>

#include <cmath>
#include <complex>
#include <vector>

#include "core/ops/Complex.h"
#include "core/ops/Fft.h"
#include "core/ops/Pointwise.h"

using torch::IntList;
using torch::ScalarType;
using torch::Tensor;
using cd = std::complex<double>;

namespace {

// A contiguous ComplexDouble tensor of these values.
Tensor make(const std::vector<cd> &values, const IntList &sizes) {
  Tensor t = torch::empty(sizes, ScalarType::ComplexDouble, torch::Device::CPU);
  auto *data = reinterpret_cast<cd *>(t.dataPtr());
  for (size_t i = 0; i < values.size(); i++) data[i] = values[i];
  return t;
}

std::vector<cd> values(const Tensor &t) {
  std::vector<cd> r;
  for (int64_t i = 0; i < t.numel(); i++) {
    torch::Scalar s = torch::getFlat(t, i);
    r.emplace_back(s.d, s.imag);
  }
  return r;
}

void checkClose(const std::vector<cd> &got, const std::vector<cd> &want, double tol = 1e-12) {
  BOOST_REQUIRE_EQUAL(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) BOOST_CHECK_SMALL(std::abs(got[i] - want[i]), tol);
}

const std::vector<cd> kA = {{1, 2}, {-3, 0.5}, {0, -1}, {2.5, 4}, {-1, -1}, {0.25, 3}};
const std::vector<cd> kB = {{0.5, -1}, {2, 2}, {-4, 1}, {1, 0}, {3, -0.5}, {-2, 0.75}};

}  // namespace

BOOST_AUTO_TEST_CASE(real_view_shares_memory_and_doubles_strides) {
  Tensor z = make(kA, {2, 3});
  Tensor r = torch::viewAsReal(z);
  BOOST_CHECK(r.dtype() == ScalarType::Double);
  BOOST_CHECK(r.sizes() == (IntList{2, 3, 2}));
  BOOST_CHECK(r.strides() == (IntList{6, 2, 1}));
  BOOST_CHECK_EQUAL(r.dataPtr(), z.dataPtr());
  Tensor column = torch::select(z, 1, 1);  // strides in elements, offset 1 element
  Tensor rc = torch::viewAsReal(column);
  BOOST_CHECK_EQUAL(rc.storageOffset(), 2);
  BOOST_CHECK(rc.strides() == (IntList{6, 1}));
  checkClose(values(torch::viewAsComplex(rc)), {kA[1], kA[4]});
  BOOST_CHECK_EQUAL(z.storage().size(), 6);  // elements, not reals
}

BOOST_AUTO_TEST_CASE(resize_grows_the_storage_in_elements) {
  Tensor z = make({kA[0], kA[1]}, {2});
  torch::resize_(z, {5});
  BOOST_CHECK_GE(z.storage().size(), 5);
  torch::fill_(z, torch::Scalar::complex(1, -2));
  checkClose(values(z), std::vector<cd>(5, cd(1, -2)));
}

BOOST_AUTO_TEST_CASE(arithmetic_as_std_complex) {
  Tensor a = make(kA, {6}), b = make(kB, {6});
  std::vector<cd> sum, product, quotient;
  for (size_t i = 0; i < kA.size(); i++) {
    sum.push_back(kA[i] + kB[i]);
    product.push_back(kA[i] * kB[i]);
    quotient.push_back(kA[i] / kB[i]);
  }
  checkClose(values(torch::binary(torch::BinaryOp::Add, a, b)), sum);
  checkClose(values(torch::binary(torch::BinaryOp::Mul, a, b)), product);
  checkClose(values(torch::binary(torch::BinaryOp::Div, a, b)), quotient);
  std::vector<cd> exps, logs, roots;
  for (cd v : kA) {
    exps.push_back(std::exp(v));
    logs.push_back(std::log(v));
    roots.push_back(std::sqrt(v));
  }
  checkClose(values(torch::unary(torch::UnaryOp::Exp, a)), exps);
  checkClose(values(torch::unary(torch::UnaryOp::Log, a)), logs);
  checkClose(values(torch::unary(torch::UnaryOp::Sqrt, a)), roots);
}

BOOST_AUTO_TEST_CASE(ordering_ops_raise) {
  Tensor a = make(kA, {6});
  BOOST_CHECK_THROW(torch::compare(torch::CompareOp::Lt, a, a), th::Error);
  BOOST_CHECK_THROW(torch::unary(torch::UnaryOp::Floor, a), th::Error);  // no order on complex numbers, as in PyTorch
}

// The DFT of the last dimension by its definition: sum_j x_j exp(-+2 pi i jk / n).
std::vector<cd> dft(const std::vector<cd> &x, int64_t rows, int64_t n, bool forward) {
  std::vector<cd> r(rows * n);
  for (int64_t row = 0; row < rows; row++) {
    for (int64_t k = 0; k < n; k++) {
      for (int64_t j = 0; j < n; j++) {
        double angle = (forward ? -2 : 2) * M_PI * static_cast<double>(j * k) / static_cast<double>(n);
        r[row * n + k] += x[row * n + j] * cd(std::cos(angle), std::sin(angle));
      }
    }
  }
  return r;
}

BOOST_AUTO_TEST_CASE(transforms_as_the_dft) {
  Tensor z = make(kA, {2, 3});
  checkClose(values(torch::fftC2C(z, {-1}, torch::FftNorm::None, true)), dft(kA, 2, 3, true));
  std::vector<cd> inverse = dft(kA, 2, 3, false);
  for (cd &v : inverse) v /= 3.0;
  checkClose(values(torch::fftC2C(z, {1}, torch::FftNorm::ByN, false)), inverse);

  // a real signal: the first n / 2 + 1 outputs
  std::vector<cd> signal = {{1, 0}, {-2, 0}, {0.5, 0}, {3, 0}};
  Tensor real = torch::viewAsReal(make(signal, {4}));
  Tensor x = torch::contiguous(torch::select(real, 1, 0));
  std::vector<cd> full = dft(signal, 1, 4, true);
  checkClose(values(torch::fftR2C(x, {0}, torch::FftNorm::None, true)), {full[0], full[1], full[2]});

  // and back: the Hermitian half gives the signal again
  Tensor back = torch::fftC2R(torch::fftR2C(x, {0}, torch::FftNorm::None, true), {0}, torch::FftNorm::ByN, 4);
  for (int64_t i = 0; i < 4; i++) BOOST_CHECK_SMALL(torch::getFlat(back, i).d - signal[i].real(), 1e-12);
}
