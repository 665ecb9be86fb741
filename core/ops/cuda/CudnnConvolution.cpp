// The CUDA column of the core's convolution (nnKernels().dilatedConvolution, THNN's grammar:
// Note [NN kernel grammar] in core/ops/NNKernels.h) through cuDNN, for Float and Double.
//
// Note [cuDNN convolutions]: the core hands one group at a time (runConvolution's loop) as
// batched NCHW or NCDHW tensors, possibly channel slices of larger ones: cuDNN's tensor
// descriptors take the strides as they are, so slices are read and written in place; only
// the filter must be packed, and inputs with a zero stride (an expanded gradient) are made
// contiguous first. The algorithm comes from cuDNN's heuristics (cudnnGet*Algorithm_v7),
// cached per shape; its workspace from THC's caching allocator on the current stream.
// torch.backends.cudnn's switches choose: benchmark (cuDNN's timed search instead of its
// heuristics), deterministic (only deterministic algorithms) and allow_tf32 (Float through
// TF32 tensor cores, PyTorch's default; off, Float stays within float's tolerance of the CPU).
// The accumulation of accGradParameters is cuDNN's beta = 1. This is cuDNN's v7-style API,
// deprecated in cuDNN 9 but present; the graph API can replace it behind the same kernels.
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "autograd/Autograd.h"
#include "core/ops/NNKernels.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"
#include "core/ops/cuda/Cudnn.hpp"

// the v7-style entry points are marked deprecated in cuDNN 9
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

