// The C side of nn's kernel table (torch7's nn.THNN): every THNN function, for Float and
// Double, callable from Lua without the state argument, e.g.
//   torch._C.THNN.Double.Tanh_updateOutput(input, output)
// Each Lua argument is read according to the C parameter's type, deduced from the kernel's
// own declaration (THNN/THNN.h), so the list of kernels (THNN_functions.inc, made from
// THNN's headers by THNN/THNN_functions.py; the Python binding wraps the same list) is the
// only thing to keep: tensors are userdata of the kernel's type (nil passes NULL only for
// the arguments the headers document as optional), numbers, booleans, and nil for a
// generator (the default one, which torch.manualSeed seeds).
#include "lua/csrc/common.h"
#include "lua/csrc/open.h"

#include <cstring>
#include <tuple>
#include <utility>

#include "THNN/THNN.h"

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

#define LT_TENSOR_ARG(Name)                                              \
  template <>                                                            \
  struct Arg<TH##Name##Tensor *> {                                       \
    static TH##Name##Tensor *get(lua_State *L, int idx, bool nullable) { \
      if (nullable && lua_isnoneornil(L, idx)) return nullptr;           \
      void *p = luat::testObject(L, idx, "torch." #Name "Tensor");       \
      if (!p) typeError(L, idx, "torch." #Name "Tensor");                \
      return static_cast<TH##Name##Tensor *>(p);                         \
    }                                                                    \
  };
LT_TENSOR_ARG(Float)
LT_TENSOR_ARG(Double)
LT_TENSOR_ARG(Long)
LT_TENSOR_ARG(Int)
#undef LT_TENSOR_ARG

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
struct Arg<THGenerator *> {
  static THGenerator *get(lua_State *L, int idx, bool) {
    if (!lua_isnoneornil(L, idx)) luaL_argerror(L, idx, "nil expected (the default generator is used)");
    return luat::generator();
  }
};

// The kernel's name (upvalue 1) heads the message unless THNN's message already names it.
inline int raise(lua_State *L, const char *msg) {
  const char *name = lua_tostring(L, lua_upvalueindex(1));
  if (strstr(msg, name)) return luaL_error(L, "%s", msg);
  return luaL_error(L, "%s: %s", name, msg);
}

// nullable: bit i set when argument i + 1 may be nil (NULL)
template <typename... A, size_t... I>
int call(lua_State *L, void (*kernel)(THNNState *, A...), unsigned nullable, std::index_sequence<I...>) {
  // braced initialisation reads the arguments left to right
  std::tuple<A...> args{Arg<A>::get(L, static_cast<int>(I) + 1, (nullable >> I) & 1u)...};
  char msg[1024];
  try {
    std::apply([&](A... a) { kernel(nullptr, a...); }, args);
    return 0;
  } catch (const std::exception &e) {
    snprintf(msg, sizeof msg, "%s", e.what());
  }
  return raise(L, msg);
}

template <typename... A>
constexpr size_t arity(void (*)(THNNState *, A...)) {
  return sizeof...(A);
}

template <auto kernel, unsigned nullable>
int wrap(lua_State *L) {
  return call(L, kernel, nullable, std::make_index_sequence<arity(kernel)>{});
}

}  // namespace luatnn

#define LT_STR_(x) #x
#define LT_STR(x) LT_STR_(x)
#define LT_CAT3_(a, b, c) a##b##c
#define LT_CAT3(a, b, c) LT_CAT3_(a, b, c)

#include "lua/csrc/generic/THNN.cpp"
#include "TH/THGenerateFloatTypes.h"

namespace luat {
// torch._C.THNN = { Float = {...}, Double = {...} }
void openTHNN(lua_State *L) {
  lua_newtable(L);
  LTNN_Floatopen(L);
  LTNN_Doubleopen(L);
  lua_setfield(L, -2, "THNN");
}
}  // namespace luat
