// THNN's drivers of Note [Element-wise kernels once] on the CPU: each walks the tensors with
// th::apply and calls a functor of THNN/ElementWiseFunctions.hpp per element. THCUNN has the
// same drivers over THC (THCUNN/ElementWise.cu).
#ifndef THNN_ELEMENT_WISE_HPP
#define THNN_ELEMENT_WISE_HPP

#include <algorithm>
#include <cmath>
#include <tuple>
#include <type_traits>

#include "TH/THTensor.hpp"
#include "TH/THTensorMath.hpp"
#include "TH/THVector.h"
#include "THNN/ElementWiseFunctions.hpp"
#include "THNN/THNNGeneral.h"

namespace thnn::cpu {

// TH's kernel of Note [Vector kernels] for F's forward, or null: nn.Tanh and torch.tanh
// give the same values.
template <typename S, typename F>
th::vec::UnaryKernel<S> vectorForward() {
  if constexpr (std::is_same_v<F, thnn::Tanh<S>>)
    return th::vec::unary<S>(th::vec::Unary::Tanh);
  else if constexpr (std::is_same_v<F, thnn::Sigmoid<S>>)
    return th::vec::unary<S>(th::vec::Unary::Sigmoid);
  else
    return nullptr;
}

// Note [Activations in vector blocks] (core/ops/cpu/NNKernels.cpp) for the functors whose time
// is in exp and log1p: BlockForward<F>::forward(f, x, y, n, t) writes f's output over n <=
// kBlock elements as passes of TH's vector kernels and short loops, t scratch of kBlock
// (LogSigmoid's also writes the buffer); BlockBackward<F>::backward(f, g, gi, n, t, a...) the
// gradient from the elements a... its backward reads. The same formulas as the functors'.
template <typename F>
struct BlockForward : std::false_type {};
template <typename F>
struct BlockBackward : std::false_type {};

template <typename T>
struct BlockForward<SoftPlus<T>> : std::true_type {
  static void forward(const SoftPlus<T> &f, const T *x, T *y, int64_t n, T *t) {
#pragma omp simd
    for (int64_t i = 0; i < n; i++) t[i] = x[i] * f.beta;
    th::vec::unary<T>(th::vec::Unary::Exp)(t, t, n);
    th::vec::unary<T>(th::vec::Unary::Log1p)(t, t, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = pick(x[i] * f.beta > f.threshold, x[i], t[i] / f.beta);
  }
};
template <typename T>
struct BlockBackward<SoftPlus<T>> : std::true_type {
  static void backward(const SoftPlus<T> &f, const T *g, T *gi, int64_t n, T *t, const T *x, const T *y) {
#pragma omp simd
    for (int64_t i = 0; i < n; i++) t[i] = x[i] * f.beta;
    th::vec::unary<T>(th::vec::Unary::Sigmoid)(t, t, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) gi[i] = pick(y[i] * f.beta > f.threshold, g[i], g[i] * t[i]);
  }
};

template <typename T>
struct BlockForward<LogSigmoid<T>> : std::true_type {
  static void forward(const LogSigmoid<T> &, const T *x, T *y, T *e, int64_t n, T *t) {
#pragma omp simd
    for (int64_t i = 0; i < n; i++) e[i] = -std::abs(x[i]);
    th::vec::unary<T>(th::vec::Unary::Exp)(e, e, n);
    th::vec::unary<T>(th::vec::Unary::Log1p)(t, e, n);
#pragma omp simd
    for (int64_t i = 0; i < n; i++) y[i] = pick(T(0) < x[i], T(0), x[i]) - t[i];
  }
};

// step(at, count, t) over [begin, end) in blocks of at most kBlock elements, t the scratch.
template <typename S, typename Step>
void inBlocksOf(int64_t begin, int64_t end, Step step) {
  alignas(64) S t[th::vec::kBlock];
  for (int64_t at = begin; at < end; at += th::vec::kBlock) step(at, std::min(th::vec::kBlock, end - at), t);
}

// Whether blocks of B run for element type S here: F computes in S, and the processor has
// vector kernels (the sets have every kernel or none).
template <typename B, typename S>
bool inBlocks() {
  if constexpr (B::value && std::is_floating_point_v<S>)
    return th::vec::unary<S>(th::vec::Unary::Exp) != nullptr;
  else
    return false;
}

// Note [Flat loops for the functors]: float and double tensors that are all contiguous run
// one flat loop per thread's range, marked simd, so that the functors' piecewise formulas
// (Note [Selects without branches] in TH/THScalarMath.hpp) become vector blends; th::apply's
// general walk stays for the other layouts and Half. Returns false when it does not apply.
template <typename S, typename Body, typename... TensorT>
bool flatLoop(Body body, TensorT *...t) {
  if constexpr (!std::is_floating_point_v<S>) {
    return false;
  } else {
    if (!(th::isContiguous(th::ref(t)) && ...)) return false;
    th::detail::parallelFor(th::TH<S>::nElement(std::get<0>(std::make_tuple(t...))), TH_OMP_THRESHOLD,
                            [&](int64_t begin, int64_t end) { body(begin, end, th::TH<S>::data(t)...); });
    return true;
  }
}

// output = f.forward(x) for every x of input; in place (Note [In-place activations]) input
// is rewritten and output becomes a view of it. Contiguous tensors take TH's vector kernel
// where F has one.
template <typename S, typename TensorT, typename F>
void mapForward(THNNState *, TensorT *input, TensorT *output, bool inplace, F f) {
  if (inplace) {
    if (!th::math::mapVector(vectorForward<S, F>(), input, input))
      th::apply([&f](S &x) { x = f.forward(x); }, th::ref(input));
    th::TH<S>::set(output, input);
  } else if (!th::math::mapVector(vectorForward<S, F>(), output, input)) {
    th::TH<S>::resizeAs(output, input);
    auto flat = [&f](int64_t begin, int64_t end, S *y, S *x) {
      if constexpr (BlockForward<F>::value && std::is_floating_point_v<S>) {
        if (inBlocks<BlockForward<F>, S>())
          return inBlocksOf<S>(begin, end,
                               [&](int64_t at, int64_t n, S *t) { BlockForward<F>::forward(f, x + at, y + at, n, t); });
      }
#pragma omp simd
      for (int64_t i = begin; i < end; i++) y[i] = f.forward(x[i]);
    };
    if (!flatLoop<S>(flat, output, input))
      th::apply([&f](S &y, S &x) { y = f.forward(x); }, th::ref(output), th::ref(input));
  }
}

// buffer = f.buffer(x), output = f.forward(x, buffer) for every x of input.
template <typename S, typename TensorT, typename F>
void mapForwardBuffered(THNNState *, TensorT *input, TensorT *output, TensorT *buffer, F f) {
  th::TH<S>::resizeAs(output, input);
  th::TH<S>::resizeAs(buffer, input);
  auto flat = [&f](int64_t begin, int64_t end, S *y, S *x, S *e) {
    if constexpr (BlockForward<F>::value && std::is_floating_point_v<S>) {
      if (inBlocks<BlockForward<F>, S>())
        return inBlocksOf<S>(begin, end, [&](int64_t at, int64_t n, S *t) {
          BlockForward<F>::forward(f, x + at, y + at, e + at, n, t);
        });
    }
    for (int64_t i = begin; i < end; i++) {
      e[i] = f.buffer(x[i]);
      y[i] = f.forward(x[i], e[i]);
    }
  };
  if (flatLoop<S>(flat, output, input, buffer)) return;
  th::apply(
      [&f](S &y, S &x, S &e) {
        e = f.buffer(x);
        y = f.forward(x, e);
      },
      th::ref(output), th::ref(input), th::ref(buffer));
}

// gradInput = f.backward(g, a...) for every element g of gradOutput and the matching elements
// a of the tensors `with` (input, output, a buffer); gradInput takes like's sizes. In place,
// gradOutput is rewritten and gradInput becomes a view of it. The caller has checked the
// element counts.
template <typename S, typename TensorT, typename F, typename... With>
void mapBackward(THNNState *, TensorT *like, TensorT *gradOutput, TensorT *gradInput, bool inplace, F f,
                 With *...with) {
  if (inplace) {
    th::apply([&f](S &g, auto &...a) { g = f.backward(g, a...); }, th::ref(gradOutput), th::ref(with)...);
    th::TH<S>::set(gradInput, gradOutput);
  } else {
    th::TH<S>::resizeAs(gradInput, like);
    auto flat = [&f](int64_t begin, int64_t end, S *gi, S *g, auto *...a) {
      if constexpr (BlockBackward<F>::value && std::is_floating_point_v<S>) {
        if (inBlocks<BlockBackward<F>, S>())
          return inBlocksOf<S>(begin, end, [&](int64_t at, int64_t n, S *t) {
            BlockBackward<F>::backward(f, g + at, gi + at, n, t, a + at...);
          });
      }
#pragma omp simd
      for (int64_t i = begin; i < end; i++) gi[i] = f.backward(g[i], a[i]...);
    };
    if (!flatLoop<S>(flat, gradInput, gradOutput, with...))
      th::apply([&f](S &gi, S &g, auto &...a) { gi = f.backward(g, a...); }, th::ref(gradInput), th::ref(gradOutput),
                th::ref(with)...);
  }
}

}  // namespace thnn::cpu

#endif