namespace torch::cuda {

namespace {

using namespace cudnn;

struct FilterDesc {
  cudnnFilterDescriptor_t d = nullptr;
  template <typename T>
  explicit FilterDesc(const Tensor &w, T *) {
    check(cudnnCreateFilterDescriptor(&d), "cudnnCreateFilterDescriptor");
    std::vector<int> sizes(w.dim());
    for (int i = 0; i < w.dim(); i++) sizes[i] = static_cast<int>(w.size(i));
    check(cudnnSetFilterNdDescriptor(d, dataType<T>(), CUDNN_TENSOR_NCHW, w.dim(), sizes.data()),
          "cudnnSetFilterNdDescriptor");
  }
  FilterDesc(const FilterDesc &) = delete;
  ~FilterDesc() { cudnnDestroyFilterDescriptor(d); }
};

struct ConvDesc {
  cudnnConvolutionDescriptor_t d = nullptr;
  template <typename T>
  ConvDesc(const IntList &stride, const IntList &padding, const IntList &dilation, T *) {
    check(cudnnCreateConvolutionDescriptor(&d), "cudnnCreateConvolutionDescriptor");
    const int n = static_cast<int>(stride.size());
    std::vector<int> st(stride.begin(), stride.end()), pd(padding.begin(), padding.end()),
        dl(dilation.begin(), dilation.end());
    check(
        cudnnSetConvolutionNdDescriptor(d, n, pd.data(), st.data(), dl.data(), CUDNN_CROSS_CORRELATION, dataType<T>()),
        "cudnnSetConvolutionNdDescriptor");
    const bool fma = std::is_same_v<T, float> && !cudnnFlags().allowTF32;
    check(cudnnSetConvolutionMathType(d, fma ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH), "cudnnSetConvolutionMathType");
  }
  ConvDesc(const ConvDesc &) = delete;
  ~ConvDesc() { cudnnDestroyConvolutionDescriptor(d); }
};

// The cache of chosen algorithms: (pass, dtype, sizes and strides of every operand, geometry).
std::string key(const char *pass, ScalarType dtype, std::initializer_list<const Tensor *> ts, const IntList &st,
                const IntList &pd, const IntList &dl) {
  std::string k = std::string(pass) + "/" + scalarTypeName(dtype);
  for (const Tensor *t : ts) {
    k += "|";
    for (int i = 0; i < t->dim(); i++) k += std::to_string(t->size(i)) + ":" + std::to_string(t->stride(i)) + ",";
  }
  for (const IntList *l : {&st, &pd, &dl}) {
    k += "|";
    for (int64_t v : *l) k += std::to_string(v) + ",";
  }
  return k;
}

// An algorithm and the math it runs with.
struct Choice {
  int algo;
  cudnnMathType_t math;
};
std::mutex gAlgosMutex;
std::map<std::string, Choice> gAlgos;

// The first algorithm that works within the switches (torch.backends.cudnn): cuDNN's
// heuristics, or its timed search in benchmark mode; only deterministic ones when asked;
// for Float no tensor-op math (TF32) unless allowed. Cached under k and the switches.
template <typename Perf, typename Heuristic, typename Search>
Choice chooseAlgorithm(std::string k, bool isFloat, Heuristic heuristic, Search search, const char *what) {
  const CudnnFlags &f = cudnnFlags();
  const bool benchmark = f.benchmark, deterministic = f.deterministic, tf32 = f.allowTF32;
  k += deterministic ? "|det" : "";
  k += benchmark ? "|find" : "";
  k += tf32 ? "|tf32" : "";
  {
    std::lock_guard<std::mutex> hold(gAlgosMutex);
    auto it = gAlgos.find(k);
    if (it != gAlgos.end()) return it->second;
  }
  Perf perf[16];
  int count = 0;
  check(benchmark ? search(16, &count, perf) : heuristic(16, &count, perf), what);
  for (int i = 0; i < count; i++) {
    if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
    if (deterministic && perf[i].determinism != CUDNN_DETERMINISTIC) continue;
    const bool tensorOps = perf[i].mathType != CUDNN_FMA_MATH && perf[i].mathType != CUDNN_DEFAULT_MATH;
    if (isFloat && tensorOps && !tf32) continue;
    const Choice c{static_cast<int>(perf[i].algo), isFloat && !tf32 ? CUDNN_FMA_MATH : perf[i].mathType};
    std::lock_guard<std::mutex> hold(gAlgosMutex);
    gAlgos[k] = c;
    return c;
  }
  TORCH_CHECK(false, Runtime, "cuDNN has no %salgorithm for this convolution (%s)",
              deterministic ? "deterministic " : "", what);
}

// A packed filter: w itself when contiguous.
Tensor packed(const Tensor &w) { return w.isContiguous() ? w : contiguous(w); }

template <typename T>
void convOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias, const Tensor &,
                const IntList &k, const IntList &st, const IntList &pd, const IntList &dl) {
  Tensor x = readable(input), w = packed(weight);
  const int s = static_cast<int>(k.size());
  IntList outSizes = {x.size(0), w.size(0)};
  for (int a = 0; a < s; a++) outSizes.push_back((x.size(2 + a) + 2 * pd[a] - dl[a] * (k[a] - 1) - 1) / st[a] + 1);
  if (output.sizes() != outSizes) resize_(output, outSizes);
  if (output.numel() == 0) return;
  TensorDesc xd = TensorDesc::of<T>(x), yd = TensorDesc::of<T>(output);
  FilterDesc wd(w, static_cast<T *>(nullptr));
  ConvDesc cd(st, pd, dl, static_cast<T *>(nullptr));
  cudnnHandle_t h = handle();
  const Choice c = chooseAlgorithm<cudnnConvolutionFwdAlgoPerf_t>(
      key("fwd", input.dtype(), {&x, &w, &output}, st, pd, dl), std::is_same_v<T, float>,
      [&](int n, int *count, cudnnConvolutionFwdAlgoPerf_t *perf) {
        return cudnnGetConvolutionForwardAlgorithm_v7(h, xd.d, wd.d, cd.d, yd.d, n, count, perf);
      },
      [&](int n, int *count, cudnnConvolutionFwdAlgoPerf_t *perf) {
        return cudnnFindConvolutionForwardAlgorithm(h, xd.d, wd.d, cd.d, yd.d, n, count, perf);
      },
      "the forward convolution");
  auto algo = static_cast<cudnnConvolutionFwdAlgo_t>(c.algo);
  check(cudnnSetConvolutionMathType(cd.d, c.math), "cudnnSetConvolutionMathType");
  size_t bytes = 0;
  check(cudnnGetConvolutionForwardWorkspaceSize(h, xd.d, wd.d, cd.d, yd.d, algo, &bytes),
        "cudnnGetConvolutionForwardWorkspaceSize");
  Workspace ws(bytes);
  const T one = 1, zero = 0;
  check(cudnnConvolutionForward(h, &one, xd.d, x.dataPtr(), wd.d, w.dataPtr(), cd.d, algo, ws.p, bytes, &zero, yd.d,
                                output.dataPtr()),
        "cudnnConvolutionForward");
  if (bias.defined()) {
    Tensor b = packed(bias);
    TensorDesc bd = TensorDesc::bias<T>(b.numel(), output.dim());
    check(cudnnAddTensor(h, &one, bd.d, b.dataPtr(), &one, yd.d, output.dataPtr()), "cudnnAddTensor");
  }
}

template <typename T>
void convGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight,
                   const Tensor &, const IntList &, const IntList &st, const IntList &pd, const IntList &dl) {
  if (gradInput.sizes() != input.sizes()) resize_(gradInput, input.sizes());  // input: its shape only
  if (gradInput.numel() == 0) return;
  Tensor dy = readable(gradOutput), w = packed(weight);
  TensorDesc dyd = TensorDesc::of<T>(dy), dxd = TensorDesc::of<T>(gradInput);
  FilterDesc wd(w, static_cast<T *>(nullptr));
  ConvDesc cd(st, pd, dl, static_cast<T *>(nullptr));
  cudnnHandle_t h = handle();
  const Choice c = chooseAlgorithm<cudnnConvolutionBwdDataAlgoPerf_t>(
      key("bwd_data", dy.dtype(), {&w, &dy, &gradInput}, st, pd, dl), std::is_same_v<T, float>,
      [&](int n, int *count, cudnnConvolutionBwdDataAlgoPerf_t *perf) {
        return cudnnGetConvolutionBackwardDataAlgorithm_v7(h, wd.d, dyd.d, cd.d, dxd.d, n, count, perf);
      },
      [&](int n, int *count, cudnnConvolutionBwdDataAlgoPerf_t *perf) {
        return cudnnFindConvolutionBackwardDataAlgorithm(h, wd.d, dyd.d, cd.d, dxd.d, n, count, perf);
      },
      "the input gradient of a convolution");
  auto algo = static_cast<cudnnConvolutionBwdDataAlgo_t>(c.algo);
  check(cudnnSetConvolutionMathType(cd.d, c.math), "cudnnSetConvolutionMathType");
  size_t bytes = 0;
  check(cudnnGetConvolutionBackwardDataWorkspaceSize(h, wd.d, dyd.d, cd.d, dxd.d, algo, &bytes),
        "cudnnGetConvolutionBackwardDataWorkspaceSize");
  Workspace ws(bytes);
  const T one = 1, zero = 0;
  check(cudnnConvolutionBackwardData(h, &one, wd.d, w.dataPtr(), dyd.d, dy.dataPtr(), cd.d, algo, ws.p, bytes, &zero,
                                     dxd.d, gradInput.dataPtr()),
        "cudnnConvolutionBackwardData");
}

