// torch7's serialization format (`torch.save` / `torch.load`, `.t7` files) over TH, with no
// Lua and no Python: the Lua and Python bindings both read and write .t7 files through it.
//
//   t7::Value model = t7::loadFile("mlp.t7");           // binary or ascii, 8- or 4-byte longs
//   t7::Value linear = model["modules"][1];             // nn.Sequential's first module
//   THDoubleTensor *w = linear["weight"].tensor().get<double>();
//
//   auto state = t7::makeTable({{"weight", w}, {"lr", 0.1}, {"name", "linear"}});
//   std::string bytes = t7::save(state, {t7::Format::Ascii});  // w is written, not copied
//
// A value is what a Lua value is in a .t7 file: nil, number, boolean, string, table, torch
// object (nn.Linear, torch.FloatTensor, ...), function, or a recursive reference (see Note
// [Cycles]). Objects that the file writes once and refers to again are one C++ object
// after loading (one shared_ptr, one THStorage), and saving writes them once again.
//
// Note [Index base]: storage offsets are 1-based in the file and 0-based in TH; the reader
// and writer convert. Tensor *contents* are kept as written: a LongTensor of indices saved
// by torch7 (max-pooling `indices`, a LookupTable's inputs) holds 1-based values, and it is
// the Python binding's job to shift them where it exposes them as 0-based.
#ifndef T7_T7_H
#define T7_T7_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "TH/THError.hpp"
#include "TH/THTypes.hpp"

namespace t7 {

// Every failure of this library: a corrupt or truncated file (offset() says where), a value
// that cannot be saved, or a value used as the wrong kind. A th::Error, so that a binding
// that maps TH's errors maps these too.
class __attribute__((visibility("default"))) Error : public th::Error {
 public:
  explicit Error(const std::string &msg, int64_t offset = -1)
      : th::Error(msg, th::ErrorKind::Runtime, 0), offset_(offset) {}
  int64_t offset() const { return offset_; }  // byte offset in the file, -1 when not reading

 private:
  int64_t offset_;
};

// Note [Element types]: the element types a .t7 file holds are TH's, from its one type table
// (Note [The type table] in TH/THGeneral.h); the names and the dispatch below are generated
// from it.
using ScalarType = th::Type;
using th::TH;

const char *scalarTypeName(ScalarType type);  // "Double"

namespace detail {

template <typename T>
using StorageOf = typename TH<T>::Storage;
template <typename T>
using TensorOf = typename TH<T>::Tensor;
template <typename T>
void retain(StorageOf<T> *s) {
  TH<T>::S::retain(s);
}
template <typename T>
void retain(TensorOf<T> *t) {
  TH<T>::retain(t);
}
template <typename T>
void release(StorageOf<T> *s) {
  TH<T>::S::free(s);
}
template <typename T>
void release(TensorOf<T> *t) {
  TH<T>::free(t);
}

// A reference on a TH storage or tensor of any element type (Of is StorageOf or TensorOf).
// Making one from a TH pointer takes a new reference (retain); the last copy frees it.
template <template <typename> class Of>
class Typed {
 public:
  Typed() = default;
#define T7_TYPED_FROM(Name, T, ...) \
  Typed(Of<T> *p) : type_(ScalarType::Name), ref_(hold<T>(p)) {}
  TH_FORALL_TYPES(T7_TYPED_FROM)
#undef T7_TYPED_FROM

  explicit operator bool() const { return ref_ != nullptr; }
  ScalarType type() const { return type_; }
  // The TH pointer as an identity (storage sharing, object references).
  const void *raw() const { return ref_.get(); }

  // The TH struct when the element type is T; a t7::Error otherwise.
  template <typename T>
  Of<T> *get() const {
    if (!ref_ || type_ != TH<T>::type)
      throw Error(std::string("t7: expected a ") + scalarTypeName(TH<T>::type) + " element type, got " +
                  (ref_ ? scalarTypeName(type_) : "nothing"));
    return static_cast<Of<T> *>(ref_.get());
  }

