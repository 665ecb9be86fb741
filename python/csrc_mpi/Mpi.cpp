// torch._mpi: torch.distributed's MPI backend on Open MPI, for jobs started by `mpirun`.
//
// A module of its own, so that `import torch` never loads libmpi: it sees memory (address,
// bytes, element type), not tensors; torch/distributed/_mpi_backend.py keeps the tensors
// alive and checks them. Open MPI is initialised with MPI_THREAD_SERIALIZED and every MPI
// call is made under one lock: collectives run in issue order on one worker thread (as Gloo's
// do, Note [One worker thread per group] in csrc/Distributed.cpp); point-to-point posts
// MPI_Isend/MPI_Irecv from the caller and its Work tests for completion under the lock.
#include <mpi.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace py = pybind11;

namespace {

std::mutex &mpiLock() {
  static std::mutex lock;
  return lock;
}

void check(int code, const char *what) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw std::runtime_error(std::string("MPI: ") + what + " failed: " + std::string(text, length));
}

// torch.distributed's element types, by the codes _mpi_backend.py passes.
MPI_Datatype datatype(const std::string &dtype) {
  if (dtype == "float32") return MPI_FLOAT;
  if (dtype == "float64") return MPI_DOUBLE;
  if (dtype == "int64") return MPI_INT64_T;
  if (dtype == "int32") return MPI_INT32_T;
  if (dtype == "int16") return MPI_INT16_T;
  if (dtype == "int8") return MPI_INT8_T;
  if (dtype == "uint8") return MPI_UINT8_T;
  if (dtype == "bool") return MPI_C_BOOL;
  throw std::runtime_error("MPI: reductions of " + dtype + " tensors are not supported");
}

// ReduceOp values (torch.distributed.ReduceOp): SUM AVG PRODUCT MIN MAX BAND BOR BXOR. AVG
// is a SUM divided afterwards by the caller.
MPI_Op reduceOp(int op, const std::string &dtype) {
  const bool isBool = dtype == "bool";
  switch (op) {
    case 0:
    case 1: return isBool ? MPI_LOR : MPI_SUM;
    case 2: return isBool ? MPI_LAND : MPI_PROD;
    case 3: return isBool ? MPI_LAND : MPI_MIN;
    case 4: return isBool ? MPI_LOR : MPI_MAX;
    case 5: return MPI_BAND;
    case 6: return MPI_BOR;
    case 7: return MPI_BXOR;
  }
  throw std::invalid_argument("MPI: unknown ReduceOp " + std::to_string(op));
}

void *address(uintptr_t p) { return reinterpret_cast<void *>(p); }

class Work {
 public:
  void finish(std::exception_ptr error) {
    std::lock_guard<std::mutex> lock(mu_);
    error_ = error;
    done_ = true;
    cv_.notify_all();
  }
  virtual ~Work() = default;
  virtual bool isCompleted() {
    std::lock_guard<std::mutex> lock(mu_);
    return done_;
  }
  bool isSuccess() { return isCompleted() && !error_; }
  virtual void wait(double timeoutSeconds) {
    std::unique_lock<std::mutex> lock(mu_);
    auto done = [this] { return done_; };
    if (timeoutSeconds < 0) {
      cv_.wait(lock, done);
    } else if (!cv_.wait_for(lock, std::chrono::duration<double>(timeoutSeconds), done)) {
      throw std::runtime_error("Work.wait: the MPI operation did not complete in time");
    }
    if (error_) std::rethrow_exception(error_);
  }
  int source() const { return source_; }

 protected:
  std::mutex mu_;
  std::condition_variable cv_;
  bool done_ = false;
  std::exception_ptr error_;
  int source_ = -1;
};

// An MPI_Isend/MPI_Irecv in flight, completed by testing it under the MPI lock.
class RequestWork : public Work {
 public:
  explicit RequestWork(MPI_Request request) : request_(request) {}
  bool isCompleted() override {
    test();
    return Work::isCompleted();
  }
  void wait(double timeoutSeconds) override {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeoutSeconds);
    while (!test()) {
      if (timeoutSeconds >= 0 && std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("Work.wait: the MPI send or receive did not complete in time");
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    }
    Work::wait(-1);
  }

