// One element type's kernel table (included once per floating type, see THNN.cpp).
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "lua/csrc/generic/THNN.cpp"
#else

#define LTNN_(NAME) LT_CAT3(LTNN_, Real, NAME)

// { name, wrapper } for every kernel listed in THNN_functions.inc
#define THNN_FUNCTION(name, nullable, params) {#name, luatnn::wrap<THNN_(name), nullable>},
static const luaL_Reg LTNN_(functions)[] = {
#include "THNN/THNN_functions.inc"
    {nullptr, nullptr},
};
#undef THNN_FUNCTION

// Sets THNN.<Real> on the table on top of the stack; each function keeps its name as its
// upvalue, for error messages.
static void LTNN_(open)(lua_State *L) {
  lua_newtable(L);
  for (const luaL_Reg *r = LTNN_(functions); r->name; r++) {
    lua_pushstring(L, r->name);
    lua_pushcclosure(L, r->func, 1);
    lua_setfield(L, -2, r->name);
  }
  lua_setfield(L, -2, LT_STR(Real));
}

#undef LTNN_
#endif
