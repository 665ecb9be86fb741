// torch._C._distributed: process groups on Gloo, torch.distributed's default engine (CPU
// tensors over TCP). The Python layer (torch/distributed/distributed_c10d.py) owns the
// rendezvous stores, group bookkeeping and argument checks; this file runs the collectives.
//
// Note [One worker thread per group]: collectives run in the order they were issued, on one
// thread per process group, so `async_op=True` overlaps them with Python (DDP's buckets with
// backward) while every rank still sees the same sequence. Each op's tag (Gloo's slot) is
// its sequence number, taken when it is issued; the GIL is never held on the worker, which
// touches only the tensors' memory, kept alive by the Work until it completes.
#include <gloo/allgather.h>
#include <gloo/allreduce.h>
#include <gloo/alltoall.h>
#include <gloo/alltoallv.h>
#include <gloo/barrier.h>
#include <gloo/broadcast.h>
#include <gloo/gather.h>
#include <gloo/reduce.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/store.h>
#include <gloo/scatter.h>
#include <gloo/transport/tcp/device.h>

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include "Bind.h"
#include "core/BFloat16.h"

namespace torch::python {
namespace {

using Millis = std::chrono::milliseconds;
using TensorList = std::vector<Tensor>;

// Gloo's rendezvous reads and writes a key-value store; torch.distributed's stores
// (TCPStore, FileStore, HashStore, PrefixStore) are Python objects with set/get/wait.
class PythonStore : public gloo::rendezvous::Store {
 public:
  explicit PythonStore(py::object store) : store_(std::move(store)) {}
  void set(const std::string &key, const std::vector<char> &data) override {
    py::gil_scoped_acquire gil;
    store_.attr("set")(key, py::bytes(data.data(), data.size()));
  }
  std::vector<char> get(const std::string &key) override {
    py::gil_scoped_acquire gil;
    std::string value = py::bytes(store_.attr("get")(key));
    return std::vector<char>(value.begin(), value.end());
  }
  void wait(const std::vector<std::string> &keys) override { wait(keys, kDefaultTimeout); }
  void wait(const std::vector<std::string> &keys, const Millis &timeout) override {
    py::gil_scoped_acquire gil;
    py::object delta = py::module_::import("datetime").attr("timedelta")(py::arg("milliseconds") = timeout.count());
    store_.attr("wait")(py::cast(keys), delta);
  }

