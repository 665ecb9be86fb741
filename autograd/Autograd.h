// The autograd graph: nodes (one per recorded op), edges to the nodes of its inputs, the
// per-tensor state (requires_grad, grad, grad_fn), saved tensors with version checks,
// and grad mode. Python-free; the engine that runs a graph is Engine.h.
//
// Recording happens inside the core ops themselves (ops/*.cpp): an op whose inputs need a
// gradient, with grad mode on, creates a node holding what its backward needs and sets it
// as the result's grad_fn. Backward formulas are written with the same ops, so running them
// with grad mode on (create_graph=True) records a graph of the gradient.
#ifndef TORCH_AUTOGRAD_H
#define TORCH_AUTOGRAD_H

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/Tensor.h"

namespace torch {

using TensorList = std::vector<Tensor>;

// Grad mode: recording on or off for this thread (torch.no_grad()).
struct GradMode {
  static bool enabled();
  static void setEnabled(bool enabled);
};
struct NoGradGuard {
  NoGradGuard() : previous(GradMode::enabled()) { GradMode::setEnabled(false); }
  ~NoGradGuard() { GradMode::setEnabled(previous); }
  bool previous;
};
struct GradModeGuard {
  explicit GradModeGuard(bool enabled) : previous(GradMode::enabled()) { GradMode::setEnabled(enabled); }
  ~GradModeGuard() { GradMode::setEnabled(previous); }
  bool previous;
};

struct Node;

// An input of a node: which node, and which of its outputs (input_nr of that node).
struct Edge {
  std::shared_ptr<Node> fn;
  uint32_t inputNr = 0;
  bool valid() const { return fn != nullptr; }
};

// What a node knows about each of its outputs, to make a zero gradient for an output that
// got none, and to check gradient shapes.
struct OutputInfo {
  IntList sizes;
  ScalarType dtype;
  Device device;
  // Which tensor it was (compared, never dereferenced): a saved output finds its number by it.
  const TensorImpl *identity = nullptr;
};

// A hook on a gradient flowing into a tensor or out of a node: returns a replacement or an
// undefined tensor to keep it.
using GradHook = std::function<Tensor(const Tensor &)>;

struct Node : std::enable_shared_from_this<Node> {
  Node();
  virtual ~Node() = default;
  // Gradients of the node's outputs (one per output, undefined where none arrived) to
  // gradients of its inputs (one per edge in next).
  virtual TensorList apply(TensorList &&gradOutputs) = 0;
  virtual std::string name() const = 0;
  // Frees the saved tensors (backward without retain_graph).
  virtual void releaseSaved() {}
  std::vector<Edge> next;
  std::vector<OutputInfo> outputs;
  uint64_t sequenceNr;  // creation order: among ready nodes, the latest runs first
  // Hooks on the gradient of one output (tensor hooks: register_hook on a tensor whose
  // grad_fn this is, or on a leaf through its AccumulateGrad).
  std::vector<std::pair<uint32_t, GradHook>> preHooks;
  // retain_grad's hooks: they run after preHooks, so .grad holds the gradient the hooks made.
  std::vector<std::pair<uint32_t, GradHook>> retainHooks;
  // Hooks the binding attaches (Python functions) see grad_inputs and grad_outputs.
  std::vector<std::function<void(TensorList &gradInputs, const TensorList &gradOutputs)>> postHooks;
  bool savedReleased = false;
  bool isPython = false;  // a custom Function's node (named after the user's class)
};

// Gradient sink of a leaf tensor: adds what arrives into leaf.grad.
struct AccumulateGrad : Node {
  explicit AccumulateGrad(const Tensor &leaf);
  TensorList apply(TensorList &&grads) override;
  std::string name() const override { return "AccumulateGrad"; }
  Tensor variable;  // the leaf itself (same impl)
};

// Most ops' backward: a function of the output gradients (all defined: the engine fills
// zeros for outputs that got none) giving one gradient per input (undefined: none).
// Saved tensors live in the function's captures; releasing drops the function.
struct FunctionNode : Node {
  using Backward = std::function<TensorList(const TensorList &gradOutputs)>;
  FunctionNode(const char *name, Backward backward) : name_(name), backward_(std::move(backward)) {}
  TensorList apply(TensorList &&gradOutputs) override;
  std::string name() const override { return name_; }
  // Drops what the backward holds. A node that saved no tensor keeps its function, so a
  // second backward through it works, as in PyTorch, which raises only for freed tensors.
  void releaseSaved() override;
  // The SavedTensors made for this node (Note [Saved outputs] has who makes them): alive
  // while its function holds them.
  std::vector<std::weak_ptr<const void>> saved;

