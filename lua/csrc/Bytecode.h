// A structural check of LuaJIT 2.1 bytecode dumps (string.dump's format) read from .t7
// files. LuaJIT loads and runs bytecode without verifying it, so a corrupt dump would crash
// the process; this check stands between a file and luaL_loadbuffer:
//
//   const int nupvalues = luat::checkBytecode(dump.data(), dump.size());  // or throws
//   luaL_loadbuffer(L, dump.data(), dump.size(), "=(loaded function)");
//
// Note [What the bytecode check guarantees]. A dump it accepts is one that LuaJIT's loader
// reads within its bounds and whose instructions, run by the interpreter or compiled by the
// JIT, never reach memory through a value of the wrong type, when the function is called
// with any arguments, any upvalue values and any globals (the debug library, which reaches
// any slot, aside). What it checks to that end:
// - the format: sizes that stay within the dump, known flags, one main function that
//   takes every child, LEB128 numbers of at most 32 bits, debug info that ends where the
//   function ends;
// - constants: number constants are numbers, never a NaN other than LuaJIT's canonical one
//   (any other NaN is how LuaJIT tags objects: Note [NaN-boxed constants] in Bytecode.cpp),
//   in the constant list and in table constants (whose keys are neither nil nor NaN);
// - operands: known opcodes only of those the compiler emits, slots inside the frame,
//   upvalues, number and GC constants of the right kind, jumps inside the function, a
//   child's upvalues naming a slot or upvalue its parent has, no assignment of an upvalue
//   marked immutable;
// - what the interpreter assumes across instructions, along every path: comparisons
//   followed by their jump, FORI/FORL and ISNEXT/ITERN/ITERL pairs on slots nothing else
//   has changed (no closure either: Note [Slots a closure may change]), the hidden index of
//   a pairs() loop never read nor captured, multiple results used right after they are
//   made, TSETM on the table its constructor made, no open upvalue in a callee's frame,
//   upvalues closed before returning;
// - what the JIT compiler assumes: the slots that JMP, LOOP, the loops and calls tell it are
//   dead are dead, so that no trace exit leaves a slot with a stale value that an instruction
//   then takes for granted (Note [Slot hints] in Bytecode.cpp).
// It does not promise that the function does what its author meant, nor that it ends:
// a dump that passes can still raise Lua errors, loop forever, or call whatever globals
// and upvalues it is given; run functions from untrusted files only when their effects
// are acceptable, or refuse them at load (torch.load's allowFunctions = false).
#ifndef LUA_TORCH_BYTECODE_H
#define LUA_TORCH_BYTECODE_H

#include <cstddef>

namespace luat {

// The number of upvalues of the dump's main function; throws a t7::Error
// "t7: corrupt Lua function at byte N: <what>" when the dump is malformed.
int checkBytecode(const char *data, size_t size);

}  // namespace luat

#endif
