// torch._C._nccl: NCCL communicators for torch.distributed's nccl backend
// (torch/distributed/_nccl_backend.py owns the groups, the stores and the list handling).
//
// Note [The nccl backend]
// NCCL ships with the CUDA toolkit; it is opened with dlopen the first time a function of it
// is called (THC_LAZY, Note [cuBLAS and cuSOLVER loaded on first use] in THC/THCLazyLibrary.h),
// so importing torch never loads it and a machine without it still imports torch;
// is_nccl_available() is whether it loads. A process group makes its communicator when it is
// made (init_process_group, new_group), on the current device: rank 0 draws the unique id
// (ncclGetUniqueId), the others read it from the group's store, and every rank calls
// ncclCommInitRank once all of them met at the store (which times out, where NCCL would
// wait for a missing rank forever). PyTorch 1.13 makes it on the first collective instead;
// made at once, the one communicator also carries send/recv (PyTorch opens one per pair of
// ranks), since every rank of the group is there to make it. destroy_process_group frees it
// (ncclCommDestroy) once the ops queued on it finished, or aborts it if they do not within the
// group's timeout.
// Streams, as PyTorch's ProcessGroupNCCL: each communicator has its own stream. An op first
// makes that stream wait for the caller's current stream (an event), so it reads what the
// caller's kernels wrote; it then runs on the NCCL stream and records a completion event.
// Work.wait() makes the caller's current stream wait for that event (the host goes on); the
// tensors' blocks are recorded on the NCCL stream in the caching allocator, so freeing them
// early cannot hand their memory to someone else while NCCL still uses it (memory received
// by CUDA IPC waits for the device before it is let go, python/csrc/CudaIpc.cpp). A Work waited for
// with a timeout (blocking wait: NCCL_BLOCKING_WAIT=1, monitored_barrier, barrier) polls the
// event and ncclCommGetAsyncError on the host and aborts the communicator (ncclCommAbort) when
// the time is up or NCCL reported an error, so a rank that died cannot hang the others past the
// timeout; the group is unusable after that, as in PyTorch. Without a wait, a watchdog thread
// (torch/distributed/_nccl_backend.py) does the same for every op in flight.
// Types: NCCL's own, Bool as uint8 (its SUM is MAX, its PRODUCT MIN, as PyTorch's);
// ReduceOp.AVG is ncclAvg (NCCL 2.10 and later); the bitwise ops do not exist in NCCL. Bad
// input raises RuntimeError with PyTorch's words, before anything is queued.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "python/csrc/Bind.h"

#ifdef TORCH_WITH_CUDA
#include <cuda_runtime_api.h>
#include <nccl.h>

#include "THC/THCCachingAllocator.h"
#include "THC/THCDeviceGuard.h"
#include "THC/THCLazyLibrary.h"
#include "core/ops/cuda/Cuda.h"
#endif

namespace torch::python {

#ifdef TORCH_WITH_CUDA
namespace {

#define NCCL(fn) THC_LAZY(Nccl, fn)

void checkNccl(ncclResult_t result, const char *what) {
  if (result == ncclSuccess) return;
  TORCH_CHECK(false, Runtime, "NCCL error in %s: %s (ncclResult_t %d)", what, NCCL(ncclGetErrorString)(result),
              static_cast<int>(result));
}

void checkCuda(cudaError_t err, const char *what) {
  if (err == cudaSuccess) return;
  cudaGetLastError();
  TORCH_CHECK(false, Runtime, "CUDA error in %s: %s", what, cudaGetErrorString(err));
}

int ncclVersion() {
  static const int version = [] {
    int v = 0;
    checkNccl(NCCL(ncclGetVersion)(&v), "ncclGetVersion");
    return v;
  }();
  return version;
}

using thc::DeviceGuard;

void requireGpu() {
  requireCuda();  // raises in a child forked after CUDA started (Note [CUDA after fork])
  TORCH_CHECK(torch::cuda::init(), Runtime, "the nccl backend needs a CUDA GPU, and there is none: %s",
              torch::cuda::unavailableReason().c_str());
}

// One ncclComm_t and its stream, shared by the group and its works in flight.
struct Communicator {
  ncclComm_t comm = nullptr;
  cudaStream_t stream = nullptr;
  int device = 0, rank = 0, size = 0;
  std::mutex mutex;     // guards comm, ended and failed (abort comes from another thread)
  std::string ended;    // why the communicator cannot be used any more ("" while it can)
  bool failed = false;  // ended by an error or a timeout, not by destroy()

