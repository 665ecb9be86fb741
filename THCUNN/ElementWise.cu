// The element-wise activations on the GPU: the entry points of THNN/generic/ElementWise.cpp
// (Note [Element-wise kernels once]) over drivers that run one THC pointwise kernel per pass.
#include "THC/THCTensorMath.cuh"
#include "THCUNN/THCUNN.h"
#include "THNN/ElementWiseFunctions.hpp"

namespace thnn::cuda {

// The element functions: S is the element type, computed in Compute<S> (float for Half).
template <typename S, typename C = Compute<S>>
__device__ __forceinline__ C load(const S &x) {
  return thc::convert<C>(x);
}

template <typename F>
struct Forward {
  F f;
  template <typename S>
  __device__ void operator()(S &y, const S &x) const {
    y = thc::convert<S>(f.forward(load(x)));
  }
};

template <typename F>
struct Buffer {
  F f;
  template <typename S>
  __device__ void operator()(S &e, const S &x) const {
    e = thc::convert<S>(f.buffer(load(x)));
  }
};

template <typename F>
struct ForwardFromBuffer {
  F f;
  template <typename S>
  __device__ void operator()(S &y, const S &x, const S &e) const {
    y = thc::convert<S>(f.forward(load(x), load(e)));
  }
};

template <typename F>
struct Backward {
  F f;
  template <typename S, typename... A>
  __device__ void operator()(S &gradInput, const S &g, const A &...a) const {
    gradInput = thc::convert<S>(f.backward(load(g), load(a)...));
  }
};

// The drivers of THNN/ElementWise.hpp on the GPU, with the same meaning. Each pass is one
// pointwise kernel whose only written tensor is its first (Note [Tiled pointwise]), so
// LogSigmoid's forward takes two: the buffer, then the output. In place, the tensor written
// is also handed as the first input: each element is read and written by the same thread.
template <typename S, typename TensorT, typename F>
void mapForward(THCState *state, TensorT *input, TensorT *output, bool inplace, F f) {
  thc::DeviceGuard guard(thc::commonDevice("THCUNN", input, output));
  if (inplace) {
    thc::pointwise(state, Forward<F>{f}, input, input);
    thc::THC<S>::set(state, output, input);
  } else {
    thc::THC<S>::resizeAs(state, output, input);
    thc::pointwise(state, Forward<F>{f}, output, input);
  }
}

template <typename S, typename TensorT, typename F>
void mapForwardBuffered(THCState *state, TensorT *input, TensorT *output, TensorT *buffer, F f) {
  thc::DeviceGuard guard(thc::commonDevice("THCUNN", input, output, buffer));
  thc::THC<S>::resizeAs(state, output, input);
  thc::THC<S>::resizeAs(state, buffer, input);
  thc::pointwise(state, Buffer<F>{f}, buffer, input);
  thc::pointwise(state, ForwardFromBuffer<F>{f}, output, input, buffer);
}

template <typename S, typename TensorT, typename F, typename... With>
void mapBackward(THCState *state, TensorT *like, TensorT *gradOutput, TensorT *gradInput, bool inplace, F f,
                 With *...with) {
  thc::DeviceGuard guard(thc::commonDevice("THCUNN", like, gradOutput, gradInput, with...));
  if (inplace) {
    thc::pointwise(state, Backward<F>{f}, gradOutput, gradOutput, with...);
    thc::THC<S>::set(state, gradInput, gradOutput);
  } else {
    thc::THC<S>::resizeAs(state, gradInput, like);
    thc::pointwise(state, Backward<F>{f}, gradInput, gradOutput, with...);
  }
}

}  // namespace thnn::cuda

using thc::checkSameCount;
using thnn::cuda::mapBackward;
using thnn::cuda::mapForward;
using thnn::cuda::mapForwardBuffered;

#undef THNN_
#define THNN_(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)
#define THNN_STATE THCState
#define THNN_TENSOR THCTensor
#define THC_GENERIC_FILE "THNN/generic/ElementWise.cpp"
#include "THC/THCGenerateFloatTypes.h"
