// torch7's File API (torch.DiskFile, torch.MemoryFile, torch.PipeFile): typed reads and
// writes in binary or ascii encoding over a byte stream, and readObject / writeObject,
// which hand the stream's bytes to the one .t7 reader and writer (t7/) and turn its
// values into Lua values and back. A file keeps the objects it read or wrote, so that later
// objects refer to earlier ones (torch7's referenced mode).
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <limits>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <sys/stat.h>

#include "t7/t7.h"
#include "lua/csrc/Bytecode.h"
#include "lua/csrc/common.h"
#include "lua/csrc/open.h"

namespace {

constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// --- byte streams ---

class Stream {
 public:
  virtual ~Stream() = default;
  virtual size_t read(void *dst, size_t n) = 0;
  virtual int get() = 0;          // the next byte, EOF at the end
  virtual void unget(int c) = 0;  // puts back the byte get() just returned
  virtual size_t write(const void *src, size_t n) = 0;
  virtual bool seek(size_t position) = 0;
  virtual bool seekEnd() = 0;
  virtual size_t position() = 0;
  virtual void flush() {}
  // Every byte from the position on, not consumed: readObject parses them, then
  // consume(n) moves past the n bytes its object took.
  virtual std::string_view rest() = 0;
  virtual void consume(size_t n) = 0;
};

// A CharStorage holding size bytes and a trailing 0 (torch7's MemoryFile layout).
class MemoryStream : public Stream {
 public:
  MemoryStream(THCharStorage *storage, size_t size) : storage_(storage), size_(size) {}
  ~MemoryStream() override { THCharStorage_free(storage_); }

  THCharStorage *storage() {
    THCharStorage_resize(storage_, ptrdiff_t(size_ + 1));
    return storage_;
  }
  size_t read(void *dst, size_t n) override {
    n = std::min(n, size_ - pos_);
    std::memcpy(dst, storage_->data + pos_, n);
    pos_ += n;
    return n;
  }
  int get() override { return pos_ < size_ ? uint8_t(storage_->data[pos_++]) : EOF; }
  void unget(int c) override {
    if (c != EOF && pos_ > 0) pos_--;
  }
  size_t write(const void *src, size_t n) override {
    const size_t needed = pos_ + n + 1;
    if (size_t(storage_->size) < needed) THCharStorage_resize(storage_, ptrdiff_t(std::max(needed, 2 * size_t(storage_->size))));
    std::memcpy(storage_->data + pos_, src, n);
    pos_ += n;
    size_ = std::max(size_, pos_);
    storage_->data[size_] = 0;
    return n;
  }
  bool seek(size_t position) override {
    if (position > size_) return false;
    pos_ = position;
    return true;
  }
  bool seekEnd() override {
    pos_ = size_;
    return true;
  }
  size_t position() override { return pos_; }
  std::string_view rest() override { return std::string_view(reinterpret_cast<char *>(storage_->data) + pos_, size_ - pos_); }
  void consume(size_t n) override { pos_ += n; }

 private:
  THCharStorage *storage_;
  size_t size_, pos_ = 0;
};

// A C stream: a disk file (seekable) or a pipe. A pipe cannot go back, so the bytes that
// rest() read and readObject did not use wait in ahead_ for the next reads. A disk file
// keeps the bytes rest() read from its position to its end in cache_ and answers later
// rest() calls from them while the file is unchanged, so that the many readObject calls
// of objects reading their own payloads (Note [Own payloads] in t7/t7.h), or of a file
// read object by object, read the file once rather than once per call.
class CStream : public Stream {
 public:
  CStream(FILE *fp, bool isPipe) : fp_(fp), isPipe_(isPipe) {}
  ~CStream() override {
    if (isPipe_)
      pclose(fp_);
    else
      fclose(fp_);
  }

  size_t read(void *dst, size_t n) override {
    direction(false);
    size_t fromAhead = std::min(n, ahead_.size() - aheadPos_);
    std::memcpy(dst, ahead_.data() + aheadPos_, fromAhead);
    aheadPos_ += fromAhead;
    return fromAhead + (n > fromAhead ? fread(static_cast<char *>(dst) + fromAhead, 1, n - fromAhead, fp_) : 0);
  }
  int get() override {
    direction(false);
    lastFromAhead_ = aheadPos_ < ahead_.size();
    return lastFromAhead_ ? uint8_t(ahead_[aheadPos_++]) : getc(fp_);
  }
  void unget(int c) override {
    if (c == EOF) return;
    if (lastFromAhead_)
      aheadPos_--;
    else
      ungetc(c, fp_);
  }
  size_t write(const void *src, size_t n) override {
    direction(true);
    cacheValid_ = false;
    return fwrite(src, 1, n, fp_);
  }
  bool seek(size_t position) override {
    ahead_.clear();
    aheadPos_ = 0;
    return !isPipe_ && fseeko(fp_, off_t(position), SEEK_SET) == 0;
  }
  bool seekEnd() override {
    ahead_.clear();
    aheadPos_ = 0;
    return !isPipe_ && fseeko(fp_, 0, SEEK_END) == 0;
  }
  size_t position() override {
    const off_t at = ftello(fp_);
    return at < 0 ? 0 : size_t(at) - (ahead_.size() - aheadPos_);
  }
  void flush() override { fflush(fp_); }
  std::string_view rest() override {
    direction(false);
    if (isPipe_) {
      ahead_.erase(0, aheadPos_);
      aheadPos_ = 0;
      char buffer[1 << 16];
      size_t n;
      while ((n = fread(buffer, 1, sizeof buffer, fp_)) > 0) ahead_.append(buffer, n);
      return ahead_;
    }
    restStart_ = ftello(fp_);
    struct stat st;
    const bool known = fstat(fileno(fp_), &st) == 0;
    const bool unchanged = known && cacheValid_ && st.st_size == cacheStart_ + off_t(cache_.size()) &&
                           st.st_mtim.tv_sec == cacheTime_.tv_sec && st.st_mtim.tv_nsec == cacheTime_.tv_nsec;
    if (!unchanged || restStart_ < cacheStart_ || restStart_ > cacheStart_ + off_t(cache_.size())) {
      cache_.clear();
      char buffer[1 << 16];
      size_t n;
      while ((n = fread(buffer, 1, sizeof buffer, fp_)) > 0) cache_.append(buffer, n);
      clearerr(fp_);
      fseeko(fp_, restStart_, SEEK_SET);
      cacheStart_ = restStart_;
      cacheValid_ = known;
      if (known) cacheTime_ = st.st_mtim;
    }
    return std::string_view(cache_).substr(size_t(restStart_ - cacheStart_));
  }
  void consume(size_t n) override {
    if (isPipe_) {
      aheadPos_ += n;
      return;
    }
    clearerr(fp_);
    fseeko(fp_, restStart_ + off_t(n), SEEK_SET);
  }

