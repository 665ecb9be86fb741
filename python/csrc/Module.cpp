// torch._C: module setup, error translation, dtypes, and the Tensor class whose methods
// the other files of csrc/ add.
#include <cblas.h>
#include <omp.h>

#include "TH/THBlasCore.h"
#include "TH/THVector.h"
#include "core/Autocast.h"
#include "oneapi/dnnl/dnnl.h"
#include "python/csrc/Bind.h"
#include "python/csrc/Factory.h"

namespace torch::python {

PyTypeObject *tensorType = nullptr;

namespace {

void registerErrors() {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const th::Error &e) {
      PyObject *type = PyExc_RuntimeError;
      switch (e.kind()) {
        case th::ErrorKind::Index: type = PyExc_IndexError; break;
        case th::ErrorKind::Type: type = PyExc_TypeError; break;
        case th::ErrorKind::Value: type = PyExc_ValueError; break;
        case th::ErrorKind::Runtime: break;
      }
      PyErr_SetString(type, e.what());
    } catch (const std::bad_alloc &) {
      PyErr_SetString(PyExc_MemoryError, "out of memory");
    }
  });
}

void bindDtypes(py::module &m) {
  py::class_<Dtype> dtypeClass(m, "dtype");
  dtypeClass.attr("__module__") = "torch";  // pickled as torch.float32, which PyTorch can load
  dtypeClass.def_property_readonly("is_floating_point", [](const Dtype &d) { return isFloating(d.type); })
      .def_property_readonly("is_complex", [](const Dtype &d) { return isComplex(d.type); })
      .def_property_readonly("is_signed",
                             [](const Dtype &d) { return d.type != ScalarType::Byte && d.type != ScalarType::Bool; })
      .def_property_readonly("itemsize", [](const Dtype &d) { return elementSize(d.type); })
      .def_property_readonly("_name", [](const Dtype &d) { return std::string(scalarTypeName(d.type)); })
      .def("__repr__", [](const Dtype &d) { return std::string("torch.") + dtypeName(d.type); })
      .def("__reduce__", [](const Dtype &d) {
        return py::str(dtypeName(d.type));  // pickled as the module attribute torch.<name>
      });
  for (int i = 0; i < kNumScalarTypes; i++) {
    ScalarType t = static_cast<ScalarType>(i);
    m.attr(dtypeName(t)) = dtypeObject(t);
  }
  m.def("_set_default_dtype", [](py::handle d) { setDefaultFloatType(toDtype(d)); });
  // set_default_tensor_type: the device of the creation functions' results without device=
  m.def("_set_default_factory_device", [](py::handle d) { setDefaultFactoryDevice(toDevice(d).value()); });
  m.def("_default_factory_device",
        [] { return py::module::import("torch").attr("device")(deviceName(defaultFactoryDevice())); });
  m.def("get_default_dtype", [] { return dtypeObject(defaultFloatType()); });
}

// torch.autocast's switches (Note [Autocast] in core/Autocast.h), named as PyTorch 1.13's.
void bindAutocast(py::module &m) {
  m.def("is_autocast_enabled", [] { return autocast::enabled(Device::CUDA); });
  m.def("set_autocast_enabled", [](bool on) { autocast::setEnabled(Device::CUDA, on); });
  m.def("is_autocast_cpu_enabled", [] { return autocast::enabled(Device::CPU); });
  m.def("set_autocast_cpu_enabled", [](bool on) { autocast::setEnabled(Device::CPU, on); });
  m.def("get_autocast_cpu_dtype", [] { return dtypeObject(autocast::dtype(Device::CPU)); });
  m.def("set_autocast_cpu_dtype", [](py::handle d) { autocast::setDtype(Device::CPU, toDtype(d)); });
  m.def("get_autocast_gpu_dtype", [] { return dtypeObject(autocast::dtype(Device::CUDA)); });
  m.def("set_autocast_gpu_dtype", [](py::handle d) { autocast::setDtype(Device::CUDA, toDtype(d)); });
  m.def("is_autocast_cache_enabled", [] { return autocast::cacheEnabled(); });
  m.def("set_autocast_cache_enabled", [](bool on) { autocast::setCacheEnabled(on); });
  m.def("autocast_increment_nesting", [] { return autocast::incrementNesting(); });
  m.def("autocast_decrement_nesting", [] { return autocast::decrementNesting(); });
  // casts are not cached (each op casts its inputs again): nothing to clear
  m.def("clear_autocast_cache", [] {});
}

// What torch.__config__.show() and parallel_info() report: the libraries and instruction
// sets this process runs on, as chosen at run time.
py::dict buildConfig() {
  py::dict config;
  config["compiler"] = "GCC " __VERSION__;
  config["openmp"] = _OPENMP;
  config["blas"] = std::string(openblas_get_config());
  config["blas_core"] = std::string(THBlas_coreName());             // Note [A BLAS core that knows the processor]
  config["vector_kernels"] = std::string(th::vec::kernels().name);  // Note [Vector kernels]
  const dnnl_version_t *dnnl = dnnl_version();
  config["dnnl"] = std::to_string(dnnl->major) + "." + std::to_string(dnnl->minor) + "." + std::to_string(dnnl->patch);
  config["usable_threads"] = THUsableThreads();  // Note [Threads the machine can give]
  return config;
}

}  // namespace
}  // namespace torch::python

PYBIND11_MODULE(_C, m) {
  using namespace torch::python;
  m.doc() = "torch._C: tensors over TH";
  registerErrors();
  bindDtypes(m);
  bindAutocast(m);
  bindCuda(m);
  // OpenMP threads of the kernels. A forked child must not start a parallel region on the
  // parent's libgomp pool (it hangs), so DataLoader workers set 1, as PyTorch's do.
  m.def("set_num_threads", [](int n) {
    TORCH_CHECK(n > 0, Runtime, "set_num_threads: expected a positive number of threads, got %d", n);
    THSetNumThreads(n);
  });
  m.def("get_num_threads", [] { return THGetNumThreads(); });
  m.def("_build_config", buildConfig);
  TensorClass cls(m, "Tensor", py::dynamic_attr());
  cls.attr("__module__") = "torch";
  tensorType = reinterpret_cast<PyTypeObject *>(cls.ptr());
  bindTensorBase(m, cls);
  bindPointwise(m, cls);
  bindReduce(m, cls);
  bindLinalg(m, cls);
  bindComplex(m, cls);
  bindIndexing(m, cls);
  bindRandom(m, cls);
  bindFactory(m, cls);
  bindStorage(m, cls);
  bindShape(m, cls);
  bindAutograd(m, cls);
  bindLegacy(m, cls);
  py::module nn = m.def_submodule("_nn", "THNN kernels with autograd, for torch.nn.functional");
  bindNNSpatial(nn, cls);
  bindNNLayers(nn, cls);
  py::module thnn = m.def_submodule("_thnn", "THNN's kernels without autograd, for torch.legacy.nn");
  bindTHNN(thnn);
  bindDistributed(m);
  bindNccl(m);
  bindCudaIpc(m);
  bindSpecial(m);
  bindLdl(m);
  bindDlpack(m);
}
