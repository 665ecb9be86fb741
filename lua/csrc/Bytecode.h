// A structural check of LuaJIT 2.1 bytecode dumps (string.dump's format) read from .t7
// files. LuaJIT loads and runs bytecode without verifying it, so a corrupt dump would crash
// the process; this check stands between a file and luaL_loadbuffer:
//
//   const int nupvalues = luat::checkBytecode(dump.data(), dump.size());  // or throws
//   luaL_loadbuffer(L, dump.data(), dump.size(), "=(loaded function)");
//
// It accepts what LuaJIT's compiler emits and rejects a dump the loader or the interpreter
// would read out of bounds: sizes that overrun, unknown opcodes, operands outside their
// frame, upvalues or constants, jumps outside the function, and the invariants the
// interpreter assumes across instructions (comparisons followed by a jump, FORI/FORL and
// ISNEXT/ITERN/ITERL pairs, multiple results consumed right after they are produced,
// TSETM on the table its constructor made, upvalues closed before returning).
#ifndef LUA_TORCH_BYTECODE_H
#define LUA_TORCH_BYTECODE_H

#include <cstddef>

namespace luat {

// The number of upvalues of the dump's main function; throws a t7::Error
// "t7: corrupt Lua function at byte N: <what>" when the dump is malformed.
int checkBytecode(const char *data, size_t size);

}  // namespace luat

#endif
