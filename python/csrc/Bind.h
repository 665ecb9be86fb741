// Shared helpers of the binding: Python <-> core conversions and the registration
// functions that each csrc/*.cpp file defines.
#ifndef TORCH_PYTHON_BIND_H
#define TORCH_PYTHON_BIND_H

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "core/Tensor.h"

namespace py = pybind11;

// Tensors cross into Python as the same object while that object lives (TensorImpl keeps
// it): `t.add_(x) is t`, `torch.add(a, b, out=o) is o`.
namespace pybind11::detail {
template <>
struct type_caster<torch::Tensor> : public type_caster_base<torch::Tensor> {
  template <typename T>
  static handle castCached(T &&t, return_value_policy policy, handle parent) {
    if (!t.defined()) return none().release();
    torch::TensorImpl *impl = t.impl();
    if (impl->bindingObject) return handle(static_cast<PyObject *>(impl->bindingObject)).inc_ref();
    // The type's record is looked up once (type_caster_base does it on every call).
    static const type_info *record = get_type_info(typeid(torch::Tensor));
    handle h = type_caster_generic::cast(
        &t, policy, parent, record,
        [](const void *p) -> void * { return new torch::Tensor(*static_cast<const torch::Tensor *>(p)); },
        [](const void *p) -> void * {
          return new torch::Tensor(std::move(*const_cast<torch::Tensor *>(static_cast<const torch::Tensor *>(p))));
        });
    impl->bindingObject = h.ptr();
    impl->bindingHandle = reinterpret_cast<instance *>(h.ptr())->get_value_and_holder().value_ptr();
    return h;
  }
  static handle cast(const torch::Tensor &t, return_value_policy /*policy: always a copy*/, handle parent) {
    return castCached(t, return_value_policy::copy, parent);
  }
  static handle cast(torch::Tensor &&t, return_value_policy /*policy: always a move*/, handle parent) {
    return castCached(std::move(t), return_value_policy::move, parent);
  }
  static handle cast(const torch::Tensor *t, return_value_policy /*policy: always a copy*/, handle parent) {
    if (!t) return none().release();
    return castCached(*t, return_value_policy::copy, parent);
  }
};
}  // namespace pybind11::detail