  ~Communicator() {
    if (comm) NCCL(ncclCommDestroy)(comm);
    if (stream) {
      cudaSetDevice(device);
      cudaStreamDestroy(stream);
    }
  }

  // Ends the communicator at once, whatever it is doing (a peer died, a timeout).
  void abort(const std::string &why) {
    std::lock_guard<std::mutex> hold(mutex);
    if (!comm) return;
    NCCL(ncclCommAbort)(comm);
    comm = nullptr;
    ended = why;
    failed = true;
  }

  // Frees the communicator (destroy_process_group, once the ops queued on it have run).
  void destroy() {
    ncclComm_t ending;
    {
      std::lock_guard<std::mutex> hold(mutex);
      if (!comm) return;
      ending = comm;
      comm = nullptr;
      ended = "the process group was destroyed";
    }
    checkNccl(NCCL(ncclCommDestroy)(ending), "ncclCommDestroy");
  }

  // The communicator to issue `what` on; raises once it has ended.
  ncclComm_t current(const char *what) {
    std::lock_guard<std::mutex> hold(mutex);
    TORCH_CHECK(comm, Runtime, "%s: the NCCL communicator has ended: %s", what, ended.c_str());
    return comm;
  }

  // NCCL's error from its own threads (a peer's connection lost), or "".
  std::string asyncError() {
    std::lock_guard<std::mutex> hold(mutex);
    if (!comm) return failed ? ended : "";
    ncclResult_t result = ncclSuccess;
    checkNccl(NCCL(ncclCommGetAsyncError)(comm, &result), "ncclCommGetAsyncError");
    if (result == ncclSuccess || result == ncclInProgress) return "";
    return std::string("NCCL error: ") + NCCL(ncclGetErrorString)(result);
  }
};

// An op issued on a communicator's stream (Note [The nccl backend]).
class Work {
 public:
  explicit Work(std::shared_ptr<Communicator> comm) : comm_(std::move(comm)) {
    checkCuda(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming), "cudaEventCreateWithFlags");
  }
  ~Work() {
    if (done_) cudaEventDestroy(done_);
  }
  Work(const Work &) = delete;
  Work &operator=(const Work &) = delete;

  cudaEvent_t event() const { return done_; }

  // Raises the communicator's error; true once the op has run on the device.
  bool isCompleted() {
    std::string error = comm_->asyncError();
    TORCH_CHECK(error.empty(), Runtime, "NCCL communicator of rank %d failed: %s", comm_->rank, error.c_str());
    DeviceGuard guard(comm_->device);
    cudaError_t status = cudaEventQuery(done_);
    if (status == cudaErrorNotReady) return false;
    checkCuda(status, "cudaEventQuery");
    return true;
  }

  // The caller's current stream waits for the op (the host does not).
  void waitOnCurrentStream() {
    DeviceGuard guard(comm_->device);
    checkCuda(cudaStreamWaitEvent(THCState_getCurrentStream(torch::cuda::state()), done_, 0), "cudaStreamWaitEvent");
  }

