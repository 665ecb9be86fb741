// One THC floating type's kernel table (included once per type, see THCUNN.cpp).
#ifndef THC_GENERIC_FILE
#error "include lua/csrc/cuda/THCUNN.cpp's generator instead"
#endif

#define LCNN_(NAME) TH_CONCAT_3(LCNN_, Real, NAME)
#define LCNN_KERNEL(NAME) TH_CONCAT_3(THNN_Cuda, CReal, NAME)

#define THNN_FUNCTION(name, nullable, params) {#name, luatnn::wrap<LCNN_KERNEL(name), nullable>},
static const luaL_Reg LCNN_(functions)[] = {
#include "lua/THCUNN_functions.inc"
    {nullptr, nullptr},
};
#undef THNN_FUNCTION

// Sets THNN.Cuda<CReal> on the table on top of the stack; each function keeps its name as its
// upvalue, for error messages.
static void LCNN_(open)(lua_State *L) {
  lua_newtable(L);
  for (const luaL_Reg *r = LCNN_(functions); r->name; r++) {
    lua_pushstring(L, r->name);
    lua_pushcclosure(L, r->func, 1);
    lua_setfield(L, -2, r->name);
  }
  lua_setfield(L, -2, "Cuda" LC_STR(CReal));
}

#undef LCNN_KERNEL
#undef LCNN_