namespace torch::python {

using TensorClass = py::class_<Tensor>;

// Hot-path type test and access (pybind11's generic ones look the type up in a hash table
// on every call). tensorType is set once the class exists.
extern PyTypeObject *tensorType;
inline bool isTensor(py::handle obj) { return PyObject_TypeCheck(obj.ptr(), tensorType); }
inline const Tensor &unwrap(py::handle obj) {  // obj must be a tensor
  auto *inst = reinterpret_cast<py::detail::instance *>(obj.ptr());
  return *static_cast<const Tensor *>(inst->get_value_and_holder().value_ptr());
}

// Python's NotImplemented: an operator's answer for an operand it does not take, so that
// Python tries the other operand's reflected operator.
inline py::object pyNotImplemented() { return py::reinterpret_borrow<py::object>(Py_NotImplemented); }

// Python numbers (bool, int, float, numpy scalars) and one-element tensors as Scalar.
bool isScalarLike(py::handle obj);
Scalar toScalar(py::handle obj);
py::object fromScalar(Scalar s);

// torch.dtype objects: one per ScalarType, compared by identity.
struct Dtype {
  ScalarType type;
};
py::object dtypeObject(ScalarType t);
ScalarType toDtype(py::handle obj);  // a torch.dtype, or a typed tensor class name string

// Sizes given as f(2, 3), f((2, 3)), f([2, 3]) or f(torch.Size([2, 3])).
IntList toSizes(const py::args &args, const char *what);
IntList toIntList(py::handle obj, const char *what);
// An int (or anything with __index__ but bool) as int64; a clear TypeError otherwise.
int64_t intArg(py::handle obj, const char *what);
py::object makeSize(const IntList &sizes);  // torch.Size

// A Python object to a tensor: tensors as they are, numbers and sequences copied into a
// new tensor (dtype inferred unless given).
Tensor toTensor(py::handle obj, std::optional<ScalarType> dtype = std::nullopt);
// torch.tensor(data): a new tensor holding a copy of data.
Tensor tensorFromData(py::handle data, std::optional<ScalarType> dtype);

// Note [Releasing the GIL]: kernels run without the GIL, so that Python threads compute in
// parallel (as PyTorch's do). Arguments become C++ values before it is released and results
// Python objects after it is taken again; nothing in between touches a Python object. What
// the core calls back into Python takes the GIL itself: a custom Function's backward
// (PyNode), hooks (Autograd.cpp), freeing memory that numpy owns (TensorBase.cpp). A binding
// whose arguments and result are all C++ types runs under ReleaseGil (defBoth and defWithOut
// add it by themselves); one that takes Python objects converts them, then calls the core
// inside withoutGil.
using ReleaseGil = py::call_guard<py::gil_scoped_release>;

template <typename F>
decltype(auto) withoutGil(F &&f) {
  py::gil_scoped_release release;
  return std::forward<F>(f)();
}

namespace detail {
template <typename T>
constexpr bool isPythonObject = std::is_base_of_v<py::handle, std::decay_t<T>>;
template <typename Signature>
struct TakesPython;
template <typename R, typename... A>
struct TakesPython<R(A...)> {
  static constexpr bool value = isPythonObject<R> || (isPythonObject<A> || ...);
};
}  // namespace detail

// Whether f's signature has a Python object (its body is the caller's to check).
template <typename F>
constexpr bool takesPython = detail::TakesPython<py::detail::function_signature_t<std::decay_t<F>>>::value;

// The same function as a method (self first) and as torch.<name> (input first); without the
// GIL when f takes and returns C++ values only.
template <typename Func, typename... Extra>
void defBoth(py::module &m, TensorClass &cls, const char *name, Func &&f, const Extra &...extra) {
  if constexpr (takesPython<Func>) {
    cls.def(name, f, extra...);
    m.def(name, std::forward<Func>(f), py::arg("input"), extra...);
  } else {
    cls.def(name, f, extra..., ReleaseGil());
    m.def(name, std::forward<Func>(f), py::arg("input"), extra..., ReleaseGil());
  }
}

// Note [CUDA in the bindings]: where the CUDA toolkit was found at build time (TORCH_WITH_CUDA),
// _C.so links THC as the core's CUDA column (core/ops/cuda/Cuda.h) and a CUDA tensor is a
// core tensor whose device is CUDA; torch.cuda.is_available() asks the CUDA runtime. Without
// a GPU, asking for a CUDA tensor raises RuntimeError("No CUDA GPUs are available ...") as
// PyTorch built with CUDA does; in a build without the toolkit, AssertionError("Torch not
// compiled with CUDA enabled"), as PyTorch built without it. torch.cuda raises the same
// (torch._C._cuda_require). torch._C._cuda_use_stand_in() makes host memory stand in for a GPU
// (core/ops/StandInDevice.h) so that the tests check the bindings' device handling on any
// machine; one device, cuda:0, is all the bindings address yet.
extern const char *const kNoCuda;  // the build-without-CUDA message
// Raises unless CUDA tensors can be made on device `index` (-1: the current one).
void requireCuda(int64_t index = -1);
bool cudaAvailable();
// A device argument (str, torch.device, int or None): nullopt for None, else the device,
// checked by requireCuda when it is a CUDA one; anything else raises torch.device's error.
std::optional<Device> toDevice(py::handle device);
// The torch.device of a tensor or storage on `device`.
py::object deviceObject(Device device);

// out= for functions: result is copied into out (resized to fit), which is returned.
py::object writeOut(const Tensor &result, const std::optional<Tensor> &out);

// m.def(name, f, input, extra..., *, out=None): out joins the keyword-only arguments of
// extra when it has some.
template <typename Func, typename... Extra>
void defFunctionWithOut(py::module &m, const char *name, Func &&f, const Extra &...extra) {
  if constexpr ((std::is_same_v<Extra, py::kw_only> || ...)) {
    m.def(name, std::forward<Func>(f), py::arg("input"), extra..., py::arg("out") = py::none());
  } else {
    m.def(name, std::forward<Func>(f), py::arg("input"), extra..., py::kw_only(), py::arg("out") = py::none());
  }
}

// The method name(self, args...) and torch.name(input, args..., *, out=None); without the
// GIL when fn takes C++ values only.
template <typename... Args, typename... Extra>
void defWithOut(py::module &m, TensorClass &cls, const char *name, Tensor (*fn)(const Tensor &, Args...),
                const Extra &...extra) {
  if constexpr ((detail::isPythonObject<Args> || ...)) {
    cls.def(name, fn, extra...);
    defFunctionWithOut(
        m, name,
        [fn](const Tensor &t, Args... args, std::optional<Tensor> out) { return writeOut(fn(t, args...), out); },
        extra...);
  } else {
    cls.def(name, fn, extra..., ReleaseGil());
    defFunctionWithOut(
        m, name,
        [fn](const Tensor &t, Args... args, std::optional<Tensor> out) {
          return writeOut(withoutGil([&] { return fn(t, args...); }), out);
        },
        extra...);
  }
}

// Registration, one per source file.
void bindTensorBase(py::module &m, TensorClass &cls);
void bindPointwise(py::module &m, TensorClass &cls);
void bindReduce(py::module &m, TensorClass &cls);
void bindLinalg(py::module &m, TensorClass &cls);
void bindComplex(py::module &m, TensorClass &cls);  // complex tensors and the FFT primitives
void bindIndexing(py::module &m, TensorClass &cls);
void bindRandom(py::module &m, TensorClass &cls);
void bindFactory(py::module &m, TensorClass &cls);
void bindStorage(py::module &m, TensorClass &cls);
void bindShape(py::module &m, TensorClass &cls);
void bindAutograd(py::module &m, TensorClass &cls);
void bindNNSpatial(py::module &m, TensorClass &cls);  // into torch._C._nn
void bindNNLayers(py::module &m, TensorClass &cls);   // into torch._C._nn
void bindLegacy(py::module &m, TensorClass &cls);     // torch7 .t7 files (_t7_load, _t7_save)
void bindTHNN(py::module &m);                         // torch._C._thnn, THNN's kernels for torch.legacy.nn
void bindDistributed(py::module &m);                  // torch._C._distributed, Gloo's process groups
void bindCuda(py::module &m);                         // torch._C._cuda_*, torch.cuda's runtime
void bindCudaIpc(py::module &m);                      // torch._C._cuda_ipc_*, CUDA tensors between processes
void bindNccl(py::module &m);                         // torch._C._nccl, the nccl backend's communicators
void bindSpecial(py::module &m);                      // torch._C._special_function (core/ops/Special.h)
void bindLdl(py::module &m);                          // torch._C._ldl_factor, _ldl_solve (core/ops/Ldl.h)
void bindDlpack(py::module &m);                       // torch._C._to_dlpack, _from_dlpack (DLPack capsules)

}  // namespace torch::python

#endif
