// The TH demo (the main job until the Python and Lua packages exist): fits a linear
// model to noisy synthetic data twice, by least squares (LAPACK gels) and by full-batch
// gradient descent written with TH's BLAS and element-wise ops, and compares them.
//
//   th_demo [samples] [features] [iterations]
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "TH/TH.h"
#include "TH/THError.hpp"

namespace {

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

void printRow(const char *label, THDoubleTensor *v, int64_t count) {
  std::printf("%-14s", label);
  for (int64_t i = 0; i < count; i++) std::printf(" %8.4f", THDoubleTensor_get1d(v, i));
  std::printf("%s\n", THDoubleTensor_nElement(v) > count ? " ..." : "");
}

int run(int64_t n, int64_t d, int iterations) {
  THGenerator *gen = THGenerator_new();
  THRandom_manualSeed(gen, 123);

  // X: n x d standard normal, trueW: d weights, y = X trueW + 0.1 noise
  THDoubleTensor *X = THDoubleTensor_new();
  int64_t xsize[2] = {n, d};
  THDoubleTensor_randn(X, gen, 2, xsize);
  THDoubleTensor *trueW = THDoubleTensor_new();
  THDoubleTensor_linspace(trueW, -2.0, 2.0, d);
  THDoubleTensor *noise = THDoubleTensor_newWithSize1d(n);
  THDoubleTensor_normal(noise, gen, 0.0, 0.1);
  THDoubleTensor *y = THDoubleTensor_new();
  THDoubleTensor_mv(y, X, trueW);
  THDoubleTensor_cadd(y, y, 1.0, noise);

  // 1. least squares through LAPACK: gels solves min |X w - y| (y as an n x 1 matrix)
  auto start = std::chrono::steady_clock::now();
  THDoubleTensor *y2 = THDoubleTensor_newWithTensor(y);
  int64_t col[2] = {n, 1};
  THDoubleTensor_resizeNd(y2, 2, col, nullptr);
  THDoubleTensor *sol = THDoubleTensor_new();
  THDoubleTensor *qr = THDoubleTensor_new();
  THDoubleTensor_gels(sol, qr, y2, X);
  THDoubleTensor *wLs = THDoubleTensor_newNarrow(sol, 0, 0, d);
  THDoubleTensor *wLsFlat = THDoubleTensor_newSelect(wLs, 1, 0);
  double lsTime = seconds(start);

  // 2. gradient descent on the mean squared error: w -= lr * 2/n * X^T (X w - y)
  start = std::chrono::steady_clock::now();
  THDoubleTensor *w = THDoubleTensor_newWithSize1d(d);
  THDoubleTensor_zero(w);
  THDoubleTensor *residual = THDoubleTensor_new();
  THDoubleTensor *grad = THDoubleTensor_new();
  THDoubleTensor *Xt = THDoubleTensor_newTranspose(X, 0, 1);  // a view: gemv gets the transpose flag
  const double lr = 0.1;
  double loss = 0;
  for (int it = 0; it < iterations; it++) {
    THDoubleTensor_mv(residual, X, w);
    THDoubleTensor_csub(residual, residual, 1.0, y);
    loss = THDoubleTensor_dot(residual, residual) / (double)n;
    THDoubleTensor_mv(grad, Xt, residual);
    THDoubleTensor_cadd(w, w, -lr * 2.0 / (double)n, grad);
    if (it % (iterations / 5 > 0 ? iterations / 5 : 1) == 0 || it == iterations - 1)
      std::printf("gd iteration %4d  mse %.6f\n", it, loss);
  }
  double gdTime = seconds(start);

  THDoubleTensor *diff = THDoubleTensor_new();
  THDoubleTensor_csub(diff, w, 1.0, wLsFlat);
  double gap = THDoubleTensor_normall(diff, 2);
  THDoubleTensor_csub(diff, wLsFlat, 1.0, trueW);
  double err = THDoubleTensor_normall(diff, 2);

  std::printf("\n%lld samples, %lld features\n", (long long)n, (long long)d);
  const int64_t show = d < 6 ? d : 6;
  printRow("true w", trueW, show);
  printRow("least squares", wLsFlat, show);
  printRow("grad descent", w, show);
  std::printf("|w_ls - w_true| = %.5f   |w_gd - w_ls| = %.2e\n", err, gap);
  std::printf("least squares %.3f s, gradient descent %d iterations %.3f s\n", lsTime, iterations, gdTime);

  // the largest weights, by absolute value, with their indices
  THDoubleTensor *absW = THDoubleTensor_new();
  THDoubleTensor_abs(absW, w);
  THDoubleTensor *top = THDoubleTensor_new();
  THLongTensor *topIdx = THLongTensor_new();
  int64_t k = d < 3 ? d : 3;
  THDoubleTensor_topk(top, topIdx, absW, k, 0, 1, 1);
  std::printf("largest |w|:");
  for (int64_t i = 0; i < k; i++)
    std::printf("  w[%lld] = %.4f", (long long)THLongTensor_get1d(topIdx, i), THDoubleTensor_get1d(top, i));
  std::printf("\n");

  for (THDoubleTensor *t : {X, trueW, noise, y, y2, sol, qr, wLs, wLsFlat, w, residual, grad, Xt, diff, absW, top})
    THDoubleTensor_free(t);
  THLongTensor_free(topIdx);
  THGenerator_free(gen);
  return gap < 1e-3 ? 0 : 1;
}

}  // namespace

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? std::atoll(argv[1]) : 2000;
  int64_t d = argc > 2 ? std::atoll(argv[2]) : 8;
  int iterations = argc > 3 ? std::atoi(argv[3]) : 300;
  if (n < 1 || d < 1 || iterations < 1 || n < d) {
    std::fprintf(stderr, "usage: th_demo [samples >= features] [features >= 1] [iterations >= 1]\n");
    return 2;
  }
  try {
    return run(n, d, iterations);
  } catch (const th::Error &e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
