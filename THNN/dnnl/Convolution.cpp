#include "THNN/dnnl/Convolution.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "TH/THThreads.hpp"
#include "oneapi/dnnl/dnnl.hpp"

/* Note [oneDNN convolution]: THNN's float SpatialConvolutionMM and SpatialDilatedConvolution
 * (so Lua's nn, torch.legacy.nn and torch.nn's conv2d alike) run on oneDNN, PyTorch's CPU
 * convolution library, whose kernels work on blocked layouts (8 planes interleaved: nChw8c,
 * OIhw8i8o) without unfolding the input. Double, 1x1 kernels on one thread (taken(), but the
 * forward of a strided one) and any call oneDNN has no implementation for take the im2col path
 * (Note [im2col convolution]); THNN_CONV_IM2COL=1 forces it.
 *
 * - Layouts. The caller's tensors are plain (NCHW, OIHW). Each call reorders its inputs into
 *   the layouts the primitive asks for, runs it, and reorders its outputs back. The weight is
 *   reordered at every call, not cached: THNN holds no state, an optimiser changes the weight
 *   in place between calls, and the reorder costs O(weight), small next to the convolution.
 * - Plans. Creating a primitive (choosing and generating its kernel) costs far more than a small
 *   convolution, so the primitives and reorders of one (pass, shapes, stride, padding,
 *   dilation, bias, thread count) are kept in a small LRU of plans, shared by all threads.
 * - Threads. Debian's libdnnl runs on OpenMP (libgomp), like TH and OpenBLAS: its kernels use
 *   omp_get_max_threads() of the calling thread (torch.set_num_threads), which is part of the
 *   plan's key because a kernel's work split is fixed when it is created. The forward and
 *   backward-data passes run on the threads the machine can give (Note [Threads the machine
 *   can give] in TH/THGeneral.cpp): their kernels split the outputs, not the sums, over the
 *   threads, so the result does not change with the count. The backward-weights pass sums
 *   over the batch, so it runs in chunks of the batch fixed by torch.set_num_threads' count
 *   (Note [Weight gradients in batch chunks]).
 * - Buffers. The blocked copies and oneDNN's scratchpad live in the caller's scratch tensor
 *   (finput, fgradInput, columns), resized to a 1-D float buffer: THNN allocates nothing behind
 *   the caller's back, and a buffer reused across calls costs no page faults. finput then no
 *   longer holds torch7's unfolded input; SpatialConvolutionMM's accGradParameters unfolds the
 *   input again when it takes the im2col path after a oneDNN updateOutput.
 * - accGradParameters adds: the gradients are computed into the scratch and added, times
 *   scale, to gradWeight and gradBias once the primitive has succeeded. */

