// The methods of torch7's files (torch.DiskFile, torch.MemoryFile, torch.PipeFile) in the
// Lua binding, but readObject and writeObject (FileObject.cpp): opening, typed reads and
// writes of numbers and storages (readInt, writeDouble, ...) and of strings over the byte
// streams and encodings of FileStream.h, settings, positions and errors; and openFile,
// which registers both halves.
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "lua/csrc/File.h"
#include "lua/csrc/common.h"
#include "lua/csrc/open.h"

namespace luat {

namespace {
const char *const kFileClasses[] = {"torch.DiskFile", "torch.MemoryFile", "torch.PipeFile"};
}  // namespace

File *checkFile(lua_State *L, int idx) {
  void *u = lua_touserdata(L, idx);
  if (u && lua_getmetatable(L, idx)) {
    for (const char *name : kFileClasses) {
      luaL_getmetatable(L, name);
      const bool same = lua_rawequal(L, -1, -2);
      lua_pop(L, 1);
      if (same) {
        lua_pop(L, 1);
        return *static_cast<File **>(u);
      }
    }
    lua_pop(L, 1);
  }
  luaL_typerror(L, idx, "torch.File");
  return nullptr;
}

File *checkOpen(lua_State *L, int idx) {
  File *f = checkFile(L, idx);
  if (!f->stream) luaL_error(L, "attempt to use a closed file");
  return f;
}
File *checkReadable(lua_State *L, int idx) {
  File *f = checkOpen(L, idx);
  if (!f->readable) luaL_error(L, "attempt to read in a write-only file");
  return f;
}
File *checkWritable(lua_State *L, int idx) {
  File *f = checkOpen(L, idx);
  if (!f->writable) luaL_error(L, "attempt to write in a read-only file");
  return f;
}

namespace {

void pushFile(lua_State *L, std::unique_ptr<File> file, const char *className) {
  File **u = static_cast<File **>(lua_newuserdata(L, sizeof(File *)));
  *u = file.release();
  luaL_getmetatable(L, className);
  lua_setmetatable(L, -2);
  lua_newtable(L);
  lua_setfenv(L, -2);
}

int file_gc(lua_State *L) {
  File **u = static_cast<File **>(lua_touserdata(L, 1));
  delete *u;
  *u = nullptr;
  return 0;
}

// A short read or write: flags the file and raises, unless the file is quiet.
void shortCount(lua_State *L, File *f, const char *what, size_t done, size_t wanted) {
  f->hasError = true;
  if (!f->quiet)
    luaL_error(L, "%s error: %s %d blocks instead of %d", what, what[0] == 'r' ? "read" : "wrote", int(done),
               int(wanted));
}

// The mode argument: "r", "w" or "rw".
void parseMode(lua_State *L, int idx, const char *mode, File &f) {
  const std::string m = mode;
  if (m != "r" && m != "w" && m != "rw") luaL_argerror(L, idx, "invalid mode: 'r', 'w' or 'rw' expected");
  f.readable = m != "w";
  f.writable = m != "r";
}

// torch.DiskFile(path[, mode[, quiet]]): nil when the file cannot be opened and quiet is set.
int file_disk(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  const char *mode = luaL_optstring(L, 2, "r");
  const bool quiet = lua_toboolean(L, 3);
  auto f = std::make_unique<File>();
  parseMode(L, 2, mode, *f);
  f->stream = openDisk(path, f->readable, f->writable);
  if (!f->stream) {
    if (quiet) return 0;
    return luaL_error(L, "cannot open <%s> in mode %s: %s", path, mode, strerror(errno));
  }
  pushFile(L, std::move(f), "torch.DiskFile");
  return 1;
}

// torch.PipeFile(command[, mode[, quiet]]): mode "r" reads the command's output, "w" writes
// its input.
int file_pipe(lua_State *L) {
  const char *command = luaL_checkstring(L, 1);
  const char *mode = luaL_optstring(L, 2, "r");
  const bool quiet = lua_toboolean(L, 3);
  auto f = std::make_unique<File>();
  parseMode(L, 2, mode, *f);
  luaL_argcheck(L, !(f->readable && f->writable), 2, "a pipe is read ('r') or written ('w'), not both");
  f->stream = openPipe(command, f->readable);
  if (!f->stream) {
    if (quiet) return 0;
    return luaL_error(L, "cannot open the pipe <%s> in mode %s: %s", command, mode, strerror(errno));
  }
  pushFile(L, std::move(f), "torch.PipeFile");
  return 1;
}

std::unique_ptr<File> memoryFile(THCharStorage *storage, size_t size) {
  auto f = std::make_unique<File>();
  f->stream = openMemory(storage, size);
  return f;
}

// torch.MemoryFile([mode]) / torch.MemoryFile(storage[, mode]): the storage's bytes up to
// its trailing 0 are the file's contents, and the file writes into that storage.
int file_memory(lua_State *L) {
  THCharStorage *storage = static_cast<THCharStorage *>(testObject(L, 1, "torch.CharStorage"));
  const int modeIdx = storage ? 2 : 1;
  const char *mode = luaL_optstring(L, modeIdx, "rw");
  size_t size = 0;
  if (storage) {
    luaL_argcheck(L, storage->size > 0 && storage->data[storage->size - 1] == 0, 1,
                  "the CharStorage must end with a 0 byte (as MemoryFile:storage() gives it)");
    size = size_t(storage->size) - 1;
    THCharStorage_retain(storage);
  } else {
    storage = THCharStorage_newWithSize(1);
    storage->data[0] = 0;
  }
  auto f = memoryFile(storage, size);
  parseMode(L, modeIdx, mode, *f);
  pushFile(L, std::move(f), "torch.MemoryFile");
  return 1;
}

// A MemoryFile reading the bytes of a Lua string (torch.deserialize).
int file_memoryOfString(lua_State *L) {
  size_t n;
  const char *bytes = luaL_checklstring(L, 1, &n);
  THCharStorage *storage = THCharStorage_newWithSize(ptrdiff_t(n + 1));
  std::memcpy(storage->data, bytes, n);
  storage->data[n] = 0;
  auto f = memoryFile(storage, n);
  f->readable = true;
  pushFile(L, std::move(f), "torch.MemoryFile");
  return 1;
}

int file_storage(lua_State *L) {
  File *f = checkOpen(L, 1);
  THCharStorage *s = f->stream->storage();
  if (!s) return luaL_error(L, "storage: only a MemoryFile has a storage");
  THCharStorage_retain(s);
  pushObject(L, s, "torch.CharStorage");
  return 1;
}

// The contents of a MemoryFile as a string (torch.serialize), without the trailing 0.
int file_contents(lua_State *L) {
  File *f = checkOpen(L, 1);
  THCharStorage *s = f->stream->storage();
  if (!s) return luaL_error(L, "only a MemoryFile has contents");
  lua_pushlstring(L, reinterpret_cast<const char *>(s->data), size_t(s->size) - 1);
  return 1;
}

// readX(): a number; readX(n): a new storage of the n elements read; readX(storage): fills
// it and returns the count. writeX(number | storage) returns the count written.
template <typename T>
const char *storageClass() {
  static const std::string name = std::string("torch.") + th::TH<T>::name + "Storage";
  return name.c_str();
}

template <typename T>
int readTyped(lua_State *L) {
  File *f = checkReadable(L, 1);
  using S = typename th::TH<T>::Storage;
  if (lua_gettop(L) == 1) {
    T x{};
    if (readElements(*f->stream, f->encoding, &x, 1) != 1) shortCount(L, f, "read", 0, 1);
    lua_pushnumber(L, lua_Number(x));
    return 1;
  }
  if (lua_type(L, 2) == LUA_TNUMBER) {
    const lua_Number count = lua_tonumber(L, 2);
    luaL_argcheck(L, count >= 0, 2, "the number of elements must be non-negative");
    const size_t n = size_t(count);
    S *s = th::TH<T>::S::newWithSize(ptrdiff_t(n));
    pushObject(L, s, storageClass<T>());
    const size_t done = readElements(*f->stream, f->encoding, s->data, n);
    if (done != n) {
      th::TH<T>::S::resize(s, ptrdiff_t(done));
      shortCount(L, f, "read", done, n);
    }
    return 1;
  }
  if (S *s = static_cast<S *>(testObject(L, 2, storageClass<T>()))) {
    const size_t n = size_t(s->size), done = readElements(*f->stream, f->encoding, s->data, n);
    if (done != n) shortCount(L, f, "read", done, n);
    lua_pushnumber(L, lua_Number(done));
    return 1;
  }
  return luaL_error(L, "nothing, a number or a %s expected", storageClass<T>());
}

template <typename T>
int writeTyped(lua_State *L) {
  File *f = checkWritable(L, 1);
  using S = typename th::TH<T>::Storage;
  const T *data;
  size_t n;
  T x;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    x = T(lua_tonumber(L, 2));
    data = &x;
    n = 1;
  } else if (S *s = static_cast<S *>(testObject(L, 2, storageClass<T>()))) {
    data = s->data;
    n = size_t(s->size);
  } else {
    return luaL_error(L, "a number or a %s expected", storageClass<T>());
  }
  return guard(L, [&] {  // a long that does not fit in the file's 4-byte longs
    const size_t done = writeElements(*f->stream, f->encoding, data, n);
    if (done != n) shortCount(L, f, "write", done, n);
    lua_pushnumber(L, lua_Number(done));
    return 1;
  });
}

// readString('*a'): everything left; readString('*l'): a line, without its newline;
// readString(n): up to n bytes.
int file_readString(lua_State *L) {
  File *f = checkReadable(L, 1);
  Stream &s = *f->stream;
  std::string out;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    const lua_Number n = lua_tonumber(L, 2);
    luaL_argcheck(L, n >= 0, 2, "the number of bytes must be non-negative");
    out.resize(size_t(n));
    out.resize(s.read(out.data(), out.size()));
    if (out.size() != size_t(n)) shortCount(L, f, "read", out.size(), size_t(n));
  } else {
    const std::string format = luaL_checkstring(L, 2);
    if (format == "*a") {
      char buffer[1 << 14];
      size_t n;
      while ((n = s.read(buffer, sizeof buffer)) > 0) out.append(buffer, n);
    } else if (format == "*l") {
      int c;
      bool any = false;
      while ((c = s.get()) != EOF) {
        any = true;
        if (c == '\n') break;
        out += char(c);
      }
      if (!any) shortCount(L, f, "read", 0, 1);
    } else {
      return luaL_argerror(L, 2, "'*a', '*l' or a number of bytes expected");
    }
  }
  lua_pushlstring(L, out.data(), out.size());
  return 1;
}