template <typename T>
void convAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &gradBias,
                 const Tensor &, const IntList &, const IntList &st, const IntList &pd, const IntList &dl,
                 double scale) {
  Tensor x = readable(input), dy = readable(gradOutput);
  const T alpha = static_cast<T>(scale), one = 1;
  cudnnHandle_t h = handle();
  TensorDesc dyd = TensorDesc::of<T>(dy);
  if (gradWeight.numel() > 0 && dy.numel() > 0) {
    // cuDNN accumulates into a packed filter; a strided gradWeight gets the sum through one
    Tensor dw = packed(gradWeight);
    TensorDesc xd = TensorDesc::of<T>(x);
    FilterDesc dwd(dw, static_cast<T *>(nullptr));
    ConvDesc cd(st, pd, dl, static_cast<T *>(nullptr));
    const Choice c = chooseAlgorithm<cudnnConvolutionBwdFilterAlgoPerf_t>(
        key("bwd_filter", x.dtype(), {&x, &dy, &dw}, st, pd, dl), std::is_same_v<T, float>,
        [&](int n, int *count, cudnnConvolutionBwdFilterAlgoPerf_t *perf) {
          return cudnnGetConvolutionBackwardFilterAlgorithm_v7(h, xd.d, dyd.d, cd.d, dwd.d, n, count, perf);
        },
        [&](int n, int *count, cudnnConvolutionBwdFilterAlgoPerf_t *perf) {
          return cudnnFindConvolutionBackwardFilterAlgorithm(h, xd.d, dyd.d, cd.d, dwd.d, n, count, perf);
        },
        "the weight gradient of a convolution");
    auto algo = static_cast<cudnnConvolutionBwdFilterAlgo_t>(c.algo);
    check(cudnnSetConvolutionMathType(cd.d, c.math), "cudnnSetConvolutionMathType");
    size_t bytes = 0;
    check(cudnnGetConvolutionBackwardFilterWorkspaceSize(h, xd.d, dyd.d, cd.d, dwd.d, algo, &bytes),
          "cudnnGetConvolutionBackwardFilterWorkspaceSize");
    Workspace ws(bytes);
    check(cudnnConvolutionBackwardFilter(h, &alpha, xd.d, x.dataPtr(), dyd.d, dy.dataPtr(), cd.d, algo, ws.p, bytes,
                                         &one, dwd.d, dw.dataPtr()),
          "cudnnConvolutionBackwardFilter");
    if (!dw.isSameAs(gradWeight)) copy_(gradWeight, dw);
  }
  if (gradBias.defined() && gradBias.numel() > 0 && dy.numel() > 0) {
    Tensor db = packed(gradBias);
    TensorDesc dbd = TensorDesc::bias<T>(db.numel(), dy.dim());
    check(cudnnConvolutionBackwardBias(h, &alpha, dyd.d, dy.dataPtr(), &one, dbd.d, db.dataPtr()),
          "cudnnConvolutionBackwardBias");
    if (!db.isSameAs(gradBias)) copy_(gradBias, db);
  }
}