 private:
  const char *name_;
  Backward backward_;
};

// Note [Saved tensor hooks]: torch.autograd.graph.saved_tensors_hooks. While a pair is pushed
// (per thread; only the innermost pair acts), a SavedTensor keeps what pack(t) returns instead
// of t, and the backward reads unpack(that). The packed value is opaque to the core (the
// binding's is a Python object). As in PyTorch, nothing can check versions through the hooks.
// A saved output reaches pack detached (Note [Saved outputs]: the packed value must not hold
// the node that holds it).
struct SavedTensorHooks {
  std::function<std::shared_ptr<void>(const Tensor &)> pack;
  std::function<Tensor(const std::shared_ptr<void> &)> unpack;
};
void pushSavedTensorHooks(SavedTensorHooks hooks);  // fails while the hooks are disabled
void popSavedTensorHooks();
// disable_saved_tensors_hooks: while a message is set, pushing hooks fails with it; disabling
// fails while hooks are pushed. nullopt enables them again.
void setSavedTensorHooksDisabled(std::optional<std::string> message);
const std::optional<std::string> &savedTensorHooksDisabled();

// A tensor kept for backward, with the version it had: using it after an in-place change
// raises instead of giving a wrong gradient.
class SavedTensor {
 public:
  SavedTensor() = default;
  // isOutput: the tensor is an output of the node saving it; it is kept without its
  // grad_fn, which would make a reference cycle. Note [Saved outputs]: unpacked while the
  // node runs with grad mode on (create_graph), it gets the node back as its grad_fn, so
  // that formulas using their own result (exp, tanh, sqrt, ...) differentiate through it.
  // ofNextNode: it belongs to the next node recorded (false for a custom Function's ctx).
  SavedTensor(const Tensor &t, bool isOutput, bool ofNextNode = true);
  Tensor unpack(const std::string &owner) const;  // owner: the node's name, for the error
  void reset() {
    data_ = Tensor();
    packed_.reset();
  }
  bool defined() const { return data_.defined() || wasDefined_; }

