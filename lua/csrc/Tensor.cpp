// The C side of `require 'torch'`: storages and tensors of every element type over TH
// (built with TH_INDEX_BASE=1) and the random generator; files and torch.save/torch.load
// live in File*.cpp (see File.h), the clock in Timer.cpp (see open.h). The Lua side
// (lua/torch/*.lua) builds the classes on these functions.
#include "lua/csrc/common.h"

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include <dlfcn.h>
#include <sys/mman.h>

#include "lua/csrc/open.h"

#define LT_STR_(x) #x
#define LT_STR(x) LT_STR_(x)
#define LT_CAT3_(a, b, c) a##b##c
#define LT_CAT3(a, b, c) LT_CAT3_(a, b, c)

namespace luat {
// The generator that random functions use: TH's default one, or the torch.Generator that
// torch.fn(gen, ...) named for the length of its call (torch/init.lua).
static THGenerator *current = nullptr;
THGenerator *generator() { return current ? current : THGenerator_default(); }

// Note [Shared memory storages in Lua]: torch7's Storage(name, true, size, true) maps the
// POSIX shared memory `name` and removes the name when the storage is freed (the memory
// lives on in the processes that still map it). TH's map allocator leaves names alone
// (Python's sharing removes them itself), so the Lua binding wraps it.
struct UnlinkingMap {
  THMapAllocatorContext *map;
  std::string name;
};
static void *unlinkingMalloc(void *ctx, ptrdiff_t size) {
  return THMapAllocator.malloc(static_cast<UnlinkingMap *>(ctx)->map, size);
}
static void unlinkingFree(void *vctx, void *ptr) {
  auto *ctx = static_cast<UnlinkingMap *>(vctx);
  THMapAllocator.free(ctx->map, ptr);  // frees ctx->map
  shm_unlink(ctx->name.c_str());
  delete ctx;
}
static THAllocator unlinkingMapAllocator = {unlinkingMalloc, nullptr, unlinkingFree};
}  // namespace luat

#include "lua/csrc/generic/Tensor.cpp"
#include "TH/THGenerateAllTypes.h"
#include "lua/csrc/generic/Tensor.cpp"
#include "TH/THGenerateHalfType.h"

namespace {

int manualSeed(lua_State *L) {
  lua_Number s = luaL_checknumber(L, 1);
  THRandom_manualSeed(luat::generator(), static_cast<uint64_t>(s));
  return 0;
}
int seed(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THRandom_seed(luat::generator())));
  return 1;
}
int initialSeed(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THRandom_initialSeed(luat::generator())));
  return 1;
}
int randomNumber(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THRandom_random(luat::generator())));
  return 1;
}
int uniformNumber(lua_State *L) {
  double a = luaL_optnumber(L, 1, 0), b = luaL_optnumber(L, 2, 1);
  lua_pushnumber(L, THRandom_uniform(luat::generator(), a, b));
  return 1;
}
int normalNumber(lua_State *L) {
  double m = luaL_optnumber(L, 1, 0), s = luaL_optnumber(L, 2, 1);
  luaL_argcheck(L, s > 0, 2, "standard deviation must be positive");
  lua_pushnumber(L, THRandom_normal(luat::generator(), m, s));
  return 1;
}
int exponentialNumber(lua_State *L) {
  double lambda = luaL_optnumber(L, 1, 1);
  luaL_argcheck(L, lambda > 0, 1, "lambda must be positive");
  lua_pushnumber(L, THRandom_exponential(luat::generator(), lambda));
  return 1;
}
int cauchyNumber(lua_State *L) {
  double median = luaL_optnumber(L, 1, 0), sigma = luaL_optnumber(L, 2, 1);
  luaL_argcheck(L, sigma > 0, 2, "sigma must be positive");
  lua_pushnumber(L, THRandom_cauchy(luat::generator(), median, sigma));
  return 1;
}
int logNormalNumber(lua_State *L) {
  double m = luaL_optnumber(L, 1, 1), s = luaL_optnumber(L, 2, 2);
  luaL_argcheck(L, s > 0, 2, "standard deviation must be positive");
  lua_pushnumber(L, THRandom_logNormal(luat::generator(), m, s));
  return 1;
}
int geometricNumber(lua_State *L) {
  double p = luaL_checknumber(L, 1);
  luaL_argcheck(L, p > 0 && p < 1, 1, "p must be > 0 and < 1");
  lua_pushnumber(L, THRandom_geometric(luat::generator(), p));
  return 1;
}
int bernoulliNumber(lua_State *L) {
  double p = luaL_optnumber(L, 1, 0.5);
  luaL_argcheck(L, p >= 0 && p <= 1, 1, "probability must be in [0, 1]");
  lua_pushnumber(L, THRandom_bernoulli(luat::generator(), p));
  return 1;
}
// The generator's whole state as a ByteTensor, and back (checked before it is changed).
int getRNGState(lua_State *L) {
  return luat::guard(L, [&] {
    THByteTensor *state = THByteTensor_new();
    luat::pushObject(L, state, "torch.ByteTensor");
    THGenerator_getState(luat::generator(), state);
    return 1;
  });
}
int setRNGState(lua_State *L) {
  THByteTensor *state = static_cast<THByteTensor *>(luat::checkObject(L, 1, "torch.ByteTensor"));
  return luat::guard(L, [&] {
    THGenerator_setState(luat::generator(), state);
    return 0;
  });
}
// torch.Generator's C side: a userdata owning a THGenerator.
constexpr const char *kGenerator = "torch._CGenerator";
int newGenerator(lua_State *L) {
  THGenerator *g = THGenerator_new();
  luat::pushObject(L, g, kGenerator);
  return 1;
}
int generatorGc(lua_State *L) {
  luat::Box *b = static_cast<luat::Box *>(lua_touserdata(L, 1));
  if (b && b->ptr) THGenerator_free(static_cast<THGenerator *>(b->ptr));
  if (b) b->ptr = nullptr;
  return 0;
}
// useGenerator(g | nil): the generator of the following random calls (nil: the default).
int useGenerator(lua_State *L) {
  luat::current = lua_isnoneornil(L, 1) ? nullptr : static_cast<THGenerator *>(luat::checkObject(L, 1, kGenerator));
  return 0;
}
// address(value): where a table, function, thread or userdata lives (torch.pointer's for
// what is no tensor or storage: torch7's test files tell objects apart by it).
int address(lua_State *L) {
  luaL_checkany(L, 1);
  lua_pushnumber(L, double(reinterpret_cast<uintptr_t>(lua_topointer(L, 1))));
  return 1;
}
int setnumthreads(lua_State *L) {
  THSetNumThreads(static_cast<int>(luaL_checkinteger(L, 1)));
  return 0;
}
int getnumthreads(lua_State *L) {
  lua_pushinteger(L, THGetNumThreads());
  return 1;
}
// Note [Heap tracking] in common.h.
int setheaptracking(lua_State *L) {
  luaL_checktype(L, 1, LUA_TBOOLEAN);
  luat::heapTracking().enabled = lua_toboolean(L, 1);
  return 0;
}
int heapsize(lua_State *L) {
  lua_pushnumber(L, double(THHeapSize()));
  return 1;
}

