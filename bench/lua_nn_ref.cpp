// Driver of bench/lua_nn.lua: LuaJIT with torch and nn (the compiled-in Lua files and
// //lua:torch_cimpl, as in `th`), plus a table `bench_ref` of C references the script
// times next to its nn modules in the same process, on the same tensors:
//   bench_ref.now()                       wall clock, seconds
//   bench_ref.linear(input, gradOutput, output, gradInput, weight, bias, gradWeight,
//                    gradBias, addBuffer)  one forward + backward of THNN's Linear kernels
//   bench_ref.convolution(input, gradOutput, output, gradInput, weight, bias, gradWeight,
//                    gradBias, finput, fgradInput, kW, kH, dW, dH, padW, padH)  the same for
//                    SpatialConvolutionMM
// each returning the seconds the THNN calls took, timed in C.
// Run: bazel run -c opt //bench:lua_nn
#include <lua.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>

#include "THNN/THNN.h"
#include "lua/csrc/common.h"

extern "C" int luaopen_torch_cimpl(lua_State *L);

namespace luat {
struct LuaSource {
  const char *module;
  const char *chunkname;
  const char *code;
};
extern const LuaSource kLuaSources[];  // //lua:lua_sources
}  // namespace luat

namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

THFloatTensor *floatArg(lua_State *L, int idx) {
  return static_cast<THFloatTensor *>(luat::checkObject(L, idx, "torch.FloatTensor"));
}

int luaNow(lua_State *L) {
  lua_pushnumber(L, now());
  return 1;
}

int linear(lua_State *L) {
  THFloatTensor *t[9];
  for (int i = 0; i < 9; i++) t[i] = floatArg(L, i + 1);
  return luat::guard(L, [&] {
    const double start = now();
    THNN_FloatLinear_updateOutput(nullptr, t[0], t[2], t[4], t[5], t[8]);
    THNN_FloatLinear_updateGradInput(nullptr, t[0], t[1], t[3], t[4]);
    THNN_FloatLinear_accGradParameters(nullptr, t[0], t[1], t[3], t[4], t[5], t[6], t[7], t[8], 1.0);
    lua_pushnumber(L, now() - start);
    return 1;
  });
}

int convolution(lua_State *L) {
  THFloatTensor *t[10];
  for (int i = 0; i < 10; i++) t[i] = floatArg(L, i + 1);
  int k[6];
  for (int i = 0; i < 6; i++) k[i] = static_cast<int>(luaL_checkinteger(L, 11 + i));
  return luat::guard(L, [&] {
    const double start = now();
    THNN_FloatSpatialConvolutionMM_updateOutput(nullptr, t[0], t[2], t[4], t[5], t[8], t[9], k[0], k[1], k[2], k[3],
                                                k[4], k[5]);
    THNN_FloatSpatialConvolutionMM_updateGradInput(nullptr, t[0], t[1], t[3], t[4], t[8], t[9], k[0], k[1], k[2], k[3],
                                                   k[4], k[5]);
    THNN_FloatSpatialConvolutionMM_accGradParameters(nullptr, t[0], t[1], t[6], t[7], t[8], t[9], k[0], k[1], k[2],
                                                     k[3], k[4], k[5], 1.0);
    lua_pushnumber(L, now() - start);
    return 1;
  });
}

const luaL_Reg kRef[] = {{"now", luaNow}, {"linear", linear}, {"convolution", convolution}, {nullptr, nullptr}};

int report(lua_State *L, int status) {
  if (status != 0) fprintf(stderr, "lua_nn: %s\n", lua_tostring(L, -1));
  return status;
}

}  // namespace

int main(int argc, char **argv) {
  const char *script = argc > 1 ? argv[1] : "bench/lua_nn.lua";
  lua_State *L = luaL_newstate();
  luaL_openlibs(L);
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_torch_cimpl);
  lua_setfield(L, -2, "torch.cimpl");
  for (const luat::LuaSource *s = luat::kLuaSources; s->module; s++) {
    if (report(L, luaL_loadbuffer(L, s->code, strlen(s->code), s->chunkname)) != 0) return 1;
    lua_setfield(L, -2, s->module);
  }
  lua_pop(L, 2);
  lua_newtable(L);
  luaL_register(L, nullptr, kRef);
  lua_setglobal(L, "bench_ref");
  int status = luaL_loadfile(L, script);
  if (status == 0) status = lua_pcall(L, 0, 0, 0);
  if (report(L, status) != 0) return 1;
  lua_close(L);
  return 0;
}