 private:
  // C streams opened for reading and writing need a seek between a read and a write.
  void direction(bool writing) {
    if (writing != writing_ && !isPipe_) {
      if (writing && aheadPos_ < ahead_.size()) {
        const off_t at = off_t(position());
        ahead_.clear();
        aheadPos_ = 0;
        fseeko(fp_, at, SEEK_SET);
      } else {
        fseeko(fp_, 0, SEEK_CUR);
      }
    }
    writing_ = writing;
  }

  FILE *fp_;
  bool isPipe_;
  bool writing_ = false;
  std::string ahead_;  // a pipe's bytes read ahead
  size_t aheadPos_ = 0;
  bool lastFromAhead_ = false;
  off_t restStart_ = 0;
  // A disk file's bytes from cacheStart_ to its end when it had size cacheStart_ +
  // cache_.size() and modification time cacheTime_; not valid after a write through it.
  std::string cache_;
  off_t cacheStart_ = 0;
  bool cacheValid_ = false;
  struct timespec cacheTime_ = {};
};

// --- files ---

// Note [Lua and t7 identities]: the Lua side of a file's object bookkeeping lives in the
// file's userdata environment: `read` maps the identities of t7 values read (light
// userdata) to the Lua values made from them, `keep` holds the Lua values written (so that
// no later value takes their address), `joins` the upvalues of loaded functions by id.
struct Memo {
  t7::Value value;
  bool open;  // still being converted: a reference to it is a back reference
};

struct File {
  std::unique_ptr<Stream> stream;  // null once closed
  MemoryStream *memory = nullptr;  // stream, for a MemoryFile
  bool readable = false, writable = false;
  bool binary = false, autoSpacing = true, quiet = false, hasError = false, littleEndian = kLittleEndianHost;
  int longSize = 8;
  bool referenced = true;

  std::unique_ptr<t7::Reader> reader;
  t7::ReadOptions readerOptions;
  std::unique_ptr<t7::Writer> writer;
  t7::WriteOptions writerOptions;
  std::unordered_map<const void *, Memo> written;  // Lua object -> its t7 value
  // readObject / writeObject calls in progress: more than one while an object reads or
  // writes its own payload (Note [Own payloads] in t7/t7.h).
  int objectDepth = 0;
  // Objects that read their own payload so far: torch.load's long size detection tries
  // again with 4-byte longs after an attempt that met one (lua/torch/File.lua).
  size_t payloadsRead = 0;
};

const char *const kFileClasses[] = {"torch.DiskFile", "torch.MemoryFile", "torch.PipeFile"};
const char *const kKeyOrder = "torch.keyorder";

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
    luaL_error(L, "%s error: %s %d blocks instead of %d", what, what[0] == 'r' ? "read" : "wrote", int(done), int(wanted));
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
  FILE *fp = fopen(path, f->readable && f->writable ? "r+b" : f->readable ? "rb" : "wb");
  if (!fp && f->readable && f->writable) fp = fopen(path, "w+b");
  if (!fp) {
    if (quiet) return 0;
    return luaL_error(L, "cannot open <%s> in mode %s: %s", path, mode, strerror(errno));
  }
  f->stream = std::make_unique<CStream>(fp, false);
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
  fflush(nullptr);
  FILE *fp = popen(command, f->readable ? "r" : "w");
  if (!fp) {
    if (quiet) return 0;
    return luaL_error(L, "cannot open the pipe <%s> in mode %s: %s", command, mode, strerror(errno));
  }
  f->stream = std::make_unique<CStream>(fp, true);
  pushFile(L, std::move(f), "torch.PipeFile");
  return 1;
}

std::unique_ptr<File> memoryFile(THCharStorage *storage, size_t size) {
  auto f = std::make_unique<File>();
  auto stream = std::make_unique<MemoryStream>(storage, size);
  f->memory = stream.get();
  f->stream = std::move(stream);
  return f;
}