int file_writeString(lua_State *L) {
  File *f = checkWritable(L, 1);
  size_t n;
  const char *s = luaL_checklstring(L, 2, &n);
  const size_t done = f->stream->write(s, n);
  if (done != n) shortCount(L, f, "write", done, n);
  lua_pushnumber(L, lua_Number(done));
  return 1;
}

#define LT_FILE_SETTER(NAME, STATEMENT) \
  int file_##NAME(lua_State *L) {       \
    File *f = checkOpen(L, 1);          \
    STATEMENT;                          \
    lua_settop(L, 1);                   \
    return 1;                           \
  }
LT_FILE_SETTER(binary, f->encoding.binary = true)
LT_FILE_SETTER(ascii, f->encoding.binary = false)
LT_FILE_SETTER(autoSpacing, f->encoding.autoSpacing = true)
LT_FILE_SETTER(noAutoSpacing, f->encoding.autoSpacing = false)
LT_FILE_SETTER(quiet, f->quiet = true)
LT_FILE_SETTER(pedantic, f->quiet = false)
LT_FILE_SETTER(clearError, f->hasError = false)
LT_FILE_SETTER(littleEndianEncoding, f->encoding.littleEndian = true)
LT_FILE_SETTER(bigEndianEncoding, f->encoding.littleEndian = false)
LT_FILE_SETTER(nativeEndianEncoding, f->encoding.littleEndian = kLittleEndianHost)
LT_FILE_SETTER(referenced, f->referenced = lua_toboolean(L, 2))
LT_FILE_SETTER(allowFunctions, f->allowFunctions = lua_toboolean(L, 2))
LT_FILE_SETTER(cudaToCpu, f->cudaToCpu = lua_toboolean(L, 2))
LT_FILE_SETTER(synchronize, f->stream->flush())
#undef LT_FILE_SETTER