// ---- the transposed convolution (nnKernels().fullConvolution): the adjoint of the one above,
// so its forward is cuDNN's backward-data, its input gradient cuDNN's forward and its weight
// gradient cuDNN's backward-filter with the two activations' roles exchanged. The weight
// [in, out, k...] is already the filter of the convolution it transposes. ----

template <typename T>
void fullOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                const Tensor &columns, const Tensor &, const IntList &k, const IntList &st, const IntList &pd,
                const IntList &dl, const IntList &adj) {
  const int s = static_cast<int>(k.size());
  IntList sizes = {input.size(0), weight.size(1)};
  for (int a = 0; a < s; a++)
    sizes.push_back((input.size(2 + a) - 1) * st[a] - 2 * pd[a] + dl[a] * (k[a] - 1) + adj[a] + 1);
  if (output.sizes() != sizes) resize_(output, sizes);
  if (output.numel() == 0) return;
  convGradInput<T>(output, input, output, weight, columns, k, st, pd, dl);  // output's sizes; input as dy
  if (bias.defined()) {
    NoGradGuard plain;
    binary_(BinaryOp::Add, output, perChannel(bias, output.dim()));
  }
}

template <typename T>
void fullGradInput(const Tensor &, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight,
                   const Tensor &columns, const Tensor &, const IntList &k, const IntList &st, const IntList &pd,
                   const IntList &dl, const IntList &) {
  convOutput<T>(gradOutput, gradInput, weight, Tensor(), columns, k, st, pd, dl);
}

template <typename T>
void fullAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &gradBias,
                 const Tensor &columns, const Tensor &, const IntList &k, const IntList &st, const IntList &pd,
                 const IntList &dl, const IntList &, double scale) {
  convAccGrad<T>(gradOutput, input, gradWeight, Tensor(), columns, k, st, pd, dl, scale);
  if (gradBias.defined() && gradBias.numel() > 0) {
    NoGradGuard plain;
    IntList dims = {0};
    for (int d = 2; d < gradOutput.dim(); d++) dims.push_back(d);
    binary_(BinaryOp::Add, gradBias, view(sum(gradOutput, dims, false), gradBias.sizes()), Scalar(scale));
  }
}

template <typename T>
void registerFor(ScalarType dtype) {
  auto &conv = nnKernels().dilatedConvolution;
  conv.updateOutput.add(Device::CUDA, dtype, &convOutput<T>);
  conv.updateGradInput.add(Device::CUDA, dtype, &convGradInput<T>);
  conv.accGradParameters.add(Device::CUDA, dtype, &convAccGrad<T>);
  auto &full = nnKernels().fullConvolution;
  full.updateOutput.add(Device::CUDA, dtype, &fullOutput<T>);
  full.updateGradInput.add(Device::CUDA, dtype, &fullGradInput<T>);
  full.accGradParameters.add(Device::CUDA, dtype, &fullAccGrad<T>);
}

}  // namespace

CudnnFlags &cudnnFlags() {
  static CudnnFlags flags;
  return flags;
}

int cudnnVersion() { return static_cast<int>(cudnnGetVersion()); }

void registerCudnnKernels() {
  registerFor<float>(ScalarType::Float);
  registerFor<double>(ScalarType::Double);
}

}  // namespace torch::cuda