 private:
  bool test() {
    if (Work::isCompleted()) return true;
    int flag = 0;
    MPI_Status status;
    {
      std::lock_guard<std::mutex> lock(mpiLock());
      int code = MPI_Test(&request_, &flag, &status);
      if (code != MPI_SUCCESS) {
        try {
          check(code, "MPI_Test");
        } catch (...) {
          finish(std::current_exception());
          return true;
        }
      }
    }
    if (flag) {
      source_ = status.MPI_SOURCE;
      finish(nullptr);
    }
    return flag != 0;
  }
  MPI_Request request_;
};

class Group {
 public:
  explicit Group(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
    worker_ = std::thread([this] { run(); });
  }
  ~Group() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
      cv_.notify_all();
    }
    worker_.join();
  }
  int rank() const { return rank_; }
  int size() const { return size_; }

  std::shared_ptr<Work> enqueue(std::function<void()> op) {
    auto work = std::make_shared<Work>();
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_) throw std::runtime_error("the process group has been destroyed");
    queue_.push_back([work, op = std::move(op)] {
      try {
        std::lock_guard<std::mutex> mpi(mpiLock());
        op();
        work->finish(nullptr);
      } catch (...) {
        work->finish(std::current_exception());
      }
    });
    cv_.notify_all();
    return work;
  }

  MPI_Comm comm() const { return comm_; }

  std::shared_ptr<Work> startRequest(std::function<int(MPI_Request *)> post, const char *what) {
    MPI_Request request;
    {
      std::lock_guard<std::mutex> lock(mpiLock());
      check(post(&request), what);
    }
    return std::make_shared<RequestWork>(request);
  }

 private:
  void run() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;
        task = std::move(queue_.front());
        queue_.pop_front();
      }
      task();
    }
  }

  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  std::thread worker_;
};

std::shared_ptr<Group> &world() {
  static std::shared_ptr<Group> group;
  return group;
}

}  // namespace

