// The byte level of torch7's files (torch.DiskFile, torch.MemoryFile, torch.PipeFile): the
// stream of bytes under a file, and the encodings of numbers on it, binary (with an
// endianness and a long size) or ascii (printf's and scanf's text). No Lua here:
//
//   std::unique_ptr<luat::Stream> s = luat::openDisk("x.bin", true, false);  // null: see errno
//   luat::Encoding binary;
//   binary.binary = true;
//   double x[3];
//   size_t n = luat::readElements(*s, binary, x, 3);  // fewer than 3 at the end of the file
#ifndef LUA_TORCH_FILE_STREAM_H
#define LUA_TORCH_FILE_STREAM_H

#include <cstddef>
#include <cstdio>
#include <memory>
#include <string_view>

#include "TH/TH.h"

namespace luat {

constexpr bool kLittleEndianHost = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

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
  // A memory stream's CharStorage, its bytes then a 0 (torch7's MemoryFile layout); null
  // for the other streams.
  virtual THCharStorage *storage() { return nullptr; }
};

// A disk file opened for reading, writing or both (created when missing, except for
// reading alone); null when it cannot be opened, errno saying why.
std::unique_ptr<Stream> openDisk(const char *path, bool readable, bool writable);
// A command's output (readable) or input; null when it cannot be started.
std::unique_ptr<Stream> openPipe(const char *command, bool readable);
// The first size bytes of storage, which ends with a 0 after them; takes the storage's
// reference over.
std::unique_ptr<Stream> openMemory(THCharStorage *storage, size_t size);

// How numbers are written: torch7's File settings. Bytes and chars are raw in both
// encodings; ascii writes other numbers as printf does (%.9g floats, %.17g doubles),
// separated by spaces, and with autoSpacing a newline after each group.
struct Encoding {
  bool binary = false;
  bool autoSpacing = true;
  bool littleEndian = kLittleEndianHost;  // binary
  int longSize = 8;                       // binary: the bytes of a long, 8 or 4
};

// The elements read (n unless the stream ends or holds no number); T is one of TH's
// arithmetic types.
template <typename T>
size_t readElements(Stream &s, const Encoding &e, T *out, size_t n);
// The elements written; throws a th::Error for a long that does not fit in 4-byte longs.
template <typename T>
size_t writeElements(Stream &s, const Encoding &e, const T *p, size_t n);

}  // namespace luat

#endif
