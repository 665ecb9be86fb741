// The parts of torch.cimpl kept in files of their own; Tensor.cpp's luaopen_torch_cimpl
// calls each with the module table on top of the stack.
#ifndef LUA_TORCH_OPEN_H
#define LUA_TORCH_OPEN_H

#include <lua.hpp>

namespace luat {
// FileMethods.cpp: the file_* functions (File.h) and the metatables torch.DiskFile,
// torch.MemoryFile and torch.PipeFile, which lua/torch/File.lua fills with the methods.
void openFile(lua_State *L);
// Timer.cpp: clock(), the process's real, user and system times.
void openTimer(lua_State *L);
// THNN.cpp: THNN, the kernel tables THNN.Float and THNN.Double that lua/nn/THNN.lua
// hands to nn.
void openTHNN(lua_State *L);
}  // namespace luat

#endif