// The file of the program or shared object that holds this C side (`th`, torch/cimpl.so),
// beside which lua/cutorch/init.lua looks for cutorch/cimpl.so.
int libraryPath(lua_State *L) {
  Dl_info info;
  if (!dladdr(reinterpret_cast<void *>(&libraryPath), &info) || !info.dli_fname) return 0;
  lua_pushstring(L, info.dli_fname);
  return 1;
}

const luaL_Reg functions[] = {
    {"libraryPath", libraryPath},
    {"manualSeed", manualSeed},
    {"seed", seed},
    {"initialSeed", initialSeed},
    {"random", randomNumber},
    {"uniform", uniformNumber},
    {"normal", normalNumber},
    {"exponential", exponentialNumber},
    {"cauchy", cauchyNumber},
    {"logNormal", logNormalNumber},
    {"geometric", geometricNumber},
    {"bernoulli", bernoulliNumber},
    {"getRNGState", getRNGState},
    {"setRNGState", setRNGState},
    {"address", address},
    {"setnumthreads", setnumthreads},
    {"getnumthreads", getnumthreads},
    {"setheaptracking", setheaptracking},
    {"heapsize", heapsize},
    {"newGenerator", newGenerator},
    {"useGenerator", useGenerator},
    {nullptr, nullptr},
};

}  // namespace

extern "C" __attribute__((visibility("default"))) int luaopen_torch_cimpl(lua_State *L) {
  lua_newtable(L);
  luaL_register(L, nullptr, functions);
  luat::openFile(L);
  luat::openTimer(L);
#define LT_OPEN_TYPE(Name, ...) LT_##Name##open(L);
  TH_FORALL_TYPES(LT_OPEN_TYPE)
#undef LT_OPEN_TYPE
  luaL_newmetatable(L, kGenerator);
  lua_pushcfunction(L, generatorGc);
  lua_setfield(L, -2, "__gc");
  lua_pop(L, 1);
  // torch.types: TH's arithmetic types, in the type table's order (TH/THGeneral.h).
  lua_newtable(L);
  int n = 0;
#define LT_TYPE_NAME(Name, ...) \
  lua_pushstring(L, #Name);     \
  lua_rawseti(L, -2, ++n);
  TH_FORALL_ARITH_TYPES(LT_TYPE_NAME)
  lua_setfield(L, -2, "types");
  // torch.allTypes: with Half, which has storages, tensors and copies but no arithmetic
  lua_newtable(L);
  n = 0;
  TH_FORALL_TYPES(LT_TYPE_NAME)
#undef LT_TYPE_NAME
  lua_setfield(L, -2, "allTypes");
  // The op tables' names for TensorMath.lua (Note [Pointwise op tables]): the unary ops' TH
  // names, and the generated binary kernels as {tensor method, value method}.
  lua_newtable(L);
  n = 0;
#define LT_UNARY_NAME(Op, torch, th, ...) \
  lua_pushstring(L, #th);                 \
  lua_rawseti(L, -2, ++n);
  TH_FORALL_UNARY_OPS(LT_UNARY_NAME)
#undef LT_UNARY_NAME
  lua_setfield(L, -2, "unaryOps");
  lua_newtable(L);
  n = 0;
#define LT_BINARY_NAMES(cth, th, Types, luaTensor, luaValue, ...) \
  lua_newtable(L);                                                \
  lua_pushstring(L, #luaTensor);                                  \
  lua_rawseti(L, -2, 1);                                          \
  lua_pushstring(L, #luaValue);                                   \
  lua_rawseti(L, -2, 2);                                          \
  lua_rawseti(L, -2, ++n);
  TH_FORALL_GENERATED_BINARY_KERNELS(LT_BINARY_NAMES)
#undef LT_BINARY_NAMES
  lua_setfield(L, -2, "binaryKernels");
  luat::openTHNN(L);
  return 1;
}
