// Writing: torch7's File:writeObject in referenced mode over DiskFile's binary and ascii
// encodings. An object written a second time is written as its index only; identity is
// the TH pointer for storages and tensors (as torch.pointer is in torch7) and the C++
// object for everything else. Writing a loaded value back gives the file's bytes again.
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <limits>
#include <unordered_map>
#include <utility>

#include "t7/format.h"
#include "t7/t7.h"

namespace t7 {

namespace {

// The primitive writes of DiskFile, mirroring the reader's Input. Ascii numbers are
// formatted as torch7's printf calls formatted them (%d, %ld, %.9g for floats and halves,
// %.17g for doubles); to_chars does so independently of the C locale.
class Output {
 public:
  Output(Format format, int longSize) : format_(format), longSize_(longSize) {
    if (longSize != 4 && longSize != 8)
      throw Error("t7: the long size must be 4 or 8, got " + std::to_string(longSize));
  }

  std::string bytes;

  void writeInt(int32_t x) { writeArray(&x, 1); }
  void writeLong(int64_t x) { writeArray(&x, 1); }
  void writeDouble(double x) { writeArray(&x, 1); }
  void writeChars(const std::string &s) { writeArray(reinterpret_cast<const uint8_t *>(s.data()), int64_t(s.size())); }

  template <typename T>
  void writeArray(const T *p, int64_t n) {
    if (format_ == Format::Binary) {
      if constexpr (std::is_same_v<T, int64_t>) {
        if (longSize_ == 4) {
          for (int64_t i = 0; i < n; i++) {
            if (p[i] < std::numeric_limits<int32_t>::min() || p[i] > std::numeric_limits<int32_t>::max())
              throw Error("t7: cannot write the long " + std::to_string(p[i]) + " in 4 bytes");
            const int32_t x = int32_t(p[i]);
            bytes.append(reinterpret_cast<const char *>(&x), 4);
          }
          return;
        }
      }
      if (n > 0) bytes.append(reinterpret_cast<const char *>(p), size_t(n) * sizeof(T));
      return;
    }
    if constexpr (sizeof(T) == 1) {
      if (n > 0) bytes.append(reinterpret_cast<const char *>(p), size_t(n));
    } else {
      for (int64_t i = 0; i < n; i++) {
        if (i > 0) bytes += ' ';
        text(p[i]);
      }
    }
    if (n > 0) bytes += '\n';
  }

 private:
  template <typename T>
  void text(T x) {
    char buffer[64];
    std::to_chars_result r;
    if constexpr (std::is_same_v<T, THHalf>)
      r = std::to_chars(buffer, buffer + sizeof(buffer), double(TH_half2float(x)), std::chars_format::general, 9);
    else if constexpr (std::is_same_v<T, float>)
      r = std::to_chars(buffer, buffer + sizeof(buffer), double(x), std::chars_format::general, 9);
    else if constexpr (std::is_same_v<T, double>)
      r = std::to_chars(buffer, buffer + sizeof(buffer), x, std::chars_format::general, 17);
    else
      r = std::to_chars(buffer, buffer + sizeof(buffer), x);
    bytes.append(buffer, r.ptr);
  }

  Format format_;
  int longSize_;
};

class Serializer {
 public:
  explicit Serializer(const WriteOptions &options)
      : out_(options.format, options.longSize), referenced_(options.referenced) {}
  const std::string &bytes() const { return out_.bytes; }
  std::string takeBytes() { return std::exchange(out_.bytes, std::string()); }
  Writer::PayloadWriter payloadWriter;

  void writeValue(const Value &v, int depth) {
    if (depth > kMaxDepth)
      throw Error("t7: cannot save values nested more than " + std::to_string(kMaxDepth) + " levels deep");
    switch (v.kind()) {
      case Value::Kind::Nil: out_.writeInt(format::kNil); return;
      case Value::Kind::Number:
        out_.writeInt(format::kNumber);
        out_.writeDouble(v.number());
        return;
      case Value::Kind::Boolean:
        out_.writeInt(format::kBoolean);
        out_.writeInt(v.boolean() ? 1 : 0);
        return;
      case Value::Kind::String:
        out_.writeInt(format::kString);
        writeString(v.string());
        return;
      case Value::Kind::Table: {
        auto t = v.table();
        out_.writeInt(format::kTable);
        if (writeIndex(t.get(), t)) return;
        out_.writeInt(length(t->entries.size(), "table"));
        for (const auto &[key, value] : t->entries) {
          writeValue(key, depth + 1);
          writeValue(value, depth + 1);
        }
        return;
      }
      case Value::Kind::Object: writeObject(v.object(), depth); return;
      case Value::Kind::Function: {
        auto f = v.function();
        out_.writeInt(int32_t(f->tag));
        if (f->tag != Function::Tag::Plain && writeIndex(f.get(), f)) return;
        writeString(f->bytecode);
        writeValue(f->upvalues, depth + 1);
        return;
      }
      case Value::Kind::Recursive: {
        const Value target = v.target();
        if (target.isNil()) throw Error("t7: cannot save a recursive reference to an object that no longer exists");
        writeValue(target, depth);
        return;
      }
    }
  }

