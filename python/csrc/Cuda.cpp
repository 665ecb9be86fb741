// torch.cuda's runtime (Note [CUDA in the bindings] in Bind.h): whether CUDA tensors can be
// made, devices, synchronisation, the caching allocator's statistics and the GPU generator.
// python/torch/cuda/__init__.py is the public face; these are its torch._C._cuda_* calls.
#include <pthread.h>

#include <atomic>
#include <chrono>
#include <mutex>

#include "core/ops/StandInDevice.h"
#include "python/csrc/Bind.h"

#ifdef TORCH_WITH_CUDA
#include <cuda_runtime_api.h>

#include "THC/THCCachingAllocator.h"
#include "core/ops/cuda/Cuda.h"
#endif

namespace torch::python {

const char *const kNoCuda = "Torch not compiled with CUDA enabled";

namespace {

// Note [CUDA after fork]: a child forked once the CUDA runtime is initialised cannot use it
// (the driver's state does not survive fork), and a call would fail obscurely or hang; as in
// PyTorch, the child's first CUDA request raises instead, naming the way out.
std::atomic<bool> gInBadFork{false};

bool gpuPresent() {
#ifdef TORCH_WITH_CUDA
  static std::once_flag atFork;
  bool present = torch::cuda::init();
  if (present) std::call_once(atFork, [] { pthread_atfork(nullptr, nullptr, [] { gInBadFork = true; }); });
  return present;
#else
  return false;
#endif
}

int deviceCount() {
  if (usingStandInCuda()) return 1;
#ifdef TORCH_WITH_CUDA
  if (gpuPresent()) return THCState_getNumDevices(torch::cuda::state());
#endif
  return 0;
}

int currentDevice() {
  requireCuda();
#ifdef TORCH_WITH_CUDA
  if (!usingStandInCuda()) return THCudaGetDevice();
#endif
  return 0;
}

// Note [Streams and events in the bindings]: a stream or an event is its CUDA handle as an
// integer (0 is the legacy default stream). Streams are created and never destroyed, as
// PyTorch's pool keeps its streams: the caching allocator keys blocks by stream. On the
// stand-in device the work is done by the time a call returns, so a stream is a number and an
// event the host clock's reading when it was recorded.
struct StandInEvent {
  bool recorded = false;
  std::chrono::steady_clock::time_point at;
};
std::mutex gStandInMutex;
uintptr_t gStandInStreams = 0;
uintptr_t gStandInCurrent = 0;

#ifdef TORCH_WITH_CUDA
void check(cudaError_t err, const char *what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();
  TORCH_CHECK(false, Runtime, "CUDA error: %s (%s)", cudaGetErrorString(err), what);
}
#endif

}  // namespace

bool cudaAvailable() { return usingStandInCuda() || gpuPresent(); }

void requireCuda(int64_t index) {
  TORCH_CHECK(!gInBadFork, Runtime,
              "Cannot re-initialize CUDA in forked subprocess. To use CUDA with multiprocessing, you must use the "
              "'spawn' start method");
  if (!cudaAvailable()) {
#ifdef TORCH_WITH_CUDA
    TORCH_CHECK(false, Runtime, "No CUDA GPUs are available (the CUDA runtime says: %s)",
                torch::cuda::unavailableReason().c_str());
#else
    PyErr_SetString(PyExc_AssertionError, kNoCuda);
    throw py::error_already_set();
#endif
  }
  int count = deviceCount();
  TORCH_CHECK(index < count, Runtime, "CUDA error: invalid device ordinal (cuda:%lld of %d device%s)",
              static_cast<long long>(index), count, count == 1 ? "" : "s");
  // One device is all a core tensor addresses yet (its Device has no index).
  int current = 0;
#ifdef TORCH_WITH_CUDA
  if (!usingStandInCuda()) current = THCudaGetDevice();
#endif
  TORCH_CHECK(index < 0 || index == current, Runtime,
              "cuda:%lld is not the current device (cuda:%d): tensors on a device other than the current one are "
              "not supported yet; call torch.cuda.set_device(%lld) first",
              static_cast<long long>(index), current, static_cast<long long>(index));
}

py::object deviceObject(Device device) {
  py::object make = py::module::import("torch").attr("device");
  if (device == Device::CPU) return make("cpu");
  return make("cuda", currentDevice());
}

void bindCuda(py::module &m) {
#ifdef TORCH_WITH_CUDA
  m.attr("_cuda_is_built") = true;
  m.attr("_cuda_version") = std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
#else
  m.attr("_cuda_is_built") = false;
#endif
  m.attr("_no_cuda") = kNoCuda;
  m.def("_cuda_is_available", &cudaAvailable);
  m.def("_cuda_is_in_bad_fork", [] { return gInBadFork.load(); });
  // Why there is no GPU, in the CUDA runtime's words ("" when there is one or no CUDA build)
  m.def("_cuda_unavailable_reason", []() -> std::string {
#ifdef TORCH_WITH_CUDA
    if (!gpuPresent()) return torch::cuda::unavailableReason();
#endif
    return "";
  });
  m.def("_cuda_device_count", &deviceCount);
  m.def("_cuda_require", &requireCuda, py::arg("index") = -1);
  m.def(
      "_cuda_use_stand_in",
      [](bool composites) {
        TORCH_CHECK(!gpuPresent(), Runtime, "this machine has a GPU: the stand-in device is for machines without one");
        return useStandInCuda(composites);
      },
      py::arg("composites") = false);
  m.def("_cuda_is_stand_in", &usingStandInCuda);
  m.def(
      "_pin_memory", [](const Tensor &t) { return pinMemory(t); }, ReleaseGil());
  m.def("_is_pinned", [](const Tensor &t) { return isPinned(t); });
  m.def("_cuda_current_device", &currentDevice);
  m.def("_cuda_set_device", [](int64_t index) {
    if (index < 0) return;  // PyTorch ignores a negative device
    TORCH_CHECK(index < deviceCount() || !cudaAvailable(), Runtime, "CUDA error: invalid device ordinal");
    requireCuda();
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) THCudaSetDevice(static_cast<int>(index));
#endif
  });
  m.def("_cuda_synchronize", [] {
    requireCuda();
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) withoutGil([] { THCudaSynchronize(torch::cuda::state()); });
#endif
  });
  // The caching allocator's figures for one device, by PyTorch's names (bytes and counts).
  m.def("_cuda_memory_stats", [](int64_t device) {
    py::dict d;
    size_t allocated = 0, reserved = 0, peakAllocated = 0, peakReserved = 0;
    uint64_t allocs = 0, mallocs = 0, frees = 0;
#ifdef TORCH_WITH_CUDA
    if (gpuPresent()) {
      requireCuda(device);
      THCAllocatorStats s;
      THCCachingAllocator_getStats(device < 0 ? THCudaGetDevice() : static_cast<int>(device), &s);
      allocated = s.allocated, reserved = s.reserved, peakAllocated = s.peakAllocated, peakReserved = s.peakReserved;
      allocs = s.numAllocs, mallocs = s.numCudaMallocs, frees = s.numCudaFrees;
    }
#endif
    (void)device;
    d["allocated_bytes.all.current"] = allocated;
    d["allocated_bytes.all.peak"] = peakAllocated;
    d["reserved_bytes.all.current"] = reserved;
    d["reserved_bytes.all.peak"] = peakReserved;
    d["allocation.all.allocated"] = allocs;
    d["num_device_alloc"] = mallocs;
    d["num_device_free"] = frees;
    return d;
  });
  m.def("_cuda_reset_peak_memory_stats", [](int64_t device) {
#ifdef TORCH_WITH_CUDA
    if (gpuPresent()) {
      requireCuda(device);
      THCCachingAllocator_resetPeakStats(device < 0 ? THCudaGetDevice() : static_cast<int>(device));
    }
#endif
    (void)device;
  });
  m.def("_cuda_empty_cache", [] {
#ifdef TORCH_WITH_CUDA
    if (gpuPresent()) withoutGil([] { THCCachingAllocator_emptyCache(); });
#endif
  });
  // (name, major, minor, total_memory, multi_processor_count)
  m.def("_cuda_device_properties", [](int64_t index) {
    requireCuda();
    TORCH_CHECK(index >= 0 && index < deviceCount(), Runtime, "CUDA error: invalid device ordinal");
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) {
      torch::cuda::DeviceProperties p = torch::cuda::properties(static_cast<int>(index));
      return py::make_tuple(p.name, p.major, p.minor, p.totalMemory, p.multiProcessorCount);
    }
#endif
    return py::make_tuple("stand-in device (host memory)", 0, 0, 0, 0);
  });
  // ---- streams and events (Note [Streams and events in the bindings]) ----
  m.def("_cuda_stream_new", [](int priority) -> uintptr_t {
    requireCuda();
    if (usingStandInCuda()) {
      std::lock_guard<std::mutex> hold(gStandInMutex);
      return ++gStandInStreams;
    }
#ifdef TORCH_WITH_CUDA
    cudaStream_t stream;
    check(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, priority), "cudaStreamCreateWithPriority");
    return reinterpret_cast<uintptr_t>(stream);
#else
    (void)priority;
    return 0;
#endif
  });
  m.def("_cuda_current_stream", []() -> uintptr_t {
    requireCuda();
    if (usingStandInCuda()) return gStandInCurrent;
#ifdef TORCH_WITH_CUDA
    return reinterpret_cast<uintptr_t>(THCState_getCurrentStream(torch::cuda::state()));
#else
    return 0;
#endif
  });
  m.def("_cuda_set_stream", [](uintptr_t stream) {
    requireCuda();
    if (usingStandInCuda()) {
      gStandInCurrent = stream;
      return;
    }
#ifdef TORCH_WITH_CUDA
    THCState_setCurrentStream(torch::cuda::state(), reinterpret_cast<cudaStream_t>(stream));
#endif
  });
  m.def("_cuda_stream_synchronize", [](uintptr_t stream) {
    requireCuda();
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) {
      withoutGil(
          [&] { check(cudaStreamSynchronize(reinterpret_cast<cudaStream_t>(stream)), "cudaStreamSynchronize"); });
    }
#endif
    (void)stream;
  });
  m.def("_cuda_stream_query", [](uintptr_t stream) {
    requireCuda();
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) {
      cudaError_t err = cudaStreamQuery(reinterpret_cast<cudaStream_t>(stream));
      if (err == cudaErrorNotReady) return false;
      check(err, "cudaStreamQuery");
    }
#endif
    (void)stream;
    return true;
  });
  m.def("_cuda_event_new", [](bool timing, bool blocking) -> uintptr_t {
    requireCuda();
    if (usingStandInCuda()) return reinterpret_cast<uintptr_t>(new StandInEvent());
#ifdef TORCH_WITH_CUDA
    unsigned flags = (timing ? cudaEventDefault : cudaEventDisableTiming) | (blocking ? cudaEventBlockingSync : 0);
    cudaEvent_t event;
    check(cudaEventCreateWithFlags(&event, flags), "cudaEventCreateWithFlags");
    return reinterpret_cast<uintptr_t>(event);
#else
    (void)timing, (void)blocking;
    return 0;
#endif
  });
  m.def("_cuda_event_destroy", [](uintptr_t event) {
    if (!event) return;
    if (usingStandInCuda()) {
      delete reinterpret_cast<StandInEvent *>(event);
      return;
    }
#ifdef TORCH_WITH_CUDA
    cudaEventDestroy(reinterpret_cast<cudaEvent_t>(event));
#endif
  });
  m.def("_cuda_event_record", [](uintptr_t event, uintptr_t stream) {
    requireCuda();
    if (usingStandInCuda()) {
      auto *e = reinterpret_cast<StandInEvent *>(event);
      e->recorded = true;
      e->at = std::chrono::steady_clock::now();
      return;
    }
#ifdef TORCH_WITH_CUDA
    check(cudaEventRecord(reinterpret_cast<cudaEvent_t>(event), reinterpret_cast<cudaStream_t>(stream)),
          "cudaEventRecord");
#endif
    (void)stream;
  });
  m.def("_cuda_event_synchronize", [](uintptr_t event) {
    requireCuda();
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) {
      withoutGil([&] { check(cudaEventSynchronize(reinterpret_cast<cudaEvent_t>(event)), "cudaEventSynchronize"); });
    }
#endif
    (void)event;
  });
  m.def("_cuda_event_query", [](uintptr_t event) {
    requireCuda();
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) {
      cudaError_t err = cudaEventQuery(reinterpret_cast<cudaEvent_t>(event));
      if (err == cudaErrorNotReady) return false;
      check(err, "cudaEventQuery");
    }
#endif
    (void)event;
    return true;
  });
  m.def("_cuda_stream_wait_event", [](uintptr_t stream, uintptr_t event) {
    requireCuda();
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) {
      check(cudaStreamWaitEvent(reinterpret_cast<cudaStream_t>(stream), reinterpret_cast<cudaEvent_t>(event), 0),
            "cudaStreamWaitEvent");
    }
#endif
    (void)stream, (void)event;
  });
  // Milliseconds from start's recording to end's, both recorded and done.
  m.def("_cuda_event_elapsed", [](uintptr_t start, uintptr_t end) -> double {
    requireCuda();
    if (usingStandInCuda()) {
      auto *a = reinterpret_cast<StandInEvent *>(start), *b = reinterpret_cast<StandInEvent *>(end);
      TORCH_CHECK(a->recorded && b->recorded, Runtime, "CUDA error: device not ready (both events must be recorded)");
      return std::chrono::duration<double, std::milli>(b->at - a->at).count();
    }
#ifdef TORCH_WITH_CUDA
    float ms = 0;
    check(cudaEventElapsedTime(&ms, reinterpret_cast<cudaEvent_t>(start), reinterpret_cast<cudaEvent_t>(end)),
          "cudaEventElapsedTime");
    return ms;
#else
    return 0;
#endif
  });

  // torch.backends.cudnn's switches, kept in the core for the cuDNN kernels to read
  m.def("_cudnn_set_flags", [](bool benchmark, bool deterministic, bool allowTF32) {
#ifdef TORCH_WITH_CUDA
    torch::cuda::CudnnFlags &f = torch::cuda::cudnnFlags();
    f.benchmark = benchmark;
    f.deterministic = deterministic;
    f.allowTF32 = allowTF32;
#endif
    (void)benchmark, (void)deterministic, (void)allowTF32;
  });
  m.def("_cudnn_version", []() -> py::object {
#ifdef TORCH_WITH_CUDA
    if (gpuPresent()) return py::int_(torch::cuda::cudnnVersion());
#endif
    return py::none();
  });

  // The GPU generator: Philox's seed and offset (THCRandom); the stand-in has the CPU's.
  m.def("_cuda_manual_seed", [](uint64_t seed) {
#ifdef TORCH_WITH_CUDA
    if (gpuPresent()) THCRandom_manualSeed(torch::cuda::state(), seed);
#endif
    (void)seed;
  });
  m.def("_cuda_rng_state", [] {
    requireCuda();
    uint64_t seed = 0, offset = 0;
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) {
      seed = THCRandom_initialSeed(torch::cuda::state());
      offset = THCRandom_getOffset(torch::cuda::state());
    }
#endif
    return py::make_tuple(seed, offset);
  });
  m.def("_cuda_set_rng_state", [](uint64_t seed, uint64_t offset) {
    requireCuda();
#ifdef TORCH_WITH_CUDA
    if (!usingStandInCuda()) {
      THCRandom_manualSeed(torch::cuda::state(), seed);
      THCRandom_setOffset(torch::cuda::state(), offset);
    }
#endif
    (void)seed, (void)offset;
  });
}

}  // namespace torch::python