// torch.MemoryFile([mode]) / torch.MemoryFile(storage[, mode]): the storage's bytes up to
// its trailing 0 are the file's contents, and the file writes into that storage.
int file_memory(lua_State *L) {
  THCharStorage *storage = static_cast<THCharStorage *>(luat::testObject(L, 1, "torch.CharStorage"));
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
  if (!f->memory) return luaL_error(L, "storage: only a MemoryFile has a storage");
  THCharStorage *s = f->memory->storage();
  THCharStorage_retain(s);
  luat::pushObject(L, s, "torch.CharStorage");
  return 1;
}

// The contents of a MemoryFile as a string (torch.serialize), without the trailing 0.
int file_contents(lua_State *L) {
  File *f = checkOpen(L, 1);
  if (!f->memory) return luaL_error(L, "only a MemoryFile has contents");
  THCharStorage *s = f->memory->storage();
  lua_pushlstring(L, reinterpret_cast<const char *>(s->data), size_t(s->size) - 1);
  return 1;
}

// --- typed reads and writes ---

void reverseBytes(void *p, size_t each, size_t n) {
  auto *b = static_cast<uint8_t *>(p);
  for (size_t i = 0; i < n; i++) std::reverse(b + i * each, b + (i + 1) * each);
}

// One number of the ascii encoding, as fscanf reads it: white space, then a token.
template <typename T>
bool parseNumber(Stream &s, T &out) {
  int c;
  while ((c = s.get()) != EOF && isspace(c)) {
  }
  char token[72];
  size_t n = 0;
  while (c != EOF && !isspace(c) && n < sizeof token - 1) {
    token[n++] = char(c);
    c = s.get();
  }
  s.unget(c);
  if (n == 0) return false;
  const char *last = token + n;
  if constexpr (std::is_integral_v<T>) {
    int64_t x;
    auto [ptr, ec] = std::from_chars(token, last, x);
    if (ec != std::errc() || ptr != last || x < std::numeric_limits<T>::min() || x > std::numeric_limits<T>::max())
      return false;
    out = T(x);
  } else {
    auto [ptr, ec] = std::from_chars(token, last, out);
    if (ec != std::errc() || ptr != last) return false;
  }
  return true;
}

template <typename T>
size_t readElements(File &f, T *out, size_t n) {
  Stream &s = *f.stream;
  size_t done = 0;
  if (f.binary) {
    const bool swap = f.littleEndian != kLittleEndianHost;
    if constexpr (std::is_same_v<T, int64_t>) {
      if (f.longSize == 4) {
        for (; done < n; done++) {
          int32_t x;
          if (s.read(&x, 4) != 4) break;
          if (swap) reverseBytes(&x, 4, 1);
          out[done] = x;
        }
        return done;
      }
    }
    done = s.read(out, n * sizeof(T)) / sizeof(T);
    if (swap && sizeof(T) > 1) reverseBytes(out, sizeof(T), done);
    return done;
  }
  if constexpr (sizeof(T) == 1) {
    done = s.read(out, n);  // bytes and chars are raw in the ascii encoding too
  } else {
    while (done < n && parseNumber(s, out[done])) done++;
  }
  if (f.autoSpacing && n > 0) {
    const int c = s.get();
    if (c != '\n') s.unget(c);
  }
  return done;
}

template <typename T>
void formatNumber(std::string &out, T x) {
  char buffer[64];
  std::to_chars_result r;
  // torch7's printf formats: %d and %ld, %.9g for floats, %.17g for doubles
  if constexpr (std::is_same_v<T, float>)
    r = std::to_chars(buffer, buffer + sizeof buffer, double(x), std::chars_format::general, 9);
  else if constexpr (std::is_same_v<T, double>)
    r = std::to_chars(buffer, buffer + sizeof buffer, x, std::chars_format::general, 17);
  else
    r = std::to_chars(buffer, buffer + sizeof buffer, x);
  out.append(buffer, r.ptr);
}

// Writes n elements; returns how many were written, or raises (a long that does not fit in
// the file's 4-byte longs).
template <typename T>
size_t writeElements(lua_State *L, File &f, const T *p, size_t n) {
  Stream &s = *f.stream;
  if (f.binary) {
    const bool swap = f.littleEndian != kLittleEndianHost;
    if constexpr (std::is_same_v<T, int64_t>) {
      if (f.longSize == 4) {
        std::vector<int32_t> narrow(n);
        for (size_t i = 0; i < n; i++) {
          if (p[i] < INT32_MIN || p[i] > INT32_MAX)
            luaL_error(L, "writeLong: %f does not fit in the file's 4-byte longs", double(p[i]));
          narrow[i] = int32_t(p[i]);
        }
        if (swap) reverseBytes(narrow.data(), 4, n);
        return s.write(narrow.data(), 4 * n) / 4;
      }
    }
    if (!swap || sizeof(T) == 1) return s.write(p, n * sizeof(T)) / sizeof(T);
    std::vector<T> swapped(p, p + n);
    reverseBytes(swapped.data(), sizeof(T), n);
    return s.write(swapped.data(), n * sizeof(T)) / sizeof(T);
  }
  std::string text;
  size_t done;
  if constexpr (sizeof(T) == 1) {
    done = s.write(p, n);
  } else {
    for (size_t i = 0; i < n; i++) {
      if (i > 0 && f.autoSpacing) text += ' ';
      formatNumber(text, p[i]);
    }
    done = s.write(text.data(), text.size()) == text.size() ? n : 0;
  }
  if (f.autoSpacing && n > 0) s.write("\n", 1);
  return done;
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
    if (readElements(*f, &x, 1) != 1) shortCount(L, f, "read", 0, 1);
    lua_pushnumber(L, lua_Number(x));
    return 1;
  }
  if (lua_type(L, 2) == LUA_TNUMBER) {
    const lua_Number count = lua_tonumber(L, 2);
    luaL_argcheck(L, count >= 0, 2, "the number of elements must be non-negative");
    const size_t n = size_t(count);
    S *s = th::TH<T>::S::newWithSize(ptrdiff_t(n));
    luat::pushObject(L, s, storageClass<T>());
    const size_t done = readElements(*f, s->data, n);
    if (done != n) {
      th::TH<T>::S::resize(s, ptrdiff_t(done));
      shortCount(L, f, "read", done, n);
    }
    return 1;
  }
  if (S *s = static_cast<S *>(luat::testObject(L, 2, storageClass<T>()))) {
    const size_t n = size_t(s->size), done = readElements(*f, s->data, n);
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
  } else if (S *s = static_cast<S *>(luat::testObject(L, 2, storageClass<T>()))) {
    data = s->data;
    n = size_t(s->size);
  } else {
    return luaL_error(L, "a number or a %s expected", storageClass<T>());
  }
  const size_t done = writeElements(L, *f, data, n);
  if (done != n) shortCount(L, f, "write", done, n);
  lua_pushnumber(L, lua_Number(done));
  return 1;
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

