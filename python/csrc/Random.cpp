// Random numbers: torch.Generator and torch.default_generator, seeding and RNG state
// (manual_seed, seed, initial_seed, get_rng_state, set_rng_state), sampling functions
// (rand, randn, randint, randperm, the *_like forms, normal, bernoulli, multinomial,
// poisson) and the in-place fills (uniform_, normal_, random_, ...).
#include "core/ops/Random.h"

#include "core/ops/Factory.h"
#include "python/csrc/Factory.h"

namespace torch::python {
namespace {

std::string typeName(py::handle obj) { return py::str(obj.get_type().attr("__name__")); }

// generator=None is the default generator.
Generator *generatorOf(py::handle obj) {
  if (obj.is_none()) return nullptr;
  if (!py::isinstance<Generator>(obj)) {
    throw py::type_error("generator must be a torch.Generator, got " + typeName(obj));
  }
  return obj.cast<Generator *>();
}

// A seed as PyTorch reads it: any int in [-2^63, 2^64); negative ones wrap to 2^64 + seed.
uint64_t seedOf(py::handle obj) {
  if (PyBool_Check(obj.ptr()) || !PyIndex_Check(obj.ptr())) {
    throw py::type_error("manual_seed expected an int, but got " + typeName(obj));
  }
  py::object value = py::reinterpret_steal<py::object>(PyNumber_Index(obj.ptr()));
  unsigned long long u = PyLong_AsUnsignedLongLong(value.ptr());
  if (!PyErr_Occurred()) return u;
  PyErr_Clear();
  long long s = PyLong_AsLongLong(value.ptr());
  if (!PyErr_Occurred()) return static_cast<uint64_t>(s);
  PyErr_Clear();
  fail(th::ErrorKind::Runtime, "Overflow when unpacking long: the seed must be in [-2^63, 2^64), got %s",
       std::string(py::str(obj)).c_str());
}

double numberArg(py::handle obj, const char *what) {
  if (!isScalarLike(obj)) throw py::type_error(std::string(what) + " must be a number, got " + typeName(obj));
  return toScalar(obj).d;
}

// Positional arguments of a function whose parameters may also come as keywords: slot i
// takes args[i], and a parameter given both ways is an error, as in a Python signature.
void placePositional(const char *function, const py::tuple &args, std::initializer_list<py::object *> slots,
                     std::initializer_list<const char *> names) {
  if (args.size() > slots.size()) {
    throw py::type_error(std::string(function) + "() takes at most " + std::to_string(slots.size()) +
                         " positional arguments (" + std::to_string(args.size()) + " given)");
  }
  auto slot = slots.begin();
  auto name = names.begin();
  for (size_t i = 0; i < args.size(); i++, slot++, name++) {
    if (!(*slot)->is_none()) {
      throw py::type_error(std::string(function) + "() got multiple values for argument '" + *name + "'");
    }
    **slot = args[i];
  }
}

// Note [Drawing into out=]: a creation function draws into a new tensor of the result
// type, and only then resizes and overwrites out, so that a failing draw (a wrong dtype,
// a bad range) leaves out as it was. Draws go in memory order, so copying gives a
// contiguous out the values a direct fill would. Drawing runs without the GIL (Note [Releasing the GIL]);
// the generator's own lock keeps threads that share it apart.
template <typename Draw>
py::object drawCreation(const CreationOptions &options, const IntList &sizes, ScalarType fallback, Draw draw) {
  Tensor result = withoutGil([&] {
    Tensor t = empty(sizes, options.out ? options.out->dtype() : options.dtype.value_or(fallback), Device::CPU);
    draw(t);
    // The CPU generator's stream, moved to the device (the GPU generator is not bound yet).
    Device where = options.device.value_or(defaultFactoryDevice());
    if (where != Device::CPU) t = to(t, t.dtype(), where);
    if (!options.out) return t;
    resize_(*options.out, t.sizes());
    copy_(*options.out, t);
    return *options.out;
  });
  return finishCreation(result, options);
}

// rand_like and friends: input's shape and (dense) layout, input's type unless dtype= says.
template <typename Draw>
py::object drawLike(const char *function, const Tensor &input, const CreationOptions &options, Draw draw) {
  if (options.out) throw py::type_error(std::string(function) + "() got an unexpected keyword argument 'out'");
  Tensor t = withoutGil([&] {
    Tensor r = emptyLikePreserve(input, options.dtype.value_or(input.dtype()));
    draw(r);
    return r;
  });
  return finishCreation(t, options);
}

// randint(high, size), randint(low, high, size), any of them also as keywords.
struct IntRange {
  int64_t low = 0;
  int64_t high = 0;
};

IntRange rangeOf(const char *function, py::object low, py::object high) {
  if (high.is_none()) throw py::type_error(std::string(function) + "() missing the required argument 'high'");
  IntRange r;
  r.low = low.is_none() ? 0 : intArg(low, "low");
  r.high = intArg(high, "high");
  return r;
}

// A one-argument call f(x) means f(high=x); two mean (low, high).
void placeLowHigh(const char *function, const py::tuple &args, py::object &low, py::object &high) {
  if (args.size() == 1 && high.is_none()) {
    high = args[0];
  } else {
    placePositional(function, args, {&low, &high}, {"low", "high"});
  }
}

// bernoulli(input): input holds the probabilities; bernoulli(input, p): input's shape
// and type, every element 1 with probability p.
Tensor bernoulliAny(const Tensor &input, py::handle p, py::handle generator) {
  Generator *gen = generatorOf(generator);
  if (p.is_none()) return withoutGil([&] { return bernoulli(input, gen); });
  double prob = numberArg(p, "p");
  return withoutGil([&] {
    Tensor r = emptyLikePreserve(input, input.dtype());
    bernoulli_(r, prob, gen);
    return r;
  });
}

// The in-place fills with their PyTorch defaults; every one returns self.
void bindFills(TensorClass &cls) {
  cls.def(
      "uniform_",
      [](const Tensor &self, double from, double to, py::handle generator) {
        Generator *gen = generatorOf(generator);
        withoutGil([&] { uniform_(self, from, to, gen); });
        return self;
      },
      py::arg("from") = 0.0, py::arg("to") = 1.0, py::kw_only(), py::arg("generator") = py::none());
  cls.def(
      "normal_",
      [](const Tensor &self, double mean, double std, py::handle generator) {
        Generator *gen = generatorOf(generator);
        withoutGil([&] { normal_(self, mean, std, gen); });
        return self;
      },
      py::arg("mean") = 0.0, py::arg("std") = 1.0, py::kw_only(), py::arg("generator") = py::none());
  cls.def(
      "exponential_",
      [](const Tensor &self, double lambd, py::handle generator) {
        Generator *gen = generatorOf(generator);
        withoutGil([&] { exponential_(self, lambd, gen); });
        return self;
      },
      py::arg("lambd") = 1.0, py::kw_only(), py::arg("generator") = py::none());
  cls.def(
      "cauchy_",
      [](const Tensor &self, double median, double sigma, py::handle generator) {
        Generator *gen = generatorOf(generator);
        withoutGil([&] { cauchy_(self, median, sigma, gen); });
        return self;
      },
      py::arg("median") = 0.0, py::arg("sigma") = 1.0, py::kw_only(), py::arg("generator") = py::none());
  cls.def(
      "log_normal_",
      [](const Tensor &self, double mean, double std, py::handle generator) {
        Generator *gen = generatorOf(generator);
        withoutGil([&] { logNormal_(self, mean, std, gen); });
        return self;
      },
      py::arg("mean") = 1.0, py::arg("std") = 2.0, py::kw_only(), py::arg("generator") = py::none());
  cls.def(
      "geometric_",
      [](const Tensor &self, double p, py::handle generator) {
        Generator *gen = generatorOf(generator);
        withoutGil([&] { geometric_(self, p, gen); });
        return self;
      },
      py::arg("p"), py::kw_only(), py::arg("generator") = py::none());
  cls.def(
      "bernoulli_",
      [](const Tensor &self, py::handle p, py::handle generator) {
        Generator *gen = generatorOf(generator);
        if (isTensor(p)) {
          Tensor probs = unwrap(p);
          withoutGil([&] { bernoulli_(self, probs, gen); });
        } else {
          double prob = numberArg(p, "p");
          withoutGil([&] { bernoulli_(self, prob, gen); });
        }
        return self;
      },
      py::arg("p") = 0.5, py::kw_only(), py::arg("generator") = py::none());
  // random_(), random_(to), random_(from, to); to=None: up to the type's largest value.
  cls.def("random_", [](const Tensor &self, py::args args, py::kwargs kwargs) {
    Keywords kw("random_", kwargs);
    py::object from = kw.take("from"), to = kw.take("to");
    Generator *gen = generatorOf(kw.take("generator"));
    kw.finish();
    if (args.size() == 1 && from.is_none() && !kwargs.contains("to")) {
      to = args[0];
    } else {
      placePositional("random_", args, {&from, &to}, {"from", "to"});
    }
    std::optional<int64_t> top;
    if (!to.is_none()) top = intArg(to, "to");
    int64_t bottom = from.is_none() ? 0 : intArg(from, "from");
    withoutGil([&] { random_(self, bottom, top, gen); });
    return self;
  });
}

// PyTorch's seed of a generator nobody has seeded (c10's default_rng_seed_val).
constexpr uint64_t kDefaultSeed = 67280421310721ULL;

void bindGenerator(py::module &m) {
  py::class_<Generator> gen(m, "Generator");
  gen.attr("__module__") = "torch";
  gen.def(py::init([](py::handle device) {
            TORCH_CHECK(toDevice(device).value_or(Device::CPU) == Device::CPU, Runtime,
                        "torch.Generator on a CUDA device is not supported yet: use the default generator");
            auto *g = new Generator();
            g->manualSeed(kDefaultSeed);  // PyTorch's new generators start from it too
            return g;
          }),
          py::arg("device") = "cpu");
  gen.def(
      "manual_seed",
      [](py::object self, py::handle seed) {
        self.cast<Generator &>().manualSeed(seedOf(seed));
        return self;
      },
      py::arg("seed"));
  gen.def("seed", [](Generator &g) { return g.seed(); });
  gen.def("initial_seed", [](Generator &g) { return g.initialSeed(); });
  gen.def("get_state", [](Generator &g) { return g.getState(); });
  gen.def(
      "set_state",
      [](py::object self, py::handle state) {
        if (!isTensor(state)) throw py::type_error("expected a torch.ByteTensor, but got " + typeName(state));
        self.cast<Generator &>().setState(unwrap(state));
        return self;
      },
      py::arg("new_state"));
  gen.def_property_readonly("device", [](py::handle) { return py::module::import("torch").attr("device")("cpu"); });

  // The process-wide generator, borrowed (TH owns it): one Python object for it. As in
  // PyTorch, it starts from a seed of /dev/urandom.
  static py::object *defaultObject =
      new py::object(py::cast(&Generator::defaultGenerator(), py::return_value_policy::reference));
  m.attr("default_generator") = *defaultObject;

  m.def(
      "manual_seed",
      [](py::handle seed) {
        // PyTorch's torch.manual_seed takes int(seed), so 3.0 is 3; Generator.manual_seed does not.
        py::object value = py::reinterpret_steal<py::object>(PyNumber_Long(seed.ptr()));
        if (!value) throw py::error_already_set();
        Generator::defaultGenerator().manualSeed(seedOf(value));
        return *defaultObject;
      },
      py::arg("seed"));
  m.def("seed", [] { return Generator::defaultGenerator().seed(); });
  m.def("initial_seed", [] { return Generator::defaultGenerator().initialSeed(); });
  m.def("get_rng_state", [] { return Generator::defaultGenerator().getState(); });
  m.def(
      "set_rng_state",
      [](py::handle state) {
        if (!isTensor(state)) throw py::type_error("expected a torch.ByteTensor, but got " + typeName(state));
        Generator::defaultGenerator().setState(unwrap(state));
      },
      py::arg("new_state"));
}

void bindCreation(py::module &m) {
  m.def("rand", [](py::args size, py::kwargs kwargs) {
    Keywords kw("rand", kwargs);
    IntList sizes = creationSizes(size, kw);
    Generator *gen = generatorOf(kw.take("generator"));
    CreationOptions options(kw);
    kw.finish();
    return drawCreation(options, sizes, defaultFloatType(), [&](const Tensor &t) { uniform_(t, 0, 1, gen); });
  });
  m.def("randn", [](py::args size, py::kwargs kwargs) {
    Keywords kw("randn", kwargs);
    IntList sizes = creationSizes(size, kw);
    Generator *gen = generatorOf(kw.take("generator"));
    CreationOptions options(kw);
    kw.finish();
    return drawCreation(options, sizes, defaultFloatType(), [&](const Tensor &t) { normal_(t, 0, 1, gen); });
  });
  m.def("randint", [](py::args args, py::kwargs kwargs) {
    Keywords kw("randint", kwargs);
    py::object low = kw.take("low"), high = kw.take("high"), size = kw.take("size");
    Generator *gen = generatorOf(kw.take("generator"));
    CreationOptions options(kw);
    kw.finish();
    // The size is the last positional argument unless given by keyword; it is a sequence,
    // never a bare int (randint(3, 10) lacks a size, it is not randint(3, size=10)).
    py::tuple bounds = args;
    if (size.is_none() && args.size() > 0 && !PyLong_Check(args[args.size() - 1].ptr())) {
      size = args[args.size() - 1];
      bounds = args[py::slice(0, static_cast<ssize_t>(args.size()) - 1, 1)];
    }
    if (size.is_none()) throw py::type_error("randint() missing the required argument 'size' (a tuple of ints)");
    placeLowHigh("randint", bounds, low, high);
    IntRange range = rangeOf("randint", low, high);
    return drawCreation(options, toIntList(size, "size"), ScalarType::Long,
                        [&](const Tensor &t) { random_(t, range.low, range.high, gen); });
  });
  m.def(
      "randperm",
      [](py::handle n, py::kwargs kwargs) {
        Keywords kw("randperm", kwargs);
        Generator *gen = generatorOf(kw.take("generator"));
        CreationOptions options(kw);
        kw.finish();
        int64_t count = intArg(n, "n");
        return drawCreation(options, {0}, ScalarType::Long, [&](const Tensor &t) { randpermInto(t, count, gen); });
      },
      py::arg("n"));

  m.def(
      "rand_like",
      [](const Tensor &input, py::kwargs kwargs) {
        Keywords kw("rand_like", kwargs);
        CreationOptions options(kw);
        kw.finish();
        return drawLike("rand_like", input, options, [](const Tensor &t) { uniform_(t, 0, 1, nullptr); });
      },
      py::arg("input"));
  m.def(
      "randn_like",
      [](const Tensor &input, py::kwargs kwargs) {
        Keywords kw("randn_like", kwargs);
        CreationOptions options(kw);
        kw.finish();
        return drawLike("randn_like", input, options, [](const Tensor &t) { normal_(t, 0, 1, nullptr); });
      },
      py::arg("input"));
  m.def(
      "randint_like",
      [](const Tensor &input, py::args args, py::kwargs kwargs) {
        Keywords kw("randint_like", kwargs);
        py::object low = kw.take("low"), high = kw.take("high");
        CreationOptions options(kw);
        kw.finish();
        placeLowHigh("randint_like", args, low, high);
        IntRange range = rangeOf("randint_like", low, high);
        return drawLike("randint_like", input, options,
                        [&](const Tensor &t) { random_(t, range.low, range.high, nullptr); });
      },
      py::arg("input"));

  // normal(Tensor mean, Tensor std), normal(Tensor mean, float std=1), normal(float mean,
  // Tensor std), normal(float mean, float std, size): the tensor forms broadcast mean and std.
  m.def("normal", [](py::args args, py::kwargs kwargs) {
    Keywords kw("normal", kwargs);
    py::object mean = kw.take("mean"), std = kw.take("std"), size = kw.take("size");
    Generator *gen = generatorOf(kw.take("generator"));
    CreationOptions options(kw);
    kw.finish();
    placePositional("normal", args, {&mean, &std, &size}, {"mean", "std", "size"});
    if (mean.is_none()) throw py::type_error("normal() missing the required argument 'mean'");
    if (isTensor(mean) || isTensor(std)) {
      if (!size.is_none() || options.dtype) {
        throw py::type_error(
            "normal() with tensor mean or std takes neither size nor dtype (the result has their "
            "broadcast shape and type)");
      }
      Tensor r;
      if (isTensor(mean) && isTensor(std)) {
        Tensor means = unwrap(mean), stds = unwrap(std);
        r = withoutGil([&] { return normal(means, stds, gen); });
      } else if (isTensor(mean)) {
        Tensor means = unwrap(mean);
        double s = std.is_none() ? 1.0 : numberArg(std, "std");
        r = withoutGil([&] { return normal(means, s, gen); });
      } else {
        double m = numberArg(mean, "mean");
        Tensor stds = unwrap(std);
        r = withoutGil([&] { return normal(m, stds, gen); });
      }
      return finishCreation(unwrap(writeOut(r, options.out)), options);
    }
    if (std.is_none()) throw py::type_error("normal() missing the required argument 'std'");
    if (size.is_none()) throw py::type_error("normal() with float mean and std needs a size");
    double m = numberArg(mean, "mean"), s = numberArg(std, "std");
    return drawCreation(options, toIntList(size, "size"), defaultFloatType(),
                        [&](const Tensor &t) { normal_(t, m, s, gen); });
  });

  m.def(
      "bernoulli",
      [](const Tensor &input, py::handle p, py::handle generator, std::optional<Tensor> out) {
        return writeOut(bernoulliAny(input, p, generator), out);
      },
      py::arg("input"), py::arg("p") = py::none(), py::kw_only(), py::arg("generator") = py::none(),
      py::arg("out") = py::none());
  m.def(
      "multinomial",
      [](const Tensor &input, int64_t numSamples, bool replacement, py::handle generator, std::optional<Tensor> out) {
        Generator *gen = generatorOf(generator);
        return writeOut(withoutGil([&] { return multinomial(input, numSamples, replacement, gen); }), out);
      },
      py::arg("input"), py::arg("num_samples"), py::arg("replacement") = false, py::kw_only(),
      py::arg("generator") = py::none(), py::arg("out") = py::none());
  m.def(
      "poisson",
      [](const Tensor &input, py::handle generator) {
        Generator *gen = generatorOf(generator);
        return withoutGil([&] { return poisson(input, gen); });
      },
      py::arg("input"), py::arg("generator") = py::none());
}

}  // namespace

void bindRandom(py::module &m, TensorClass &cls) {
  bindGenerator(m);
  bindCreation(m);
  bindFills(cls);
  cls.def("bernoulli", &bernoulliAny, py::arg("p") = py::none(), py::kw_only(), py::arg("generator") = py::none());
  cls.def(
      "multinomial",
      [](const Tensor &self, int64_t numSamples, bool replacement, py::handle generator) {
        Generator *gen = generatorOf(generator);
        return withoutGil([&] { return multinomial(self, numSamples, replacement, gen); });
      },
      py::arg("num_samples"), py::arg("replacement") = false, py::kw_only(), py::arg("generator") = py::none());
}

}  // namespace torch::python
