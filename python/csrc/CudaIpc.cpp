// torch._C._cuda_ipc_export and _cuda_ipc_import: a CUDA storage seen from another process
// through CUDA IPC (Note [CUDA tensors through queues] in torch/multiprocessing/reductions.py).
//
// A CUDA IPC handle names a whole cudaMalloc'd segment, and a storage is a block of the caching
// allocator inside one: it travels as its segment's handle and its byte offset in it. The
// receiver opens each handle once (cudaIpcOpenMemHandle refuses a second opening in one
// process) and closes it when the last storage made from it dies; that storage then writes 1
// into the message's `released` flag (shared CPU memory) so that the sender may let its own
// storage go.
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <string>

#include "core/ops/StandInDevice.h"
#include "python/csrc/Bind.h"

#ifdef TORCH_WITH_CUDA
#include <cuda_runtime_api.h>

#include "THC/THCCachingAllocator.h"
#include "THC/THCIpc.h"
#endif

namespace torch::python {

namespace {

void refuseStandIn() {
  TORCH_CHECK(!usingStandInCuda(), Runtime,
              "CUDA tensors cannot go to another process on the stand-in CUDA device (host memory standing in for "
              "a GPU): CUDA IPC needs a GPU");
}

#ifdef TORCH_WITH_CUDA
void check(cudaError_t err, const char *what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();
  TORCH_CHECK(false, Runtime, "CUDA error in %s: %s", what, cudaGetErrorString(err));
}

struct Opened {
  void *base;
  int device;
  int storages;  // alive, made from this handle
};
std::mutex gOpenedMutex;
std::map<std::string, Opened> gOpened;  // by handle

// The context of a storage made from a handle.
struct Imported {
  std::string handle;
  Storage released;  // one int32 in shared CPU memory that the sender watches
};

void *ipcMalloc(void *, ptrdiff_t) { throw std::bad_alloc(); }

void ipcFree(void *ctx, void *) {
  auto *imported = static_cast<Imported *>(ctx);
  {
    std::lock_guard<std::mutex> hold(gOpenedMutex);
    auto it = gOpened.find(imported->handle);
    int previous = 0;
    cudaGetDevice(&previous);
    cudaSetDevice(it->second.device);
    // this process's kernels on the memory are done before the sender may reuse it
    cudaDeviceSynchronize();
    if (--it->second.storages == 0) {
      cudaIpcCloseMemHandle(it->second.base);
      gOpened.erase(it);
    }
    cudaSetDevice(previous);
  }
  if (imported->released.defined()) *reinterpret_cast<int32_t *>(imported->released.data()) = 1;
  delete imported;
}

THAllocator ipcAllocator = {ipcMalloc, nullptr, ipcFree};

// (handle, byte offset of the storage in its segment, device)
py::tuple exportStorage(const Storage &s) {
  TORCH_CHECK(s.device() == Device::CUDA, Value, "_cuda_ipc_export: not a CUDA storage");
  refuseStandIn();
  requireCuda();
  void *data = s.data();
  void *base = THCCachingAllocator_segmentBase(data);
  TORCH_CHECK(base, Runtime,
              "this CUDA storage was not allocated by the caching allocator (it came from another process?): it "
              "cannot be sent to another process");
  int device = THCCachingAllocator_device(data);
  cudaIpcMemHandle_t handle;
  int previous = THCudaGetDevice();
  THCudaSetDevice(device);
  cudaError_t err = cudaIpcGetMemHandle(&handle, base);
  // what this process queued on the memory is done before another process reads it (PyTorch
  // sends an interprocess event to wait for instead)
  cudaError_t synced = err == cudaSuccess ? withoutGil([] { return cudaDeviceSynchronize(); }) : cudaSuccess;
  THCudaSetDevice(previous);
  check(err, "cudaIpcGetMemHandle");
  check(synced, "cudaDeviceSynchronize");
  return py::make_tuple(py::bytes(reinterpret_cast<const char *>(&handle), sizeof handle),
                        static_cast<int64_t>(static_cast<char *>(data) - static_cast<char *>(base)), device);
}

Storage importStorage(py::handle dtypeObj, const py::bytes &handleBytes, int64_t offset, int64_t size, int device,
                      const Storage &released) {
  ScalarType dtype = toDtype(dtypeObj);
  refuseStandIn();
  requireCuda();
  std::string key = handleBytes;
  TORCH_CHECK(key.size() == sizeof(cudaIpcMemHandle_t), Value, "_cuda_ipc_import: a handle has %zu bytes, got %zu",
              sizeof(cudaIpcMemHandle_t), key.size());
  TORCH_CHECK(size > 0 && offset >= 0, Value, "_cuda_ipc_import: bad size %lld or offset %lld",
              static_cast<long long>(size), static_cast<long long>(offset));
  TORCH_CHECK(released.device() == Device::CPU && released.isShared() && released.nbytes() >= sizeof(int32_t), Value,
              "_cuda_ipc_import: the released flag must be shared CPU memory of an int32");
  char *data;
  {
    std::lock_guard<std::mutex> hold(gOpenedMutex);
    auto it = gOpened.find(key);
    if (it == gOpened.end()) {
      cudaIpcMemHandle_t handle;
      memcpy(&handle, key.data(), sizeof handle);
      void *base = nullptr;
      int previous = THCudaGetDevice();
      THCudaSetDevice(device);
      cudaError_t err = cudaIpcOpenMemHandle(&base, handle, cudaIpcMemLazyEnablePeerAccess);
      THCudaSetDevice(previous);
      check(err, "cudaIpcOpenMemHandle");
      it = gOpened.emplace(key, Opened{base, device, 0}).first;
    }
    it->second.storages++;
    data = static_cast<char *>(it->second.base) + offset;
  }
  auto *imported = new Imported{key, released};
  return dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    auto *raw = TH<T>::S::newWithDataAndAllocator(reinterpret_cast<T *>(data), isComplex(dtype) ? 2 * size : size,
                                                  &ipcAllocator, imported);
    TH<T>::S::clearFlag(raw, TH_STORAGE_RESIZABLE);
    return Storage::adopt(dtype, raw, Device::CUDA);
  });
}
#endif

}  // namespace

void bindCudaIpc(py::module &m) {
#ifdef TORCH_WITH_CUDA
  m.def("_cuda_ipc_export", &exportStorage, py::arg("storage"));
  m.def("_cuda_ipc_import", &importStorage, py::arg("dtype"), py::arg("handle"), py::arg("offset"), py::arg("size"),
        py::arg("device"), py::arg("released"));
#else
  m.def("_cuda_ipc_export", [](const Storage &) {
    refuseStandIn();
    TORCH_CHECK(false, Runtime, "%s", kNoCuda);
  });
#endif
}

}  // namespace torch::python
