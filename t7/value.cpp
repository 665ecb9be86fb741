// The object model: values, tables, objects, functions.
#include "t7/format.h"
#include "t7/t7.h"

namespace t7 {

namespace {

const char *kindNames[] = {"nil",   "number",       "boolean",  "string",
                           "table", "torch object", "function", "recursive reference"};

[[noreturn]] void wrongKind(const char *expected, const Value &got) {
  throw Error(std::string("t7: expected ") + expected + ", got " + (got.isNil() ? "" : "a ") + got.kindName());
}

std::shared_ptr<Object> arrayObject(ScalarType type, bool isStorage) {
  auto o = std::make_shared<Object>();
  o->className = format::className(type, isStorage);
  return o;
}

}  // namespace

Value::Value(std::shared_ptr<Table> t) : v_(std::move(t)) {}
Value::Value(std::shared_ptr<Object> o) : v_(std::move(o)) {}
Value::Value(std::shared_ptr<Function> f) : v_(std::move(f)) {}

Value::Value(Tensor t) {
  if (!t) throw Error("t7: cannot make a value of an empty tensor handle");
  auto o = arrayObject(t.type(), false);
  o->tensor = std::move(t);
  v_ = std::move(o);
}

Value::Value(Storage s) {
  if (!s) throw Error("t7: cannot make a value of an empty storage handle");
  auto o = arrayObject(s.type(), true);
  o->storage = std::move(s);
  v_ = std::move(o);
}

Value Value::recursive(const Value &target) {
  const Value strong = target.target();
  Value v;
  switch (strong.kind()) {
    case Kind::Table: v.v_ = Weak{Kind::Table, std::get<std::shared_ptr<Table>>(strong.v_)}; return v;
    case Kind::Object: v.v_ = Weak{Kind::Object, std::get<std::shared_ptr<Object>>(strong.v_)}; return v;
    case Kind::Function: v.v_ = Weak{Kind::Function, std::get<std::shared_ptr<Function>>(strong.v_)}; return v;
    default: wrongKind("a table, torch object or function to refer to", strong);
  }
}

const char *Value::kindName() const { return kindNames[v_.index()]; }

bool Value::isTensor() const {
  const Value t = target();
  auto o = std::get_if<std::shared_ptr<Object>>(&t.v_);
  return o && (*o)->tensor;
}

bool Value::isStorage() const {
  const Value t = target();
  auto o = std::get_if<std::shared_ptr<Object>>(&t.v_);
  return o && (*o)->storage;
}

double Value::number() const {
  if (auto x = std::get_if<double>(&v_)) return *x;
  wrongKind("a number", *this);
}

bool Value::boolean() const {
  if (auto x = std::get_if<bool>(&v_)) return *x;
  wrongKind("a boolean", *this);
}

const std::string &Value::string() const {
  if (auto x = std::get_if<std::string>(&v_)) return *x;
  wrongKind("a string", *this);
}

std::shared_ptr<Table> Value::table() const {
  const Value t = target();
  if (auto x = std::get_if<std::shared_ptr<Table>>(&t.v_)) return *x;
  wrongKind("a table", *this);
}

std::shared_ptr<Object> Value::object() const {
  const Value t = target();
  if (auto x = std::get_if<std::shared_ptr<Object>>(&t.v_)) return *x;
  wrongKind("a torch object", *this);
}

std::shared_ptr<Function> Value::function() const {
  const Value t = target();
  if (auto x = std::get_if<std::shared_ptr<Function>>(&t.v_)) return *x;
  wrongKind("a function", *this);
}

Tensor Value::tensor() const {
  auto o = object();
  if (!o->tensor) throw Error("t7: expected a tensor, got a " + o->className);
  return o->tensor;
}

Storage Value::storage() const {
  auto o = object();
  if (!o->storage) throw Error("t7: expected a storage, got a " + o->className);
  return o->storage;
}

Value Value::operator[](const Value &key) const {
  const Value t = target();
  if (auto table = std::get_if<std::shared_ptr<Table>>(&t.v_)) return (*table)->get(key);
  if (auto object = std::get_if<std::shared_ptr<Object>>(&t.v_)) {
    if ((*object)->content.kind() == Kind::Table) return (*object)->content.table()->get(key);
    throw Error("t7: cannot index a " + (*object)->className + ": it has no table of fields");
  }
  wrongKind("a table or torch object to index", *this);
}

Value Value::target() const {
  auto weak = std::get_if<Weak>(&v_);
  if (!weak) return *this;
  std::shared_ptr<void> p = weak->ptr.lock();
  if (!p) return Value();
  switch (weak->kind) {
    case Kind::Table: return Value(std::static_pointer_cast<Table>(p));
    case Kind::Object: return Value(std::static_pointer_cast<Object>(p));
    default: return Value(std::static_pointer_cast<Function>(p));
  }
}

const void *Value::identity() const {
  const Value t = target();
  switch (t.kind()) {
    case Kind::Table: return std::get<std::shared_ptr<Table>>(t.v_).get();
    case Kind::Object: return std::get<std::shared_ptr<Object>>(t.v_).get();
    case Kind::Function: return std::get<std::shared_ptr<Function>>(t.v_).get();
    default: return nullptr;
  }
}

bool operator==(const Value &a, const Value &b) {
  if (const void *ia = a.identity()) return ia == b.identity();
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case Value::Kind::Nil: return true;
    case Value::Kind::Number: return std::get<double>(a.v_) == std::get<double>(b.v_);
    case Value::Kind::Boolean: return std::get<bool>(a.v_) == std::get<bool>(b.v_);
    case Value::Kind::String: return std::get<std::string>(a.v_) == std::get<std::string>(b.v_);
    default:  // a recursive reference whose target is gone
      return false;
  }
}

Value Table::get(const Value &key) const {
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    if (it->first == key) return it->second;
  return Value();
}

void Table::set(const Value &key, Value value) {
  for (auto it = entries.rbegin(); it != entries.rend(); ++it)
    if (it->first == key) {
      it->second = std::move(value);
      return;
    }
  entries.emplace_back(key, std::move(value));
}

std::shared_ptr<Table> makeTable(std::initializer_list<std::pair<Value, Value>> entries) {
  auto t = std::make_shared<Table>();
  for (const auto &[k, v] : entries) t->set(k, v);
  return t;
}

std::shared_ptr<Table> makeList(std::initializer_list<Value> items) {
  auto t = std::make_shared<Table>();
  double key = 1;
  for (const Value &v : items) t->entries.emplace_back(key++, v);
  return t;
}

std::shared_ptr<Object> makeObject(std::string className, Value content) {
  auto o = std::make_shared<Object>();
  o->className = std::move(className);
  o->content = std::move(content);
  return o;
}

}  // namespace t7
