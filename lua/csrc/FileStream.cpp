// torch7's byte streams (a CharStorage, a C stream over a disk file or a pipe) and the
// binary and ascii encodings of numbers on them (see FileStream.h).
#include "lua/csrc/FileStream.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <sys/stat.h>

#include "TH/THError.hpp"

namespace luat {

namespace {

// A CharStorage holding size bytes and a trailing 0 (torch7's MemoryFile layout).
class MemoryStream : public Stream {
 public:
  MemoryStream(THCharStorage *storage, size_t size) : storage_(storage), size_(size) {}
  ~MemoryStream() override { THCharStorage_free(storage_); }

  THCharStorage *storage() override {
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
    if (size_t(storage_->size) < needed)
      THCharStorage_resize(storage_, ptrdiff_t(std::max(needed, 2 * size_t(storage_->size))));
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
  std::string_view rest() override {
    return std::string_view(reinterpret_cast<char *>(storage_->data) + pos_, size_ - pos_);
  }
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

}  // namespace

std::unique_ptr<Stream> openDisk(const char *path, bool readable, bool writable) {
  FILE *fp = fopen(path, readable && writable ? "r+b" : readable ? "rb" : "wb");
  if (!fp && readable && writable) fp = fopen(path, "w+b");
  if (!fp) return nullptr;
  return std::make_unique<CStream>(fp, false);
}

std::unique_ptr<Stream> openPipe(const char *command, bool readable) {
  fflush(nullptr);
  FILE *fp = popen(command, readable ? "r" : "w");
  if (!fp) return nullptr;
  return std::make_unique<CStream>(fp, true);
}

std::unique_ptr<Stream> openMemory(THCharStorage *storage, size_t size) {
  return std::make_unique<MemoryStream>(storage, size);
}

namespace {

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

}  // namespace

template <typename T>
size_t readElements(Stream &s, const Encoding &e, T *out, size_t n) {
  size_t done = 0;
  if (e.binary) {
    const bool swap = e.littleEndian != kLittleEndianHost;
    if constexpr (std::is_same_v<T, int64_t>) {
      if (e.longSize == 4) {
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
  if (e.autoSpacing && n > 0) {
    const int c = s.get();
    if (c != '\n') s.unget(c);
  }
  return done;
}

template <typename T>
size_t writeElements(Stream &s, const Encoding &e, const T *p, size_t n) {
  if (e.binary) {
    const bool swap = e.littleEndian != kLittleEndianHost;
    if constexpr (std::is_same_v<T, int64_t>) {
      if (e.longSize == 4) {
        std::vector<int32_t> narrow(n);
        for (size_t i = 0; i < n; i++) {
          if (p[i] < INT32_MIN || p[i] > INT32_MAX) {
            char msg[96];
            snprintf(msg, sizeof msg, "writeLong: %f does not fit in the file's 4-byte longs", double(p[i]));
            throw th::Error(msg, th::ErrorKind::Value, 0);
          }
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
      if (i > 0 && e.autoSpacing) text += ' ';
      formatNumber(text, p[i]);
    }
    done = s.write(text.data(), text.size()) == text.size() ? n : 0;
  }
  if (e.autoSpacing && n > 0) s.write("\n", 1);
  return done;
}

#define LT_INSTANTIATE(Name, T, ...)                                                \
  template size_t readElements<T>(Stream & s, const Encoding &e, T *out, size_t n); \
  template size_t writeElements<T>(Stream & s, const Encoding &e, const T *p, size_t n);
TH_FORALL_ARITH_TYPES(LT_INSTANTIATE)
#undef LT_INSTANTIATE

}  // namespace luat
