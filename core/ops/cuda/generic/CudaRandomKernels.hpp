#ifndef THC_GENERIC_FILE
#error "included by core/ops/cuda/CudaKernels.cpp through THCGenerateAllTypes.h"
#endif

// THC's random fills of element type scalar_t (THCTensorRandom.h) for core/ops/
// RandomKernels.h: the same distributions as the CPU's, drawn from the GPU's own generator
// (THC's Philox state, THCRandom_*), so gen, a CPU generator, is not read. randperm and
// multinomial come from the base-0 build. Not here: poisson (THC has none).
template <>
struct CudaRandomKernels<scalar_t> {
#if !defined(TH_REAL_IS_HALF)
  static THCTensor *dev(const Tensor &t) { return CudaKernels<scalar_t>::dev(t); }

  // PyTorch's geometric counts trials until the first success of probability p; THC's is
  // torch7's, whose parameter is the probability of failure.
  static void geometric(const Tensor &t, Generator &, double p) { THCTensor_(geometric)(state(), dev(t), 1 - p); }
  static void bernoulli(const Tensor &t, Generator &, double p) { THCTensor_(bernoulli)(state(), dev(t), p); }
  static void bernoulliTensor(const Tensor &t, Generator &, const Tensor &probs) {
    if (probs.dtype() == ScalarType::Double) {
      THCTensor_(bernoulli_DoubleTensor)(state(), dev(t), reinterpret_cast<THCudaDoubleTensor *>(probs.raw()));
    } else {
      THCTensor_(bernoulli_FloatTensor)(state(), dev(t), reinterpret_cast<THCudaTensor *>(probs.raw()));
    }
  }
  // [from, last]: THC's [min, max) with max = last + 1, or for a last of int64's largest
  // value (Long's whole upper range) [from - 1, last) shifted up by one.
  static void random(const Tensor &t, Generator &, int64_t from, int64_t last) {
    if (last < std::numeric_limits<int64_t>::max()) {
      THCTensor_(clampedRandom)(state(), dev(t), from, last + 1);
      return;
    }
    TORCH_CHECK(from > std::numeric_limits<int64_t>::min(), Runtime,
                "random_ over the whole range of int64 is not implemented on cuda");
    THCTensor_(clampedRandom)(state(), dev(t), from - 1, last);
    THCTensor_(add)(state(), dev(t), dev(t), scalar_t(1));
  }
  static void randperm(const Tensor &t, Generator &, int64_t n) { THCTensor_(randperm)(state(), dev(t), n); }

#if TH_REAL_IS_FLOATING
  static void uniform(const Tensor &t, Generator &, double a, double b) { THCTensor_(uniform)(state(), dev(t), a, b); }
  // std > 0 (the op fills std == 0 itself)
  static void normal(const Tensor &t, Generator &, double mean, double std) {
    THCTensor_(normal)(state(), dev(t), mean, std);
  }
  static void exponential(const Tensor &t, Generator &, double lambda, double) {
    THCTensor_(exponential)(state(), dev(t), lambda);
  }
  static void cauchy(const Tensor &t, Generator &, double median, double sigma) {
    THCTensor_(cauchy)(state(), dev(t), median, sigma);
  }
  static void logNormal(const Tensor &t, Generator &, double mean, double std) {
    THCTensor_(logNormal)(state(), dev(t), mean, std);
  }
  // As the CPU's: N(0, 1), then times std, then plus mean, each rounded (THC's
  // normal_means_stddevs refuses a standard deviation of 0, which PyTorch allows).
  static void normalTensors(const Tensor &t, Generator &, const Tensor &means, const Tensor &stds) {
    THCTensor_(normal)(state(), dev(t), 0, 1);
    THCTensor_(cmul)(state(), dev(t), dev(t), dev(stds));
    THCTensor_(cadd)(state(), dev(t), dev(t), scalar_t(1), dev(means));
  }
  // With replacement only (the op draws without replacement itself).
  static void multinomial(const Tensor &r, Generator &, const Tensor &weights, int64_t samples, bool replacement) {
    THCTensor_(multinomial)(state(), devLong(r), dev(weights), static_cast<int>(samples), replacement);
  }
#endif
#endif

  // Registers this type's kernels for dtype (Bool on the Byte kernels).
  static void add([[maybe_unused]] ScalarType dtype) {
#if !defined(TH_REAL_IS_HALF)
    RandomKernels &k = randomKernels();
#define CORE_CUDA_ADD(name) k.name.add(Device::CUDA, dtype, &name);
    CORE_CUDA_ADD(geometric)
    CORE_CUDA_ADD(bernoulli)
    CORE_CUDA_ADD(bernoulliTensor)
    CORE_CUDA_ADD(random)
    CORE_CUDA_ADD(randperm)
#if TH_REAL_IS_FLOATING
    CORE_CUDA_ADD(uniform)
    CORE_CUDA_ADD(normal)
    CORE_CUDA_ADD(exponential)
    CORE_CUDA_ADD(cauchy)
    CORE_CUDA_ADD(logNormal)
    CORE_CUDA_ADD(normalTensors)
    CORE_CUDA_ADD(multinomial)
#endif
#undef CORE_CUDA_ADD
#endif
  }
};
