// The C side of `require 'cutorch'`: THC's storages and tensors of the eight element types
// (generic/CudaTensor.cpp, once per THC type, index groups built with TH_INDEX_BASE=1), and
// the device, random, memory and stream functions of cutorch's table. A shared object of
// its own (lua/BUILD: cutorch/cimpl.so, made only where the CUDA toolkit is), loaded by
// lua/cutorch/init.lua on first use; TH comes from the `th` (or luajit module) that loads it.
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "THC/THC.h"
#include "THC/THCTypes.hpp"
#include "lua/csrc/common.h"

#define LC_STR_(x) #x
#define LC_STR(x) LC_STR_(x)
#define LC_CAT3_(a, b, c) a##b##c
#define LC_CAT3(a, b, c) LC_CAT3_(a, b, c)

namespace cutorch {

void openTHCUNN(lua_State *L);  // THCUNN.cpp: C.THNN, cunn's kernel tables

THCState *gState = nullptr;
// Note [cutorch streams]: torch7's cutorch numbered streams per device: 0 is the default
// (legacy) stream, 1..n those reserveStreams(n) made, never destroyed. setStream(i) makes
// stream i current on the current device.
std::vector<std::vector<cudaStream_t>> gStreams;  // per device: [0] = nullptr, then the reserved ones
std::vector<int> gCurrentStream;

THCState *state() { return gState; }

// "torch.CudaTensor", "torch.CudaDoubleTensor", ...: cutorch's class of each element type.
const char *tensorClass(th::Type type) {
  switch (type) {
#define LC_CLASS(Name, ...) \
  case th::Type::Name: return std::string(#Name) == "Float" ? "torch.CudaTensor" : "torch.Cuda" #Name "Tensor";
    TH_FORALL_TYPES(LC_CLASS)
#undef LC_CLASS
  }
  return "";
}

}  // namespace cutorch

#define THC_GENERIC_FILE "lua/csrc/cuda/generic/CudaTensor.cpp"
#include "THC/THCGenerateAllTypes.h"

namespace {

using cutorch::gState;

// The GPU's absence as a Lua error, or the state made once.
int init(lua_State *L) {
  if (gState) return 0;
  int n = 0;
  cudaError_t err = cudaGetDeviceCount(&n);
  if (err != cudaSuccess || n == 0) {
    const char *why = err != cudaSuccess ? cudaGetErrorString(err) : "no CUDA-capable device is detected";
    cudaGetLastError();
    return luaL_error(L, "cutorch: no CUDA GPU is available (%s)", why);
  }
  return luat::guard(L, [&] {
    THCState *s = THCState_alloc();
    THCudaInit(s);
    gState = s;
    cutorch::gStreams.assign(n, std::vector<cudaStream_t>{nullptr});
    cutorch::gCurrentStream.assign(n, 0);
    return 0;
  });
}

int deviceCount(lua_State *L) {
  lua_pushinteger(L, THCState_getNumDevices(gState));
  return 1;
}
// Devices count from 1, as in cutorch.
int checkDevice(lua_State *L, int idx) {
  int d = static_cast<int>(luaL_optinteger(L, idx, THCudaGetDevice() + 1));
  int n = THCState_getNumDevices(gState);
  if (d < 1 || d > n) luaL_error(L, "cutorch: device %d does not exist (devices 1 to %d)", d, n);
  return d - 1;
}
int getDevice(lua_State *L) {
  lua_pushinteger(L, THCudaGetDevice() + 1);
  return 1;
}
int setDevice(lua_State *L) {
  int d = checkDevice(L, 1);
  return luat::guard(L, [&] {
    THCudaSetDevice(d);
    THCState_setCurrentStream(gState, cutorch::gStreams[d][cutorch::gCurrentStream[d]]);
    return 0;
  });
}
int synchronize(lua_State *L) {
  return luat::guard(L, [&] {
    THCudaCheck(cudaDeviceSynchronize());
    return 0;
  });
}
int manualSeed(lua_State *L) {
  uint64_t seed = static_cast<uint64_t>(luaL_checknumber(L, 1));
  return luat::guard(L, [&] {
    THCRandom_manualSeed(gState, seed);
    return 0;
  });
}
int manualSeedAll(lua_State *L) {
  uint64_t seed = static_cast<uint64_t>(luaL_checknumber(L, 1));
  return luat::guard(L, [&] {
    const int current = THCudaGetDevice();
    for (int d = 0; d < THCState_getNumDevices(gState); d++) {
      THCudaSetDevice(d);
      THCRandom_manualSeed(gState, seed);
    }
    THCudaSetDevice(current);
    return 0;
  });
}
int initialSeed(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THCRandom_initialSeed(gState)));
  return 1;
}
// The Philox generator's whole state, (seed, offset), as a 16-byte torch.ByteTensor.
int getRNGState(lua_State *L) {
  return luat::guard(L, [&] {
    uint64_t words[2] = {THCRandom_initialSeed(gState), THCRandom_getOffset(gState)};
    THByteTensor *t = THByteTensor_newWithSize1d(sizeof words);
    memcpy(THByteTensor_data(t), words, sizeof words);
    luat::pushObject(L, t, "torch.ByteTensor");
    return 1;
  });
}
int setRNGState(lua_State *L) {
  THByteTensor *t = static_cast<THByteTensor *>(luat::checkObject(L, 1, "torch.ByteTensor"));
  uint64_t words[2];
  luaL_argcheck(L, THByteTensor_nElement(t) == sizeof words && THByteTensor_isContiguous(t), 1,
                "a state of 16 bytes (from cutorch.getRNGState) expected");
  memcpy(words, THByteTensor_data(t), sizeof words);
  return luat::guard(L, [&] {
    THCRandom_manualSeed(gState, words[0]);
    THCRandom_setOffset(gState, words[1]);
    return 0;
  });
}
// getMemoryUsage([device]) -> free bytes, total bytes (cudaMemGetInfo on that device)
int getMemoryUsage(lua_State *L) {
  int d = checkDevice(L, 1);
  return luat::guard(L, [&] {
    const int current = THCudaGetDevice();
    THCudaSetDevice(d);
    size_t freeBytes = 0, totalBytes = 0;
    cudaError_t err = cudaMemGetInfo(&freeBytes, &totalBytes);
    THCudaSetDevice(current);
    THCudaCheck(err);
    lua_pushnumber(L, double(freeBytes));
    lua_pushnumber(L, double(totalBytes));
    return 2;
  });
}
int getDeviceProperties(lua_State *L) {
  int d = checkDevice(L, 1);
  return luat::guard(L, [&] {
    cudaDeviceProp p;
    THCudaCheck(cudaGetDeviceProperties(&p, d));
    size_t freeBytes = 0, totalBytes = 0;
    const int current = THCudaGetDevice();
    THCudaSetDevice(d);
    cudaError_t err = cudaMemGetInfo(&freeBytes, &totalBytes);
    THCudaSetDevice(current);
    THCudaCheck(err);
    lua_newtable(L);
    auto number = [&](const char *k, double v) {
      lua_pushnumber(L, v);
      lua_setfield(L, -2, k);
    };
    lua_pushstring(L, p.name);
    lua_setfield(L, -2, "name");
    number("major", p.major);
    number("minor", p.minor);
    number("totalGlobalMem", double(p.totalGlobalMem));
    number("freeGlobalMem", double(freeBytes));
    number("multiProcessorCount", p.multiProcessorCount);
    number("maxThreadsPerBlock", p.maxThreadsPerBlock);
    number("warpSize", p.warpSize);
    number("sharedMemPerBlock", double(p.sharedMemPerBlock));
    number("regsPerBlock", p.regsPerBlock);
    number("canMapHostMemory", p.canMapHostMemory);
    return 1;
  });
}