namespace thnn::dnnl_conv {
namespace {

using dnnl::memory;
using Tag = memory::format_tag;

enum Pass : int64_t { kForward, kBackwardData, kBackwardWeights, kForwardBfloat16 };

// A plan's key: the pass, the geometry, whether there is a bias, and the thread count.
using Key = std::array<int64_t, 18>;

Key keyOf(Pass pass, const Geometry &g, bool bias) {
  return {pass, g.batch, g.inPlanes, g.inH,  g.inW,  g.outPlanes, g.outH,      g.outW,       g.kH,
          g.kW, g.dH,    g.dW,       g.padH, g.padW, g.dilationH, g.dilationW, bias ? 1 : 0, omp_get_max_threads()};
}

struct KeyHash {
  size_t operator()(const Key &k) const {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the values
    for (int64_t v : k) h = (h ^ static_cast<uint64_t>(v)) * 1099511628211ull;
    return static_cast<size_t>(h);
  }
};

const dnnl::engine &cpu() {
  static const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

constexpr size_t kAlign = 64;

size_t roundUp(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// An array a primitive reads or writes, as the caller holds it (`user`, plain) and as the
// primitive wants it (`inner`). When they differ, `convert` reorders between the two through a
// copy at byte `offset` of the scratch.
struct Operand {
  int arg = 0;
  memory::desc user, inner;
  dnnl::reorder convert;
  size_t offset = 0;
};

// The primitive of one pass with its operands, and the scratch it needs: `bytes` in all,
// oneDNN's scratchpad at byte 0, the operands' copies and the pass's own buffers after it.
struct Plan {
  dnnl::primitive primitive;
  memory::desc scratchpad;
  std::vector<Operand> inputs, outputs;
  size_t bytes = 0;
  size_t weightOffset = 0, biasOffset = 0;  // backwardWeights' plain gradients
};

class PlanBuilder {
 public:
  explicit PlanBuilder(const memory::desc &scratchpad) {
    plan_.scratchpad = scratchpad;
    plan_.bytes = roundUp(scratchpad.get_size());
  }
  size_t reserve(size_t bytes) {
    const size_t offset = plan_.bytes;
    plan_.bytes += roundUp(bytes);
    return offset;
  }
  void input(int arg, const memory::desc &user, const memory::desc &inner) {
    plan_.inputs.push_back(operand(arg, user, inner, true));
  }
  void output(int arg, const memory::desc &user, const memory::desc &inner) {
    plan_.outputs.push_back(operand(arg, user, inner, false));
  }
  std::shared_ptr<Plan> finish(dnnl::primitive primitive) {
    plan_.primitive = std::move(primitive);
    return std::make_shared<Plan>(std::move(plan_));
  }

 private:
  Operand operand(int arg, const memory::desc &user, const memory::desc &inner, bool in) {
    Operand o{arg, user, inner, {}, 0};
    if (user != inner) {
      const auto &from = in ? user : inner, &to = in ? inner : user;
      o.convert = dnnl::reorder(dnnl::reorder::primitive_desc(cpu(), from, cpu(), to));
      o.offset = reserve(inner.get_size());
    }
    return o;
  }
  Plan plan_;
};

memory::desc plain(const memory::dims &dims, Tag tag, memory::data_type type = memory::data_type::f32) {
  return memory::desc(dims, type, tag);
}

memory::desc chosen(const memory::dims &dims, memory::data_type type = memory::data_type::f32) {
  return memory::desc(dims, type, Tag::any);
}

bool isPointwise(const Geometry &g) { return g.kH == 1 && g.kW == 1; }

// A 1x1 kernel with a stride: the im2col path gathers every other pixel before its GEMM (11% of
// the forward's time), where oneDNN's blocked kernel reads the strided input itself. Forward
// 16x128x16x16 -> 256, stride 2: 0.80 -> 0.72 ms at one thread (PyTorch 1.13: 0.72), 0.43 ->
// 0.39 at two. Its backward passes measured slower blocked, and stay as they were.
bool blockedStridedForward(Pass pass, const Geometry &g) {
  return pass == kForward && isPointwise(g) && (g.dH > 1 || g.dW > 1);
}

// Whether a pass lets the primitive choose the layouts of the images (blocked, reordered at each
// call) rather than run on the caller's plain ones, where oneDNN's implementation is im2col +
// its own GEMM (a GEMM alone for 1x1 kernels). Measured on AVX2 (bench/thnn_bench.cpp): the
// blocked kernels win, except on 1x1 kernels (but blockedStridedForward), where the reorders
// cost more than they save, and on the weight gradient of layers 128 planes wide or more.
bool blockedImages(Pass pass, const Geometry &g) {
  if (isPointwise(g)) return blockedStridedForward(pass, g);
  return !(pass == kBackwardWeights && g.inPlanes >= 128 && g.outPlanes >= 128);
}

// 1x1 kernels on one thread stay on THNN's im2col path, which multiplies the input itself with
// OpenBLAS, whose GEMM beats oneDNN's there; on more threads oneDNN's one call beats the im2col
// path's parallel GEMM per sample (bench/thnn_bench.cpp).
bool taken(Pass pass, const Geometry &g) {
  return !isPointwise(g) || omp_get_max_threads() > 1 || blockedStridedForward(pass, g);
}

// The layout of an image (input or output) in a pass.
memory::desc image(const memory::dims &dims, bool blocked, memory::data_type type = memory::data_type::f32) {
  return blocked ? chosen(dims, type) : plain(dims, Tag::nchw, type);
}

// The shapes of the primitive descriptors of one geometry.
struct Shapes {
  memory::dims src, weights, bias, dst, strides, dilates, padL, padR;
  explicit Shapes(const Geometry &g)
      : src{g.batch, g.inPlanes, g.inH, g.inW},
        weights{g.outPlanes, g.inPlanes, g.kH, g.kW},
        bias{g.outPlanes},
        dst{g.batch, g.outPlanes, g.outH, g.outW},
        strides{g.dH, g.dW},
        dilates{g.dilationH - 1, g.dilationW - 1},  // oneDNN counts the gaps between taps
        padL{g.padH, g.padW},
        padR{g.padH, g.padW} {}
};

// images and weights of type; the bias stays float
dnnl::convolution_forward::desc forwardDesc(const Shapes &s, bool bias, bool blocked,
                                            memory::data_type type = memory::data_type::f32) {
  return dnnl::convolution_forward::desc(dnnl::prop_kind::forward_training, dnnl::algorithm::convolution_direct,
                                         image(s.src, blocked, type), chosen(s.weights, type),
                                         bias ? plain(s.bias, Tag::x) : memory::desc(), image(s.dst, blocked, type),
                                         s.strides, s.dilates, s.padL, s.padR);
}

dnnl::primitive_attr userScratchpad() {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  return attr;
}

std::shared_ptr<Plan> forwardPlan(const Geometry &g, bool bias, memory::data_type type = memory::data_type::f32) {
  const Shapes s(g);
  dnnl::convolution_forward::primitive_desc pd(forwardDesc(s, bias, blockedImages(kForward, g), type), userScratchpad(),
                                               cpu());
  PlanBuilder b(pd.scratchpad_desc());
  b.input(DNNL_ARG_SRC, plain(s.src, Tag::nchw, type), pd.src_desc());
  b.input(DNNL_ARG_WEIGHTS, plain(s.weights, Tag::oihw, type), pd.weights_desc());
  if (bias) b.input(DNNL_ARG_BIAS, plain(s.bias, Tag::x), pd.bias_desc());
  b.output(DNNL_ARG_DST, plain(s.dst, Tag::nchw, type), pd.dst_desc());
  return b.finish(dnnl::convolution_forward(pd));
}

std::shared_ptr<Plan> backwardDataPlan(const Geometry &g) {
  const Shapes s(g);
  const bool blocked = blockedImages(kBackwardData, g);
  dnnl::convolution_forward::primitive_desc hint(forwardDesc(s, false, blocked), cpu());
  dnnl::convolution_backward_data::desc d(dnnl::algorithm::convolution_direct, image(s.src, blocked), chosen(s.weights),
                                          image(s.dst, blocked), s.strides, s.dilates, s.padL, s.padR);
  dnnl::convolution_backward_data::primitive_desc pd(d, userScratchpad(), cpu(), hint);
  PlanBuilder b(pd.scratchpad_desc());
  b.input(DNNL_ARG_DIFF_DST, plain(s.dst, Tag::nchw), pd.diff_dst_desc());
  b.input(DNNL_ARG_WEIGHTS, plain(s.weights, Tag::oihw), pd.weights_desc());
  b.output(DNNL_ARG_DIFF_SRC, plain(s.src, Tag::nchw), pd.diff_src_desc());
  return b.finish(dnnl::convolution_backward_data(pd));
}

std::shared_ptr<Plan> backwardWeightsPlan(const Geometry &g, bool bias) {
  const Shapes s(g);
  const bool blocked = blockedImages(kBackwardWeights, g);
  dnnl::convolution_forward::primitive_desc hint(forwardDesc(s, bias, blocked), cpu());
  dnnl::convolution_backward_weights::desc d(dnnl::algorithm::convolution_direct, image(s.src, blocked),
                                             chosen(s.weights), bias ? plain(s.bias, Tag::x) : memory::desc(),
                                             image(s.dst, blocked), s.strides, s.dilates, s.padL, s.padR);
  dnnl::convolution_backward_weights::primitive_desc pd(d, userScratchpad(), cpu(), hint);
  PlanBuilder b(pd.scratchpad_desc());
  b.input(DNNL_ARG_SRC, plain(s.src, Tag::nchw), pd.src_desc());
  b.input(DNNL_ARG_DIFF_DST, plain(s.dst, Tag::nchw), pd.diff_dst_desc());
  const memory::desc weights = plain(s.weights, Tag::oihw);
  b.output(DNNL_ARG_DIFF_WEIGHTS, weights, pd.diff_weights_desc());
  if (bias) b.output(DNNL_ARG_DIFF_BIAS, plain(s.bias, Tag::x), pd.diff_bias_desc());
  const size_t weightOffset = b.reserve(weights.get_size());
  const size_t biasOffset = bias ? b.reserve(plain(s.bias, Tag::x).get_size()) : 0;
  auto plan = b.finish(dnnl::convolution_backward_weights(pd));
  plan->weightOffset = weightOffset;
  plan->biasOffset = biasOffset;
  return plan;
}

// The plans of the last kCapacity keys, most recently used first. A key oneDNN has no
// implementation for keeps a null plan, so that it is not tried again.
class PlanCache {
 public:
  template <typename Build>
  std::shared_ptr<const Plan> get(const Key &key, Build &&build) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto it = index_.find(key);
      if (it != index_.end()) {
        order_.splice(order_.begin(), order_, it->second);
        return it->second->second;
      }
    }
    std::shared_ptr<const Plan> plan;
    try {
      plan = build();  // outside the lock: creating primitives takes milliseconds
    } catch (const dnnl::error &) {
    }
    std::lock_guard<std::mutex> lock(mutex_);
    if (index_.count(key)) return plan;  // another thread built it meanwhile
    order_.emplace_front(key, plan);
    index_[key] = order_.begin();
    if (order_.size() > kCapacity) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
    return plan;
  }

 private:
  static constexpr size_t kCapacity = 64;
  std::mutex mutex_;
  std::list<std::pair<Key, std::shared_ptr<const Plan>>> order_;
  std::unordered_map<Key, decltype(order_)::iterator, KeyHash> index_;
};

PlanCache &plans() {
  static PlanCache *cache = new PlanCache();  // never destroyed: kernels may run during exit
  return *cache;
}

// Sizes the caller's scratch for `bytes`; returns its base, aligned.
char *scratchFor(size_t bytes, const Scratch &scratch) {
  const auto address = reinterpret_cast<uintptr_t>(scratch((bytes + kAlign) / sizeof(float) + 1));
  return reinterpret_cast<char *>((address + kAlign - 1) / kAlign * kAlign);
}

// Runs a plan on the caller's arrays (in the order of plan.inputs and plan.outputs) with the
// scratch at `base`; false when oneDNN failed.
bool execute(const Plan &plan, char *base, const std::vector<const void *> &in, const std::vector<void *> &out) {
  try {
    thread_local dnnl::stream stream(cpu());
    std::unordered_map<int, memory> args;
    if (plan.scratchpad.get_size() > 0) args[DNNL_ARG_SCRATCHPAD] = memory(plan.scratchpad, cpu(), base);
    for (size_t i = 0; i < plan.inputs.size(); i++) {
      const Operand &o = plan.inputs[i];
      memory user(o.user, cpu(), const_cast<void *>(in[i]));
      if (!o.convert) {
        args[o.arg] = user;
        continue;
      }
      memory inner(o.inner, cpu(), base + o.offset);
      o.convert.execute(stream, {{DNNL_ARG_FROM, user}, {DNNL_ARG_TO, inner}});
      args[o.arg] = inner;
    }
    std::vector<memory> users;
    for (size_t i = 0; i < plan.outputs.size(); i++) {
      const Operand &o = plan.outputs[i];
      users.emplace_back(o.user, cpu(), out[i]);
      args[o.arg] = o.convert ? memory(o.inner, cpu(), base + o.offset) : users.back();
    }
    plan.primitive.execute(stream, args);
    for (size_t i = 0; i < plan.outputs.size(); i++) {
      const Operand &o = plan.outputs[i];
      if (o.convert) o.convert.execute(stream, {{DNNL_ARG_FROM, args[o.arg]}, {DNNL_ARG_TO, users[i]}});
    }
    stream.wait();
  } catch (const dnnl::error &) {
    return false;
  }
  return true;
}

}  // namespace

bool enabled() {
  const char *v = std::getenv("THNN_CONV_IM2COL");
  return v == nullptr || v[0] == '\0' || std::strcmp(v, "0") == 0;
}

bool forward(const Geometry &g, const float *input, const float *weight, const float *bias, float *output,
             const Scratch &scratch) {
  if (!taken(kForward, g)) return false;
  th::UsableThreadsScope threads;  // each output is one thread's sum: see Threads above
  auto plan = plans().get(keyOf(kForward, g, bias != nullptr), [&] { return forwardPlan(g, bias != nullptr); });
  if (!plan) return false;
  std::vector<const void *> in = {input, weight};
  if (bias) in.push_back(bias);
  return execute(*plan, scratchFor(plan->bytes, scratch), in, {output});
}

bool forwardBfloat16(const Geometry &g, const uint16_t *input, const uint16_t *weight, const float *bias,
                     uint16_t *output, const Scratch &scratch) {
  th::UsableThreadsScope threads;  // each output is one thread's sum: see Threads above
  // a null plan where the processor has no bfloat16 implementation
  auto plan = plans().get(keyOf(kForwardBfloat16, g, bias != nullptr),
                          [&] { return forwardPlan(g, bias != nullptr, memory::data_type::bf16); });
  if (!plan) return false;
  std::vector<const void *> in = {input, weight};
  if (bias) in.push_back(bias);
  return execute(*plan, scratchFor(plan->bytes, scratch), in, {output});
}

bool backwardData(const Geometry &g, const float *gradOutput, const float *weight, float *gradInput,
                  const Scratch &scratch) {
  if (!taken(kBackwardData, g)) return false;
  th::UsableThreadsScope threads;
  auto plan = plans().get(keyOf(kBackwardData, g, false), [&] { return backwardDataPlan(g); });
  if (!plan) return false;
  return execute(*plan, scratchFor(plan->bytes, scratch), {gradOutput, weight}, {gradInput});
}

bool backwardWeights(const Geometry &g, const float *input, const float *gradOutput, float *gradWeight, float *gradBias,
                     float scale, const Scratch &scratch) {
  if (!taken(kBackwardWeights, g)) return false;
  const bool bias = gradBias != nullptr;
  // Note [Weight gradients in batch chunks]: one chunk of the batch per thread asked for, each
  // a one-thread primitive with its own gradient, added up in chunk order: the result
  // depends on torch.set_num_threads' count only, and the chunks go to the threads the
  // machine can give (Note [Threads the machine can give] in TH/THGeneral.cpp). A batch of
  // one image is cut by output planes instead (groups of 16, oneDNN's block): each plane's
  // gradient is then one chunk's alone, and the chunks' gradOutput and gradWeight slices are
  // contiguous.
  const int64_t asked = omp_in_parallel() ? 1 : omp_get_max_threads();
  const bool byPlanes = g.batch == 1 && asked > 1 && g.outPlanes >= 32;
  const int64_t chunks = byPlanes ? std::min<int64_t>(asked, g.outPlanes / 16) : std::min<int64_t>(g.batch, asked);
  // chunk c's images (batch cut) or output planes (plane cut) are [first(c), first(c + 1))
  auto first = [&](int64_t c) {
    if (!byPlanes) return c * g.batch / chunks;
    return c * (g.outPlanes / 16) / chunks * 16 + (c == chunks ? g.outPlanes % 16 : 0);
  };
  std::vector<std::shared_ptr<const Plan>> chunkPlans(chunks);
  std::vector<size_t> offsets(chunks + 1, 0);
  const int usable = chunks > 1 ? THUsableThreads() : 1;
  // With chunks, the primitives, their reorders included, are made for one thread and run on
  // one thread each: the calling thread's count is 1 (the region's threads inherit it) until
  // `restore` goes.
  struct CallerThreads {
    int asked = omp_get_max_threads();
    ~CallerThreads() { omp_set_num_threads(asked); }
  } restore;
  if (chunks > 1) omp_set_num_threads(1);
  for (int64_t c = 0; c < chunks; c++) {
    Geometry part = g;
    (byPlanes ? part.outPlanes : part.batch) = first(c + 1) - first(c);
    chunkPlans[c] = plans().get(keyOf(kBackwardWeights, part, bias), [&] { return backwardWeightsPlan(part, bias); });
    if (!chunkPlans[c]) return false;
    offsets[c + 1] = offsets[c] + roundUp(chunkPlans[c]->bytes);
  }
  char *base = scratchFor(offsets[chunks], scratch);
  const int64_t inSample = g.inPlanes * g.inH * g.inW, outPlane = g.outH * g.outW;
  std::atomic<bool> ran{true};
  auto runChunk = [&](int64_t c) {
    const Plan &plan = *chunkPlans[c];
    char *at = base + offsets[c];
    const float *in = byPlanes ? input : input + first(c) * inSample;
    const float *gradOut = gradOutput + first(c) * (byPlanes ? outPlane : g.outPlanes * outPlane);
    try {  // nothing may leave an OpenMP region
      std::vector<void *> out = {at + plan.weightOffset};
      if (bias) out.push_back(reinterpret_cast<float *>(at + plan.biasOffset));
      if (!execute(plan, at, {in, gradOut}, out)) ran = false;
    } catch (...) {
      ran = false;
    }
  };
  // One chunk runs outside any region: inside even a one-thread region, oneDNN's own regions
  // would be nested ones, whose threads libgomp does not keep between regions (a batch-1
  // weight gradient took 8 ms at two threads against 1.5 at one).
  if (chunks == 1) {
    runChunk(0);
  } else {
#pragma omp parallel for schedule(dynamic, 1) num_threads(usable) if (usable > 1)
    for (int64_t c = 0; c < chunks; c++) runChunk(c);
  }
  if (!ran) return false;
  const int64_t perPlane = g.inPlanes * g.kH * g.kW;
  for (int64_t c = 0; c < chunks; c++) {
    const char *at = base + offsets[c];
    const int64_t plane0 = byPlanes ? first(c) : 0, planes = byPlanes ? first(c + 1) - first(c) : g.outPlanes;
    const auto *gw = reinterpret_cast<const float *>(at + chunkPlans[c]->weightOffset);
    float *to = gradWeight + plane0 * perPlane;
    for (int64_t i = 0; i < planes * perPlane; i++) to[i] += scale * gw[i];
    if (bias) {
      const auto *gb = reinterpret_cast<const float *>(at + chunkPlans[c]->biasOffset);
      for (int64_t o = 0; o < planes; o++) gradBias[plane0 + o] += scale * gb[o];
    }
  }
  return true;
}

}  // namespace thnn::dnnl_conv