 private:
  py::object store_;
};

// torch.distributed.ReduceOp's values, in PyTorch's order.
enum class ReduceOp { Sum = 0, Avg = 1, Product = 2, Min = 3, Max = 4, Band = 5, Bor = 6, Bxor = 7 };

const char *reduceOpName(ReduceOp op) {
  switch (op) {
    case ReduceOp::Sum: return "SUM";
    case ReduceOp::Avg: return "AVG";
    case ReduceOp::Product: return "PRODUCT";
    case ReduceOp::Min: return "MIN";
    case ReduceOp::Max: return "MAX";
    case ReduceOp::Band: return "BAND";
    case ReduceOp::Bor: return "BOR";
    case ReduceOp::Bxor: return "BXOR";
  }
  return "?";
}

ReduceOp toReduceOp(int op) {
  TORCH_CHECK(op >= 0 && op <= static_cast<int>(ReduceOp::Bxor), Value, "unknown ReduceOp %d", op);
  return static_cast<ReduceOp>(op);
}

using ReduceFn = std::function<void(void *, const void *, const void *, size_t)>;

// c = a op b over n elements of T; Half and BFloat16 are reduced through float.
template <typename T>
ReduceFn typedReduceFunction(ReduceOp op, ScalarType dtype) {
  auto make = [](auto combine) -> ReduceFn {
    return [combine](void *c, const void *a, const void *b, size_t n) {
      T *out = static_cast<T *>(c);
      const T *x = static_cast<const T *>(a);
      const T *y = static_cast<const T *>(b);
      for (size_t i = 0; i < n; i++) out[i] = combine(x[i], y[i]);
    };
  };
  if constexpr (std::is_same_v<T, THHalf>) {
    auto viaFloat = [dtype](auto f) {
      return [f, dtype](THHalf x, THHalf y) {
        return floatToReduced(f(reducedToFloat(x, dtype), reducedToFloat(y, dtype)), dtype);
      };
    };
    switch (op) {
      case ReduceOp::Sum:
      case ReduceOp::Avg: return make(viaFloat([](float x, float y) { return x + y; }));
      case ReduceOp::Product: return make(viaFloat([](float x, float y) { return x * y; }));
      case ReduceOp::Min: return make(viaFloat([](float x, float y) { return std::min(x, y); }));
      case ReduceOp::Max: return make(viaFloat([](float x, float y) { return std::max(x, y); }));
      default: break;
    }
  } else {
    const bool isBool = dtype == ScalarType::Bool;
    switch (op) {
      case ReduceOp::Sum:
      case ReduceOp::Avg:
        // a sum of bools is their logical or, as PyTorch's Gloo backend gives
        if (isBool) return make([](T x, T y) { return static_cast<T>(x || y); });
        return make([](T x, T y) { return static_cast<T>(x + y); });
      case ReduceOp::Product: return make([](T x, T y) { return static_cast<T>(x * y); });
      case ReduceOp::Min: return make([](T x, T y) { return std::min(x, y); });
      case ReduceOp::Max: return make([](T x, T y) { return std::max(x, y); });
      default:
        if constexpr (std::is_integral_v<T>) {
          if (op == ReduceOp::Band) return make([](T x, T y) { return static_cast<T>(x & y); });
          if (op == ReduceOp::Bor) return make([](T x, T y) { return static_cast<T>(x | y); });
          if (op == ReduceOp::Bxor) return make([](T x, T y) { return static_cast<T>(x ^ y); });
        }
        break;
    }
  }
  fail(th::ErrorKind::Runtime, "Gloo: ReduceOp.%s is not supported for %s tensors", reduceOpName(op), dtypeName(dtype));
}

ReduceFn reduceFunction(ReduceOp op, ScalarType dtype) {
  return dispatch(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    return typedReduceFunction<T>(op, dtype);
  });
}

// AVG divides the sum by the group's size afterwards (integers round toward zero, as
// PyTorch's integer division of a sum by an integer does).
void divideInPlace(const Tensor &t, int size) {
  dispatch(t.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T *p = reinterpret_cast<T *>(t.dataPtr());
    int64_t n = t.numel();
    if constexpr (std::is_same_v<T, THHalf>) {
      for (int64_t i = 0; i < n; i++) p[i] = floatToReduced(reducedToFloat(p[i], t.dtype()) / size, t.dtype());
    } else {
      for (int64_t i = 0; i < n; i++) p[i] = static_cast<T>(p[i] / size);
    }
  });
}

size_t byteSize(const Tensor &t) { return static_cast<size_t>(t.numel()) * elementSize(t.dtype()); }

// A collective in flight: Work.wait() blocks (without the GIL) until the group's worker ran it.
class Work {
 public:
  explicit Work(TensorList tensors) : tensors_(std::move(tensors)) {}
  void finish(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mu_);
    error_ = error;
    done_ = true;
    cv_.notify_all();
  }
  bool isCompleted() {
    std::lock_guard<std::mutex> lock(mu_);
    return done_;
  }
  bool isSuccess() {
    std::lock_guard<std::mutex> lock(mu_);
    return done_ && !error_;
  }
  // True once complete; rethrows the op's error. A negative timeout waits forever.
  bool wait(double timeoutSeconds) {
    std::unique_lock<std::mutex> lock(mu_);
    if (timeoutSeconds < 0) {
      cv_.wait(lock, [this] { return done_; });
    } else if (!cv_.wait_for(lock, std::chrono::duration<double>(timeoutSeconds), [this] { return done_; })) {
      fail(th::ErrorKind::Runtime, "Work.wait: the operation did not complete within %g seconds", timeoutSeconds);
    }
    if (error_) std::rethrow_exception(error_);
    return true;
  }
  const TensorList &tensors() const { return tensors_; }

 private:
  TensorList tensors_;  // what the op reads and writes, alive until it has run
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::exception_ptr error_;
};

class GlooGroup {
 public:
  GlooGroup(py::object store, int rank, int size, double timeoutSeconds, const std::string &hostname)
      : rank_(rank), size_(size), timeout_(static_cast<int64_t>(timeoutSeconds * 1000)) {
    TORCH_CHECK(size > 0 && rank >= 0 && rank < size, Value, "Gloo: rank %d is not in a group of size %d", rank, size);
    gloo::transport::tcp::attr attr;
    // GLOO_SOCKET_IFNAME names the network interface to use, as it does for PyTorch
    const char *iface = std::getenv("GLOO_SOCKET_IFNAME");
    if (iface && *iface) {
      attr.iface = iface;
    } else {
      attr.hostname = hostname;
    }
    auto device = gloo::transport::tcp::CreateDevice(attr);
    context_ = std::make_shared<gloo::rendezvous::Context>(rank, size);
    context_->setTimeout(timeout_);
    PythonStore rendezvous(store);
    {
      py::gil_scoped_release release;  // the store's server may be a thread of this process
      context_->connectFullMesh(rendezvous, device);
    }
    worker_ = std::thread([this] { run(); });
  }

