// torch._C._thnn: every THNN kernel, for Float and Double, callable from Python without the
// state argument, as torch7's nn.THNN is from Lua (lua/csrc/THNN.cpp) and PyTorch 0.1's
// torch._thnn was:
//   torch._C._thnn.Double.Tanh_updateOutput(input, output)
// torch.legacy.nn's modules are thin wrappers over these, as Lua nn's are over nn.THNN.
//
// The kernels are those of THNN/THNN_functions.inc, the list made from THNN's headers that
// the Lua binding wraps too; each Python argument is read according to the C parameter's
// type, deduced from the kernel's own declaration: tensors of the kernel's type (None only
// for the arguments the headers document as optional), ints (integral floats too: Lua
// numbers that load_lua read are floats), floats, bools, and None for a generator (the
// default one, which torch.manual_seed seeds). Every argument is checked before the kernel
// runs and the kernels check theirs before they write, so a failed call raises (TypeError
// for a wrong argument, RuntimeError or IndexError from the kernel) and changes nothing.
// Kernels write through the TH tensors: nothing is recorded for autograd.
#include <cmath>
#include <climits>
#include <cstring>
#include <string>
#include <tuple>
#include <utility>

#include "THNN/THNN.h"
#include "core/ops/Random.h"
#include "python/csrc/Bind.h"

namespace torch::python {
namespace {

struct Kernel {  // one line of THNN_functions.inc
  const char *name;
  unsigned nullable;   // bit i: argument i may be None
  const char *params;  // "input, output, ..."
};

std::string paramName(const Kernel &k, size_t i) {
  std::string params = k.params;
  size_t start = 0;
  for (size_t n = 0; n < i; n++) start = params.find(", ", start) + 2;
  return params.substr(start, params.find(',', start) - start);
}

std::string describe(py::handle obj) {
  if (isTensor(obj)) return std::string("torch.") + scalarTypeName(unwrap(obj).dtype()) + "Tensor";
  return Py_TYPE(obj.ptr())->tp_name;
}

// "Linear_updateOutput: argument 3 (weight): torch.DoubleTensor expected, got torch.FloatTensor"
[[noreturn]] void argError(const Kernel &k, size_t i, const std::string &expected, py::handle got) {
  fail(th::ErrorKind::Type, "%s: argument %zu (%s): %s expected, got %s", k.name, i + 1, paramName(k, i).c_str(),
       expected.c_str(), describe(got).c_str());
}

// The element type of a TH tensor pointer type (THFloatTensor * -> float).
template <typename P>
struct ElementOf {};
#define THNN_ELEMENT_OF(Name, T, dtype)  \
  template <>                            \
  struct ElementOf<TH##Name##Tensor *> { \
    using type = T;                      \
  };
TH_FORALL_TYPES(THNN_ELEMENT_OF)
#undef THNN_ELEMENT_OF

template <typename A, typename = void>
struct Arg;

template <typename P>
struct Arg<P, std::void_t<typename ElementOf<P>::type>> {
  using T = typename ElementOf<P>::type;
  static P get(const Kernel &k, py::handle obj, size_t i) {
    if (obj.is_none() && ((k.nullable >> i) & 1u)) return nullptr;
    if (isTensor(obj)) {
      const Tensor &t = unwrap(obj);
      if (t.dtype() == static_cast<ScalarType>(TH<T>::type)) return t.th<T>();
    }
    argError(k, i, std::string("torch.") + TH<T>::name + "Tensor", obj);
  }
};

template <>
struct Arg<bool> {
  static bool get(const Kernel &k, py::handle obj, size_t i) {
    if (!PyBool_Check(obj.ptr())) argError(k, i, "bool", obj);
    return obj.ptr() == Py_True;
  }
};

// An int, or a float with an integral value.
int64_t integer(const Kernel &k, py::handle obj, size_t i, int64_t lo, int64_t hi) {
  PyObject *p = obj.ptr();
  if (!PyBool_Check(p) && !isTensor(obj)) {
    if (PyFloat_Check(p)) {
      double v = PyFloat_AS_DOUBLE(p);
      if (v == std::floor(v) && v >= static_cast<double>(lo) && v <= static_cast<double>(hi))
        return static_cast<int64_t>(v);
    } else if (PyIndex_Check(p)) {
      int overflow = 0;
      py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(p));
      long long v = index ? PyLong_AsLongLongAndOverflow(index.ptr(), &overflow) : 0;
      if (index && !overflow && v >= lo && v <= hi) return v;
      PyErr_Clear();
    }
  }
  argError(k, i, lo == INT_MIN ? "an int" : "a 64-bit int", obj);
}

