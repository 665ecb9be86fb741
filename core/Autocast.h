// Note [Autocast]: automatic mixed precision (torch.autocast) as PyTorch 1.13 has it. While a
// device's autocast is on (a per-thread switch, set by the bindings' context managers), some
// ops cast their floating inputs of that device before they run:
//  - lower precision (Policy::Lower): the products (mm, bmm, matmul, addmm, baddbmm, addbmm,
//    linear) and the convolutions (not the transposed ones on the CPU), to the autocast
//    dtype (bfloat16 on the CPU by default); Double inputs are left as they are;
//  - float32 (Policy::Float32): the ops whose precision matters (losses, the transposed
//    convolutions on the CPU, 3-d pooling, reflection and replication padding, ...);
//  - the widest type (Policy::Promote): cat and stack, whose inputs must agree.
// Every other op runs in its inputs' types, so an op after a product computes in bfloat16.
// The casts are recorded by autograd, so gradients flow back in the parameters' own types.
// Inside an autocast op autocast is off, as in PyTorch, where the op's own calls do not
// cast again.
//
//   Tensor mm(const Tensor &a, const Tensor &b) {
//     if (autocast::on(a)) return autocast::run(autocast::Policy::Lower, mm, a, b);
//     ...
#ifndef TORCH_AUTOCAST_H
#define TORCH_AUTOCAST_H

#include <vector>

#include "core/Tensor.h"

namespace torch::autocast {

enum class Policy { Lower, Float32, Promote };

namespace detail {
extern thread_local bool anyOn;  // any device's autocast is on in this thread
}

bool enabled(Device device);
// Whether autocast is on for t's device (cheap when it is off everywhere).
inline bool on(const Tensor &t) { return detail::anyOn && t.defined() && enabled(t.device()); }
inline bool on(const std::vector<Tensor> &ts) { return detail::anyOn && !ts.empty() && on(ts[0]); }

void setEnabled(Device device, bool enabled);
ScalarType dtype(Device device);
void setDtype(Device device, ScalarType dtype);
bool cacheEnabled();
void setCacheEnabled(bool enabled);
int incrementNesting();
int decrementNesting();

// Autocast off for this thread until the scope ends (inside an autocast op).
class Off {
 public:
  Off();
  ~Off();
  Off(const Off &) = delete;
  Off &operator=(const Off &) = delete;

 private:
  bool was_;
};

// The type a floating input of device goes to under policy (widest: the promoted type of the
// op's floating inputs, for Promote).
Tensor cast(const Tensor &t, Policy policy, ScalarType widest);
ScalarType widestFloating(const std::vector<Tensor> &ts);

// op(casted args...) with autocast off; tensors and tensor lists are cast, the rest passed on.
template <typename Op, typename... Args>
auto run(Policy policy, Op &&op, const Args &...args) {
  ScalarType widest = ScalarType::Float;
  if (policy == Policy::Promote) {
    std::vector<Tensor> all;
    auto gather = [&](const auto &a) {
      using A = std::decay_t<decltype(a)>;
      if constexpr (std::is_same_v<A, Tensor>) all.push_back(a);
      if constexpr (std::is_same_v<A, std::vector<Tensor>>) all.insert(all.end(), a.begin(), a.end());
    };
    (gather(args), ...);
    widest = widestFloating(all);
  }
  auto convert = [&](const auto &a) {
    using A = std::decay_t<decltype(a)>;
    if constexpr (std::is_same_v<A, Tensor>) {
      return cast(a, policy, widest);
    } else if constexpr (std::is_same_v<A, std::vector<Tensor>>) {
      std::vector<Tensor> r;
      for (const Tensor &t : a) r.push_back(cast(t, policy, widest));
      return r;
    } else {
      return a;
    }
  };
  Off off;
  return op(convert(args)...);
}

}  // namespace torch::autocast

#endif
