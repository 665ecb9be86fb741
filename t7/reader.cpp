// Reading: torch7's File:readObject over DiskFile's binary and ascii encodings. Every length
// read from the file is checked against the bytes that remain before anything is allocated,
// and every failure names the byte offset where the item it could not read begins.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <unordered_map>

#include "t7/format.h"
#include "t7/t7.h"

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "binary .t7 files are little endian; so must the host be");

namespace t7 {

namespace {

[[noreturn]] void fail(size_t at, const std::string &problem, const std::string &detail) {
  throw Error("t7: " + problem + " at byte " + std::to_string(at) + (detail.empty() ? "" : ": " + detail), int64_t(at));
}

std::string str(int64_t x) { return std::to_string(x); }

// "n * each bytes", without overflowing on the absurd counts of a corrupt file.
std::string bytes(int64_t n, size_t each) {
  int64_t total;
  if (__builtin_mul_overflow(n, int64_t(each), &total))
    return "more than " + str(std::numeric_limits<int64_t>::max()) + " bytes";
  return str(total) + " bytes";
}

// How an element type is named in messages.
template <typename T>
const char *elementKind() {
  if constexpr (std::is_same_v<T, uint8_t>) return "a byte";
  if constexpr (std::is_same_v<T, int8_t>) return "a char";
  if constexpr (std::is_same_v<T, int16_t>) return "a short";
  if constexpr (std::is_same_v<T, int32_t>) return "an int";
  if constexpr (std::is_same_v<T, int64_t>) return "a long";
  if constexpr (std::is_same_v<T, float>) return "a float";
  if constexpr (std::is_same_v<T, double>) return "a double";
  if constexpr (std::is_same_v<T, THHalf>) return "a half";
}

bool isSpace(uint8_t c) { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The primitive reads of DiskFile: ints, longs, doubles, raw chars and arrays of elements.
// Binary: little endian, a long is longSize bytes. Ascii (torch7's "auto spacing"): numbers
// separated by white space as printf wrote them, bytes and chars raw, and one newline
// after each group of elements.
class Input {
 public:
  Input(const uint8_t *data, size_t size, Format format, int longSize)
      : data_(data), size_(size), format_(format), longSize_(longSize) {}

  size_t offset() const { return pos_; }
  bool atEnd() const { return pos_ == size_; }
  int longSize() const { return longSize_; }
  Format format() const { return format_; }

  int32_t readInt(const std::string &what) { return read<int32_t>(what); }
  int64_t readLong(const std::string &what) { return read<int64_t>(what); }
  double readDouble(const std::string &what) { return read<double>(what); }

  std::string readChars(int64_t n, const std::string &what) {
    std::string s(reinterpret_cast<const char *>(take(n, 1, "chars", what)), size_t(n));
    if (format_ == Format::Ascii && n > 0) skipNewline();
    return s;
  }

  // n elements; n was checked with expectAtLeast.
  template <typename T>
  void readArray(T *out, int64_t n, const std::string &what) {
    if (format_ == Format::Binary) {
      if constexpr (std::is_same_v<T, int64_t>) {
        if (longSize_ == 4) {
          const uint8_t *p = take(n, 4, "longs", what);
          for (int64_t i = 0; i < n; i++) {
            int32_t x;
            std::memcpy(&x, p + 4 * i, 4);
            out[i] = x;
          }
          return;
        }
      }
      if (n > 0) std::memcpy(out, take(n, sizeof(T), "elements", what), size_t(n) * sizeof(T));
    } else if constexpr (sizeof(T) == 1) {
      // DiskFile writes bytes and chars raw in ascii files too.
      if (n > 0) std::memcpy(out, take(n, 1, "bytes", what), size_t(n));
      if (n > 0) skipNewline();
    } else {
      for (int64_t i = 0; i < n; i++) out[i] = parse<T>(what);
    }
  }

  // Raises before allocating when count elements cannot fit in what remains: each takes
  // binaryBytes in a binary file and at least one byte in an ascii one.
  void expectAtLeast(int64_t count, size_t binaryBytes, const std::string &what, size_t at) const {
    const size_t each = format_ == Format::Binary ? binaryBytes : 1;
    if (count > 0 && uint64_t(count) > (size_ - pos_) / each)
      fail(at, "truncated file",
           what + " needs at least " + bytes(count, each) + ", " + str(int64_t(size_ - pos_)) + " remain");
  }

  // Bytes one element of T takes in a binary file.
  template <typename T>
  size_t binaryBytes() const {
    return std::is_same_v<T, int64_t> ? size_t(longSize_) : sizeof(T);
  }

 private:
  template <typename T>
  T read(const std::string &what) {
    if (format_ == Format::Ascii) return parse<T>(what);
    if constexpr (std::is_same_v<T, int64_t>) {
      if (longSize_ == 4) {
        int32_t x;
        std::memcpy(&x, take(1, 4, "a long", what), 4);
        return x;
      }
    }
    T x;
    std::memcpy(&x, take(1, sizeof(T), elementKind<T>(), what), sizeof(T));
    return x;
  }

  const uint8_t *take(int64_t n, size_t each, const char *kind, const std::string &what) {
    if (n < 0 || uint64_t(n) > (size_ - pos_) / each)
      fail(pos_, "truncated file",
           "expected " + bytes(n, each) + " of " + kind + " (" + what + "), " + str(int64_t(size_ - pos_)) + " remain");
    const uint8_t *p = data_ + pos_;
    pos_ += size_t(n) * each;
    return p;
  }

  void skipNewline() {
    if (pos_ < size_ && data_[pos_] == '\n') pos_++;
  }

  // One number as fscanf reads it: white space, then the token up to the next white space.
  template <typename T>
  T parse(const std::string &what) {
    while (pos_ < size_ && isSpace(data_[pos_])) pos_++;
    const size_t at = pos_;
    while (pos_ < size_ && !isSpace(data_[pos_]) && pos_ - at <= 64) pos_++;
    const char *first = reinterpret_cast<const char *>(data_ + at),
               *last = reinterpret_cast<const char *>(data_ + pos_);
    if (first == last) fail(at, "truncated file", std::string("expected ") + elementKind<T>() + " (" + what + ")");
    T value{};
    bool ok;
    if constexpr (std::is_same_v<T, THHalf>) {
      float f = 0;
      auto [ptr, ec] = std::from_chars(first, last, f);
      ok = ec == std::errc() && ptr == last;
      value = TH_float2half(f);
    } else if constexpr (std::is_integral_v<T>) {
      int64_t x;
      auto [ptr, ec] = std::from_chars(first, last, x);
      ok = ec == std::errc() && ptr == last && x >= std::numeric_limits<T>::min() && x <= std::numeric_limits<T>::max();
      value = T(x);
    } else {
      auto [ptr, ec] = std::from_chars(first, last, value);
      ok = ec == std::errc() && ptr == last;
    }
    if (!ok)
      fail(at, "bad number",
           "'" + std::string(first, std::min<size_t>(last - first, 64)) + "' is not " + elementKind<T>() + " (" + what +
               ")");
    skipNewline();
    return value;
  }

  const uint8_t *data_;
  size_t size_;
  size_t pos_ = 0;
  Format format_;
  int longSize_;
};

// File:readObject. Objects are registered under their index before their parts are read,
// as torch7 does, so that a part may refer back to them (Note [Cycles]).
class Parser {
 public:
  Parser(Input in, const Reader::PayloadReader *payloadReader, bool allowFunctions)
      : in_(in), payloadReader_(payloadReader), allowFunctions_(allowFunctions) {}
  const Input &input() const { return in_; }
  // Continues on other bytes with the objects read so far.
  void rebase(Input in) { in_ = in; }
  // Payloads read by the payload reader (Note [Own payloads]): from then on the bytes of
  // the input are not all the parser's.
  int payloads() const { return payloads_; }

  Value readValue(int depth) {
    const size_t at = in_.offset();
    if (depth > kMaxDepth) fail(at, "values nested too deeply", "more than " + str(kMaxDepth) + " levels");
    const int32_t tag = in_.readInt("a type tag");
    switch (tag) {
      case format::kNil: return Value();
      case format::kNumber: return Value(in_.readDouble("a number"));
      case format::kBoolean: return Value(in_.readInt("a boolean") == 1);  // File:readBool
      case format::kString: return Value(readString("a string"));
      case format::kFunction: {
        refuseFunction(at);
        auto f = std::make_shared<Function>();
        f->tag = Function::Tag::Plain;
        f->bytecode = readString("the bytecode of a function");
        f->upvalues = readValue(depth + 1);
        return Value(f);
      }
      case format::kLegacyRecurFunction:
      case format::kRecurFunction: refuseFunction(at); return readReferenced(tag, depth);
      case format::kTable:
      case format::kTorch: return readReferenced(tag, depth);
      default: fail(at, "unknown type tag " + str(tag), "expected 0 to 8");
    }
  }

 private:
  struct Slot {
    Value value;
    bool open;  // still being read: a reference to it is a back reference
  };

  Value readReferenced(int32_t tag, int depth) {
    const int32_t index = in_.readInt("an object index");
    if (auto it = slots_.find(index); it != slots_.end())
      return it->second.open ? Value::recursive(it->second.value) : it->second.value;
    Slot &slot = slots_[index];  // nodes of an unordered_map stay put as it grows
    slot.open = true;
    if (tag == format::kTable) {
      auto t = std::make_shared<Table>();
      slot.value = t;
      const size_t at = in_.offset();
      const int32_t n = in_.readInt("the entry count of a table");
      if (n < 0) fail(at, "bad table size " + str(n), "");
      in_.expectAtLeast(n, 8, "a table of " + str(n) + " entries", at);
      for (int32_t i = 0; i < n; i++) {
        Value key = readValue(depth + 1);
        Value value = readValue(depth + 1);
        t->entries.emplace_back(std::move(key), std::move(value));
      }
    } else if (tag == format::kTorch) {
      auto o = std::make_shared<Object>();
      slot.value = o;
      readObject(*o, depth);
    } else {
      auto f = std::make_shared<Function>();
      slot.value = f;
      f->tag = tag == format::kRecurFunction ? Function::Tag::Recur : Function::Tag::LegacyRecur;
      f->bytecode = readString("the bytecode of a function");
      f->upvalues = readValue(depth + 1);
    }
    slot.open = false;
    return slot.value;
  }

  void readObject(Object &o, int depth) {
    std::string version = readString("the version of a torch object");
    // Files from before torch7 had versions start with the class name ("V <n>" since).
    double number;
    const char *rest = version.data() + 2, *end = version.data() + version.size();
    if (version.size() > 2 && version.compare(0, 2, "V ") == 0 && std::from_chars(rest, end, number).ptr == end) {
      o.version = std::move(version);
      o.className = readString("a class name");
    } else {
      o.version.clear();
      o.className = std::move(version);
    }
    if (auto array = format::arrayClass(o.className)) {
      if (array->isStorage)
        o.storage = readStorage(array->type, o.className);
      else
        o.tensor = readTensor(array->type, o.className, depth);
    } else if (*payloadReader_ && (*payloadReader_)(o)) {
      payloads_++;
    } else {
      o.content = readValue(depth + 1);
    }
  }

  std::string readString(const std::string &what) {
    const size_t at = in_.offset();
    const int32_t n = in_.readInt("the length of " + what);
    if (n < 0) fail(at, "bad length " + str(n), "of " + what);
    return in_.readChars(n, what);
  }

  // Storage.c's read: the size (a long), then the elements.
  Storage readStorage(ScalarType type, const std::string &className) {
    const size_t at = in_.offset();
    const int64_t n = in_.readLong("the size of a " + className);
    if (n < 0) fail(at, "bad storage size " + str(n), className);
    return format::dispatch(type, [&](auto zero) {
      using T = decltype(zero);
      in_.expectAtLeast(n, in_.binaryBytes<T>(), "a " + className + " of " + str(n) + " elements", at);
      auto *s = TH<T>::S::newWithSize(ptrdiff_t(n));
      Storage handle(s);
      detail::release<T>(s);
      in_.readArray(s->data, n, "the elements of a " + className);
      return handle;
    });
  }

  // Tensor.c's read: nDimension (an int), sizes and strides (longs), the 1-based storage
  // offset (a long), then the storage object or nil.
  Tensor readTensor(ScalarType type, const std::string &className, int depth) {
    const size_t at = in_.offset();
    const int32_t nDim = in_.readInt("the dimension count of a " + className);
    if (nDim < 0) fail(at, "bad dimension count " + str(nDim), className);
    in_.expectAtLeast(2 * int64_t(nDim) + 1, size_t(in_.longSize()),
                      "the sizes, strides and offset of a " + className + " of " + str(nDim) + " dimensions", at);
    std::vector<int64_t> size(nDim), stride(nDim);
    in_.readArray(size.data(), nDim, "the sizes of a " + className);
    in_.readArray(stride.data(), nDim, "the strides of a " + className);
    const int64_t offset = in_.readLong("the storage offset of a " + className);
    const size_t storageAt = in_.offset();
    const Value storageValue = readValue(depth + 1);
    Storage storage;
    if (!storageValue.isNil()) {
      if (!storageValue.isStorage() || storageValue.storage().type() != type)
        fail(storageAt, "bad storage",
             "expected a " + format::storageClassOf(className) + " or nil for a " + className + ", got " +
                 (storageValue.isStorage() ? "a " + storageValue.object()->className
                                           : std::string("a ") + storageValue.kindName()));
      storage = storageValue.storage();
    }
    const std::string shape = className + " of " + str(nDim) + " dimensions";
    int64_t numel = nDim == 0 ? 0 : 1;  // torch7's tensors without dimensions are empty
    for (int d = 0; d < nDim; d++) {
      if (size[d] < 0 || stride[d] < 0)
        fail(at, "bad tensor",
             shape + ": size " + str(size[d]) + " and stride " + str(stride[d]) + " in dimension " + str(d));
      if (__builtin_mul_overflow(numel, size[d], &numel)) fail(at, "bad tensor", shape + ": too many elements");
    }
    // A tensor without a storage (torch7's empty tensor) gets a fresh empty one in TH.
    int64_t available = 0, thOffset = 0;
    if (storage) {
      available = storage.visit([](auto *s) { return int64_t(s->size); });
      if (offset < 1 || offset - 1 > available)
        fail(at, "bad storage offset " + str(offset), shape + " on a storage of " + str(available) + " elements");
      thOffset = offset - 1;
    } else if (numel > 0) {
      fail(storageAt, "bad tensor", shape + " and " + str(numel) + " elements has no storage");
    }
    // The last element the view reaches. TH computes it for views without elements too,
    // so it must not overflow even then.
    int64_t last = thOffset;
    for (int d = 0; d < nDim; d++) {
      int64_t span;
      if (size[d] > 0 &&
          (__builtin_mul_overflow(size[d] - 1, stride[d], &span) || __builtin_add_overflow(last, span, &last)))
        fail(at, "bad tensor", shape + ": its view overflows");
    }
    if (last == std::numeric_limits<int64_t>::max()) fail(at, "bad tensor", shape + ": its view overflows");
    if (numel > 0 && last >= available)
      fail(at, "bad tensor",
           shape + " reaches element " + str(last + 1) + " of a storage of " + str(available) + " elements");
    // torch7's nDimension == 0 is an empty tensor; in TH that is size {0} (Note [Empty
    // versus 0-dim] in TH/THTensor.h).
    if (nDim == 0) {
      size = {0};
      stride = {1};
    }
    return format::dispatch(type, [&](auto zero) {
      using T = decltype(zero);
      auto *t = TH<T>::newWithStorage(storage ? storage.get<T>() : nullptr, thOffset, int(size.size()), size.data(),
                                      stride.data());
      Tensor handle(t);
      detail::release<T>(t);
      return handle;
    });
  }

  Input in_;
  const Reader::PayloadReader *payloadReader_;
  bool allowFunctions_;

  // Note [Refusing functions] in t7.h.
  void refuseFunction(size_t at) const {
    if (!allowFunctions_)
      fail(at, "a Lua function",
           "functions are refused (allowFunctions = false); load this file with functions allowed only if it comes "
           "from a trusted source");
  }
  int payloads_ = 0;
  std::unordered_map<int32_t, Slot> slots_;
};

}  // namespace

Format detectFormat(const void *data, size_t size) {
  const auto *bytes = static_cast<const uint8_t *>(data);
  return size > 0 && bytes[0] >= '0' && bytes[0] <= '9' ? Format::Ascii : Format::Binary;
}

int detectLongSize(const std::function<LongSizeAttempt(int longSize)> &attempt) {
  for (const int longSize : {8, 4}) {
    const LongSizeAttempt tried = attempt(longSize);
    if (tried.readToEnd || tried.unrepeatable) return longSize;
  }
  return 8;
}

struct Reader::State {
  const uint8_t *data;
  size_t size;
  ReadOptions options;
  std::optional<Parser> parser;  // the one reading (a payload reader may read through it again)
  PayloadReader payloadReader;