// --- streams (Note [cutorch streams]) ---
int reserveStreams(lua_State *L) {
  int n = static_cast<int>(luaL_checkinteger(L, 1));
  luaL_argcheck(L, n >= 0, 1, "a number of streams expected");
  return luat::guard(L, [&] {
    const int current = THCudaGetDevice();
    for (int d = 0; d < THCState_getNumDevices(gState); d++) {
      auto &streams = cutorch::gStreams[d];
      THCudaSetDevice(d);
      while (static_cast<int>(streams.size()) <= n) {
        cudaStream_t s;
        THCudaCheck(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
        streams.push_back(s);
      }
    }
    THCudaSetDevice(current);
    return 0;
  });
}
int checkStream(lua_State *L, int idx, int device) {
  int s = static_cast<int>(luaL_checkinteger(L, idx));
  int n = static_cast<int>(cutorch::gStreams[device].size()) - 1;
  if (s < 0 || s > n)
    luaL_error(L, "cutorch: stream %d does not exist (0 to %d: reserve more with cutorch.reserveStreams)", s, n);
  return s;
}
int setStream(lua_State *L) {
  const int d = THCudaGetDevice();
  const int s = checkStream(L, 1, d);
  cutorch::gCurrentStream[d] = s;
  THCState_setCurrentStream(gState, cutorch::gStreams[d][s]);
  return 0;
}
int getStream(lua_State *L) {
  lua_pushinteger(L, cutorch::gCurrentStream[THCudaGetDevice()]);
  return 1;
}
int getNumStreams(lua_State *L) {
  lua_pushinteger(L, static_cast<int>(cutorch::gStreams[THCudaGetDevice()].size()) - 1);
  return 1;
}
// streamWaitFor(waiting, {streams...}): later work on stream `waiting` of the current device
// starts after what is queued now on each of the others (an event recorded on each).
int streamWaitFor(lua_State *L) {
  const int d = THCudaGetDevice();
  const int waiting = checkStream(L, 1, d);
  luaL_checktype(L, 2, LUA_TTABLE);
  std::vector<int> waitedFor;
  for (int i = 1; i <= static_cast<int>(lua_objlen(L, 2)); i++) {
    lua_rawgeti(L, 2, i);
    waitedFor.push_back(checkStream(L, lua_gettop(L), d));
    lua_pop(L, 1);
  }
  return luat::guard(L, [&] {
    for (int s : waitedFor) {
      if (s == waiting) continue;
      cudaEvent_t e;
      THCudaCheck(cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      THCudaCheck(cudaEventRecord(e, cutorch::gStreams[d][s]));
      THCudaCheck(cudaStreamWaitEvent(cutorch::gStreams[d][waiting], e, 0));
      THCudaCheck(cudaEventDestroy(e));
    }
    return 0;
  });
}
// streamSynchronize(stream): waits for the work queued on that stream of the current device.
int streamSynchronize(lua_State *L) {
  const int d = THCudaGetDevice();
  const int s = checkStream(L, 1, d);
  return luat::guard(L, [&] {
    THCudaCheck(cudaStreamSynchronize(cutorch::gStreams[d][s]));
    return 0;
  });
}
// createCudaHostTensor(sizes...): a FloatTensor in pinned host memory (THC's caching host
// allocator), for asynchronous copies.
int createCudaHostTensor(lua_State *L) {
  std::vector<int64_t> sizes = luat::readSizes(L, 1);
  int64_t n = 1;
  for (int64_t s : sizes) {
    luaL_argcheck(L, s >= 0, 1, "sizes must be non-negative");
    n *= s;
  }
  return luat::guard(L, [&] {
    THFloatStorage *s = THFloatStorage_newWithAllocator(sizes.empty() ? 0 : n, &THCCachingHostAllocator, nullptr);
    THFloatTensor *t = sizes.empty() ? THFloatTensor_new()
                                     : THFloatTensor_newWithStorage(s, 0, (int)sizes.size(), sizes.data(), nullptr);
    if (sizes.empty()) THFloatTensor_setStorageNd(t, s, 0, 1, &n, nullptr);
    THFloatStorage_free(s);
    luat::pushObject(L, t, "torch.FloatTensor");
    return 1;
  });
}

const luaL_Reg functions[] = {
    {"getDeviceCount", deviceCount},
    {"getDevice", getDevice},
    {"setDevice", setDevice},
    {"synchronize", synchronize},
    {"manualSeed", manualSeed},
    {"manualSeedAll", manualSeedAll},
    {"initialSeed", initialSeed},
    {"getRNGState", getRNGState},
    {"setRNGState", setRNGState},
    {"getMemoryUsage", getMemoryUsage},
    {"getDeviceProperties", getDeviceProperties},
    {"reserveStreams", reserveStreams},
    {"setStream", setStream},
    {"getStream", getStream},
    {"getNumStreams", getNumStreams},
    {"streamWaitFor", streamWaitFor},
    {"streamSynchronize", streamSynchronize},
    {"createCudaHostTensor", createCudaHostTensor},
    {nullptr, nullptr},
};

}  // namespace

// Raises "cutorch: no CUDA GPU is available (...)" when there is none; otherwise the table
// of functions, with one table of storage and tensor functions per type (C.Cuda,
// C.CudaDouble, ...).
extern "C" __attribute__((visibility("default"))) int luaopen_cutorch_cimpl(lua_State *L) {
  init(L);
  lua_newtable(L);
  luaL_register(L, nullptr, functions);
#define LC_OPEN(Name, ...) LC_##Name##open(L);
  TH_FORALL_TYPES(LC_OPEN)
#undef LC_OPEN
  cutorch::openTHCUNN(L);
  return 1;
}
