// THNN benchmark: the kernels that dominate training time, each next to a reference
// measured in the same run (best of N timings after a warm-up call; rounds interleave the
// timed functions, so a change in the load of this shared machine hits all of them alike).
//   SpatialConvolutionMM on the im2col path (THNN_CONV_IM2COL=1), 3x3, 64 -> 64 planes, pad 1,
//     batch 16, 32x32, float: forward and forward + backward (updateGradInput +
//     accGradParameters) time and GFLOP/s, and the share of that time the GEMMs take (the same
//     addmm shapes and layouts timed alone): goal: im2col, col2im and bookkeeping under 25%.
//   SpatialConvolutionMM in float on oneDNN against the im2col path, forward and forward +
//     backward, on bench/conv2d_vs_pytorch.py's shapes with 1 and 2 threads.
//   Linear 1024 -> 1024, batch 256, float, forward + backward, vs the three addmm calls it is made of.
//   Spatial max pooling (2x2 stride 2; 3x3 stride 2 pad 1) forward and backward on
//     64x32x28x28 and 16x64x56x56 floats with 1 and 2 threads, vs average pooling 2x2 and
//     vs a plain copy of the input on the same threads.
// Run: bazel run -c opt //bench:thnn_bench [conv|linear|pooling]
#include <cblas.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "THNN/THNN.h"