  // The host waits until the op ran, at most `seconds` (< 0: no limit), aborting the
  // communicator when the time is up or NCCL reported an error.
  void synchronize(double seconds) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds < 0 ? 1e9 : seconds);
    for (;;) {
      std::string error = comm_->asyncError();
      if (!error.empty()) {
        comm_->abort(error);
        TORCH_CHECK(false, Runtime, "NCCL communicator of rank %d failed and was aborted: %s", comm_->rank,
                    error.c_str());
      }
      DeviceGuard guard(comm_->device);
      cudaError_t status = cudaEventQuery(done_);
      if (status == cudaSuccess) break;
      if (status != cudaErrorNotReady) checkCuda(status, "cudaEventQuery");
      if (std::chrono::steady_clock::now() > deadline) {
        char why[160];
        snprintf(why, sizeof why, "an operation timed out after %.3f s", seconds);
        comm_->abort(why);
        TORCH_CHECK(false, Runtime,
                    "NCCL communicator of rank %d: %s (a peer died or never called it?); the communicator was "
                    "aborted",
                    comm_->rank, why);
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
  }

 private:
  std::shared_ptr<Communicator> comm_;
  cudaEvent_t done_ = nullptr;
};

ncclDataType_t ncclType(ScalarType t, const char *op) {
  switch (t) {
    case ScalarType::Byte:
    case ScalarType::Bool: return ncclUint8;
    case ScalarType::Char: return ncclInt8;
    case ScalarType::Int: return ncclInt32;
    case ScalarType::Long: return ncclInt64;
    case ScalarType::Half: return ncclFloat16;
    case ScalarType::BFloat16: return ncclBfloat16;
    case ScalarType::Float: return ncclFloat32;
    case ScalarType::Double: return ncclFloat64;
    default:
      TORCH_CHECK(false, Runtime, "%s: the nccl backend has no %s tensors (NCCL has no such type)", op, dtypeName(t));
  }
}

// torch.distributed.ReduceOp's values: SUM, AVG, PRODUCT, MIN, MAX, BAND, BOR, BXOR.
ncclRedOp_t ncclOp(int op, ScalarType t, const char *what) {
  static const char *const names[] = {"SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"};
  TORCH_CHECK(op >= 0 && op < 8, Runtime, "%s: unknown ReduceOp %d", what, op);
  if (t == ScalarType::Bool) {  // logical or and and, as PyTorch's
    TORCH_CHECK(op != 1, Runtime, "%s: Cannot use ReduceOp.AVG with boolean inputs", what);
    if (op == 0) return ncclMax;
    if (op == 2) return ncclMin;
  }
  switch (op) {
    case 0: return ncclSum;
    case 1:
      TORCH_CHECK(ncclVersion() >= 21000, Runtime, "%s: ReduceOp.AVG needs NCCL 2.10 or later (this is %d)", what,
                  ncclVersion());
      return ncclAvg;
    case 2: return ncclProd;
    case 3: return ncclMin;
    case 4: return ncclMax;
    default: TORCH_CHECK(false, Runtime, "%s: Cannot use ReduceOp.%s with NCCL", what, names[op]);
  }
}

void checkTensor(const Tensor &t, const Communicator &c, const char *op) {
  TORCH_CHECK(t.device() == Device::CUDA, Runtime,
              "%s: Tensors must be CUDA and dense (got a CPU tensor): the nccl backend takes CUDA tensors; the "
              "gloo backend takes CPU ones",
              op);
  TORCH_CHECK(t.isContiguous(), Runtime, "%s: Tensors must be contiguous", op);
  int device = THCCachingAllocator_device(t.storage().data());
  TORCH_CHECK(device < 0 || device == c.device, Runtime,
              "%s: the tensor is on cuda:%d, but this process group's NCCL communicator is on cuda:%d", op, device,
              c.device);
  ncclType(t.dtype(), op);
}

void checkSameType(const Tensor &a, const Tensor &b, const char *op) {
  TORCH_CHECK(a.dtype() == b.dtype(), Runtime, "%s: Tensors must have identical type (got %s and %s)", op,
              dtypeName(a.dtype()), dtypeName(b.dtype()));
}

class Group {
 public:
  // ncclCommInitRank on the current device; it returns when every rank called it.
  Group(const py::bytes &id, int size, int rank) : comm_(std::make_shared<Communicator>()) {
    requireGpu();
    std::string bytes = id;
    TORCH_CHECK(bytes.size() == sizeof(ncclUniqueId), Value, "NCCL unique id: expected %zu bytes, got %zu",
                sizeof(ncclUniqueId), bytes.size());
    TORCH_CHECK(size > 0 && rank >= 0 && rank < size, Value, "NCCL communicator: rank %d of a group of %d", rank, size);
    ncclUniqueId uid;
    memcpy(&uid, bytes.data(), sizeof uid);
    comm_->device = THCudaGetDevice();
    comm_->rank = rank;
    comm_->size = size;
    withoutGil([&] {
      DeviceGuard guard(comm_->device);
      checkCuda(cudaStreamCreateWithFlags(&comm_->stream, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
      checkNccl(NCCL(ncclCommInitRank)(&comm_->comm, size, uid, rank), "ncclCommInitRank");
    });
  }

  int device() const { return comm_->device; }

  // Runs call(comm, stream) on the NCCL stream after the caller's current stream's work,
  // with tensors' blocks recorded on the NCCL stream (Note [The nccl backend]).
  template <typename Call>
  std::shared_ptr<Work> issue(const std::vector<Tensor> &tensors, const char *what, Call &&call) {
    Communicator &c = *comm_;
    DeviceGuard guard(c.device);
    auto work = std::make_shared<Work>(comm_);
    cudaStream_t caller = THCState_getCurrentStream(torch::cuda::state());
    cudaEvent_t ready;
    checkCuda(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), "cudaEventCreateWithFlags");
    cudaError_t status = cudaEventRecord(ready, caller);
    if (status == cudaSuccess) status = cudaStreamWaitEvent(c.stream, ready, 0);
    cudaEventDestroy(ready);  // released once the wait is done
    checkCuda(status, "cudaEventRecord/cudaStreamWaitEvent (the NCCL stream waits for the current stream)");
    for (const Tensor &t : tensors) {
      void *block = t.storage().data();
      if (THCCachingAllocator_device(block) >= 0) THCCachingAllocator_recordStream(block, c.stream);
    }
    // Called without the lock: a call that waits for a peer (a group's first send to it)
    // must leave the communicator to an abort from the watchdog, as in PyTorch.
    call(c.current(what), c.stream);
    checkCuda(cudaEventRecord(work->event(), c.stream), "cudaEventRecord (after the NCCL call)");
    return work;
  }

  std::shared_ptr<Work> allReduce(const Tensor &in, const Tensor &out, int op) {
    const char *what = "all_reduce";
    checkTensor(in, *comm_, what);
    checkTensor(out, *comm_, what);
    checkSameType(in, out, what);
    TORCH_CHECK(in.numel() == out.numel(), Value, "all_reduce: input and output sizes differ");
    ncclRedOp_t red = ncclOp(op, in.dtype(), what);
    return issue({in, out}, what, [&](ncclComm_t comm, cudaStream_t stream) {
      checkNccl(
          NCCL(ncclAllReduce)(in.dataPtr(), out.dataPtr(), in.numel(), ncclType(in.dtype(), what), red, comm, stream),
          "ncclAllReduce");
    });
  }

  std::shared_ptr<Work> broadcast(const Tensor &t, int root) {
    const char *what = "broadcast";
    checkTensor(t, *comm_, what);
    checkRoot(root, what);
    return issue({t}, what, [&](ncclComm_t comm, cudaStream_t stream) {
      checkNccl(NCCL(ncclBroadcast)(t.dataPtr(), t.dataPtr(), t.numel(), ncclType(t.dtype(), what), root, comm, stream),
                "ncclBroadcast");
    });
  }

  std::shared_ptr<Work> reduce(const Tensor &t, int root, int op) {
    const char *what = "reduce";
    checkTensor(t, *comm_, what);
    checkRoot(root, what);
    ncclRedOp_t red = ncclOp(op, t.dtype(), what);
    return issue({t}, what, [&](ncclComm_t comm, cudaStream_t stream) {
      checkNccl(
          NCCL(ncclReduce)(t.dataPtr(), t.dataPtr(), t.numel(), ncclType(t.dtype(), what), red, root, comm, stream),
          "ncclReduce");
    });
  }

  // out holds size blocks of in's elements, rank i's in block i.
  std::shared_ptr<Work> allGather(const Tensor &out, const Tensor &in) {
    const char *what = "all_gather";
    checkTensor(in, *comm_, what);
    checkTensor(out, *comm_, what);
    checkSameType(in, out, what);
    TORCH_CHECK(out.numel() == in.numel() * comm_->size, Value,
                "all_gather: the output must hold world_size (%d) times the input's %lld elements", comm_->size,
                static_cast<long long>(in.numel()));
    return issue({in, out}, what, [&](ncclComm_t comm, cudaStream_t stream) {
      checkNccl(NCCL(ncclAllGather)(in.dataPtr(), out.dataPtr(), in.numel(), ncclType(in.dtype(), what), comm, stream),
                "ncclAllGather");
    });
  }

  // Block i of in, reduced over the ranks, into rank i's out.
  std::shared_ptr<Work> reduceScatter(const Tensor &out, const Tensor &in, int op) {
    const char *what = "reduce_scatter";
    checkTensor(in, *comm_, what);
    checkTensor(out, *comm_, what);
    checkSameType(in, out, what);
    TORCH_CHECK(in.numel() == out.numel() * comm_->size, Value,
                "reduce_scatter: the input must hold world_size (%d) times the output's %lld elements", comm_->size,
                static_cast<long long>(out.numel()));
    ncclRedOp_t red = ncclOp(op, in.dtype(), what);
    return issue({in, out}, what, [&](ncclComm_t comm, cudaStream_t stream) {
      checkNccl(NCCL(ncclReduceScatter)(in.dataPtr(), out.dataPtr(), out.numel(), ncclType(in.dtype(), what), red, comm,
                                        stream),
                "ncclReduceScatter");
    });
  }

  // Point to point in one NCCL group: each (tensor, peer) of sends goes to peer, each of
  // recvs is filled from peer; all_to_all, gather, scatter, send and recv are made of it.
  std::shared_ptr<Work> exchange(const std::vector<std::pair<Tensor, int>> &sends,
                                 const std::vector<std::pair<Tensor, int>> &recvs, const char *what) {
    std::vector<Tensor> tensors;
    for (const auto *list : {&sends, &recvs}) {
      for (const auto &[t, peer] : *list) {
        checkTensor(t, *comm_, what);
        checkRoot(peer, what);
        tensors.push_back(t);
      }
    }
    return issue(tensors, what, [&](ncclComm_t comm, cudaStream_t stream) {
      checkNccl(NCCL(ncclGroupStart)(), "ncclGroupStart");
      ncclResult_t result = ncclSuccess;
      const char *failed = "ncclSend";
      for (const auto &[t, peer] : sends) {
        size_t bytes = t.numel() * elementSize(t.dtype());
        if (bytes && result == ncclSuccess) result = NCCL(ncclSend)(t.dataPtr(), bytes, ncclUint8, peer, comm, stream);
      }
      if (result == ncclSuccess) failed = "ncclRecv";
      for (const auto &[t, peer] : recvs) {
        size_t bytes = t.numel() * elementSize(t.dtype());
        if (bytes && result == ncclSuccess) result = NCCL(ncclRecv)(t.dataPtr(), bytes, ncclUint8, peer, comm, stream);
      }
      ncclResult_t ended = NCCL(ncclGroupEnd)();  // always closes the group the calls opened
      checkNccl(result, failed);
      checkNccl(ended, "ncclGroupEnd");
    });
  }

  void abort(const std::string &why) { comm_->abort(why); }
  void destroy() { comm_->destroy(); }
  std::string error() { return comm_->asyncError(); }

 private:
  void checkRoot(int rank, const char *what) const {
    TORCH_CHECK(rank >= 0 && rank < comm_->size, Value, "%s: rank %d is not in the group of %d", what, rank,
                comm_->size);
  }

  std::shared_ptr<Communicator> comm_;
};

}  // namespace
#endif

void bindNccl(py::module &m) {
  py::module nccl = m.def_submodule("_nccl", "NCCL communicators for torch.distributed (Note [The nccl backend])");
#ifdef TORCH_WITH_CUDA
  nccl.attr("built") = true;
  // NCCL_VERSION_CODE of the loaded library (22809 for 2.28.9); raises when it cannot load
  nccl.def("version", &ncclVersion);
  nccl.def("unique_id", [] {
    ncclUniqueId id;
    withoutGil([&] { checkNccl(NCCL(ncclGetUniqueId)(&id), "ncclGetUniqueId"); });
    return py::bytes(reinterpret_cast<const char *>(&id), sizeof id);
  });
  py::class_<Work, std::shared_ptr<Work>>(nccl, "Work")
      .def("is_completed", &Work::isCompleted)
      .def("wait_stream", &Work::waitOnCurrentStream)
      .def("synchronize", &Work::synchronize, py::arg("seconds"), ReleaseGil());
  using Pairs = std::vector<std::pair<Tensor, int>>;
  py::class_<Group>(nccl, "Communicator")
      .def(py::init<const py::bytes &, int, int>(), py::arg("unique_id"), py::arg("size"), py::arg("rank"))
      .def_property_readonly("device", &Group::device)
      .def("all_reduce", &Group::allReduce, ReleaseGil())
      .def("broadcast", &Group::broadcast, ReleaseGil())
      .def("reduce", &Group::reduce, ReleaseGil())
      .def("all_gather", &Group::allGather, ReleaseGil())
      .def("reduce_scatter", &Group::reduceScatter, ReleaseGil())
      .def(
          "exchange",
          [](Group &g, const Pairs &sends, const Pairs &recvs, const std::string &what) {
            return withoutGil([&] { return g.exchange(sends, recvs, what.c_str()); });
          },
          py::arg("sends"), py::arg("recvs"), py::arg("op"))
      .def("abort", &Group::abort, py::arg("why"), ReleaseGil())
      .def("destroy", &Group::destroy, ReleaseGil())
      .def("error", &Group::error);
#else
  nccl.attr("built") = false;
  nccl.def("version", []() -> int {
    TORCH_CHECK(false, Runtime, "Distributed package doesn't have NCCL built in: this build has no CUDA");
  });
#endif
}

}  // namespace torch::python