  Parser make(int longSize, Format format) const {
    return Parser(Input(data, size, format, longSize), &payloadReader, options.allowFunctions);
  }

  // The first object, with the long size of Note [Long size] when it is not given. Each
  // attempt keeps its parser and its object or error, and the one that stands becomes the
  // reader's. An attempt that reads a payload (Note [Own payloads]) is unrepeatable: the
  // payload reader took the bytes after it and resumed the reader on the rest.
  Value first() {
    if (options.longSize != 0 && options.longSize != 4 && options.longSize != 8)
      throw Error("t7: the long size must be 4, 8 or 0 (detect), got " + str(options.longSize));
    const Format format = options.format ? *options.format : detectFormat(data, size);
    if (format == Format::Ascii || options.longSize != 0) {
      parser = make(options.longSize == 0 ? 8 : options.longSize, format);
      return parser->readValue(0);
    }
    struct Attempt {
      std::optional<Parser> parser;
      Value value;
      std::exception_ptr error;
    };
    Attempt attempts[2];  // with 8-byte longs, with 4-byte longs
    const int longSize = detectLongSize([&](int n) {
      Attempt &attempt = attempts[n == 8 ? 0 : 1];
      parser = make(n, format);  // the parser a payload reader's nested reads go through
      try {
        attempt.value = parser->readValue(0);
      } catch (const Error &) {
        attempt.error = std::current_exception();
      }
      const LongSizeAttempt tried{!attempt.error && parser->input().atEnd(), parser->payloads() > 0};
      attempt.parser = std::move(parser);
      return tried;
    });
    Attempt &standing = attempts[longSize == 8 ? 0 : 1];
    parser = std::move(standing.parser);
    if (standing.error) std::rethrow_exception(standing.error);
    return standing.value;
  }
};

Reader::Reader(const void *data, size_t size, const ReadOptions &options)
    : state_(new State{static_cast<const uint8_t *>(data), size, options, std::nullopt, nullptr}) {}

Reader::~Reader() = default;

Value Reader::read() { return state_->parser ? state_->parser->readValue(0) : state_->first(); }

size_t Reader::offset() const { return state_->parser ? state_->parser->input().offset() : 0; }

bool Reader::atEnd() const { return offset() == state_->size; }

void Reader::resume(const void *data, size_t size) {
  state_->data = static_cast<const uint8_t *>(data);
  state_->size = size;
  if (state_->parser) {
    const Input &in = state_->parser->input();
    state_->parser->rebase(Input(state_->data, size, in.format(), in.longSize()));
  }
}

void Reader::setPayloadReader(PayloadReader reader) { state_->payloadReader = std::move(reader); }

Format Reader::format() const {
  if (state_->parser) return state_->parser->input().format();
  return state_->options.format.value_or(Format::Binary);
}

int Reader::longSize() const { return state_->parser ? state_->parser->input().longSize() : 0; }

Value load(const void *data, size_t size, const ReadOptions &options) { return Reader(data, size, options).read(); }

Value load(const std::string &bytes, const ReadOptions &options) { return load(bytes.data(), bytes.size(), options); }

Value loadFile(const std::string &path, const ReadOptions &options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error("t7: cannot open " + path + ": " + std::strerror(errno));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw Error("t7: cannot read " + path + ": " + std::strerror(errno));
  return load(bytes, options);
}

}  // namespace t7
