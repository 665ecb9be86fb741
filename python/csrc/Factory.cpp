// Creation functions: torch.tensor, zeros/ones/empty/full and their *_like and new_*
// forms, eye, arange, range, linspace, logspace.
#include "python/csrc/Factory.h"

#include <atomic>

#include "core/ops/Factory.h"

namespace torch::python {

Tensor fromNumpy(const py::array &array);  // TensorBase.cpp

py::object Keywords::take(const char *name) {
  taken_.insert(name);
  if (!kwargs_.contains(name)) return py::none();
  return kwargs_[name];
}

void Keywords::finish() const {
  for (auto item : kwargs_) {
    std::string name = py::str(item.first);
    if (!taken_.count(name)) {
      throw py::type_error(std::string(function_) + "() got an unexpected keyword argument '" + name + "'");
    }
  }
}

CreationOptions::CreationOptions(Keywords &kw) {
  py::object o = kw.take("out");
  if (!o.is_none()) {
    if (!isTensor(o)) throw py::type_error("out must be a Tensor");
    out = unwrap(o);
  }
  py::object d = kw.take("dtype");
  if (!d.is_none()) dtype = toDtype(d);
  device = toDevice(kw.take("device"));
  py::object grad = kw.take("requires_grad");
  requiresGrad = !grad.is_none() && grad.cast<bool>();
  // Accepted for compatibility: there is one layout, and no pinned or channels-last memory here.
  kw.take("layout");
  kw.take("pin_memory");
  kw.take("memory_format");
  if (out && dtype && out->dtype() != *dtype) {
    throw py::type_error(std::string("dtype ") + scalarTypeName(*dtype) + " does not match the dtype " +
                         scalarTypeName(out->dtype()) + " of out");
  }
}

namespace {
std::atomic<Device> factoryDevice{Device::CPU};
}  // namespace

Device defaultFactoryDevice() { return factoryDevice.load(); }
void setDefaultFactoryDevice(Device device) { factoryDevice.store(device); }

Tensor creationTarget(const CreationOptions &options, const IntList &sizes, ScalarType fallback,
                      Device fallbackDevice) {
  if (options.out) {
    resize_(*options.out, sizes);
    return *options.out;
  }
  return empty(sizes, options.dtype.value_or(fallback), options.device.value_or(fallbackDevice));
}

py::object finishCreation(const Tensor &t, const CreationOptions &options) {
  py::object obj = py::cast(t);
  // requires_grad is applied once autograd provides requires_grad_ (until then it is accepted).
  if (options.requiresGrad && py::hasattr(obj, "requires_grad_")) obj.attr("requires_grad_")(true);
  return obj;
}

IntList creationSizes(const py::args &args, Keywords &kw) {
  py::object size = kw.take("size");
  if (!size.is_none()) {
    if (args.size() > 0) throw py::type_error("size given both as positional and keyword arguments");
    return toIntList(size, "size");
  }
  if (args.size() == 0) throw py::type_error("missing the required argument 'size'");
  return toSizes(args, "size");
}

namespace {

Scalar scalarArg(py::handle obj, const char *what) {
  if (!isScalarLike(obj)) {
    throw py::type_error(std::string(what) + " must be a number, got " +
                         std::string(py::str(obj.get_type().attr("__name__"))));
  }
  return toScalar(obj);
}

// The tensors that zeros/ones/empty and friends produce, as a fill of a target tensor.
enum class Fill { Zeros, Ones, Empty };

void applyFill(const Tensor &t, Fill fill) {
  if (fill == Fill::Zeros) zero_(t);
  if (fill == Fill::Ones) fill_(t, Scalar(int64_t(1)));
}

// creationTarget, then fill(target), without the GIL (Note [Releasing the GIL]): the
// arguments are C++ values by now.
template <typename F>
Tensor filledTarget(const CreationOptions &options, const IntList &sizes, ScalarType fallback, F &&fill,
                    Device fallbackDevice = defaultFactoryDevice()) {
  return withoutGil([&] {
    Tensor t = creationTarget(options, sizes, fallback, fallbackDevice);
    fill(t);
    return t;
  });
}

// The target of a *_like function: input's shape and (dense) layout, filled, without the GIL.
template <typename F>
Tensor filledLike(const Tensor &input, const CreationOptions &options, F &&fill) {
  return withoutGil([&] {
    Tensor t = options.out || (options.device && *options.device != input.device())
                   ? creationTarget(options, input.sizes(), input.dtype())
                   : emptyLikePreserve(input, options.dtype.value_or(input.dtype()));
    fill(t);
    return t;
  });
}

}  // namespace

void bindFactory(py::module &m, TensorClass &cls) {
  m.def(
      "tensor",
      [](py::handle data, py::kwargs kwargs) {
        Keywords kw("tensor", kwargs);
        CreationOptions options(kw);
        kw.finish();
        if (options.out) throw py::type_error("tensor() got an unexpected keyword argument 'out'");
        Tensor t = tensorFromData(data, options.dtype);  // built on the host, then moved
        return finishCreation(to(t, t.dtype(), options.device.value_or(defaultFactoryDevice())), options);
      },
      py::arg("data"));
  // as_tensor shares memory with a tensor or an array of the requested type.
  m.def(
      "as_tensor",
      [](py::handle data, py::kwargs kwargs) {
        Keywords kw("as_tensor", kwargs);
        CreationOptions options(kw);
        kw.finish();
        Tensor t = isTensor(data)                    ? unwrap(data)
                   : py::isinstance<py::array>(data) ? fromNumpy(py::reinterpret_borrow<py::array>(data))
                                                     : tensorFromData(data, options.dtype);
        Device where = options.device.value_or(isTensor(data) ? t.device() : defaultFactoryDevice());
        return py::cast(to(t, options.dtype.value_or(t.dtype()), where));
      },
      py::arg("data"));

  struct FillEntry {
    const char *name;
    Fill fill;
  };
  static const FillEntry fills[] = {{"zeros", Fill::Zeros}, {"ones", Fill::Ones}, {"empty", Fill::Empty}};
  for (const FillEntry &e : fills) {
    Fill fill = e.fill;
    const char *name = e.name;
    m.def(name, [fill, name](py::args size, py::kwargs kwargs) {
      Keywords kw(name, kwargs);
      IntList sizes = creationSizes(size, kw);
      CreationOptions options(kw);
      kw.finish();
      Tensor t = filledTarget(options, sizes, defaultFloatType(), [fill](const Tensor &r) { applyFill(r, fill); });
      return finishCreation(t, options);
    });
    std::string like = std::string(name) + "_like";
    m.def(
        like.c_str(),
        [fill, like](const Tensor &input, py::kwargs kwargs) {
          Keywords kw(like.c_str(), kwargs);
          CreationOptions options(kw);
          kw.finish();
          Tensor t = filledLike(input, options, [fill](const Tensor &r) { applyFill(r, fill); });
          return finishCreation(t, options);
        },
        py::arg("input"));
    std::string method = std::string("new_") + name;
    cls.def(method.c_str(), [fill, method](const Tensor &self, py::args size, py::kwargs kwargs) {
      Keywords kw(method.c_str(), kwargs);
      IntList sizes = creationSizes(size, kw);
      CreationOptions options(kw);
      kw.finish();
      Tensor t = filledTarget(
          options, sizes, self.dtype(), [fill](const Tensor &r) { applyFill(r, fill); }, self.device());
      return finishCreation(t, options);
    });
  }

  // full's dtype follows the fill value (PyTorch 1.13): bool, int64 or the default float.
  m.def(
      "full",
      [](py::handle size, py::handle value, py::kwargs kwargs) {
        Keywords kw("full", kwargs);
        CreationOptions options(kw);
        kw.finish();
        Scalar v = scalarArg(value, "fill_value");
        Tensor t = filledTarget(options, toIntList(size, "size"), v.naturalType(defaultFloatType()),
                                [&](const Tensor &r) { fill_(r, v); });
        return finishCreation(t, options);
      },
      py::arg("size"), py::arg("fill_value"));
  m.def(
      "full_like",
      [](const Tensor &input, py::handle value, py::kwargs kwargs) {
        Keywords kw("full_like", kwargs);
        CreationOptions options(kw);
        kw.finish();
        Scalar v = scalarArg(value, "fill_value");
        Tensor t = filledLike(input, options, [&](const Tensor &r) { fill_(r, v); });
        return finishCreation(t, options);
      },
      py::arg("input"), py::arg("fill_value"));
  cls.def(
      "new_full",
      [](const Tensor &self, py::handle size, py::handle value, py::kwargs kwargs) {
        Keywords kw("new_full", kwargs);
        CreationOptions options(kw);
        kw.finish();
        Scalar v = scalarArg(value, "fill_value");
        Tensor t = filledTarget(
            options, toIntList(size, "size"), self.dtype(), [&](const Tensor &r) { fill_(r, v); }, self.device());
        return finishCreation(t, options);
      },
      py::arg("size"), py::arg("fill_value"));
  m.def(
      "empty_strided",
      [](py::handle size, py::handle stride, py::kwargs kwargs) {
        Keywords kw("empty_strided", kwargs);
        CreationOptions options(kw);
        kw.finish();
        IntList sizes = toIntList(size, "size"), strides = toIntList(stride, "stride");
        ScalarType type = options.dtype.value_or(defaultFloatType());
        return finishCreation(emptyStrided(sizes, strides, type, options.device.value_or(defaultFactoryDevice())),
                              options);
      },
      py::arg("size"), py::arg("stride"));

  m.def(
      "eye",
      [](int64_t n, py::object mObj, py::kwargs kwargs) {
        Keywords kw("eye", kwargs);
        CreationOptions options(kw);
        kw.finish();
        int64_t cols = mObj.is_none() ? n : intArg(mObj, "m");
        Tensor t = filledTarget(options, {0}, defaultFloatType(), [&](const Tensor &r) { eyeInto(r, n, cols); });
        return finishCreation(t, options);
      },
      py::arg("n"), py::arg("m") = py::none());

  // arange(end), arange(start, end), arange(start, end, step); start=, end=, step= too.
  m.def("arange", [](py::args args, py::kwargs kwargs) {
    Keywords kw("arange", kwargs);
    py::object startObj = kw.take("start"), endObj = kw.take("end"), stepObj = kw.take("step");
    CreationOptions options(kw);
    kw.finish();
    TORCH_CHECK(args.size() <= 3, Type, "arange() takes at most 3 positional arguments (%zu given)", args.size());
    if (args.size() == 1 && endObj.is_none()) {
      endObj = args[0];
    } else if (args.size() >= 2) {
      startObj = args[0];
      endObj = args[1];
      if (args.size() == 3) stepObj = args[2];
    } else if (args.size() == 1) {
      startObj = args[0];
    }
    if (endObj.is_none()) throw py::type_error("arange() missing the required argument 'end'");
    Scalar start = startObj.is_none() ? Scalar(int64_t(0)) : scalarArg(startObj, "start");
    Scalar end = scalarArg(endObj, "end");
    Scalar step = stepObj.is_none() ? Scalar(int64_t(1)) : scalarArg(stepObj, "step");
    Tensor t = filledTarget(options, {0}, arangeType(start, end, step),
                            [&](const Tensor &r) { arangeInto(r, start, end, step); });
    return finishCreation(t, options);
  });
  m.def(
      "range",
      [](py::handle start, py::handle end, py::handle step, py::kwargs kwargs) {
        Keywords kw("range", kwargs);
        CreationOptions options(kw);
        kw.finish();
        PyErr_WarnEx(PyExc_UserWarning,
                     "torch.range is deprecated and will be removed in a future release because its behavior is "
                     "inconsistent with Python's range builtin. Instead, use torch.arange, which produces values in "
                     "[start, end).",
                     1);
        Scalar first = scalarArg(start, "start"), last = scalarArg(end, "end"), by = scalarArg(step, "step");
        Tensor t =
            filledTarget(options, {0}, defaultFloatType(), [&](const Tensor &r) { rangeInto(r, first, last, by); });
        return finishCreation(t, options);
      },
      py::arg("start"), py::arg("end"), py::arg("step") = 1);
  m.def(
      "linspace",
      [](py::handle start, py::handle end, py::handle steps, py::kwargs kwargs) {
        Keywords kw("linspace", kwargs);
        CreationOptions options(kw);
        kw.finish();
        Scalar first = scalarArg(start, "start"), last = scalarArg(end, "end");
        int64_t count = intArg(steps, "steps");
        Tensor t = filledTarget(options, {0}, defaultFloatType(),
                                [&](const Tensor &r) { linspaceInto(r, first, last, count); });
        return finishCreation(t, options);
      },
      py::arg("start"), py::arg("end"), py::arg("steps"));
  m.def(
      "logspace",
      [](py::handle start, py::handle end, py::handle steps, py::handle base, py::kwargs kwargs) {
        Keywords kw("logspace", kwargs);
        CreationOptions options(kw);
        kw.finish();
        Scalar first = scalarArg(start, "start"), last = scalarArg(end, "end");
        int64_t count = intArg(steps, "steps");
        double b = scalarArg(base, "base").d;
        Tensor t = filledTarget(options, {0}, defaultFloatType(),
                                [&](const Tensor &r) { logspaceInto(r, first, last, count, b); });
        return finishCreation(t, options);
      },
      py::arg("start"), py::arg("end"), py::arg("steps"), py::arg("base") = 10.0);
}

}  // namespace torch::python