namespace {

// Best wall times in seconds of each function over `reps` rounds, after one warm-up call each.
template <typename... F>
std::vector<double> bestOf(int reps, F &&...fs) {
  (fs(), ...);
  std::vector<double> best(sizeof...(F), std::numeric_limits<double>::infinity());
  for (int i = 0; i < reps; i++) {
    size_t k = 0;
    auto time = [&](auto &f) {
      const auto start = std::chrono::steady_clock::now();
      f();
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      best[k] = std::min(best[k], took.count());
      k++;
    };
    (time(fs), ...);
  }
  return best;
}

THFloatTensor *randomTensor(std::vector<int64_t> size, unsigned seed) {
  THFloatTensor *t = THFloatTensor_newWithSize((int)size.size(), size.data(), nullptr);
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  float *p = THFloatTensor_data(t);
  for (ptrdiff_t i = 0; i < THFloatTensor_nElement(t); i++) p[i] = dist(gen);
  return t;
}

// Frees the tensors it was given when it goes out of scope.
struct Pool {
  std::vector<THFloatTensor *> tensors;
  THFloatTensor *operator()(THFloatTensor *t) {
    tensors.push_back(t);
    return t;
  }
  ~Pool() {
    for (THFloatTensor *t : tensors) THFloatTensor_free(t);
  }
};

void benchConvolution(int reps) {
  const int64_t B = 16, C = 64, O = 64, H = 32, W = 32, K = C * 9, P = H * W;
  Pool pool;
  THFloatTensor *input = pool(randomTensor({B, C, H, W}, 1)), *weight = pool(randomTensor({O, C, 3, 3}, 2));
  THFloatTensor *bias = pool(randomTensor({O}, 3)), *gradOutput = pool(randomTensor({B, O, H, W}, 4));
  THFloatTensor *gradWeight = pool(randomTensor({O, C, 3, 3}, 5)), *gradBias = pool(randomTensor({O}, 6));
  THFloatTensor *output = pool(THFloatTensor_new()), *gradInput = pool(THFloatTensor_new());
  THFloatTensor *finput = pool(THFloatTensor_new()), *fgradInput = pool(THFloatTensor_new());
  setenv("THNN_CONV_IM2COL", "1", 1);
  auto forward = [&] {
    THNN_FloatSpatialConvolutionMM_updateOutput(nullptr, input, output, weight, bias, finput, fgradInput, 3, 3, 1, 1, 1,
                                                1);
  };
  auto backward = [&] {
    THNN_FloatSpatialConvolutionMM_updateGradInput(nullptr, input, gradOutput, gradInput, weight, finput, fgradInput, 3,
                                                   3, 1, 1, 1, 1);
    THNN_FloatSpatialConvolutionMM_accGradParameters(nullptr, input, gradOutput, gradWeight, gradBias, finput,
                                                     fgradInput, 3, 3, 1, 1, 1, 1, 1.0);
  };

  // The kernel's GEMMs, one per sample, with the same shapes and operand layouts:
  // output_s = W @ columns_s, gradColumns_s = W^T @ gradOutput_s, gradW += gradOutput_s @ columns_s^T.
  THFloatTensor *w2d = pool(randomTensor({O, K}, 7)), *w2dT = pool(THFloatTensor_newTranspose(w2d, 0, 1));
  THFloatTensor *gw2d = pool(randomTensor({O, K}, 8)), *cols = pool(randomTensor({B, K, P}, 9));
  THFloatTensor *gcols = pool(randomTensor({B, K, P}, 10)), *out = pool(randomTensor({B, O, P}, 11));
  THFloatTensor *gout = pool(randomTensor({B, O, P}, 12));
  std::vector<THFloatTensor *> colS, colST, gcolS, outS, goutS;
  for (int64_t s = 0; s < B; s++) {
    colS.push_back(pool(THFloatTensor_newSelect(cols, 0, s)));
    colST.push_back(pool(THFloatTensor_newTranspose(colS.back(), 0, 1)));
    gcolS.push_back(pool(THFloatTensor_newSelect(gcols, 0, s)));
    outS.push_back(pool(THFloatTensor_newSelect(out, 0, s)));
    goutS.push_back(pool(THFloatTensor_newSelect(gout, 0, s)));
  }
  auto gemmForward = [&] {
    for (int64_t s = 0; s < B; s++) THFloatTensor_addmm(outS[s], 1, outS[s], 1, w2d, colS[s]);
  };
  auto gemmBackward = [&] {
    for (int64_t s = 0; s < B; s++) THFloatTensor_addmm(gcolS[s], 0, gcolS[s], 1, w2dT, goutS[s]);
    for (int64_t s = 0; s < B; s++) THFloatTensor_addmm(gw2d, 1, gw2d, 1, goutS[s], colST[s]);
  };
  auto step = [&] {
    forward();
    backward();
  };
  auto gemmStep = [&] {
    gemmForward();
    gemmBackward();
  };
  const auto t = bestOf(reps, forward, step, gemmForward, gemmStep);
  const double flops = 2.0 * B * O * K * P;  // one pass; updateGradInput and accGradParameters cost the same
  printf("SpatialConvolutionMM 3x3 %lld->%lld, pad 1, batch %lld, %lldx%lld float:\n", (long long)C, (long long)O,
         (long long)B, (long long)H, (long long)W);
  printf(
      "  forward            %7.2f ms  %6.1f GFLOP/s | GEMMs alone %7.2f ms: %4.1f%% of the time, im2col and "
      "bookkeeping %4.1f%%  [goal < 25%%]\n",
      t[0] * 1e3, flops / t[0] * 1e-9, t[2] * 1e3, 100 * t[2] / t[0], 100 * (1 - t[2] / t[0]));
  printf(
      "  forward + backward %7.2f ms  %6.1f GFLOP/s | GEMMs alone %7.2f ms: %4.1f%% of the time, im2col, col2im "
      "and bookkeeping %4.1f%%  [goal < 25%%]\n",
      t[1] * 1e3, 3 * flops / t[1] * 1e-9, t[3] * 1e3, 100 * t[3] / t[1], 100 * (1 - t[3] / t[1]));
  unsetenv("THNN_CONV_IM2COL");
}

// One convolution layer: batch, planes in, height = width, planes out, kernel, stride, padding.
struct ConvShape {
  int64_t B, C, H, O;
  int k, stride, pad;
};

// SpatialConvolutionMM in float on oneDNN and on the im2col path (the environment switch is
// flipped around each call), forward and forward + backward, with `threads` OpenMP threads.
void benchConvolutionPaths(const ConvShape &s, int threads, int reps) {
  THSetNumThreads(threads);
  const int64_t oH = (s.H + 2 * s.pad - s.k) / s.stride + 1;
  Pool pool;
  THFloatTensor *input = pool(randomTensor({s.B, s.C, s.H, s.H}, 1)),
                *weight = pool(randomTensor({s.O, s.C, s.k, s.k}, 2));
  THFloatTensor *bias = pool(randomTensor({s.O}, 3)), *gradOutput = pool(randomTensor({s.B, s.O, oH, oH}, 4));
  THFloatTensor *gradWeight = pool(randomTensor({s.O, s.C, s.k, s.k}, 5)), *gradBias = pool(randomTensor({s.O}, 6));
  THFloatTensor *output = pool(THFloatTensor_new()), *gradInput = pool(THFloatTensor_new());
  // each path keeps its own buffers, as two modules would
  THFloatTensor *finput[2] = {pool(THFloatTensor_new()), pool(THFloatTensor_new())};
  THFloatTensor *fgradInput[2] = {pool(THFloatTensor_new()), pool(THFloatTensor_new())};
  auto forward = [&](int path) {
    if (path) setenv("THNN_CONV_IM2COL", "1", 1);
    THNN_FloatSpatialConvolutionMM_updateOutput(nullptr, input, output, weight, bias, finput[path], fgradInput[path],
                                                s.k, s.k, s.stride, s.stride, s.pad, s.pad);
    unsetenv("THNN_CONV_IM2COL");
  };
  auto step = [&](int path) {
    forward(path);
    if (path) setenv("THNN_CONV_IM2COL", "1", 1);
    THNN_FloatSpatialConvolutionMM_updateGradInput(nullptr, input, gradOutput, gradInput, weight, finput[path],
                                                   fgradInput[path], s.k, s.k, s.stride, s.stride, s.pad, s.pad);
    THNN_FloatSpatialConvolutionMM_accGradParameters(nullptr, input, gradOutput, gradWeight, gradBias, finput[path],
                                                     fgradInput[path], s.k, s.k, s.stride, s.stride, s.pad, s.pad, 1.0);
    unsetenv("THNN_CONV_IM2COL");
  };
  const auto t = bestOf(
      reps, [&] { forward(0); }, [&] { forward(1); }, [&] { step(0); }, [&] { step(1); });
  char name[64];
  snprintf(name, sizeof name, "%lldx%lldx%lldx%lld %lld->%lld %dx%d s%d p%d", (long long)s.B, (long long)s.C,
           (long long)s.H, (long long)s.H, (long long)s.C, (long long)s.O, s.k, s.k, s.stride, s.pad);
  printf("  %-34s %d | %8.2f %8.2f %5.2f | %8.2f %8.2f %5.2f\n", name, threads, t[0] * 1e3, t[1] * 1e3, t[1] / t[0],
         t[2] * 1e3, t[3] * 1e3, t[3] / t[2]);
}

void benchConvolutionPaths(int reps) {
  const ConvShape shapes[] = {{16, 64, 32, 64, 3, 1, 1}, {64, 3, 32, 16, 3, 1, 1},   {1, 64, 56, 64, 3, 1, 1},
                              {64, 16, 28, 32, 3, 1, 1}, {16, 256, 8, 256, 3, 1, 1}, {16, 128, 16, 256, 3, 2, 1},
                              {1, 3, 224, 64, 3, 2, 1},  {16, 64, 32, 128, 1, 1, 0}, {64, 32, 16, 64, 1, 2, 0},
                              {1, 256, 14, 256, 1, 1, 0}};
  printf("SpatialConvolutionMM float, oneDNN against im2col (ms, best of %d; ratio = im2col / oneDNN):\n", reps);
  printf("  %-34s thr | %8s %8s %5s | %8s %8s %5s\n", "shape", "fwd dnnl", "im2col", "ratio", "f+b dnnl", "im2col",
         "ratio");
  const int threads = THGetNumThreads();
  for (int nt : {1, 2})
    for (const ConvShape &s : shapes) benchConvolutionPaths(s, nt, reps);
  THSetNumThreads(threads);
}

void benchLinear(int reps) {
  const int64_t B = 256, In = 1024, Out = 1024;
  Pool pool;
  THFloatTensor *input = pool(randomTensor({B, In}, 1)), *weight = pool(randomTensor({Out, In}, 2));
  THFloatTensor *bias = pool(randomTensor({Out}, 3)), *gradOutput = pool(randomTensor({B, Out}, 4));
  THFloatTensor *gradWeight = pool(randomTensor({Out, In}, 5)), *gradBias = pool(randomTensor({Out}, 6));
  THFloatTensor *output = pool(THFloatTensor_new()), *gradInput = pool(THFloatTensor_new());
  THFloatTensor *addBuffer = pool(THFloatTensor_new());
  auto kernels = [&] {
    THNN_FloatLinear_updateOutput(nullptr, input, output, weight, bias, addBuffer);
    THNN_FloatLinear_updateGradInput(nullptr, input, gradOutput, gradInput, weight);
    THNN_FloatLinear_accGradParameters(nullptr, input, gradOutput, gradInput, weight, bias, gradWeight, gradBias,
                                       addBuffer, 1.0);
  };
  // output = input @ W^T, gradInput = gradOutput @ W, gradW += gradOutput^T @ input
  THFloatTensor *weightT = pool(THFloatTensor_newTranspose(weight, 0, 1));
  THFloatTensor *gradOutputT = pool(THFloatTensor_newTranspose(gradOutput, 0, 1));
  THFloatTensor *out2 = pool(randomTensor({B, Out}, 7)), *gin2 = pool(randomTensor({B, In}, 8));
  THFloatTensor *gw2 = pool(randomTensor({Out, In}, 9));
  auto addmms = [&] {
    THFloatTensor_addmm(out2, 0, out2, 1, input, weightT);
    THFloatTensor_addmm(gin2, 0, gin2, 1, gradOutput, weight);
    THFloatTensor_addmm(gw2, 1, gw2, 1, gradOutputT, input);
  };
  const auto t = bestOf(reps, kernels, addmms);
  const double flops = 3 * 2.0 * B * In * Out;
  printf(
      "Linear %lld->%lld, batch %lld float, forward + backward: THNN Linear %7.2f ms %6.1f GFLOP/s | three "
      "addmm %7.2f ms %6.1f GFLOP/s (ratio %.3f)\n",
      (long long)In, (long long)Out, (long long)B, t[0] * 1e3, flops / t[0] * 1e-9, t[1] * 1e3, flops / t[1] * 1e-9,
      t[1] / t[0]);
}

// Max against average pooling (2x2 stride 2 and 3x3 stride 2 pad 1 for max), forward and
// backward, with `threads` OpenMP threads. The reference memory pass copies the input
// plane by plane on the same threads: a pooling forward must at least read its input.
void benchPooling(int64_t B, int64_t C, int64_t H, int64_t W, int threads, int reps) {
  THSetNumThreads(threads);
  Pool pool;
  THFloatTensor *input = pool(randomTensor({B, C, H, W}, 1)), *output = pool(THFloatTensor_new());
  THFloatTensor *avgOutput = pool(THFloatTensor_new()), *gradInput = pool(THFloatTensor_new());
  THFloatTensor *gradOutput = pool(randomTensor({B, C, H / 2, W / 2}, 2));
  THFloatTensor *output3 = pool(THFloatTensor_new()),
                *gradOutput3 = pool(randomTensor({B, C, (H + 1) / 2, (W + 1) / 2}, 3));
  THLongTensor *indices = THLongTensor_new(), *indices3 = THLongTensor_new();
  const int64_t n = B * C * H * W, planes = B * C, plane = H * W;
  std::vector<float> copy(n);
  const float *src = THFloatTensor_data(input);
  auto maxFwd = [&] {
    THNN_FloatSpatialMaxPooling_updateOutput(nullptr, input, output, indices, 2, 2, 2, 2, 0, 0, false);
  };
  auto maxBwd = [&] {
    THNN_FloatSpatialMaxPooling_updateGradInput(nullptr, input, gradOutput, gradInput, indices, 2, 2, 2, 2, 0, 0,
                                                false);
  };
  auto avgFwd = [&] {
    THNN_FloatSpatialAveragePooling_updateOutput(nullptr, input, avgOutput, 2, 2, 2, 2, 0, 0, false, true);
  };
  auto avgBwd = [&] {
    THNN_FloatSpatialAveragePooling_updateGradInput(nullptr, input, gradOutput, gradInput, 2, 2, 2, 2, 0, 0, false,
                                                    true);
  };
  auto max3Fwd = [&] {
    THNN_FloatSpatialMaxPooling_updateOutput(nullptr, input, output3, indices3, 3, 3, 2, 2, 1, 1, false);
  };
  auto max3Bwd = [&] {
    THNN_FloatSpatialMaxPooling_updateGradInput(nullptr, input, gradOutput3, gradInput, indices3, 3, 3, 2, 2, 1, 1,
                                                false);
  };
  auto memPass = [&] {
#pragma omp parallel for num_threads(threads)
    for (int64_t p = 0; p < planes; p++) memcpy(copy.data() + p * plane, src + p * plane, plane * sizeof(float));
  };
  maxFwd();
  max3Fwd();
  const auto t = bestOf(reps, maxFwd, avgFwd, maxBwd, avgBwd, max3Fwd, max3Bwd, memPass);
  printf("Spatial pooling on %lldx%lldx%lldx%lld float, %d thread%s (memory pass over the input %.3f ms):\n",
         (long long)B, (long long)C, (long long)H, (long long)W, threads, threads > 1 ? "s" : "", t[6] * 1e3);
  auto line = [&](const char *what, double tMax, double tAvg) {
    printf("  %-32s max %7.3f ms | avg 2x2 %7.3f ms | max/avg %5.2f | max/memory pass %5.2f\n", what, tMax * 1e3,
           tAvg * 1e3, tMax / tAvg, tMax / t[6]);
  };
  line("2x2 stride 2 forward", t[0], t[1]);
  line("2x2 stride 2 backward", t[2], t[3]);
  line("3x3 stride 2 pad 1 forward", t[4], t[1]);
  line("3x3 stride 2 pad 1 backward", t[5], t[3]);
  THLongTensor_free(indices);
  THLongTensor_free(indices3);
}

}  // namespace

// An argument (conv, linear, pooling) runs only that benchmark.
int main(int argc, char **argv) {
  auto wanted = [&](const char *name) { return argc < 2 || strcmp(argv[1], name) == 0; };
  printf("THNN benchmark: %d OpenMP threads, %d OpenBLAS threads; best of N runs\n", THGetNumThreads(),
         openblas_get_num_threads());
  if (wanted("conv")) benchConvolution(10);
  if (wanted("conv")) benchConvolutionPaths(5);
  if (wanted("linear")) benchLinear(10);
  const int threads = THGetNumThreads();
  for (int nt : {1, 2}) {
    if (!wanted("pooling")) break;
    benchPooling(64, 32, 28, 28, nt, 20);
    benchPooling(16, 64, 56, 56, nt, 20);
  }
  THSetNumThreads(threads);
  return 0;
}