// --- settings ---

#define LT_FILE_SETTER(NAME, STATEMENT) \
  int file_##NAME(lua_State *L) {      \
    File *f = checkOpen(L, 1);         \
    STATEMENT;                         \
    lua_settop(L, 1);                  \
    return 1;                          \
  }
LT_FILE_SETTER(binary, f->binary = true)
LT_FILE_SETTER(ascii, f->binary = false)
LT_FILE_SETTER(autoSpacing, f->autoSpacing = true)
LT_FILE_SETTER(noAutoSpacing, f->autoSpacing = false)
LT_FILE_SETTER(quiet, f->quiet = true)
LT_FILE_SETTER(pedantic, f->quiet = false)
LT_FILE_SETTER(clearError, f->hasError = false)
LT_FILE_SETTER(littleEndianEncoding, f->littleEndian = true)
LT_FILE_SETTER(bigEndianEncoding, f->littleEndian = false)
LT_FILE_SETTER(nativeEndianEncoding, f->littleEndian = kLittleEndianHost)
LT_FILE_SETTER(referenced, f->referenced = lua_toboolean(L, 2))
LT_FILE_SETTER(synchronize, f->stream->flush())
#undef LT_FILE_SETTER

#define LT_FILE_GETTER(NAME, VALUE) \
  int file_##NAME(lua_State *L) {  \
    File *f = checkFile(L, 1);      \
    lua_pushboolean(L, VALUE);      \
    return 1;                       \
  }
LT_FILE_GETTER(isBinary, f->binary)
LT_FILE_GETTER(isAutoSpacing, f->autoSpacing)
LT_FILE_GETTER(isQuiet, f->quiet)
LT_FILE_GETTER(hasError, f->hasError)
LT_FILE_GETTER(isReadable, f->stream && f->readable)
LT_FILE_GETTER(isWritable, f->stream && f->writable)
LT_FILE_GETTER(isReferenced, f->referenced)
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
  f->longSize = n == 0 ? 8 : n;
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
  f->memory = nullptr;
  f->reader.reset();
  f->writer.reset();
  f->written.clear();
  return 0;
}

// --- objects ---

// The Lua side's functions for torch objects (File.lua), kept in the registry:
//   classOf(table) -> class name or nil, version, whether the class writes its own payload
//   make(className, content, version) -> the object read
//   newReading(className) -> a fresh object when its class reads its own payload, else nil
//   writePayload(object, file), readPayload(object, file, versionNumber): the class's methods
const char *const kObjectFunctions = "torch.objectfunctions";

// file_setObjectFunctions{classOf=, make=, newReading=, writePayload=, readPayload=}
int file_setObjectFunctions(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  for (const char *name : {"classOf", "make", "newReading", "writePayload", "readPayload"}) {
    lua_getfield(L, 1, name);
    if (!lua_isfunction(L, -1)) return luaL_error(L, "setObjectFunctions: the function %s is missing", name);
    lua_pop(L, 1);
  }
  lua_pushvalue(L, 1);
  lua_setfield(L, LUA_REGISTRYINDEX, kObjectFunctions);
  return 0;
}

void pushObjectFunction(lua_State *L, const char *name) {
  lua_getfield(L, LUA_REGISTRYINDEX, kObjectFunctions);
  if (!lua_istable(L, -1)) throw t7::Error("torch.File: the object functions are not set");
  lua_getfield(L, -1, name);
  lua_remove(L, -2);
}

// One readObject / writeObject call on f: counts the nesting, and forgets the reader or
// writer when the outermost call fails, since its state is then that of a half-done object.
struct ObjectCall {
  File *f;
  bool done = false;
  explicit ObjectCall(File *file) : f(file) { f->objectDepth++; }
  ~ObjectCall() {
    if (--f->objectDepth == 0 && !done) {
      f->reader.reset();
      f->writer.reset();
      f->written.clear();
    }
  }
  bool outermost() const { return f->objectDepth == 1; }
};