  // Calls f with the typed TH pointer (THFloatTensor *, ...).
  template <typename F>
  decltype(auto) visit(F &&f) const {
    if (!ref_) throw Error("t7: empty storage or tensor handle");
    switch (type_) {
#define T7_TYPED_VISIT(Name, T, ...) \
  case ScalarType::Name: return f(static_cast<Of<T> *>(ref_.get()));
      TH_FORALL_TYPES(T7_TYPED_VISIT)
#undef T7_TYPED_VISIT
    }
    throw Error("t7: bad element type");
  }

 private:
  template <typename T>
  static std::shared_ptr<void> hold(Of<T> *p) {
    if (!p) return nullptr;
    retain<T>(p);
    return std::shared_ptr<void>(p, [](void *q) { release<T>(static_cast<Of<T> *>(q)); });
  }

  ScalarType type_ = ScalarType::Double;
  std::shared_ptr<void> ref_;
};

}  // namespace detail

using Storage = detail::Typed<detail::StorageOf>;
using Tensor = detail::Typed<detail::TensorOf>;

struct Table;
struct Object;
struct Function;

// Note [Cycles]: a value refers to its parts through shared_ptr. A file may refer back to
// an object that encloses the reference (a module that points at its parent): the reader
// makes such a back reference a Recursive value, which holds its target weakly, so that
// loaded cycles do not leak. Recursive values read like their target (table(), object(),
// operator[]) while the enclosing object is alive; they save as a reference to it.
class Value {
 public:
  enum class Kind { Nil, Number, Boolean, String, Table, Object, Function, Recursive };

