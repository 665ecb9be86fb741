// Calling a THNN or THCUNN kernel from Lua: each Lua argument is read according to the C
// parameter's type, deduced from the kernel's own declaration, so that a binding only lists
// the kernels (THNN_functions.inc). Tensor arguments are userdata of the kernel's tensor type
// (nil passes NULL only for the arguments the headers document as optional); the binding
// that includes this defines Arg<its tensor types *>, and kernelState<S>() for the kernels'
// first parameter (none for THNN, cutorch's THCState for THCUNN).
#ifndef LUA_TORCH_KERNEL_CALL_H
#define LUA_TORCH_KERNEL_CALL_H

#include <cstdio>
#include <cstring>
#include <exception>
#include <tuple>
#include <type_traits>
#include <utility>

#include "lua/csrc/common.h"

namespace luatnn {

template <typename T>
struct Arg;

// "Tanh_updateOutput: argument 2: torch.DoubleTensor expected, got torch.FloatTensor"
inline void typeError(lua_State *L, int idx, const char *expected) {
  const char *got = luaL_typename(L, idx);
  if (lua_getmetatable(L, idx)) {
    lua_getfield(L, -1, "__typename");
    if (lua_isstring(L, -1)) got = lua_tostring(L, -1);
  }
  luaL_error(L, "%s: argument %d: %s expected, got %s", lua_tostring(L, lua_upvalueindex(1)), idx, expected, got);
}

// A tensor argument of class name (nil: NULL where nullable).
template <typename T>
T *tensorArg(lua_State *L, int idx, bool nullable, const char *name) {
  if (nullable && lua_isnoneornil(L, idx)) return nullptr;
  void *p = luat::testObject(L, idx, name);
  if (!p) typeError(L, idx, name);
  return static_cast<T *>(p);
}

template <>
struct Arg<bool> {
  static bool get(lua_State *L, int idx, bool) {
    if (!lua_isboolean(L, idx) && !lua_isnoneornil(L, idx)) typeError(L, idx, "boolean");
    return lua_toboolean(L, idx);
  }
};
template <>
struct Arg<int> {
  static int get(lua_State *L, int idx, bool) { return static_cast<int>(luaL_checkinteger(L, idx)); }
};
template <>
struct Arg<int64_t> {
  static int64_t get(lua_State *L, int idx, bool) { return static_cast<int64_t>(luaL_checknumber(L, idx)); }
};
template <>
struct Arg<double> {
  static double get(lua_State *L, int idx, bool) { return luaL_checknumber(L, idx); }
};
template <>
struct Arg<float> {  // THCUNN's Half kernels take their numbers as float
  static float get(lua_State *L, int idx, bool) { return static_cast<float>(luaL_checknumber(L, idx)); }
};
template <>
struct Arg<THGenerator *> {
  static THGenerator *get(lua_State *L, int idx, bool) {
    if (!lua_isnoneornil(L, idx)) luaL_argerror(L, idx, "nil expected (the default generator is used)");
    return luat::generator();
  }
};

// The kernel's name (upvalue 1) heads the message unless the kernel's message already names it.
inline int raise(lua_State *L, const char *msg) {
  const char *name = lua_tostring(L, lua_upvalueindex(1));
  if (strstr(msg, name)) return luaL_error(L, "%s", msg);
  return luaL_error(L, "%s: %s", name, msg);
}

// What a kernel of state type S is called with; defined by the binding.
template <typename S>
S *kernelState();

// nullable: bit i set when argument i + 1 may be nil (NULL)
template <typename S, typename... A, size_t... I>
int call(lua_State *L, void (*kernel)(S *, A...), unsigned nullable, std::index_sequence<I...>) {
  // braced initialisation reads the arguments left to right
  std::tuple<A...> args{Arg<A>::get(L, static_cast<int>(I) + 1, (nullable >> I) & 1u)...};
  char msg[1024];
  try {
    S *state = kernelState<S>();
    std::apply([&](A... a) { kernel(state, a...); }, args);
    return 0;
  } catch (const std::exception &e) {
    snprintf(msg, sizeof msg, "%s", e.what());
  }
  return raise(L, msg);
}

template <typename S, typename... A>
constexpr size_t arity(void (*)(S *, A...)) {
  return sizeof...(A);
}

template <auto kernel, unsigned nullable>
int wrap(lua_State *L) {
  return call(L, kernel, nullable, std::make_index_sequence<arity(kernel)>{});
}

}  // namespace luatnn

#endif