#define LT_FILE_GETTER(NAME, VALUE) \
  int file_##NAME(lua_State *L) {   \
    File *f = checkFile(L, 1);      \
    lua_pushboolean(L, VALUE);      \
    return 1;                       \
  }
LT_FILE_GETTER(isBinary, f->encoding.binary)
LT_FILE_GETTER(isAutoSpacing, f->encoding.autoSpacing)
LT_FILE_GETTER(isQuiet, f->quiet)
LT_FILE_GETTER(hasError, f->hasError)
LT_FILE_GETTER(isReadable, f->stream && f->readable)
LT_FILE_GETTER(isWritable, f->stream && f->writable)
LT_FILE_GETTER(isReferenced, f->referenced)
LT_FILE_GETTER(allowsFunctions, f->allowFunctions)
LT_FILE_GETTER(isCudaToCpu, f->cudaToCpu)
LT_FILE_GETTER(isOpen, f->stream != nullptr)
#undef LT_FILE_GETTER

int file_isLittleEndianCPU(lua_State *L) {
  lua_pushboolean(L, kLittleEndianHost);
  return 1;
}

// longSize(n): the bytes of a long in binary mode, 4 or 8 (0: the native 8).
int file_longSize(lua_State *L) {
  File *f = checkOpen(L, 1);
  const int n = int(luaL_checkinteger(L, 2));
  luaL_argcheck(L, n == 0 || n == 4 || n == 8, 2, "invalid long size: 0, 4 or 8 expected");
  f->encoding.longSize = n == 0 ? 8 : n;
  lua_settop(L, 1);
  return 1;
}