template <>
struct Arg<int> {
  static int get(const Kernel &k, py::handle obj, size_t i) {
    return static_cast<int>(integer(k, obj, i, INT_MIN, INT_MAX));
  }
};
template <>
struct Arg<int64_t> {
  static int64_t get(const Kernel &k, py::handle obj, size_t i) { return integer(k, obj, i, INT64_MIN, INT64_MAX); }
};
template <>
struct Arg<double> {
  static double get(const Kernel &k, py::handle obj, size_t i) {
    PyObject *p = obj.ptr();
    if (PyFloat_Check(p)) return PyFloat_AS_DOUBLE(p);
    if (!PyBool_Check(p) && !isTensor(obj) && (PyLong_Check(p) || PyNumber_Check(p))) {
      double v = PyFloat_AsDouble(p);
      if (!(v == -1.0 && PyErr_Occurred())) return v;
      PyErr_Clear();
    }
    argError(k, i, "a number", obj);
  }
};
template <>
struct Arg<THGenerator *> {
  static THGenerator *get(const Kernel &k, py::handle obj, size_t i) {
    if (!obj.is_none()) argError(k, i, "None (the default generator)", obj);
    return Generator::defaultGenerator().with([](THGenerator *g) { return g; });
  }
};

// The kernel's name heads the message unless THNN's message already names it.
[[noreturn]] void rethrowNamed(const Kernel &k, const th::Error &e) {
  if (strstr(e.what(), k.name)) throw e;
  throw th::Error(std::string(k.name) + ": " + e.what(), e.kind(), e.argNumber());
}

template <auto kernel, typename... A, size_t... I>
void call(const Kernel &k, const py::args &args, void (*)(THNNState *, A...), std::index_sequence<I...>) {
  if (args.size() != sizeof...(A)) {
    fail(th::ErrorKind::Type, "%s: %zu arguments expected (%s), got %zu", k.name, sizeof...(A), k.params, args.size());
  }
  // braced initialisation reads the arguments left to right
  std::tuple<A...> a{Arg<A>::get(k, PyTuple_GET_ITEM(args.ptr(), I), I)...};
  // Without the GIL (Note [Releasing the GIL]): the arguments are C values by now, and args
  // keeps their tensors alive.
  try {
    withoutGil([&] {
      if constexpr ((std::is_same_v<A, THGenerator *> || ...)) {
        Generator::defaultGenerator().with(
            [&](THGenerator *) { std::apply([](A... x) { kernel(nullptr, x...); }, a); });
      } else {
        std::apply([](A... x) { kernel(nullptr, x...); }, a);
      }
    });
  } catch (const th::Error &e) {
    rethrowNamed(k, e);
  }
}

template <typename... A>
constexpr size_t arity(void (*)(THNNState *, A...)) {
  return sizeof...(A);
}

using Wrapper = void (*)(const Kernel &, const py::args &);

template <auto kernel>
void wrap(const Kernel &k, const py::args &args) {
  call<kernel>(k, args, kernel, std::make_index_sequence<arity(kernel)>{});
}

struct Entry {
  Kernel kernel;
  Wrapper floatKernel, doubleKernel;
};

#define THNN_FUNCTION(name, nullable, params) \
  {{#name, nullable, params}, &wrap<THNN_Float##name>, &wrap<THNN_Double##name>},
const Entry kEntries[] = {
#include "THNN/THNN_functions.inc"
};
#undef THNN_FUNCTION

}  // namespace

void bindTHNN(py::module &m) {
  py::module floats = m.def_submodule("Float", "THNN's kernels for torch.FloatTensor");
  py::module doubles = m.def_submodule("Double", "THNN's kernels for torch.DoubleTensor");
  for (const Entry &e : kEntries) {
    std::string doc = std::string(e.kernel.name) + "(" + e.kernel.params + ")";
    floats.def(
        e.kernel.name, [&e](const py::args &args) { e.floatKernel(e.kernel, args); }, doc.c_str());
    doubles.def(
        e.kernel.name, [&e](const py::args &args) { e.doubleKernel(e.kernel, args); }, doc.c_str());
  }
}

}  // namespace torch::python