// The table env[name] of the file at fileIdx (Note [Lua and t7 identities]), pushed;
// fresh replaces it with an empty one.
int pushEnvTable(lua_State *L, int fileIdx, const char *name, bool fresh) {
  lua_getfenv(L, fileIdx);
  lua_getfield(L, -1, name);
  if (fresh || !lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_pushvalue(L, -1);
    lua_setfield(L, -3, name);
  }
  lua_remove(L, -2);
  return lua_gettop(L);
}

// Note [Key order]: torch7 wrote a table's entries in pairs() order, which LuaJIT seeds at
// random, so a Lua table loses the order of its file. The reader records it for each table
// it makes (a weak-keyed registry table, table -> array of keys) and the writer writes those
// keys first, in that order, so that a loaded object saves back to the same bytes.
int pushKeyOrders(lua_State *L) {
  lua_getfield(L, LUA_REGISTRYINDEX, kKeyOrder);
  if (!lua_istable(L, -1)) {
    lua_pop(L, 1);
    lua_newtable(L);
    lua_newtable(L);
    lua_pushstring(L, "k");
    lua_setfield(L, -2, "__mode");
    lua_setmetatable(L, -2);
    lua_pushvalue(L, -1);
    lua_setfield(L, LUA_REGISTRYINDEX, kKeyOrder);
  }
  return lua_gettop(L);
}

int dumpWriter(lua_State *, const void *p, size_t n, void *out) {
  static_cast<std::string *>(out)->append(static_cast<const char *>(p), n);
  return 0;
}

// Lua -> t7. The object function classOf gives the torch class of a table and its version
// (nil for a plain table); memo gives each Lua table or function one t7 value (Note [Lua
// and t7 identities]). An object whose class writes its own payload becomes a t7 object
// whose content is its reference in the keep table (Note [Own payloads] in t7/t7.h).
struct ToT7 {
  lua_State *L;
  int keepIdx, orderIdx;
  std::unordered_map<const void *, Memo> &memo;
  int depth = 0;

