// Autograd for Python: tensor properties (requires_grad, grad, grad_fn, ...), grad mode,
// running backward, tensor hooks, and nodes for custom torch.autograd.Function classes
// written in Python. The engine itself is Python-free (autograd/Engine.h).
#include <cctype>

#include "autograd/Autograd.h"
#include "autograd/Engine.h"
#include "python/csrc/Bind.h"

namespace torch::python {

namespace {

// PyTorch's node names: "add" -> "AddBackward0", "SelectBackward" -> "SelectBackward0".
std::string nodeName(const Node &node) {
  std::string name = node.name();
  if (name == "AccumulateGrad" || name == "CopySlices" || node.isPython) return name;
  if (name.size() < 8 || name.compare(name.size() - 8, 8, "Backward") != 0) {
    std::string camel;
    bool upper = true;
    for (char c : name) {
      if (c == '_') {
        upper = true;
        continue;
      }
      camel += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
      upper = false;
    }
    name = camel + "Backward";
  }
  return name + "0";
}

// A node whose backward is a Python callable (custom Functions): gets the output gradients,
// returns one gradient (or None) per input.
struct PyNode : Node {
  PyNode(py::object backward, std::string name) : backward(std::move(backward)), name_(std::move(name)) {
    isPython = true;
  }
  ~PyNode() override {
    py::gil_scoped_acquire gil;
    backward = py::object();
  }
  TensorList apply(TensorList &&grads) override {
    py::gil_scoped_acquire gil;
    TORCH_CHECK(backward, Runtime,
                "Trying to backward through the graph a second time; specify retain_graph=True if you need to");
    py::tuple args(grads.size());
    for (size_t i = 0; i < grads.size(); i++) args[i] = py::cast(grads[i]);
    py::object result = backward(*args);
    py::tuple results = py::isinstance<py::tuple>(result) ? result.cast<py::tuple>() : py::make_tuple(result);
    TORCH_CHECK(results.size() >= next.size(), Runtime,
                "function %sBackward returned an incorrect number of gradients (expected %zu, got %zu)", name_.c_str(),
                next.size(), results.size());
    TensorList out(next.size());
    for (size_t i = 0; i < next.size(); i++) {
      if (results[i].is_none()) continue;
      TORCH_CHECK(isTensor(results[i]), Type, "function %sBackward returned a gradient that is not a Tensor",
                  name_.c_str());
      out[i] = unwrap(results[i]);
    }
    return out;
  }
  void releaseSaved() override {
    py::gil_scoped_acquire gil;
    backward = py::object();
    savedReleased = true;
  }
  std::string name() const override { return name_ + "Backward"; }
  py::object backward;
  std::string name_;
};

// A Python callable that the engine may copy, call and drop without holding the GIL (Note
// [Releasing the GIL] in Bind.h): calling it and dropping the last copy take the GIL.
class GilSafeCallable {
 public:
  explicit GilSafeCallable(py::function f)
      : f_(new py::function(std::move(f)), [](py::function *p) {
          py::gil_scoped_acquire gil;
          delete p;
        }) {}
  const py::function &operator*() const { return *f_; }

 private:
  std::shared_ptr<py::function> f_;
};

TensorList tensorsOf(py::handle seq, const char *what) {
  TensorList r;
  for (py::handle item : seq) {
    if (item.is_none()) {
      r.emplace_back();
      continue;
    }
    if (!isTensor(item)) throw py::type_error(std::string(what) + " must be tensors or None");
    r.push_back(unwrap(item));
  }
  return r;
}

void setData(const Tensor &self, const Tensor &src) {
  // t.data = x: t becomes a view of x's memory (any type, any device), keeping t's autograd state.
  TensorImpl *impl = self.impl();
  THByteTensor *fresh = dispatch(src.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    return reinterpret_cast<THByteTensor *>(TH<T>::newWithTensor(src.th<T>()));
  });
  dispatch(impl->dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    TH<T>::free(reinterpret_cast<typename TH<T>::Tensor *>(impl->th));
  });
  // As PyTorch: a leaf's gradient accumulator knows its type and device, so a new one is made
  // when they change (module.cuda() after a CPU forward), else backward would refuse the
  // gradients of the moved tensor.
  AutogradMeta *meta = autogradMeta(self);
  if (meta && (impl->dtype != src.dtype() || impl->device != src.device())) meta->gradAccumulator.reset();
  impl->th = fresh;
  impl->dtype = src.dtype();
  impl->device = src.device();
  shareVersion(self, src);
}

}  // namespace