  ~GlooGroup() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
      cv_.notify_all();
    }
    if (worker_.joinable()) worker_.join();
  }

  int rank() const { return rank_; }
  int size() const { return size_; }

  // Queues op(tag) on the worker (Note [One worker thread per group]).
  std::shared_ptr<Work> enqueue(TensorList tensors, std::function<void(uint32_t)> op) {
    auto work = std::make_shared<Work>(std::move(tensors));
    std::lock_guard<std::mutex> lock(mu_);
    TORCH_CHECK(!stopping_, Runtime, "the process group has been destroyed");
    uint32_t tag = nextTag_++;
    queue_.push_back([work, op = std::move(op), tag] {
      try {
        op(tag);
        work->finish(nullptr);
      } catch (...) {
        work->finish(std::current_exception());
      }
    });
    cv_.notify_all();
    return work;
  }

  std::shared_ptr<Work> allreduce(const Tensor &t, ReduceOp op) {
    checkTensor(t, "all_reduce");
    ReduceFn fn = reduceFunction(op, t.dtype());
    return enqueue({t}, [this, t, op, fn](uint32_t tag) {
      gloo::AllreduceOptions opts(context_);
      dispatch(t.dtype(), [&](auto type) {  // Gloo segments the buffer by element
        opts.setOutput<typename decltype(type)::type>(buffer(t));
      });
      opts.setReduceFunction(fn);
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::allreduce(opts);
      if (op == ReduceOp::Avg) divideInPlace(t, size_);
    });
  }

  std::shared_ptr<Work> broadcast(const Tensor &t, int root) {
    checkTensor(t, "broadcast");
    checkRank(root, "broadcast");
    return enqueue({t}, [this, t, root](uint32_t tag) {
      gloo::BroadcastOptions opts(context_);
      opts.setOutput<uint8_t>(buffer(t));
      opts.setRoot(root);
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::broadcast(opts);
    });
  }

  std::shared_ptr<Work> reduce(const Tensor &t, int root, ReduceOp op) {
    checkTensor(t, "reduce");
    checkRank(root, "reduce");
    ReduceFn fn = reduceFunction(op, t.dtype());
    return enqueue({t}, [this, t, root, op, fn](uint32_t tag) {
      gloo::ReduceOptions opts(context_);
      // Gloo works in the output buffer on every rank: the others' go to scratch memory, so
      // that their tensors keep their values
      std::vector<char> scratch(rank_ == root ? 0 : byteSize(t));
      dispatch(t.dtype(), [&](auto type) {
        using T = typename decltype(type)::type;
        opts.setInput<T>(buffer(t));
        opts.setOutput<T>(rank_ == root ? buffer(t) : context_->createUnboundBuffer(scratch.data(), scratch.size()));
      });
      opts.setRoot(root);
      opts.setReduceFunction(fn);
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::reduce(opts);
      if (op == ReduceOp::Avg && rank_ == root) divideInPlace(t, size_);
    });
  }

  // flat holds size_ blocks of input's bytes, rank i's in block i.
  std::shared_ptr<Work> allgather(const Tensor &flat, const Tensor &input) {
    checkTensor(flat, "all_gather");
    checkTensor(input, "all_gather");
    return enqueue({flat, input}, [this, flat, input](uint32_t tag) {
      gloo::AllgatherOptions opts(context_);
      opts.setInput<uint8_t>(buffer(input));
      opts.setOutput<uint8_t>(buffer(flat));
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::allgather(opts);
    });
  }

  // flat (the root's only) receives size_ blocks of input's bytes.
  std::shared_ptr<Work> gather(const Tensor &flat, const Tensor &input, int root) {
    checkTensor(input, "gather");
    checkRank(root, "gather");
    if (rank_ == root) checkTensor(flat, "gather");
    return enqueue({flat, input}, [this, flat, input, root](uint32_t tag) {
      gloo::GatherOptions opts(context_);
      opts.setInput<uint8_t>(buffer(input));
      if (rank_ == root) opts.setOutput<uint8_t>(buffer(flat));
      opts.setRoot(root);
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::gather(opts);
    });
  }

  // The root sends inputs[i] to rank i; every rank receives into output.
  std::shared_ptr<Work> scatter(const Tensor &output, const TensorList &inputs, int root) {
    checkTensor(output, "scatter");
    checkRank(root, "scatter");
    if (rank_ == root) {
      TORCH_CHECK(static_cast<int>(inputs.size()) == size_, Value,
                  "scatter: expected a list of %d tensors on the source rank, got %d", size_,
                  static_cast<int>(inputs.size()));
      for (const Tensor &t : inputs) {
        checkTensor(t, "scatter");
        TORCH_CHECK(byteSize(t) == byteSize(output), Value, "scatter: every input must have the output's size");
      }
    }
    TensorList keep = inputs;
    keep.push_back(output);
    return enqueue(keep, [this, output, inputs, root](uint32_t tag) {
      gloo::ScatterOptions opts(context_);
      if (rank_ == root) {
        std::vector<std::unique_ptr<gloo::transport::UnboundBuffer>> bufs;
        for (const Tensor &t : inputs) bufs.push_back(buffer(t));
        opts.setInputs<uint8_t>(std::move(bufs));
      }
      opts.setOutput<uint8_t>(buffer(output));
      opts.setRoot(root);
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::scatter(opts);
    });
  }

  // Block i of input goes to rank i; block j of output comes from rank j.
  std::shared_ptr<Work> alltoall(const Tensor &output, const Tensor &input) {
    checkTensor(output, "all_to_all");
    checkTensor(input, "all_to_all");
    TORCH_CHECK(byteSize(input) == byteSize(output) && byteSize(input) % size_ == 0, Value,
                "all_to_all: input and output must have the same size, divisible by the group's size %d", size_);
    return enqueue({output, input}, [this, output, input](uint32_t tag) {
      gloo::AlltoallOptions opts(context_);
      opts.setInput<uint8_t>(buffer(input));
      opts.setOutput<uint8_t>(buffer(output));
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::alltoall(opts);
    });
  }

  // Uneven blocks: rank i gets inBytes[i] bytes of input (in order), rank j's block of the
  // output holds outBytes[j] bytes.
  std::shared_ptr<Work> alltoallv(const Tensor &output, const Tensor &input, std::vector<int64_t> outBytes,
                                  std::vector<int64_t> inBytes) {
    checkTensor(output, "all_to_all");
    checkTensor(input, "all_to_all");
    auto total = [](const std::vector<int64_t> &v) {
      int64_t sum = 0;
      for (int64_t b : v) sum += b;
      return sum;
    };
    TORCH_CHECK(static_cast<int>(outBytes.size()) == size_ && static_cast<int>(inBytes.size()) == size_, Value,
                "all_to_all: expected split sizes for %d ranks", size_);
    TORCH_CHECK(total(outBytes) == static_cast<int64_t>(byteSize(output)) &&
                    total(inBytes) == static_cast<int64_t>(byteSize(input)),
                Value, "all_to_all: the split sizes do not add up to the tensors' sizes");
    return enqueue({output, input}, [this, output, input, outBytes, inBytes](uint32_t tag) {
      gloo::AlltoallvOptions opts(context_);
      opts.setInput<uint8_t>(buffer(input), inBytes);
      opts.setOutput<uint8_t>(buffer(output), outBytes);
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::alltoallv(opts);
    });
  }

  std::shared_ptr<Work> barrier() {
    return enqueue({}, [this](uint32_t tag) {
      gloo::BarrierOptions opts(context_);
      opts.setTag(tag);
      opts.setTimeout(timeout_);
      gloo::barrier(opts);
    });
  }

  // Point to point, outside the worker as PyTorch's are: the caller's tag is Gloo's slot, so
  // a send pairs with the receive of the same tag whatever collectives run meanwhile.
  std::shared_ptr<Work> send(const Tensor &t, int dst, int tag) {
    checkTensor(t, "send");
    checkRank(dst, "send");
    auto buffer = std::shared_ptr<gloo::transport::UnboundBuffer>(
        context_->createUnboundBuffer(t.dataPtr(), byteSize(t)).release());
    buffer->send(dst, pointToPointSlot(tag));
    return startPointToPoint(t, [buffer, timeout = timeout_] { buffer->waitSend(timeout); });
  }

  // src < 0 receives from any rank; the sender's rank is then in the Work's source.
  std::shared_ptr<Work> recv(const Tensor &t, int src, int tag, std::shared_ptr<int> sourceRank) {
    checkTensor(t, "recv");
    if (src >= 0) checkRank(src, "recv");
    auto buffer = std::shared_ptr<gloo::transport::UnboundBuffer>(
        context_->createUnboundBuffer(t.dataPtr(), byteSize(t)).release());
    if (src >= 0) {
      buffer->recv(src, pointToPointSlot(tag));
    } else {
      std::vector<int> ranks;
      for (int r = 0; r < size_; r++)
        if (r != rank_) ranks.push_back(r);
      buffer->recv(ranks, pointToPointSlot(tag));
    }
    return startPointToPoint(t, [buffer, timeout = timeout_, sourceRank] {
      int from = -1;
      buffer->waitRecv(&from, timeout);
      *sourceRank = from;
    });
  }

 private:
  void checkTensor(const Tensor &t, const char *op) const {
    TORCH_CHECK(t.defined(), Value, "%s: expected a tensor", op);
    TORCH_CHECK(t.device() == Device::CPU, Runtime, "%s: the Gloo backend takes CPU tensors, got one on %s", op,
                deviceName(t.device()));
    TORCH_CHECK(t.isContiguous(), Value, "%s: Tensors must be contiguous", op);
  }
  void checkRank(int r, const char *op) const {
    TORCH_CHECK(r >= 0 && r < size_, Value, "%s: invalid rank %d in a group of size %d", op, r, size_);
  }
  // The tensor's memory as Gloo's buffer; the ops that only move data see bytes.
  std::unique_ptr<gloo::transport::UnboundBuffer> buffer(const Tensor &t) {
    return context_->createUnboundBuffer(t.dataPtr(), byteSize(t));
  }
  static uint64_t pointToPointSlot(int tag) {
    // user tags live apart from the collectives' sequence numbers
    return (uint64_t{1} << 62) | static_cast<uint32_t>(tag);
  }
  // The waiting runs on its own thread so that isend/irecv return at once.
  std::shared_ptr<Work> startPointToPoint(const Tensor &t, std::function<void()> waitFor) {
    auto work = std::make_shared<Work>(TensorList{t});
    std::thread([work, waitFor = std::move(waitFor)] {
      try {
        waitFor();
        work->finish(nullptr);
      } catch (...) {
        work->finish(std::current_exception());
      }
    }).detach();
    return work;
  }

  void run() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, and every issued op has run
        task = std::move(queue_.front());
        queue_.pop_front();
      }
      task();
    }
  }

  int rank_, size_;
  Millis timeout_;
  std::shared_ptr<gloo::rendezvous::Context> context_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  uint32_t nextTag_ = 0;
  std::thread worker_;
};

}  // namespace

