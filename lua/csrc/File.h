// What the two halves of torch7's File API in the Lua binding share: the state of an open
// file, the checks on a file argument, and each half's file_* functions, which
// luat::openFile registers. FileMethods.cpp: the constructors, typed reads and writes,
// strings and settings; FileObject.cpp: readObject and writeObject through t7/.
#ifndef LUA_TORCH_FILE_H
#define LUA_TORCH_FILE_H

#include <lua.hpp>

#include <cstddef>
#include <memory>
#include <unordered_map>

#include "lua/csrc/FileStream.h"
#include "t7/t7.h"

namespace luat {

// A Lua object written, as its t7 value (Note [Lua and t7 identities] in FileObject.cpp).
struct Memo {
  t7::Value value;
  bool open;  // still being converted: a reference to it is a back reference
};

// The state of a torch.DiskFile, torch.MemoryFile or torch.PipeFile; its userdata holds a
// pointer to it.
struct File {
  std::unique_ptr<Stream> stream;  // null once closed
  bool readable = false, writable = false;
  Encoding encoding;
  bool quiet = false, hasError = false;
  bool referenced = true;
  bool allowFunctions = true;  // false: readObject refuses Lua functions (Note [Refusing functions] in t7/t7.h)
  bool cudaToCpu = false;      // Note [CUDA records in files] in FileObject.cpp

  // The objects read and written so far (FileObject.cpp), so that later objects refer to
  // earlier ones (torch7's referenced mode).
  std::unique_ptr<t7::Reader> reader;
  t7::ReadOptions readerOptions;
  std::unique_ptr<t7::Writer> writer;
  t7::WriteOptions writerOptions;
  std::unordered_map<const void *, Memo> written;  // Lua object -> its t7 value
  // readObject / writeObject calls in progress: more than one while an object reads or
  // writes its own payload (Note [Own payloads] in t7/t7.h).
  int objectDepth = 0;
};

// The file at idx; a Lua error when it is none, is closed, or cannot be read or written.
File *checkFile(lua_State *L, int idx);
File *checkOpen(lua_State *L, int idx);
File *checkReadable(lua_State *L, int idx);
File *checkWritable(lua_State *L, int idx);

// The file_* functions of each half, ending with {nullptr, nullptr}.
extern const luaL_Reg kFileMethods[];  // FileMethods.cpp
extern const luaL_Reg kFileObjects[];  // FileObject.cpp

}  // namespace luat

#endif
