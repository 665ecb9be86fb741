#include "autograd/Engine.h"

#include <queue>
#include <unordered_map>
#include <unordered_set>

#include "core/ops/Complex.h"
#include "core/ops/Factory.h"
#include "core/ops/Pointwise.h"

namespace torch {
namespace {

struct ByLatest {
  bool operator()(const Node *a, const Node *b) const { return a->sequenceNr < b->sequenceNr; }
};

struct EdgeKey {
  const Node *fn;
  uint32_t nr;
  bool operator==(const EdgeKey &o) const { return fn == o.fn && nr == o.nr; }
};
struct EdgeKeyHash {
  size_t operator()(const EdgeKey &k) const { return std::hash<const void *>()(k.fn) * 31 + k.nr; }
};

// Nodes that lead to a captured edge (autograd.grad): only they run.
bool markNeeded(Node *n, const std::unordered_set<const Node *> &captureNodes,
                std::unordered_map<Node *, bool> &needed) {
  // Iterative post-order walk: graphs can be deep (an RNN over many steps).
  std::vector<std::pair<Node *, size_t>> stack{{n, 0}};
  needed.emplace(n, captureNodes.count(n) > 0);
  while (!stack.empty()) {
    auto &[node, next] = stack.back();
    if (next < node->next.size()) {
      Node *child = node->next[next++].fn.get();
      if (child && !needed.count(child)) {
        needed.emplace(child, captureNodes.count(child) > 0);
        stack.emplace_back(child, 0);
      }
      continue;
    }
    bool any = needed[node];
    for (const Edge &e : node->next) {
      if (e.fn && needed[e.fn.get()]) any = true;
    }
    needed[node] = any;
    stack.pop_back();
  }
  return needed[n];
}

}  // namespace

TensorList runBackward(const TensorList &roots, const TensorList &rootGrads, const TensorList &inputs,
                       const BackwardOptions &options) {
  TORCH_CHECK(roots.size() == rootGrads.size(), Runtime, "got %zu tensors and %zu gradients", roots.size(),
              rootGrads.size());
  std::vector<Edge> rootEdges;
  TensorList seeds;
  for (size_t i = 0; i < roots.size(); i++) {
    const Tensor &root = roots[i];
    TORCH_CHECK(requiresGrad(root), Runtime, "element %zu of tensors does not require grad and does not have a grad_fn",
                i);
    Tensor seed = rootGrads[i];
    if (!seed.defined()) {
      TORCH_CHECK(root.numel() == 1, Runtime, "grad can be implicitly created only for scalar outputs");
      seed = emptyLike(root);
      fill_(seed, Scalar(int64_t(1)));
    } else {
      TORCH_CHECK(seed.isSameSizeAs(root), Runtime,
                  "Mismatch in shape: grad_output[%zu] has a shape of %s and output[%zu] has a shape of %s.", i,
                  seed.sizeString().c_str(), i, root.sizeString().c_str());
      if (seed.dtype() != root.dtype()) seed = toType(seed, root.dtype());
      if (seed.device() != root.device()) {
        // as PyTorch's check of the roots' gradients: a 0-dim one is moved, others refused
        TORCH_CHECK(seed.dim() == 0, Runtime, "invalid gradient at index %zu - expected device %s but got %s", i,
                    root.device() == Device::CPU ? "cpu" : "cuda:0", seed.device() == Device::CPU ? "cpu" : "cuda:0");
        seed = to(seed, seed.dtype(), root.device());
      }
    }
    rootEdges.push_back(gradientEdge(root));
    seeds.push_back(seed);
  }

  // What autograd.grad captures: the gradient arriving on each input's edge.
  std::unordered_map<EdgeKey, size_t, EdgeKeyHash> captures;
  std::unordered_set<const Node *> captureNodes;
  std::vector<Edge> inputEdges;  // keeps accumulators of leaf inputs alive
  for (size_t i = 0; i < inputs.size(); i++) {
    TORCH_CHECK(requiresGrad(inputs[i]), Runtime, "One of the differentiated Tensors does not require grad");
    Edge e = gradientEdge(inputs[i]);
    captures[{e.fn.get(), e.inputNr}] = i;
    captureNodes.insert(e.fn.get());
    inputEdges.push_back(e);
  }
  const bool gradMode = !inputs.empty();
  std::unordered_map<Node *, bool> needed;
  if (gradMode) {
    for (const Edge &e : rootEdges) markNeeded(e.fn.get(), captureNodes, needed);
  }
  auto isNeeded = [&](Node *n) { return !gradMode || needed[n]; };

  // Dependencies: how many edges of the (needed part of the) graph point at each node.
  std::unordered_map<Node *, int> dependencies;
  {
    std::unordered_set<Node *> seen;
    std::vector<Node *> stack;
    for (const Edge &e : rootEdges) {
      if (seen.insert(e.fn.get()).second) stack.push_back(e.fn.get());
    }
    while (!stack.empty()) {
      Node *n = stack.back();
      stack.pop_back();
      if (!isNeeded(n)) continue;
      for (const Edge &e : n->next) {
        if (!e.fn || !isNeeded(e.fn.get())) continue;
        dependencies[e.fn.get()]++;
        if (seen.insert(e.fn.get()).second) stack.push_back(e.fn.get());
      }
    }
  }

  GradModeGuard mode(options.createGraph);

  std::unordered_map<Node *, TensorList> buffers;
  auto addToBuffer = [&](const Edge &e, Tensor g) {
    TensorList &buffer = buffers[e.fn.get()];
    if (buffer.size() < e.fn->outputs.size()) buffer.resize(e.fn->outputs.size());
    if (buffer.size() <= e.inputNr) buffer.resize(e.inputNr + 1);
    Tensor &slot = buffer[e.inputNr];
    slot = slot.defined() ? binary(BinaryOp::Add, slot, g) : g;
  };

  std::priority_queue<Node *, std::vector<Node *>, ByLatest> ready;
  std::unordered_set<Node *> queued;
  for (size_t i = 0; i < rootEdges.size(); i++) addToBuffer(rootEdges[i], seeds[i]);
  for (const Edge &e : rootEdges) {
    if (dependencies[e.fn.get()] == 0 && queued.insert(e.fn.get()).second) ready.push(e.fn.get());
  }

  TensorList captured(inputs.size());
  while (!ready.empty()) {
    Node *node = ready.top();
    ready.pop();
    TensorList grads = std::move(buffers[node]);
    buffers.erase(node);
    grads.resize(std::max(grads.size(), node->outputs.size()));
    if (auto *acc = dynamic_cast<AccumulateGrad *>(node); acc && grads[0].defined()) {
      for (const GradHook &hook : autogradMeta(acc->variable)->leafHooks) {
        Tensor replaced = hook(grads[0]);
        if (replaced.defined()) grads[0] = replaced;
      }
    }
    for (auto *hooks : {&node->preHooks, &node->retainHooks}) {
      for (auto &[nr, hook] : *hooks) {
        if (nr < grads.size() && grads[nr].defined()) {
          Tensor replaced = hook(grads[nr]);
          if (replaced.defined()) grads[nr] = replaced;
        }
      }
    }
    if (gradMode) {
      for (uint32_t nr = 0; nr < grads.size(); nr++) {
        auto it = captures.find({node, nr});
        if (it != captures.end()) captured[it->second] = grads[nr];
      }
      if (captureNodes.count(node) && dynamic_cast<AccumulateGrad *>(node)) continue;
    }
    bool anyDefined = false;
    for (const Tensor &g : grads) anyDefined = anyDefined || g.defined();
    TensorList gradInputs;
    if (anyDefined) {
      for (size_t nr = 0; nr < node->outputs.size(); nr++) {
        if (!grads[nr].defined())
          grads[nr] = [&] {
            const OutputInfo &out = node->outputs[nr];
            return zeros(out.sizes, out.dtype, out.device);
          }();
      }
      // Post hooks see the gradients the node got; copied only for them, since a copy would
      // hold a reference AccumulateGrad checks before it stores a gradient without cloning it.
      TensorList gradOutputs;
      if (!node->postHooks.empty()) gradOutputs = grads;
      gradInputs = node->apply(std::move(grads));
      for (auto &hook : node->postHooks) hook(gradInputs, gradOutputs);
    }
    if (!options.keepGraph) node->releaseSaved();
    for (size_t i = 0; i < node->next.size(); i++) {
      const Edge &e = node->next[i];
      if (!e.fn || !isNeeded(e.fn.get())) continue;
      if (i < gradInputs.size() && gradInputs[i].defined()) {
        Tensor g = gradInputs[i];
        const OutputInfo &expect = e.fn->outputs[e.inputNr];
        if (!g.hasSizes(expect.sizes)) {
          TORCH_CHECK(isBroadcastableTo(expect.sizes, g.sizes()), Runtime,
                      "Function %s returned an invalid gradient at index %zu - got %s but expected shape compatible "
                      "with %s",
                      node->name().c_str(), i, g.sizeString().c_str(), shapeString(expect.sizes).c_str());
          g = sumToShape(g, expect.sizes);
        }
        // a CPU scalar that met a CUDA tensor gets its gradient back on the CPU, as in PyTorch
        if (g.device() != expect.device && g.dim() == 0) g = to(g, g.dtype(), expect.device);
        TORCH_CHECK(g.device() == expect.device, Runtime,
                    "Function %s returned an invalid gradient at index %zu - expected device %s but got %s",
                    node->name().c_str(), i, deviceName(expect.device), deviceName(g.device()));
        // a real input of a complex computation gets the real part (PyTorch's convention)
        if (isComplex(g.dtype()) && !isComplex(expect.dtype)) g = real(g);
        if (g.dtype() != expect.dtype) g = toType(g, expect.dtype);
        addToBuffer(e, g);
      }
      if (--dependencies[e.fn.get()] == 0 && queued.insert(e.fn.get()).second) ready.push(e.fn.get());
    }
  }

  if (gradMode && !options.allowUnused) {
    for (const Tensor &g : captured) {
      TORCH_CHECK(g.defined(), Runtime,
                  "One of the differentiated Tensors appears to not have been used in the graph. Set "
                  "allow_unused=True if this is the desired behavior.");
    }
  }
  return captured;
}

}  // namespace torch