// Positions count from 1, as in torch7.
int file_seek(lua_State *L) {
  File *f = checkOpen(L, 1);
  const lua_Number position = luaL_checknumber(L, 2);
  luaL_argcheck(L, position >= 1, 2, "position must be at least 1");
  if (!f->stream->seek(size_t(position) - 1)) {
    f->hasError = true;
    if (!f->quiet) return luaL_error(L, "unable to seek to position %f", position);
  }
  lua_settop(L, 1);
  return 1;
}
int file_seekEnd(lua_State *L) {
  File *f = checkOpen(L, 1);
  if (!f->stream->seekEnd()) {
    f->hasError = true;
    if (!f->quiet) return luaL_error(L, "unable to seek to the end of the file");
  }
  lua_settop(L, 1);
  return 1;
}
int file_position(lua_State *L) {
  File *f = checkOpen(L, 1);
  lua_pushnumber(L, lua_Number(f->stream->position() + 1));
  return 1;
}

int file_close(lua_State *L) {
  File *f = checkOpen(L, 1);
  if (f->objectDepth > 0) return luaL_error(L, "close: the file is reading or writing an object");
  f->stream.reset();
  f->reader.reset();
  f->writer.reset();
  f->written.clear();
  return 0;
}

}  // namespace

const luaL_Reg kFileMethods[] = {
    {"file_disk", file_disk},
    {"file_pipe", file_pipe},
    {"file_memory", file_memory},
    {"file_memoryOfString", file_memoryOfString},
    {"file_storage", file_storage},
    {"file_contents", file_contents},
    {"file_gc", file_gc},
#define LT_READ_WRITE(Name, T, ...) {"file_read" #Name, readTyped<T>}, {"file_write" #Name, writeTyped<T>},
    TH_FORALL_ARITH_TYPES(LT_READ_WRITE)
#undef LT_READ_WRITE
        {"file_readString", file_readString},
    {"file_writeString", file_writeString},
    {"file_binary", file_binary},
    {"file_ascii", file_ascii},
    {"file_autoSpacing", file_autoSpacing},
    {"file_noAutoSpacing", file_noAutoSpacing},
    {"file_quiet", file_quiet},
    {"file_pedantic", file_pedantic},
    {"file_clearError", file_clearError},
    {"file_littleEndianEncoding", file_littleEndianEncoding},
    {"file_bigEndianEncoding", file_bigEndianEncoding},
    {"file_nativeEndianEncoding", file_nativeEndianEncoding},
    {"file_referenced", file_referenced},
    {"file_allowFunctions", file_allowFunctions},
    {"file_allowsFunctions", file_allowsFunctions},
    {"file_cudaToCpu", file_cudaToCpu},
    {"file_isCudaToCpu", file_isCudaToCpu},
    {"file_synchronize", file_synchronize},
    {"file_isBinary", file_isBinary},
    {"file_isAutoSpacing", file_isAutoSpacing},
    {"file_isQuiet", file_isQuiet},
    {"file_hasError", file_hasError},
    {"file_isReadable", file_isReadable},
    {"file_isWritable", file_isWritable},
    {"file_isReferenced", file_isReferenced},
    {"file_isOpen", file_isOpen},
    {"file_isLittleEndianCPU", file_isLittleEndianCPU},
    {"file_longSize", file_longSize},
    {"file_seek", file_seek},
    {"file_seekEnd", file_seekEnd},
    {"file_position", file_position},
    {"file_close", file_close},
    {nullptr, nullptr},
};

void openFile(lua_State *L) {
  luaL_register(L, nullptr, kFileMethods);
  luaL_register(L, nullptr, kFileObjects);
  for (const char *name : kFileClasses) {
    luaL_newmetatable(L, name);
    lua_pop(L, 1);
  }
}

}  // namespace luat