// As PyTorch's check of what a tensor hook returns: the gradient's type, device and size.
static void checkHookResult(const Tensor &original, const Tensor &result, const std::string &name) {
  auto typeString = [](const Tensor &x) {
    return std::string(x.device() == Device::CPU ? "CPU" : "CUDA") + scalarTypeName(x.dtype()) + "Type";
  };
  TORCH_CHECK(original.dtype() == result.dtype() && original.device() == result.device(), Runtime,
              "hook '%s' has changed the type of value (was %s got %s)", name.c_str(), typeString(original).c_str(),
              typeString(result).c_str());
  TORCH_CHECK(original.sizes() == result.sizes(), Runtime, "hook '%s' has changed the size of value", name.c_str());
}

void bindAutograd(py::module &m, TensorClass &cls) {
  py::class_<Node, std::shared_ptr<Node>>(m, "Node")
      .def("name", [](const Node &n) { return nodeName(n); })
      .def_property_readonly("next_functions",
                             [](const Node &n) {
                               py::tuple r(n.next.size());
                               for (size_t i = 0; i < n.next.size(); i++) {
                                 r[i] = py::make_tuple(n.next[i].fn ? py::cast(n.next[i].fn) : py::none(),
                                                       n.next[i].inputNr);
                               }
                               return r;
                             })
      .def_property_readonly("variable",
                             [](const Node &n) -> py::object {
                               if (auto *acc = dynamic_cast<const AccumulateGrad *>(&n)) return py::cast(acc->variable);
                               throw py::attribute_error("'" + nodeName(n) + "' object has no attribute 'variable'");
                             })
      .def("register_hook",
           [](Node &n, py::function f) {
             // hook(grad_inputs, grad_outputs): may return replacement grad_inputs.
             n.postHooks.push_back([hook = GilSafeCallable(f)](TensorList &gradInputs, const TensorList &gradOutputs) {
               py::gil_scoped_acquire gil;
               py::tuple in(gradInputs.size()), out(gradOutputs.size());
               for (size_t i = 0; i < gradInputs.size(); i++) in[i] = py::cast(gradInputs[i]);
               for (size_t i = 0; i < gradOutputs.size(); i++) out[i] = py::cast(gradOutputs[i]);
               py::object r = (*hook)(in, out);
               if (!r.is_none()) gradInputs = tensorsOf(r, "hook results");
             });
           })
      .def("__repr__", [](const Node &n) { return "<" + nodeName(n) + " object>"; });

  cls.def_property(
         "requires_grad", [](const Tensor &t) { return requiresGrad(t); },
         [](const Tensor &t, bool r) { setRequiresGrad(t, r); })
      .def(
          "requires_grad_",
          [](py::object self, bool r) {
            setRequiresGrad(unwrap(self), r);
            return self;
          },
          py::arg("requires_grad") = true)
      .def_property(
          "grad", [](const Tensor &t) { return grad(t); },
          [](const Tensor &t, std::optional<Tensor> g) { setGrad(t, g ? *g : Tensor()); })
      .def_property_readonly("grad_fn",
                             [](const Tensor &t) -> py::object {
                               const auto &fn = gradFn(t);
                               return fn ? py::cast(fn) : py::none();
                             })
      .def_property_readonly("is_leaf", [](const Tensor &t) { return isLeaf(t); })
      .def_property_readonly("retains_grad",
                             [](const Tensor &t) {
                               AutogradMeta *m = autogradMeta(t);
                               return m && m->retainsGrad;
                             })
      .def_property_readonly("output_nr",
                             [](const Tensor &t) {
                               AutogradMeta *m = autogradMeta(t);
                               return m ? m->outputNr : 0;
                             })
      .def_property_readonly("_version", [](const Tensor &t) { return version(t); })
      .def_property_readonly("_base", [](const Tensor &t) { return viewBase(t); })
      .def_property_readonly("is_view", [](const Tensor &t) { return t.impl()->viewBase != nullptr; })
      .def_property(
          "data", [](const Tensor &t) { return detach(t); },
          [](const Tensor &t, const Tensor &src) { setData(t, src); })
      .def("detach", [](const Tensor &t) { return detach(t); })
      // an instance of the Tensor subclass cls on an alias of self: the same memory, and in
      // the graph (AliasBackward), as PyTorch's
      .def("as_subclass",
           [](py::object self, py::handle cls) {
             py::handle tensorType = py::type::of<Tensor>();
             if (!PyType_Check(cls.ptr()) || !PyType_IsSubtype(reinterpret_cast<PyTypeObject *>(cls.ptr()),
                                                               reinterpret_cast<PyTypeObject *>(tensorType.ptr()))) {
               fail(th::ErrorKind::Runtime,
                    "Creating a Tensor subclass from a class that does not inherit from Tensor is not possible. Make "
                    "sure your class inherits from Tensor.");
             }
             py::object r = cls.attr("__new__")(cls);
             tensorType.attr("__init__")(r);
             r.cast<Tensor &>() = alias(unwrap(self));
             return r;
           })
      .def("detach_",
           [](py::object self) {
             const Tensor &t = unwrap(self);
             TORCH_CHECK(!t.impl()->viewBase || !requiresGrad(t), Runtime,
                         "Can't detach views in-place. Use detach() instead.");
             detach_(t);
             return self;
           })
      .def("retain_grad", [](const Tensor &t) { retainGrad(t); })
      .def("register_hook", [](const Tensor &t, py::function f) {
        auto removed = std::make_shared<bool>(false);
        std::string name = py::hasattr(f, "__name__") ? std::string(py::str(f.attr("__name__"))) : "<unknown>";
        registerHook(t, [hook = GilSafeCallable(f), removed, name](const Tensor &g) -> Tensor {
          if (*removed) return Tensor();
          py::gil_scoped_acquire gil;
          py::object r = (*hook)(g);
          if (r.is_none()) return Tensor();
          if (!isTensor(r)) throw py::type_error("a tensor hook must return a Tensor or None");
          checkHookResult(g, unwrap(r), name);
          return unwrap(r);
        });
        return py::cpp_function([removed] { *removed = true; });
      });

  m.def("_set_grad_enabled", [](bool enabled) { GradMode::setEnabled(enabled); });
  m.def("is_grad_enabled", [] { return GradMode::enabled(); });

  // Runs backward from tensors seeded with grads; returns the gradients of inputs (grad) or
  // accumulates into the leaves (backward, inputs empty).
  m.def(
      "_run_backward",
      [](py::sequence tensors, py::sequence grads, bool keepGraph, bool createGraph, py::sequence inputs,
         bool allowUnused) {
        TensorList roots = tensorsOf(tensors, "tensors");
        TensorList seeds = tensorsOf(grads, "grad_tensors");
        TensorList wrt = tensorsOf(inputs, "inputs");
        BackwardOptions options;
        options.keepGraph = keepGraph;
        options.createGraph = createGraph;
        options.allowUnused = allowUnused;
        // Hooks and custom Functions take the GIL back when they run.
        TensorList r = withoutGil([&] { return runBackward(roots, seeds, wrt, options); });
        py::tuple out(r.size());
        for (size_t i = 0; i < r.size(); i++) out[i] = py::cast(r[i]);
        return out;
      },
      py::arg("tensors"), py::arg("grads"), py::arg("keep_graph"), py::arg("create_graph"), py::arg("inputs"),
      py::arg("allow_unused"));

  // Note [Saved tensor hooks] (autograd/Autograd.h): the packed value is a Python object,
  // held and dropped with the GIL, since the ops that save tensors run without it.
  m.def("_push_saved_tensors_default_hooks", [](py::function pack, py::function unpack) {
    GilSafeCallable packHook(std::move(pack)), unpackHook(std::move(unpack));
    SavedTensorHooks hooks;
    hooks.pack = [packHook](const Tensor &t) -> std::shared_ptr<void> {
      py::gil_scoped_acquire gil;
      return std::shared_ptr<void>(new py::object((*packHook)(py::cast(t))), [](void *p) {
        py::gil_scoped_acquire gil;
        delete static_cast<py::object *>(p);
      });
    };
    hooks.unpack = [unpackHook](const std::shared_ptr<void> &packed) {
      py::gil_scoped_acquire gil;
      py::object result = (*unpackHook)(*static_cast<py::object *>(packed.get()));
      if (!isTensor(result)) {
        throw py::type_error("Output of saved tensor unpack_hook expected to be a Tensor but got result of type " +
                             std::string(Py_TYPE(result.ptr())->tp_name));
      }
      return unwrap(result);
    };
    pushSavedTensorHooks(std::move(hooks));
  });
  m.def("_pop_saved_tensors_default_hooks", [] { popSavedTensorHooks(); });
  m.def("_saved_tensors_hooks_disable", [](std::string message) { setSavedTensorHooksDisabled(std::move(message)); });
  m.def("_saved_tensors_hooks_enable", [] { setSavedTensorHooksDisabled(std::nullopt); });
  m.def("_saved_tensors_hooks_get_disabled_error_message", [] { return savedTensorHooksDisabled(); });
  // A custom Function's saved tensor (ctx.save_for_backward): checked for in-place changes and
  // packed by the saved tensors hooks as the core's are.
  py::class_<SavedTensor>(m, "_SavedTensor")
      .def(py::init([](const Tensor &t) { return SavedTensor(t, false, false); }))
      .def("unpack", [](const SavedTensor &s, const std::string &owner) { return s.unpack(owner); });

  // Records a custom Function's call: backward(*grad_outputs) -> gradients per input (None
  // where an input is not a tensor or needs none). dirty: inputs modified in place that are
  // returned. Returns the outputs to give the user: an input returned unchanged comes back
  // as a new tensor object (an alias), as in PyTorch.
  m.def("_record_function", [](py::object backward, std::string name, py::sequence inputs, py::sequence outputs,
                               py::sequence dirty, py::sequence nonDifferentiable) {
    TensorList ins = tensorsOf(inputs, "inputs");
    TensorList dirtyTensors = tensorsOf(dirty, "dirty tensors");
    TensorList noGrad = tensorsOf(nonDifferentiable, "non-differentiable tensors");
    auto contains = [](const TensorList &list, const Tensor &t) {
      for (const Tensor &x : list) {
        if (x.defined() && x.isSameAs(t)) return true;
      }
      return false;
    };
    bool record = false;
    for (const Tensor &t : ins) record = record || (t.defined() && requiresGrad(t));
    auto node = std::make_shared<PyNode>(backward, name);
    for (const Tensor &t : ins) node->next.push_back(t.defined() ? gradientEdge(t) : Edge{});
    py::list result;
    for (py::handle item : outputs) {
      if (!isTensor(item)) {
        result.append(item);
        continue;
      }
      Tensor out = unwrap(item);
      if (contains(ins, out) && !contains(dirtyTensors, out)) out = detach(out);
      if (record && isFloating(out.dtype()) && !contains(noGrad, out)) {
        if (contains(dirtyTensors, out)) checkInplace(out);
        AutogradMeta &meta = ensureAutogradMeta(out);
        meta.gradFn = node;
        meta.outputNr = static_cast<uint32_t>(node->outputs.size());
        meta.requiresGrad = false;
      }
      if (record) node->outputs.push_back({out.sizes(), out.dtype(), out.device()});
      if (contains(dirtyTensors, out)) bumpVersion(out);
      result.append(py::cast(out));
    }
    return result;
  });
}

}  // namespace torch::python
