#include "THNN/dnnl/Matmul.hpp"

#include <omp.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "TH/THThreads.hpp"
#include "oneapi/dnnl/dnnl.hpp"

/* Note [bfloat16 products on oneDNN]: PyTorch 1.13 computes its CPU bfloat16 products on
 * oneDNN, whose AVX512-BF16 kernels multiply pairs of bfloat16 values into float sums; the
 * core's other bfloat16 ops widen to float (Note [Half through Float] in core/Dispatch.h),
 * which for a product costs the widened copies and a float GEMM. Here the product reads the
 * bfloat16 operands as they are (any strides) and writes float, which the kernel then scales,
 * adds to beta * t and rounds once, as the float path would. oneDNN chooses its kernel for the
 * processor; where it has none for bfloat16 the call fails and the float path runs.
 * Primitives are kept per (shapes, strides, thread count), as the convolutions' plans are
 * (Note [oneDNN convolution]); each output element is one thread's sum, so the result does not
 * change with the thread count. */

namespace thnn::dnnl_matmul {
namespace {

using dnnl::memory;

const dnnl::engine &cpu() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

using Key = std::vector<int64_t>;

struct Plan {
  memory::desc src, weights, dst;
  dnnl::matmul primitive;
};

// the primitives of recent shapes; cleared when it grows past kMaxPlans
constexpr size_t kMaxPlans = 64;

std::shared_ptr<Plan> planFor(const Operand &x, const Operand &y, int threads) {
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<Plan>> plans;
  Key key{threads};
  for (const Operand *o : {&x, &y}) {
    key.insert(key.end(), o->sizes.begin(), o->sizes.end());
    key.insert(key.end(), o->strides.begin(), o->strides.end());
  }
  {
    std::lock_guard<std::mutex> hold(mutex);
    auto it = plans.find(key);
    if (it != plans.end()) return it->second;
  }
  const int64_t batch = std::max(x.sizes[0], y.sizes[0]), M = x.sizes[1], N = y.sizes[2];
  auto plain = [](const Operand &o) {
    return memory::desc({o.sizes[0], o.sizes[1], o.sizes[2]}, memory::data_type::bf16,
                        {o.strides[0], o.strides[1], o.strides[2]});
  };
  auto plan = std::make_shared<Plan>();
  plan->src = plain(x);
  plan->weights = plain(y);
  plan->dst = memory::desc({batch, M, N}, memory::data_type::f32, memory::format_tag::abc);
  dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(plan->src, plan->weights, plan->dst), cpu());
  plan->primitive = dnnl::matmul(pd);
  std::lock_guard<std::mutex> hold(mutex);
  if (plans.size() >= kMaxPlans) plans.clear();
  plans[key] = plan;
  return plan;
}

}  // namespace

bool bfloat16Product(const Operand &x, const Operand &y, float *out) {
  th::UsableThreadsScope threads;  // each output is one thread's sum
  try {
    auto plan = planFor(x, y, omp_get_max_threads());
    thread_local dnnl::stream stream(cpu());
    memory src(plan->src, cpu(), const_cast<uint16_t *>(x.data));
    memory weights(plan->weights, cpu(), const_cast<uint16_t *>(y.data));
    memory dst(plan->dst, cpu(), out);
    plan->primitive.execute(stream, {{DNNL_ARG_SRC, src}, {DNNL_ARG_WEIGHTS, weights}, {DNNL_ARG_DST, dst}});
    stream.wait();
  } catch (const dnnl::error &) {
    return false;
  }
  return true;
}

}  // namespace thnn::dnnl_matmul
