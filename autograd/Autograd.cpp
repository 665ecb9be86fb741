#include "autograd/Autograd.h"

#include <atomic>

#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"

namespace torch {

// ---- grad mode ----

static thread_local bool gGradEnabled = true;
bool GradMode::enabled() { return gGradEnabled; }
void GradMode::setEnabled(bool enabled) { gGradEnabled = enabled; }

// ---- nodes ----

static std::atomic<uint64_t> gNextSequenceNr{0};
Node::Node() : sequenceNr(gNextSequenceNr.fetch_add(1, std::memory_order_relaxed)) {}

AccumulateGrad::AccumulateGrad(const Tensor &leaf) : variable(leaf) {
  outputs.push_back({leaf.sizes(), leaf.dtype(), leaf.device()});
}

TensorList AccumulateGrad::apply(TensorList &&grads) {
  const Tensor &g = grads[0];
  if (!g.defined()) return {};
  AutogradMeta &meta = ensureAutogradMeta(variable);
  if (!meta.grad.defined()) {
    // The first gradient is stored as it is when nobody else holds it and later additions can
    // go in place (PyTorch's rule too), else as a copy. Under create_graph it is always a
    // recorded clone, as in PyTorch: .grad keeps the gradient's history behind a CloneBackward.
    bool own = !GradMode::enabled() && g.impl()->refs.load() == 1 && g.isContiguous() && !g.impl()->viewBase;
    meta.grad = own ? g : clone(g);
  } else if (GradMode::enabled()) {
    meta.grad = binary(BinaryOp::Add, meta.grad, g);  // create_graph: the sum is recorded
  } else {
    binary_(BinaryOp::Add, meta.grad, g);
  }
  return {};
}

// ---- saved tensors ----

namespace {
// The FunctionNode whose backward runs on this thread (Note [Saved outputs]).
thread_local FunctionNode *gRunningNode = nullptr;
// SavedTensors made since the last record() on this thread: an op saves what its backward
// needs and then records its node, which takes them over.
thread_local std::vector<std::weak_ptr<const void>> gSavedSinceRecord;
// Note [Saved tensor hooks]: the pushed pairs, innermost last, and the disabling message.
thread_local std::vector<SavedTensorHooks> gSavedTensorHooks;
thread_local std::optional<std::string> gSavedTensorHooksDisabled;
}  // namespace

void pushSavedTensorHooks(SavedTensorHooks hooks) {
  if (gSavedTensorHooksDisabled) fail(th::ErrorKind::Runtime, "%s", gSavedTensorHooksDisabled->c_str());
  gSavedTensorHooks.push_back(std::move(hooks));
}

void popSavedTensorHooks() {
  if (gSavedTensorHooks.empty()) fail(th::ErrorKind::Runtime, "no saved tensors hooks to pop");
  gSavedTensorHooks.pop_back();
}

void setSavedTensorHooksDisabled(std::optional<std::string> message) {
  if (message && !gSavedTensorHooks.empty()) fail(th::ErrorKind::Runtime, "%s", message->c_str());
  gSavedTensorHooksDisabled = std::move(message);
}

const std::optional<std::string> &savedTensorHooksDisabled() { return gSavedTensorHooksDisabled; }

SavedTensor::SavedTensor(const Tensor &t, bool isOutput, bool ofNextNode) : wasDefined_(t.defined()) {
  if (!t.defined()) return;
  alive_ = std::make_shared<char>(0);
  if (!t.impl()->version) t.impl()->version = std::make_shared<std::atomic<uint32_t>>(0);
  version_ = t.impl()->version;
  savedVersion_ = version_->load();
  if (isOutput) outputIdentity_ = t.impl();
  if (!gSavedTensorHooks.empty()) {
    SavedTensorHooks hooks = gSavedTensorHooks.back();  // a copy: pack may push or pop
    packed_ = hooks.pack(isOutput ? detach(t) : t);
    unpack_ = std::move(hooks.unpack);
  } else {
    data_ = isOutput ? detach(t) : t;
    if (isOutput) data_.impl()->version = version_;
  }
  if (ofNextNode) gSavedSinceRecord.push_back(alive_);
}

void FunctionNode::releaseSaved() {
  for (const auto &s : saved) {
    if (!s.expired()) {
      backward_ = nullptr;
      break;
    }
  }
  saved.clear();
  savedReleased = true;
}

TensorList FunctionNode::apply(TensorList &&gradOutputs) {
  if (!backward_) {
    fail(th::ErrorKind::Runtime,
         "Trying to backward through the graph a second time (or directly access saved tensors after they have "
         "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
         "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time.");
  }
  FunctionNode *outer = gRunningNode;
  gRunningNode = this;
  struct Restore {
    FunctionNode *outer;
    ~Restore() { gRunningNode = outer; }
  } restore{outer};
  return backward_(gradOutputs);
}

Tensor SavedTensor::unpack(const std::string &owner) const {
  if (!wasDefined_) return Tensor();
  Tensor data = data_;
  if (unpack_) {
    if (packed_) data = unpack_(packed_);
  } else if (data_.defined()) {
    uint32_t now = version_->load();
    if (now != savedVersion_) {
      fail(th::ErrorKind::Runtime,
           "one of the variables needed for gradient computation has been modified by an inplace operation: "
           "[torch.%sTensor %s], which is needed by %s, is at version %u; expected version %u instead.",
           scalarTypeName(data_.dtype()), data_.sizeString().c_str(), owner.c_str(), now, savedVersion_);
    }
  }
  if (!data.defined()) {
    fail(th::ErrorKind::Runtime,
         "Trying to backward through the graph a second time (or directly access saved tensors after they have "
         "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
         "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time.");
  }
  if (outputIdentity_ && gRunningNode && GradMode::enabled()) {
    const std::vector<OutputInfo> &outputs = gRunningNode->outputs;
    for (size_t nr = 0; nr < outputs.size(); nr++) {
      if (outputs[nr].identity != outputIdentity_) continue;
      Tensor withHistory = detach(data);
      AutogradMeta &m = ensureAutogradMeta(withHistory);
      m.gradFn = gRunningNode->shared_from_this();
      m.outputNr = static_cast<uint32_t>(nr);
      return withHistory;
    }
  }
  return data;
}

// ---- per-tensor state ----

AutogradMeta *autogradMeta(const Tensor &t) { return t.impl()->autograd.get(); }

AutogradMeta &ensureAutogradMeta(const Tensor &t) {
  if (!t.impl()->autograd) t.impl()->autograd = std::make_shared<AutogradMeta>();
  return *t.impl()->autograd;
}

bool requiresGrad(const Tensor &t) {
  const AutogradMeta *m = autogradMeta(t);
  return m && (m->requiresGrad || m->gradFn);
}

void setRequiresGrad(const Tensor &t, bool requires) {
  AutogradMeta *m = autogradMeta(t);
  if (m && m->gradFn) {
    TORCH_CHECK(requires, Runtime,
                "you can only change requires_grad flags of leaf variables. If you want to use a computed variable "
                "in a subgraph that doesn't require differentiation use var_no_grad = var.detach().");
    return;
  }
  TORCH_CHECK(!requires || isDifferentiable(t.dtype()), Runtime,
              "only Tensors of floating point dtype can require gradients (got %s)", scalarTypeName(t.dtype()));
  if (!m && !requires) return;
  ensureAutogradMeta(t).requiresGrad = requires;
}

bool isLeaf(const Tensor &t) {
  const AutogradMeta *m = autogradMeta(t);
  return !m || !m->gradFn;
}

const std::shared_ptr<Node> &gradFn(const Tensor &t) {
  static const std::shared_ptr<Node> none;
  const AutogradMeta *m = autogradMeta(t);
  return m ? m->gradFn : none;
}

Tensor grad(const Tensor &t) {
  const AutogradMeta *m = autogradMeta(t);
  return m ? m->grad : Tensor();
}

void setGrad(const Tensor &t, const Tensor &g) {
  if (g.defined()) {
    TORCH_CHECK(g.dtype() == t.dtype(), Type, "assigned grad has data of a different type (%s, expected %s)",
                scalarTypeName(g.dtype()), scalarTypeName(t.dtype()));
    TORCH_CHECK(g.isSameSizeAs(t), Runtime, "assigned grad has data of a different size (%s, expected %s)",
                g.sizeString().c_str(), t.sizeString().c_str());
    TORCH_CHECK(g.device() == t.device(), Runtime, "assigned grad has data located on a different device");
  }
  if (!g.defined() && !autogradMeta(t)) return;
  ensureAutogradMeta(t).grad = g;
}

Tensor detach(const Tensor &t) {
  Tensor r;
  {
    NoGradGuard plain;
    r = alias(t);  // shares memory and the version counter
  }
  // Not a view for autograd: in-place changes of r do not reach t's history.
  if (TensorImpl *base = r.impl()->viewBase) {
    r.impl()->viewBase = nullptr;
    Tensor::adoptImpl(base);  // drops the reference
  }
  return r;
}

void detach_(const Tensor &t) {
  if (AutogradMeta *m = autogradMeta(t)) {
    m->gradFn.reset();
    m->requiresGrad = false;
    m->outputNr = 0;
  }
}

Edge gradientEdge(const Tensor &t) {
  AutogradMeta *m = autogradMeta(t);
  if (!m) return Edge{};
  if (m->gradFn) return Edge{m->gradFn, m->outputNr};
  if (!m->requiresGrad) return Edge{};
  std::shared_ptr<Node> acc = m->gradAccumulator.lock();
  if (!acc) {
    acc = std::make_shared<AccumulateGrad>(t);
    m->gradAccumulator = acc;
  }
  return Edge{acc, 0};
}

void registerHook(const Tensor &t, GradHook hook) {
  TORCH_CHECK(requiresGrad(t), Runtime, "cannot register a hook on a tensor that doesn't require gradient");
  if (isLeaf(t)) {
    autogradMeta(t)->leafHooks.push_back(std::move(hook));
    return;
  }
  Edge e = gradientEdge(t);
  e.fn->preHooks.emplace_back(e.inputNr, std::move(hook));
}

void retainGrad(const Tensor &t) {
  TORCH_CHECK(requiresGrad(t), Runtime, "can't retain_grad on Tensor that has requires_grad=False");
  AutogradMeta &m = ensureAutogradMeta(t);
  if (!m.gradFn || m.retainsGrad) return;
  m.retainsGrad = true;
  // The hook holds the tensor weakly through its impl's meta: no cycle node -> tensor.
  std::weak_ptr<AutogradMeta> weakMeta = t.impl()->autograd;
  m.gradFn->retainHooks.emplace_back(m.outputNr, [weakMeta](const Tensor &g) {
    if (auto meta = weakMeta.lock()) {
      if (!meta->grad.defined())
        meta->grad = clone(g);
      else
        meta->grad = binary(BinaryOp::Add, meta->grad, g);
    }
    return Tensor();
  });
}

// ---- versions ----

uint32_t version(const Tensor &t) { return t.impl()->version ? t.impl()->version->load() : 0; }

void bumpVersion(const Tensor &t) {
  if (!t.impl()->version) t.impl()->version = std::make_shared<std::atomic<uint32_t>>(0);
  t.impl()->version->fetch_add(1, std::memory_order_relaxed);
}

void shareVersion(const Tensor &view, const Tensor &base) {
  if (!base.impl()->version) base.impl()->version = std::make_shared<std::atomic<uint32_t>>(0);
  view.impl()->version = base.impl()->version;
}

// ---- recording ----

bool needsRecording(std::initializer_list<const Tensor *> inputs) {
  for (const Tensor *t : inputs) {
    // Grad mode (a thread-local) is read only when some input needs a gradient.
    if (t->defined() && requiresGrad(*t)) return GradMode::enabled();
  }
  return false;
}

namespace {

void connect(Node &node, const Tensor &input) { node.next.push_back(input.defined() ? gradientEdge(input) : Edge{}); }

void attach(const std::shared_ptr<Node> &node, const Tensor &output) {
  AutogradMeta &m = ensureAutogradMeta(output);
  m.gradFn = node;
  m.outputNr = static_cast<uint32_t>(node->outputs.size());
  m.requiresGrad = false;
  node->outputs.push_back({output.sizes(), output.dtype(), output.device(), output.impl()});
}

}  // namespace

void record(const char *name, const TensorList &inputs, const TensorList &outputs, FunctionNode::Backward backward) {
  auto node = std::make_shared<FunctionNode>(name, std::move(backward));
  node->saved.swap(gSavedSinceRecord);
  gSavedSinceRecord.clear();
  recordNode(node, inputs, outputs);
}

void recordNode(const std::shared_ptr<Node> &node, std::initializer_list<const Tensor *> inputs,
                std::initializer_list<const Tensor *> outputs) {
  for (const Tensor *t : inputs) connect(*node, *t);
  for (const Tensor *t : outputs) attach(node, *t);
}

void recordNode(const std::shared_ptr<Node> &node, const TensorList &inputs, const TensorList &outputs) {
  for (const Tensor &t : inputs) connect(*node, t);
  for (const Tensor &t : outputs) attach(node, t);
}

void rebaseHistory(const Tensor &self, const std::shared_ptr<Node> &node) {
  AutogradMeta &m = ensureAutogradMeta(self);
  m.gradFn = node;
  m.outputNr = 0;
  m.requiresGrad = false;
  node->outputs.assign(1, {self.sizes(), self.dtype(), self.device()});
}

Tensor sumToShape(const Tensor &grad, const IntList &shape) {
  if (grad.hasSizes(shape)) return grad;
  // Sum the leading dimensions broadcasting added and the ones that were size 1, with the
  // core's sum, which records under create_graph.
  int lead = grad.dim() - static_cast<int>(shape.size());
  IntList dims;
  for (int d = 0; d < grad.dim(); d++) {
    if ((d < lead || shape[d - lead] == 1) && grad.size(d) != 1) dims.push_back(d);
  }
  Tensor summed = dims.empty() ? grad : sum(grad, dims, true);
  return reshape(summed, shape);
}

}  // namespace torch