 private:
  Tensor data_;
  std::shared_ptr<void> packed_;  // Note [Saved tensor hooks]: what pack returned, and its unpack
  std::function<Tensor(const std::shared_ptr<void> &)> unpack_;
  std::shared_ptr<const void> alive_;           // shared by copies; the node watches it
  const TensorImpl *outputIdentity_ = nullptr;  // set for a saved output
  std::shared_ptr<std::atomic<uint32_t>> version_;
  uint32_t savedVersion_ = 0;
  bool wasDefined_ = false;
};

struct AutogradMeta {
  bool requiresGrad = false;  // set by the user on leaves; non-leaves follow their grad_fn
  bool retainsGrad = false;
  Tensor grad;
  std::shared_ptr<Node> gradFn;
  uint32_t outputNr = 0;
  std::weak_ptr<Node> gradAccumulator;
  // register_hook on a leaf: kept by the tensor and run by its AccumulateGrad, which lives
  // only while a graph uses the leaf.
  std::vector<GradHook> leafHooks;
};

// ---- per-tensor state ----
AutogradMeta *autogradMeta(const Tensor &t);        // null when it has none
AutogradMeta &ensureAutogradMeta(const Tensor &t);  // creates it
bool requiresGrad(const Tensor &t);
void setRequiresGrad(const Tensor &t, bool requires);  // leaves only
bool isLeaf(const Tensor &t);
const std::shared_ptr<Node> &gradFn(const Tensor &t);
Tensor grad(const Tensor &t);
void setGrad(const Tensor &t, const Tensor &g);
// The same data without history (shares storage and version).
Tensor detach(const Tensor &t);
void detach_(const Tensor &t);
// The edge a gradient for t flows along: its grad_fn, or its leaf accumulator.
Edge gradientEdge(const Tensor &t);
// register_hook: hook sees (and may replace) every gradient computed for t.
void registerHook(const Tensor &t, GradHook hook);
// retain_grad: a non-leaf keeps its gradient in .grad.
void retainGrad(const Tensor &t);

// ---- version counters (shared by a tensor and its views) ----
uint32_t version(const Tensor &t);
void bumpVersion(const Tensor &t);  // every in-place op calls this after writing
void shareVersion(const Tensor &view, const Tensor &base);

// ---- recording ----
bool needsRecording(std::initializer_list<const Tensor *> inputs);

// Note [Recording scope]: a differentiable op opens a RecordScope on its inputs. It says
// whether the op must record a node, and turns grad mode off for the op's body, so that
// the ops it calls inside (conversions, expands, kernels) record nothing; the op then
// records one node for itself with its formula from Derivatives.h.
class RecordScope {
 public:
  // Grad mode is touched only when recording: with no input that needs a gradient, nothing
  // the body computes can need one either.
  explicit RecordScope(std::initializer_list<const Tensor *> inputs) : active_(needsRecording(inputs)) {
    if (active_) GradMode::setEnabled(false);
  }
  ~RecordScope() {
    if (active_) GradMode::setEnabled(true);
  }
  RecordScope(const RecordScope &) = delete;
  RecordScope &operator=(const RecordScope &) = delete;
  explicit operator bool() const { return active_; }

 private:
  bool active_;
};

// Note [In-place ops and autograd]: an in-place op that must record runs as its
// out-of-place twin on a recorded clone of self (so nothing it saves is overwritten), writes
// the result into self, and hands the result's history to self. When self is a view of a
// tensor that requires grad, the base's history becomes a CopySlices node: the gradient of
// the base outside the view passes through, the part inside goes through the op.
// outOfPlace(selfBefore) computes the new value of self; it runs with grad mode on.
void inplaceWithHistory(const Tensor &self, const std::function<Tensor(const Tensor &)> &outOfPlace);
// Checks before an in-place op: a leaf that requires grad (or a view of one) cannot be
// changed in place while grad mode is on.
void checkInplace(const Tensor &self);
// The start of an in-place op on self: when it will record (recording), the in-place rules
// are checked first, so that a refused op changes nothing, its version included; then the
// version is bumped. Returns recording.
bool beginInplace(const Tensor &self, bool recording);
// Records a view op: view shares base's memory and version; backward maps the view's
// gradient to base's shape.
void recordView(const char *name, const Tensor &base, const Tensor &view,
                std::function<Tensor(const Tensor &grad)> backward);
// Records `outputs = op(inputs)` with the given backward when any input needs a gradient.
void record(const char *name, const TensorList &inputs, const TensorList &outputs, FunctionNode::Backward backward);
// Connects node to the inputs (one edge each; undefined or no-grad inputs give an invalid
// edge) and makes it the grad_fn of outputs.
void recordNode(const std::shared_ptr<Node> &node, std::initializer_list<const Tensor *> inputs,
                std::initializer_list<const Tensor *> outputs);
void recordNode(const std::shared_ptr<Node> &node, const TensorList &inputs, const TensorList &outputs);
// An in-place op on self: self's history becomes node (whose first input is old self).
void rebaseHistory(const Tensor &self, const std::shared_ptr<Node> &node);
// The gradient reduced to shape (broadcasting's backward: sum over broadcast dimensions).
Tensor sumToShape(const Tensor &grad, const IntList &shape);

}  // namespace torch

#endif