 private:
  static int32_t length(size_t n, const char *what) {
    if (n > size_t(std::numeric_limits<int32_t>::max()))
      throw Error(std::string("t7: cannot save a ") + what + " of " + std::to_string(n) +
                  " elements (the limit is 2^31 - 1)");
    return int32_t(n);
  }

  void writeString(const std::string &s) {
    out_.writeInt(length(s.size(), "string"));
    out_.writeChars(s);
  }

  // Writes the object's index. True when it was written before: its index is all there is.
  // Like torch7's writeObjectsRef, the writer keeps what it indexed alive, so that no later
  // object takes an address it has seen.
  bool writeIndex(const void *identity, std::shared_ptr<const void> keep) {
    if (!referenced_) {
      out_.writeInt(++unreferencedCount_);
      return false;
    }
    auto [it, fresh] = indices_.try_emplace(identity, Indexed{int32_t(indices_.size() + 1), std::move(keep)});
    out_.writeInt(it->second.index);
    return !fresh;
  }

  void writeObject(const std::shared_ptr<Object> &object, int depth) {
    const Object &o = *object;
    const auto array = format::arrayClass(o.className);
    const void *identity = &o;
    std::shared_ptr<const void> keep = object;
    if (array) {
      const bool holds =
          array->isStorage ? o.storage && o.storage.type() == array->type : o.tensor && o.tensor.type() == array->type;
      if (!holds)
        throw Error("t7: cannot save a " + o.className + " that holds no " + scalarTypeName(array->type) +
                    (array->isStorage ? " storage" : " tensor"));
      identity = array->isStorage ? o.storage.raw() : o.tensor.raw();
      if (array->isStorage)
        keep = std::make_shared<Storage>(o.storage);
      else
        keep = std::make_shared<Tensor>(o.tensor);
    } else if (o.storage || o.tensor) {
      throw Error("t7: cannot save a " + o.className + " holding a storage or tensor: not a storage or tensor class");
    }
    if (o.ownPayload && (array || !payloadWriter))
      throw Error("t7: cannot save a " + o.className + " that writes its own data" +
                  (array ? ": storages and tensors do not" : " without a payload writer"));
    out_.writeInt(format::kTorch);
    if (writeIndex(identity, std::move(keep))) return;
    if (!o.version.empty()) writeString(o.version);
    writeString(o.className);
    if (o.ownPayload)
      payloadWriter(o);
    else if (!array)
      writeValue(o.content, depth + 1);
    else if (array->isStorage)
      writeStorageData(o.storage);
    else
      writeTensor(o.tensor, o.className);
  }

  void writeStorageData(const Storage &s) {
    s.visit([&](auto *storage) {
      out_.writeLong(storage->size);
      out_.writeArray(storage->data, storage->size);
    });
  }

  // Tensor.c's write. TH has two shapes torch7 lacks: a tensor without elements becomes
  // torch7's empty tensor (no dimensions; nil storage when the storage is empty too), and a
  // 0-dim scalar becomes a 1-element vector.
  void writeTensor(const Tensor &t, const std::string &className) {
    t.visit([&](auto *tensor) {
      int64_t numel = 1;
      for (int d = 0; d < tensor->nDimension; d++) numel *= tensor->size[d];
      const int64_t one = 1;
      if (numel == 0) {
        out_.writeInt(0);
      } else if (tensor->nDimension == 0) {
        out_.writeInt(1);
        out_.writeArray(&one, 1);
        out_.writeArray(&one, 1);
      } else {
        out_.writeInt(tensor->nDimension);
        out_.writeArray(tensor->size, tensor->nDimension);
        out_.writeArray(tensor->stride, tensor->nDimension);
      }
      out_.writeLong(int64_t(tensor->storageOffset) + 1);
      if (numel == 0 && tensor->storage->size == 0) {
        out_.writeInt(format::kNil);
        return;
      }
      const Storage storage(tensor->storage);
      out_.writeInt(format::kTorch);
      if (writeIndex(tensor->storage, std::make_shared<Storage>(storage))) return;
      writeString("V 1");
      writeString(format::storageClassOf(className));
      writeStorageData(storage);
    });
  }

  struct Indexed {
    int32_t index;
    std::shared_ptr<const void> keep;
  };
  Output out_;
  bool referenced_;
  int32_t unreferencedCount_ = 0;
  std::unordered_map<const void *, Indexed> indices_;
};

}  // namespace

struct Writer::State {
  Serializer serializer;
};

Writer::Writer(const WriteOptions &options) : state_(new State{Serializer(options)}) {}

Writer::~Writer() = default;

void Writer::write(const Value &value) { state_->serializer.writeValue(value, 0); }

const std::string &Writer::bytes() const { return state_->serializer.bytes(); }

std::string Writer::takeBytes() { return state_->serializer.takeBytes(); }

void Writer::setPayloadWriter(PayloadWriter writer) { state_->serializer.payloadWriter = std::move(writer); }

std::string save(const Value &value, const WriteOptions &options) {
  Writer writer(options);
  writer.write(value);
  return writer.bytes();
}

void saveFile(const std::string &path, const Value &value, const WriteOptions &options) {
  const std::string bytes = save(value, options);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error("t7: cannot open " + path + " for writing: " + std::strerror(errno));
  out.write(bytes.data(), std::streamsize(bytes.size()));
  out.close();
  if (!out) throw Error("t7: cannot write " + path + ": " + std::strerror(errno));
}

}  // namespace t7
