// Shared helpers of the binding: Python <-> core conversions and the registration
// functions that each csrc/*.cpp file defines.
#ifndef TORCH_PYTHON_BIND_H
#define TORCH_PYTHON_BIND_H

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "autograd/Tensor.h"

namespace py = pybind11;

namespace torch::python {

using TensorClass = py::class_<Tensor>;

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
py::object makeSize(const IntList &sizes);  // torch.Size

// A Python object to a tensor: tensors as they are, numbers and sequences copied into a
// new tensor (dtype inferred unless given).
Tensor toTensor(py::handle obj, std::optional<ScalarType> dtype = std::nullopt);
// torch.tensor(data): a new tensor holding a copy of data.
Tensor tensorFromData(py::handle data, std::optional<ScalarType> dtype);

// The same function as a method (self first) and as torch.<name> (input first).
template <typename Func, typename... Extra>
void defBoth(py::module &m, TensorClass &cls, const char *name, Func &&f, const Extra &...extra) {
  cls.def(name, f, extra...);
  m.def(name, std::forward<Func>(f), py::arg("input"), extra...);
}

// out= for functions: result is copied into out (resized to fit), which is returned.
py::object writeOut(const Tensor &result, const std::optional<Tensor> &out);

// Registration, one per source file.
void bindTensorBase(py::module &m, TensorClass &cls);
void bindPointwise(py::module &m, TensorClass &cls);
void bindReduce(py::module &m, TensorClass &cls);
void bindLinalg(py::module &m, TensorClass &cls);
void bindIndexing(py::module &m, TensorClass &cls);
void bindRandom(py::module &m, TensorClass &cls);
void bindFactory(py::module &m, TensorClass &cls);
void bindStorage(py::module &m, TensorClass &cls);

}  // namespace torch::python

#endif