PYBIND11_MODULE(_mpi, m) {
  m.doc() = "torch._mpi: the MPI backend of torch.distributed (Open MPI)";
  py::class_<Work, std::shared_ptr<Work>>(m, "Work")
      .def("is_completed", &Work::isCompleted, py::call_guard<py::gil_scoped_release>())
      .def("is_success", &Work::isSuccess, py::call_guard<py::gil_scoped_release>())
      .def("wait", &Work::wait, py::arg("timeout") = -1.0, py::call_guard<py::gil_scoped_release>())
      .def("source", &Work::source);

  // The communicator of every process mpirun started (MPI is initialised on first use).
  m.def("world", [] {
    if (!world()) {
      int initialized = 0;
      MPI_Initialized(&initialized);
      if (!initialized) {
        int provided = 0;
        check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "MPI_Init_thread");
        if (provided < MPI_THREAD_SERIALIZED)
          throw std::runtime_error("MPI: this MPI library does not offer MPI_THREAD_SERIALIZED");
        // finalised at exit, after the groups' workers stopped
        py::module_::import("atexit").attr("register")(py::cpp_function([] {
          world().reset();
          int finalized = 0;
          MPI_Finalized(&finalized);
          if (!finalized) MPI_Finalize();
        }));
      }
      world() = std::make_shared<Group>(MPI_COMM_WORLD);
    }
    return world();
  });

  py::class_<Group, std::shared_ptr<Group>>(m, "Group")
      .def("rank", &Group::rank)
      .def("size", &Group::size)
      // A group of the given ranks of this one; every process calls it (MPI_Comm_split).
      .def("subgroup",
           [](Group &g, std::vector<int> ranks) -> std::shared_ptr<Group> {
             bool member = false;
             for (int r : ranks) member = member || r == g.rank();
             int key = 0;
             for (size_t i = 0; i < ranks.size(); i++)
               if (ranks[i] == g.rank()) key = static_cast<int>(i);
             MPI_Comm comm;
             {
               py::gil_scoped_release release;
               auto work = g.enqueue(
                   [&] { check(MPI_Comm_split(g.comm(), member ? 0 : MPI_UNDEFINED, key, &comm), "MPI_Comm_split"); });
               work->wait(-1);
             }
             if (!member) return nullptr;
             return std::make_shared<Group>(comm);
           })
      .def("allreduce",
           [](Group &g, uintptr_t data, int64_t count, std::string dtype, int op) {
             MPI_Datatype type = datatype(dtype);
             MPI_Op mop = reduceOp(op, dtype);
             return g.enqueue([&g, data, count, type, mop] {
               check(MPI_Allreduce(MPI_IN_PLACE, address(data), static_cast<int>(count), type, mop, g.comm()),
                     "MPI_Allreduce");
             });
           })
      .def("reduce",
           [](Group &g, uintptr_t data, int64_t count, std::string dtype, int op, int root) {
             MPI_Datatype type = datatype(dtype);
             MPI_Op mop = reduceOp(op, dtype);
             return g.enqueue([&g, data, count, type, mop, root] {
               void *p = address(data);
               // the root reduces in place; the others only send (their tensors keep their values)
               check(MPI_Reduce(g.rank() == root ? MPI_IN_PLACE : p, g.rank() == root ? p : nullptr,
                                static_cast<int>(count), type, mop, root, g.comm()),
                     "MPI_Reduce");
             });
           })
      .def("broadcast",
           [](Group &g, uintptr_t data, int64_t bytes, int root) {
             return g.enqueue([&g, data, bytes, root] {
               check(MPI_Bcast(address(data), static_cast<int>(bytes), MPI_BYTE, root, g.comm()), "MPI_Bcast");
             });
           })
      .def("allgather",
           [](Group &g, uintptr_t out, uintptr_t in, int64_t bytes) {
             return g.enqueue([&g, out, in, bytes] {
               check(MPI_Allgather(address(in), static_cast<int>(bytes), MPI_BYTE, address(out),
                                   static_cast<int>(bytes), MPI_BYTE, g.comm()),
                     "MPI_Allgather");
             });
           })
      .def("gather",
           [](Group &g, uintptr_t out, uintptr_t in, int64_t bytes, int root) {
             return g.enqueue([&g, out, in, bytes, root] {
               check(MPI_Gather(address(in), static_cast<int>(bytes), MPI_BYTE, address(out), static_cast<int>(bytes),
                                MPI_BYTE, root, g.comm()),
                     "MPI_Gather");
             });
           })
      .def("scatter",
           [](Group &g, uintptr_t out, uintptr_t in, int64_t bytes, int root) {
             return g.enqueue([&g, out, in, bytes, root] {
               check(MPI_Scatter(address(in), static_cast<int>(bytes), MPI_BYTE, address(out), static_cast<int>(bytes),
                                 MPI_BYTE, root, g.comm()),
                     "MPI_Scatter");
             });
           })
      .def("alltoall",
           [](Group &g, uintptr_t out, uintptr_t in, int64_t blockBytes) {
             return g.enqueue([&g, out, in, blockBytes] {
               check(MPI_Alltoall(address(in), static_cast<int>(blockBytes), MPI_BYTE, address(out),
                                  static_cast<int>(blockBytes), MPI_BYTE, g.comm()),
                     "MPI_Alltoall");
             });
           })
      .def("alltoallv",
           [](Group &g, uintptr_t out, uintptr_t in, std::vector<int> outBytes, std::vector<int> inBytes) {
             auto displacements = [](const std::vector<int> &counts) {
               std::vector<int> d(counts.size(), 0);
               for (size_t i = 1; i < counts.size(); i++) d[i] = d[i - 1] + counts[i - 1];
               return d;
             };
             return g.enqueue(
                 [&g, out, in, outBytes, inBytes, inAt = displacements(inBytes), outAt = displacements(outBytes)] {
                   check(MPI_Alltoallv(address(in), inBytes.data(), inAt.data(), MPI_BYTE, address(out),
                                       outBytes.data(), outAt.data(), MPI_BYTE, g.comm()),
                         "MPI_Alltoallv");
                 });
           })
      .def("barrier", [](Group &g) { return g.enqueue([&g] { check(MPI_Barrier(g.comm()), "MPI_Barrier"); }); })
      .def("send",
           [](Group &g, uintptr_t data, int64_t bytes, int dst, int tag) {
             return g.startRequest(
                 [&](MPI_Request *r) {
                   return MPI_Isend(address(data), static_cast<int>(bytes), MPI_BYTE, dst, tag, g.comm(), r);
                 },
                 "MPI_Isend");
           })
      .def("recv", [](Group &g, uintptr_t data, int64_t bytes, int src, int tag) {
        return g.startRequest(
            [&](MPI_Request *r) {
              return MPI_Irecv(address(data), static_cast<int>(bytes), MPI_BYTE, src < 0 ? MPI_ANY_SOURCE : src, tag,
                               g.comm(), r);
            },
            "MPI_Irecv");
      });
}