  t7::Value convert(int idx) {
    idx = idx > 0 ? idx : lua_gettop(L) + idx + 1;
    lua_checkstack(L, 16);
    switch (lua_type(L, idx)) {
      case LUA_TNIL:
        return t7::Value();
      case LUA_TNUMBER:
        return t7::Value(lua_tonumber(L, idx));
      case LUA_TBOOLEAN:
        return t7::Value(bool(lua_toboolean(L, idx)));
      case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        return t7::Value(std::string(s, n));
      }
      case LUA_TUSERDATA: {
        void *p;
#define LT_FROM_UD(Name, T, ...)                                                          \
  if ((p = luat::testObject(L, idx, "torch." #Name "Tensor")))                       \
    return t7::Value(static_cast<TH##Name##Tensor *>(p));                            \
  if ((p = luat::testObject(L, idx, "torch." #Name "Storage")))                      \
    return t7::Value(static_cast<TH##Name##Storage *>(p));
        TH_FORALL_ARITH_TYPES(LT_FROM_UD)
#undef LT_FROM_UD
        throw t7::Error(std::string("writeObject: cannot write a ") + luaL_typename(L, idx) + " that is no storage or tensor");
      }
      case LUA_TTABLE:
      case LUA_TFUNCTION: {
        const void *key = lua_topointer(L, idx);
        if (auto it = memo.find(key); it != memo.end())
          return it->second.open ? t7::Value::recursive(it->second.value) : it->second.value;
        if (++depth > t7::kMaxDepth) throw t7::Error("writeObject: values nested too deeply");
        t7::Value result = lua_istable(L, idx) ? convertTable(idx, key) : convertFunction(idx, key);
        memo[key].open = false;
        depth--;
        return result;
      }
      default:
        throw t7::Error(std::string("writeObject: cannot write a value of type ") + luaL_typename(L, idx));
    }
  }

 private:
  void remember(int idx, const void *key, const t7::Value &value) {
    memo[key] = Memo{value, true};
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, keepIdx);
  }

  t7::Value convertTable(int idx, const void *key) {
    pushObjectFunction(L, "classOf");
    lua_pushvalue(L, idx);
    lua_call(L, 1, 3);
    const std::string className = lua_isstring(L, -3) ? lua_tostring(L, -3) : "";
    const std::string version = lua_isstring(L, -2) ? std::string("V ") + lua_tostring(L, -2) : "V 1";
    const bool ownPayload = !className.empty() && lua_toboolean(L, -1);
    lua_pop(L, 3);
    if (ownPayload) {
      auto object = t7::makeObject(className, t7::Value());
      object->version = version;
      object->ownPayload = true;
      lua_pushvalue(L, idx);
      object->content = t7::Value(luaL_ref(L, keepIdx));
      const t7::Value result(object);
      remember(idx, key, result);
      return result;
    }
    auto table = std::make_shared<t7::Table>();
    t7::Value result(table);
    if (!className.empty()) {
      auto object = t7::makeObject(className, t7::Value(table));
      object->version = version;
      result = t7::Value(object);
    }
    remember(idx, key, result);
    auto add = [&] {
      t7::Value k = convert(-2);
      t7::Value v = convert(-1);
      table->entries.emplace_back(std::move(k), std::move(v));
    };
    lua_pushvalue(L, idx);
    lua_rawget(L, orderIdx);
    const int order = lua_gettop(L);
    if (lua_istable(L, order)) {  // Note [Key order]
      lua_newtable(L);
      const int done = lua_gettop(L);
      for (int i = 1;; i++) {
        lua_rawgeti(L, order, i);
        if (lua_isnil(L, -1)) {
          lua_pop(L, 1);
          break;
        }
        lua_pushvalue(L, -1);
        lua_rawget(L, idx);
        if (!lua_isnil(L, -1)) {
          add();
          lua_pushvalue(L, -2);
          lua_pushboolean(L, 1);
          lua_rawset(L, done);
        }
        lua_pop(L, 2);
      }
      lua_pushnil(L);
      while (lua_next(L, idx)) {
        lua_pushvalue(L, -2);
        lua_rawget(L, done);
        const bool written = !lua_isnil(L, -1);
        lua_pop(L, 1);
        if (!written) add();
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    } else {
      lua_pushnil(L);
      while (lua_next(L, idx)) {
        add();
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    return result;
  }

  // torch7's record of a function: string.dump's bytecode and the upvalues as
  // {name=, id=, value=} tables; functions sharing an upvalue write the same id.
  t7::Value convertFunction(int idx, const void *key) {
    if (lua_iscfunction(L, idx)) throw t7::Error("writeObject: cannot write a C function");
    auto function = std::make_shared<t7::Function>();
    function->tag = t7::Function::Tag::Recur;
    const t7::Value result(function);
    remember(idx, key, result);
    lua_pushvalue(L, idx);
    lua_dump(L, dumpWriter, &function->bytecode);
    lua_pop(L, 1);
    auto upvalues = std::make_shared<t7::Table>();
    for (int i = 1;; i++) {
      const char *name = lua_getupvalue(L, idx, i);
      if (!name) break;
      auto upvalue = t7::makeTable({{"name", name}, {"id", double(reinterpret_cast<uintptr_t>(lua_upvalueid(L, idx, i)))}});
      t7::Value value = convert(-1);
      lua_pop(L, 1);
      if (!value.isNil()) upvalue->entries.emplace_back("value", std::move(value));
      upvalues->entries.emplace_back(double(i), t7::Value(upvalue));
    }
    function->upvalues = t7::Value(upvalues);
    return result;
  }
};

// t7 -> Lua. The object function make turns a class name, its content and its version
// string ("V 1") into a Lua object; memoIdx maps t7 identities to the Lua values made (Note
// [Lua and t7 identities]), objects that read their own payload included.
struct FromT7 {
  lua_State *L;
  int memoIdx, joinsIdx, orderIdx;

  void push(const t7::Value &value) {
    lua_checkstack(L, 16);
    switch (value.kind()) {
      case t7::Value::Kind::Nil:
        lua_pushnil(L);
        return;
      case t7::Value::Kind::Number:
        lua_pushnumber(L, value.number());
        return;
      case t7::Value::Kind::Boolean:
        lua_pushboolean(L, value.boolean());
        return;
      case t7::Value::Kind::String:
        lua_pushlstring(L, value.string().data(), value.string().size());
        return;
      case t7::Value::Kind::Recursive:
        if (!pushMemo(value.target().identity())) lua_pushnil(L);
        return;
      case t7::Value::Kind::Function:
        pushFunction(*value.function());
        return;
      case t7::Value::Kind::Table: {
        auto table = value.table();
        if (pushMemo(table.get())) return;
        lua_newtable(L);
        setMemo(table.get());
        fill(*table);
        return;
      }
      case t7::Value::Kind::Object:
        pushObject(value.object());
        return;
    }
    lua_pushnil(L);
  }

 private:
  bool pushMemo(const void *id) {
    if (!id) return false;
    lua_pushlightuserdata(L, const_cast<void *>(id));
    lua_rawget(L, memoIdx);
    if (!lua_isnil(L, -1)) return true;
    lua_pop(L, 1);
    return false;
  }
  void setMemo(const void *id) {  // the value on top of the stack
    lua_pushlightuserdata(L, const_cast<void *>(id));
    lua_pushvalue(L, -2);
    lua_rawset(L, memoIdx);
  }

  // The entries of t into the Lua table on top of the stack, recording their order (Note
  // [Key order]).
  void fill(const t7::Table &t) {
    const int table = lua_gettop(L);
    int order = 0, n = 0;
    if (t.entries.size() > 1) {
      lua_newtable(L);
      order = lua_gettop(L);
      lua_pushvalue(L, table);
      lua_pushvalue(L, order);
      lua_rawset(L, orderIdx);
    }
    for (const auto &[key, value] : t.entries) {
      push(key);
      push(value);
      if (lua_isnil(L, -2) || lua_isnil(L, -1)) {
        lua_pop(L, 2);
        continue;
      }
      if (order) {
        lua_pushvalue(L, -2);
        lua_rawseti(L, order, ++n);
      }
      lua_rawset(L, table);
    }
    lua_settop(L, table);
  }

  void pushObject(const std::shared_ptr<t7::Object> &object) {
    if (object->tensor || object->storage) {
      const void *id = object->tensor ? object->tensor.raw() : object->storage.raw();
      if (pushMemo(id)) return;
      if (object->tensor)
        object->tensor.visit([&](auto *t) { pushTH(t); });
      else
        object->storage.visit([&](auto *s) { pushTH(s); });
      setMemo(id);
      return;
    }
    if (pushMemo(object.get())) return;
    // The object is its content table, registered before its fields are read so that
    // back references inside it find it.
    pushObjectFunction(L, "make");
    lua_pushstring(L, object->className.c_str());
    if (object->content.kind() == t7::Value::Kind::Table) {
      lua_newtable(L);
      setMemo(object.get());
      fill(*object->content.table());
    } else {
      push(object->content);
    }
    lua_pushstring(L, object->version.c_str());
    lua_call(L, 3, 1);
    setMemo(object.get());
  }

#define LT_PUSH_TH(Name, T, ...)                                                      \
  void pushTH(TH##Name##Tensor *t) {                                             \
    TH##Name##Tensor_retain(t);                                                  \
    luat::pushObject(L, t, "torch." #Name "Tensor");                             \
  }                                                                              \
  void pushTH(TH##Name##Storage *s) {                                            \
    TH##Name##Storage_retain(s);                                                 \
    luat::pushObject(L, s, "torch." #Name "Storage");                            \
  }
  TH_FORALL_ARITH_TYPES(LT_PUSH_TH)
#undef LT_PUSH_TH
  void pushTH(THHalfTensor *) { throw t7::Error("readObject: the Lua binding has no HalfTensor"); }
  void pushTH(THHalfStorage *) { throw t7::Error("readObject: the Lua binding has no HalfStorage"); }

  // torch7's reading of a function: its bytecode loaded, then each upvalue set from its
  // record, and upvalues written with one id joined again.
  void pushFunction(const t7::Function &function) {
    if (pushMemo(&function)) return;
    // LuaJIT runs bytecode unverified: a corrupt dump must fail here, not crash later.
    const int nupvalues = luat::checkBytecode(function.bytecode.data(), function.bytecode.size());
    const t7::Value &record = function.upvalues;
    int nrecords = 0;
    while (record.kind() == t7::Value::Kind::Table && !record[t7::Value(nrecords + 1)].isNil()) nrecords++;
    // torch7 writes one record per upvalue; its older format wrote the values, nil ones as holes
    if (function.tag == t7::Function::Tag::LegacyRecur ? nrecords > nupvalues : nrecords != nupvalues)
      throw t7::Error("t7: corrupt Lua function: its upvalue record holds " + std::to_string(nrecords) +
                      " values for " + std::to_string(nupvalues) + " upvalues");
    if (luaL_loadbuffer(L, function.bytecode.data(), function.bytecode.size(), "=(loaded function)") != 0) {
      const std::string msg = lua_tostring(L, -1);
      lua_pop(L, 1);
      throw t7::Error("readObject: cannot load a function's bytecode: " + msg);
    }
    const int func = lua_gettop(L);
    setMemo(&function);
    push(function.upvalues);
    const int upvalues = lua_gettop(L);
    for (int i = 1; lua_istable(L, upvalues); i++) {
      lua_rawgeti(L, upvalues, i);
      if (lua_isnil(L, -1)) break;
      if (!lua_getupvalue(L, func, i)) break;  // no such upvalue in the bytecode
      lua_pop(L, 1);
      if (function.tag == t7::Function::Tag::LegacyRecur) {  // the values themselves
        lua_setupvalue(L, func, i);
        continue;
      }
      const int record = lua_gettop(L);
      if (lua_istable(L, record)) {
        lua_getfield(L, record, "value");
        lua_setupvalue(L, func, i);
        lua_getfield(L, record, "id");
        if (lua_type(L, -1) == LUA_TNUMBER) join(func, i);
      }
      lua_settop(L, upvalues);
    }
    lua_settop(L, func);
  }

  // The upvalue id on top of the stack: the first function that has it keeps it, later
  // ones share that one's upvalue.
  void join(int func, int i) {
    const int id = lua_gettop(L);
    lua_pushvalue(L, id);
    lua_rawget(L, joinsIdx);
    if (lua_istable(L, -1)) {
      lua_rawgeti(L, -1, 1);
      lua_rawgeti(L, -2, 2);
      const int n = int(lua_tointeger(L, -1));
      if (lua_isfunction(L, -2) && !lua_iscfunction(L, -2) && lua_getupvalue(L, -2, n)) {
        lua_pop(L, 1);
        lua_upvaluejoin(L, func, i, lua_gettop(L) - 1, n);
      }
    } else {
      lua_pushvalue(L, id);
      lua_createtable(L, 2, 0);
      lua_pushvalue(L, func);
      lua_rawseti(L, -2, 1);
      lua_pushinteger(L, i);
      lua_rawseti(L, -2, 2);
      lua_rawset(L, joinsIdx);
    }
    lua_settop(L, id);
  }
};

// Writes bytes to f's stream, all of them.
void writeBytes(File *f, const std::string &bytes) {
  const size_t done = f->stream->write(bytes.data(), bytes.size());
  if (done != bytes.size()) throw t7::Error("writeObject: wrote " + std::to_string(done) + " bytes instead of " + std::to_string(bytes.size()));
}

// Note [Own payloads] in t7/t7.h, reading: a fresh object of the class, registered as
// the t7 object's Lua value, reads its payload from the stream through its read method;
// the reader then goes on after it. The file takes the reader's encoding, so that the
// method reads what the writer's method wrote. Runs inside file_readObject (the file is
// argument 1).
bool readPayload(lua_State *L, File *f, t7::Object &o) {
  lua_checkstack(L, 8);
  pushObjectFunction(L, "newReading");
  lua_pushstring(L, o.className.c_str());
  lua_call(L, 1, 1);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return false;
  }
  const int object = lua_gettop(L);
  pushEnvTable(L, 1, "read", false);
  lua_pushlightuserdata(L, &o);
  lua_pushvalue(L, object);
  lua_rawset(L, -3);
  lua_pop(L, 1);
  f->binary = f->reader->format() == t7::Format::Binary;
  if (f->binary) f->longSize = f->reader->longSize();
  f->stream->consume(f->reader->offset());
  f->payloadsRead++;
  pushObjectFunction(L, "readPayload");
  lua_pushvalue(L, object);
  lua_pushvalue(L, 1);
  lua_pushnumber(L, o.version.empty() ? 0 : std::strtod(o.version.c_str() + 2, nullptr));  // "V <n>"
  lua_call(L, 3, 0);
  const std::string_view rest = f->stream->rest();
  f->reader->resume(rest.data(), rest.size());
  lua_settop(L, object - 1);
  return true;
}

// Writing: the bytes so far go to the stream, then the object's write method writes its
// payload. Runs inside file_writeObject (the file is argument 1).
void writePayload(lua_State *L, File *f, const t7::Object &o) {
  lua_checkstack(L, 8);
  writeBytes(f, f->writer->takeBytes());
  pushObjectFunction(L, "writePayload");
  pushEnvTable(L, 1, "keep", false);
  lua_rawgeti(L, -1, int(o.content.number()));
  lua_remove(L, -2);
  lua_pushvalue(L, 1);
  lua_call(L, 2, 0);
}

// readObject(file[, detectFormat[, detectLongSize]]): the next object. With detectFormat
// the file's first byte decides between binary and ascii; with detectLongSize a binary
// file's long size is found as Note [Long size] in t7/t7.h says. A call made by an
// object reading its own payload goes on with the reader of the call that met the object.
int file_readObject(lua_State *L) {
  File *f = checkReadable(L, 1);
  const bool detectFormat = lua_toboolean(L, 2), detectLongSize = lua_toboolean(L, 3);
  if (f->binary && f->littleEndian != kLittleEndianHost)
    return luaL_error(L, "readObject: objects are read in the native (little endian) encoding only");
  t7::ReadOptions options;
  if (!detectFormat) options.format = f->binary ? t7::Format::Binary : t7::Format::Ascii;
  options.longSize = detectLongSize ? 0 : f->longSize;
  const bool nested = f->objectDepth > 0;
  const bool fresh = !nested && (!f->reader || f->readerOptions.format != options.format ||
                                 f->readerOptions.longSize != options.longSize);
  lua_settop(L, 1);
  const int memo = pushEnvTable(L, 1, "read", fresh);
  const int joins = pushEnvTable(L, 1, "joins", fresh);
  const int orders = pushKeyOrders(L);
  return luat::guard(L, [&] {
    ObjectCall call(f);
    const std::string_view bytes = f->stream->rest();
    if (fresh) {
      f->reader = std::make_unique<t7::Reader>(bytes.data(), bytes.size(), options);
      f->readerOptions = options;
    } else {
      f->reader->resume(bytes.data(), bytes.size());
    }
    if (call.outermost()) f->reader->setPayloadReader([L, f](t7::Object &o) { return readPayload(L, f, o); });
    t7::Value value;
    try {
      value = f->reader->read();
    } catch (...) {
      f->stream->consume(0);
      f->hasError = true;
      throw;
    }
    f->stream->consume(f->reader->offset());
    if (detectLongSize && f->reader->longSize() != 0) f->longSize = f->reader->longSize();
    FromT7{L, memo, joins, orders}.push(value);
    call.done = true;
    return 1;
  });
}

// payloadsRead(file): how many objects read their own payload from the file so far.
int file_payloadsRead(lua_State *L) {
  lua_pushnumber(L, lua_Number(checkFile(L, 1)->payloadsRead));
  return 1;
}

// writeObject(file, object). A call made by an object writing its own payload goes on with
// the writer of the call that met the object.
int file_writeObject(lua_State *L) {
  File *f = checkWritable(L, 1);
  if (f->binary && f->littleEndian != kLittleEndianHost)
    return luaL_error(L, "writeObject: objects are written in the native (little endian) encoding only");
  t7::WriteOptions options;
  options.format = f->binary ? t7::Format::Binary : t7::Format::Ascii;
  options.longSize = f->longSize;
  options.referenced = f->referenced;
  const bool nested = f->objectDepth > 0;
  const bool fresh = !nested && (!f->writer || f->writerOptions.format != options.format ||
                                 f->writerOptions.longSize != options.longSize ||
                                 f->writerOptions.referenced != options.referenced);
  if (fresh) f->written.clear();
  lua_settop(L, 2);
  const int keep = pushEnvTable(L, 1, "keep", fresh);
  const int orders = pushKeyOrders(L);
  return luat::guard(L, [&] {
    ObjectCall call(f);
    if (fresh) {
      f->writer = std::make_unique<t7::Writer>(options);
      f->writerOptions = options;
    }
    if (call.outermost()) f->writer->setPayloadWriter([L, f](const t7::Object &o) { writePayload(L, f, o); });
    ToT7 convert{L, keep, orders, f->written};
    const t7::Value value = convert.convert(2);
    f->writer->write(value);
    writeBytes(f, f->writer->takeBytes());
    call.done = true;
    return 0;
  });
}

const luaL_Reg kFunctions[] = {
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
    {"file_readObject", file_readObject},
    {"file_payloadsRead", file_payloadsRead},
    {"file_writeObject", file_writeObject},
    {"file_setObjectFunctions", file_setObjectFunctions},
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

}  // namespace

namespace luat {
void openFile(lua_State *L) {
  luaL_register(L, nullptr, kFunctions);
  for (const char *name : kFileClasses) {
    luaL_newmetatable(L, name);
    lua_pop(L, 1);
  }
}
}  // namespace luat