  Value() = default;
  template <typename T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Value(T number) : v_(static_cast<double>(number)) {}
  Value(bool b) : v_(b) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(const char *s) : v_(std::string(s)) {}
  Value(std::shared_ptr<Table> t);
  Value(std::shared_ptr<Object> o);
  Value(std::shared_ptr<Function> f);
  // A new torch.<Type>Tensor / torch.<Type>Storage object holding a reference on it.
  Value(Tensor t);
  Value(Storage s);
#define T7_VALUE_FROM_TH(Name, T, ...)             \
  Value(TH##Name##Tensor *t) : Value(Tensor(t)) {} \
  Value(TH##Name##Storage *s) : Value(Storage(s)) {}
  TH_FORALL_TYPES(T7_VALUE_FROM_TH)
#undef T7_VALUE_FROM_TH
  // Any other pointer would silently become a boolean.
  template <typename T>
  Value(T *) = delete;

  // A weak reference to target (a table, object or function): see Note [Cycles].
  static Value recursive(const Value &target);

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  const char *kindName() const;
  bool isNil() const { return kind() == Kind::Nil; }
  bool isTensor() const;
  bool isStorage() const;

  // Each accessor raises a t7::Error naming both kinds when the value is another kind.
  double number() const;
  bool boolean() const;
  const std::string &string() const;
  std::shared_ptr<Table> table() const;
  std::shared_ptr<Object> object() const;
  std::shared_ptr<Function> function() const;
  Tensor tensor() const;    // of a torch.*Tensor object
  Storage storage() const;  // of a torch.*Storage object

  // Looks key up in a table, or in the content table of a torch object (an nn module's
  // fields); nil when absent.
  Value operator[](const Value &key) const;

  // A recursive value's target (nil once the target is gone); any other value itself.
  Value target() const;
  // The address of a table, object or function (through a recursive reference), else null.
  const void *identity() const;

  // Lua's raw equality: numbers and strings by value, tables, objects and functions by identity.
  friend bool operator==(const Value &a, const Value &b);
  friend bool operator!=(const Value &a, const Value &b) { return !(a == b); }

 private:
  struct Weak {
    Kind kind;
    std::weak_ptr<void> ptr;
  };
  std::variant<std::monostate, double, bool, std::string, std::shared_ptr<Table>, std::shared_ptr<Object>,
               std::shared_ptr<Function>, Weak>
      v_;
};

// A Lua table. Entries keep the order of the file (the writer's pairs() order), so that a
// loaded table saves back to the same bytes; keys are unique in files torch7 wrote.
struct Table {
  std::vector<std::pair<Value, Value>> entries;

  // The value of key, nil when absent (the last entry wins, as later assignments do in Lua).
  Value get(const Value &key) const;
  // Replaces the value of an existing key, else appends the entry.
  void set(const Value &key, Value value);
  size_t size() const { return entries.size(); }
};

// An instance of a torch class. Storages and tensors hold a TH object of the class's
// element type; any other class (nn modules, ...) holds the value its fields were written
// as, usually a table, unless it writes its data itself (Note [Own payloads]).
struct Object {
  std::string className;        // "nn.Linear", "torch.FloatTensor", "torch.CudaStorage"
  std::string version = "V 1";  // written before the class name; empty in files from before versions
  Value content;                // classes other than storages and tensors
  Storage storage;              // torch.<Type>Storage (and torch.Cuda<Type>Storage)
  Tensor tensor;                // torch.<Type>Tensor (and torch.Cuda<Type>Tensor)
  bool ownPayload = false;      // written by the writer's payload writer; content is the binding's handle
};

// Note [Own payloads]: a torch7 class may serialize itself: writeObject writes the object's
// tag, index, version and class name, then calls object:write(file), whose typed writes
// and nested writeObject calls go straight to the file; readObject makes the object, then
// calls object:read(file, versionNumber). Nothing in the file says where such a payload
// ends, so only the binding that knows the class can write or read it. The writer hands an
// Object with ownPayload set to its payload writer after the class name; the reader asks
// its payload reader about every object that is no storage or tensor once it has read the
// class name, and reads the content itself only when the payload reader declines. Both
// are called in the middle of write()/read() and may call write()/read() of the same writer
// or reader again for the nested objects, which then share its indices: the binding takes
// the bytes written so far before a payload (takeBytes) and resumes the reader on the
// bytes that follow one (resume).

// A Lua function as string.dump wrote it: bytecode and upvalues, kept opaque so that it saves
// back byte for byte; running it is a Lua binding's business.
struct Function {
  // The type tag it was written with: 8 (torch7 since 2016, upvalues are {name=, value=}
  // tables, the function can be referred to again), 7 (older, upvalues are plain values),
  // 6 (unreferenced, written in full at each occurrence).
  enum class Tag : int32_t { Plain = 6, LegacyRecur = 7, Recur = 8 };
  Tag tag = Tag::Recur;
  std::string bytecode;
  Value upvalues;  // a table
};

std::shared_ptr<Table> makeTable(std::initializer_list<std::pair<Value, Value>> entries = {});
// A Lua array: keys 1..n.
std::shared_ptr<Table> makeList(std::initializer_list<Value> items);
// An object of a class without custom serialization (nn.Linear, ...) with these fields.
std::shared_ptr<Object> makeObject(std::string className, Value content);

// Reading and writing.

enum class Format { Binary, Ascii };

// The deepest nesting of values the reader accepts and the writer writes (tables in tables).
constexpr int kMaxDepth = 1000;

// Note [Long size]: torch7 writes C `long`s (tensor sizes, strides and offsets, storage
// sizes, LongStorage elements) with the writer's sizeof(long): 8 bytes on Linux and macOS,
// 4 on Windows or after DiskFile:longSize(4). Nothing in the file says which. With
// longSize 0 a binary file is read with 8-byte longs first; when that fails or stops
// before the end of the input, 4-byte longs are tried and kept only when they read the
// first object to the very end of the input; otherwise the 8-byte reading stands (its
// object, or its error). A misread length almost always overruns the file or ends the
// object elsewhere, so the wrong size does not pass. Give longSize 4 to read several
// objects from a stream written with 4-byte longs. detectLongSize below is this policy,
// for the reader and for a binding that makes the attempts itself (torch.File's
// readObject, whose payload readers read from the file: Note [Own payloads]).
struct ReadOptions {
  std::optional<Format> format;  // unset: detectFormat
  int longSize = 0;              // 8, 4, or 0 to detect
  // Note [Refusing functions]: false makes a Lua function in the input an error, before
  // its bytecode is even read. A function from a file runs with the reader's globals when
  // it is called: the bytecode check (lua/csrc/Bytecode.h) keeps it from crashing the
  // process, not from doing what any Lua code may do. Files from untrusted sources that
  // should hold data only are read with functions refused (torch.load's allowFunctions,
  // load_lua's allow_functions).
  bool allowFunctions = true;
};

// The format of a file that starts with these bytes, when none is given: ascii when the
// first byte is a digit, else binary (whose first item, a type tag, is an int32 from 0 to 8).
Format detectFormat(const void *data, size_t size);

// What one attempt of detectLongSize came to.
struct LongSizeAttempt {
  bool readToEnd;     // it read the first object, to the very end of the input
  bool unrepeatable;  // it cannot be made again (a payload reader took its bytes): it stands
};

// Note [Long size]: calls attempt(8) and, when needed, attempt(4), each reading the first
// object of a binary input from its start with that long size and keeping its object or
// error; returns the long size whose reading stands.
int detectLongSize(const std::function<LongSizeAttempt(int longSize)> &attempt);

struct WriteOptions {
  Format format = Format::Binary;
  int longSize = 8;  // 4 writes what torch7 on Windows wrote (every long must fit in 32 bits)
  // false: torch7's File:referenced(false): every occurrence of an object is written in
  // full under a fresh index (a cycle then fails at the depth limit).
  bool referenced = true;
};

// One object, as torch.load reads it; bytes after it are ignored.
Value load(const void *data, size_t size, const ReadOptions &options = {});
Value load(const std::string &bytes, const ReadOptions &options = {});
Value loadFile(const std::string &path, const ReadOptions &options = {});

// One object, as torch.save writes it, in referenced mode: an object met again is written
// as its index. Tables, objects and functions are the same object when they are the same
// C++ object; storages and tensors when they are the same TH struct (as torch.pointer
// decides in torch7), so two values wrapping one THTensor load back as one object.
// TH shapes torch7 lacks: a tensor without elements is written as torch7's empty tensor
// (no dimensions; a nil storage when its storage is empty too), a 0-dim scalar as a
// 1-element vector. Storages are written with version "V 1".
std::string save(const Value &value, const WriteOptions &options = {});
void saveFile(const std::string &path, const Value &value, const WriteOptions &options = {});

// Successive objects of one file, as torch.File:readObject reads them: later objects may
// refer to earlier ones. The bytes must outlive the reader.
class Reader {
 public:
  Reader(const void *data, size_t size, const ReadOptions &options = {});
  ~Reader();
  Value read();
  size_t offset() const;  // bytes consumed so far
  bool atEnd() const;
  int longSize() const;  // of a binary file, as given or detected by the first read (0 before it)

  // Goes on reading from other bytes (the rest of a stream that is read piecewise, as a
  // torch.File reads objects between its other reads), keeping the objects read so far so
  // that later objects may refer to them. The new bytes must outlive the reader too.
  void resume(const void *data, size_t size);

  // Note [Own payloads]: called with an object whose version and class name are read;
  // true when it read the object's payload. The reader cannot go back over bytes that a
  // payload reader read, so its long size detection stops at the first payload: the object
  // is read with the long size of the attempt that met it. A binding that can go back runs
  // detectLongSize itself, each attempt a reader with a given long size.
  using PayloadReader = std::function<bool(Object &)>;
  void setPayloadReader(PayloadReader reader);
  Format format() const;  // as given or detected by the first read (the given one, or binary, before it)

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Successive objects into one buffer, as torch.File:writeObject writes them.
class Writer {
 public:
  explicit Writer(const WriteOptions &options = {});
  ~Writer();
  void write(const Value &value);
  const std::string &bytes() const;
  // The bytes written since the last call, leaving the buffer empty; the objects written
  // so far stay known, so later ones still refer to them.
  std::string takeBytes();

  // Note [Own payloads]: writes the payload of an Object with ownPayload set, after its
  // class name; saving such an Object without one is an error.
  using PayloadWriter = std::function<void(const Object &)>;
  void setPayloadWriter(PayloadWriter writer);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace t7

#endif