namespace torch {

// ---- views and in-place ops (Note [In-place ops and autograd]) ----

namespace {

// The part of g (a gradient of base's shape, base's strides) that view covers.
Tensor regionOf(const Tensor &g, const IntList &sizes, const IntList &strides, int64_t shift) {
  return asStrided(g, sizes, strides, g.storageOffset() + shift);
}

// The new history of a base after an in-place op on its view: inputs are the base before
// and the view's new value.
struct CopySlices : Node {
  CopySlices(const Tensor &base, const Tensor &view)
      : baseSizes(base.sizes()),
        baseStrides(base.strides()),
        viewSizes(view.sizes()),
        viewStrides(view.strides()),
        shift(view.storageOffset() - base.storageOffset()) {}
  TensorList apply(TensorList &&grads) override {
    Tensor gBase = emptyStrided(baseSizes, baseStrides, grads[0].dtype(), grads[0].device());
    copy_(gBase, grads[0]);
    Tensor part = regionOf(gBase, viewSizes, viewStrides, shift);
    Tensor gView = clone(part);
    zero_(part);
    return {gBase, gView};
  }
  std::string name() const override { return "CopySlices"; }
  IntList baseSizes, baseStrides, viewSizes, viewStrides;
  int64_t shift;
};

}  // namespace

void checkInplace(const Tensor &self) {
  if (!GradMode::enabled()) return;
  if (isLeaf(self) && requiresGrad(self)) {
    fail(th::ErrorKind::Runtime, "a leaf Variable that requires grad is being used in an in-place operation.");
  }
  Tensor base = viewBase(self);
  if (base.defined() && isLeaf(base) && requiresGrad(base)) {
    fail(th::ErrorKind::Runtime,
         "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  }
}

bool beginInplace(const Tensor &self, bool recording) {
  checkNoInternalOverlap(self);
  if (recording) checkInplace(self);
  bumpVersion(self);
  return recording;
}

void recordView(const char *name, const Tensor &base, const Tensor &view,
                std::function<Tensor(const Tensor &grad)> backward) {
  record(name, {base}, {view},
         [backward = std::move(backward)](const TensorList &g) { return TensorList{backward(g[0])}; });
}

void inplaceWithHistory(const Tensor &self, const std::function<Tensor(const Tensor &)> &outOfPlace) {
  Tensor result;
  {
    GradModeGuard recording(true);
    result = outOfPlace(clone(self));
  }
  {
    NoGradGuard plain;
    copyValues_(self, result);
  }
  Tensor base = viewBase(self);
  if (!base.defined()) {
    AutogradMeta &m = ensureAutogradMeta(self);
    m.gradFn = requiresGrad(result) ? gradFn(result) : nullptr;
    m.outputNr = requiresGrad(result) ? autogradMeta(result)->outputNr : 0;
    m.requiresGrad = false;
    return;
  }
  auto node = std::make_shared<CopySlices>(base, self);
  recordNode(node, {&base, &result}, {});
  rebaseHistory(base, node);
  // self is now a view of base's new history.
  AutogradMeta &m = ensureAutogradMeta(self);
  m.gradFn.reset();
  m.requiresGrad = false;
  IntList sizes = base.sizes(), strides = base.strides(), viewSizes = self.sizes(), viewStrides = self.strides();
  int64_t shift = self.storageOffset() - base.storageOffset();
  recordView("AsStridedBackward", base, self, [=](const Tensor &g) {
    Tensor gBase = emptyStrided(sizes, strides, g.dtype(), g.device());
    zero_(gBase);
    copy_(regionOf(gBase, viewSizes, viewStrides, shift), g);
    return gBase;
  });
}

}  // namespace torch