void bindDistributed(py::module &m) {
  py::module d = m.def_submodule("_distributed", "process groups on Gloo (torch.distributed)");
  py::class_<Work, std::shared_ptr<Work>>(d, "Work")
      .def("is_completed", &Work::isCompleted)
      .def("is_success", &Work::isSuccess)
      .def("wait", &Work::wait, py::arg("timeout") = -1.0, py::call_guard<py::gil_scoped_release>())
      .def("result", [](Work &w) { return w.tensors(); });
  py::class_<GlooGroup, std::shared_ptr<GlooGroup>>(d, "GlooGroup")
      .def(py::init<py::object, int, int, double, std::string>(), py::arg("store"), py::arg("rank"), py::arg("size"),
           py::arg("timeout"), py::arg("hostname"))
      .def("rank", &GlooGroup::rank)
      .def("size", &GlooGroup::size)
      .def("allreduce", [](GlooGroup &g, const Tensor &t, int op) { return g.allreduce(t, toReduceOp(op)); })
      .def("broadcast", &GlooGroup::broadcast)
      .def("reduce", [](GlooGroup &g, const Tensor &t, int root, int op) { return g.reduce(t, root, toReduceOp(op)); })
      .def("allgather", &GlooGroup::allgather)
      .def("gather", &GlooGroup::gather)
      .def("scatter", &GlooGroup::scatter)
      .def("alltoall", &GlooGroup::alltoall)
      .def("alltoallv", &GlooGroup::alltoallv)
      .def("barrier", &GlooGroup::barrier)
      .def("send", &GlooGroup::send)
      .def("recv", [](GlooGroup &g, const Tensor &t, int src, int tag) {
        auto source = std::make_shared<int>(-1);
        auto work = g.recv(t, src, tag, source);
        return py::make_tuple(work, py::cpp_function([source] { return *source; }));
      });
}

}  // namespace torch::python
