// readObject and writeObject of torch7's files in the Lua binding: the bridge between Lua
// values and the one .t7 reader and writer (t7/). A file hands the bytes of its stream to
// the reader and the writer's bytes to its stream, and turns t7 values into Lua values and
// back: tables keep their key order, Lua functions their upvalues, torch classes that
// read and write their own payloads do so through the file (Note [Own payloads] in
// t7/t7.h), and the objects read or written so far are kept, so that later objects refer
// to earlier ones (torch7's referenced mode).
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lua/csrc/Bytecode.h"
#include "lua/csrc/File.h"
#include "lua/csrc/common.h"

namespace luat {

namespace {

// Note [Lua and t7 identities]: the Lua side of a file's object bookkeeping lives in the
// file's userdata environment: `read` maps the identities of t7 values read (light
// userdata) to the Lua values made from them, `keep` holds the Lua values written (so that
// no later value takes their address), `joins` the upvalues of loaded functions by id.
// File::written maps the Lua values written to their t7 values.

const char *const kKeyOrder = "torch.keyorder";

// The Lua side's functions for torch objects (File.lua), kept in the registry:
//   classOf(table) -> class name or nil, version, whether the class writes its own payload
//   make(className, content, version, file) -> the object read
//   newReading(className) -> a fresh object when its class reads its own payload, else nil
//   writePayload(object, file), readPayload(object, file, versionNumber): the class's methods
//   fromCuda(cpuObject, className, file, memo), toFile(cudaObject, memo): Note [CUDA records in files]
const char *const kObjectFunctions = "torch.objectfunctions";

// file_setObjectFunctions{classOf=, make=, newReading=, writePayload=, readPayload=}
int file_setObjectFunctions(lua_State *L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  for (const char *name : {"classOf", "make", "newReading", "writePayload", "readPayload", "fromCuda", "toFile"}) {
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

// Whether torch7 would write the value at idx: its isWritableObject, which File:writeObject
// asks of the fields of a torch object (the others are skipped with a warning).
// Note [CUDA records in files]: cutorch wrote its tensors and storages as the CPU types of
// the same element type under its own class names (torch.CudaTensor is Float, the others
// torch.Cuda<Type>Tensor), which the t7 reader reads as TH objects that keep the class name.
// The reader hands each such object, as a CPU one, to the Lua side's fromCuda (File.lua),
// which puts it on the GPU through cutorch or, when the file is set to cudaToCpu, keeps it
// on the CPU (CudaHalf as Float, one warning), and raises a clear error otherwise. The
// writer asks toFile for the CPU copy of a userdata of such a class (a cutorch tensor) and
// writes it under the userdata's class name. Both get a table that lives as long as the
// file's reader or writer, so that storages shared in the file stay shared (a tensor
// sharing another's storage is made on the same copy).
bool isCudaArrayClass(const char *name) {
  const std::string_view n(name);
  auto endsWith = [&](std::string_view tail) {
    return n.size() >= tail.size() && n.compare(n.size() - tail.size(), tail.size(), tail) == 0;
  };
  return n.rfind("torch.Cuda", 0) == 0 && (endsWith("Tensor") || endsWith("Storage"));
}

// The class name of the userdata at idx when it is a CUDA storage or tensor, else null.
const char *cudaArrayClassOf(lua_State *L, int idx) {
  if (!lua_isuserdata(L, idx) || !lua_getmetatable(L, idx)) return nullptr;
  lua_getfield(L, -1, "__typename");
  const char *name = lua_tostring(L, -1);
  lua_pop(L, 2);  // the name stays alive in the metatable
  return name && isCudaArrayClass(name) ? name : nullptr;
}

bool isWritable(lua_State *L, int idx) {
  switch (lua_type(L, idx)) {
    case LUA_TNIL:
    case LUA_TNUMBER:
    case LUA_TBOOLEAN:
    case LUA_TSTRING:
    case LUA_TTABLE: return true;
    case LUA_TFUNCTION: return !lua_iscfunction(L, idx);
    case LUA_TUSERDATA:
#define LT_IS_TH(Name, T, ...) \
  if (testObject(L, idx, "torch." #Name "Tensor") || testObject(L, idx, "torch." #Name "Storage")) return true;
      TH_FORALL_TYPES(LT_IS_TH)
#undef LT_IS_TH
      return cudaArrayClassOf(L, idx) != nullptr;
    default: return false;
  }
}

// Lua -> t7. The object function classOf gives the torch class of a table and its version
// (nil for a plain table); memo gives each Lua table or function one t7 value (Note [Lua
// and t7 identities]). An object whose class writes its own payload becomes a t7 object
// whose content is its reference in the keep table (Note [Own payloads] in t7/t7.h).
// hookIdx, when not 0, is torch7's writeObject hook: each value goes through it before it
// is written (a CUDA tensor made a float one, say), and references stay those of the values
// given. path names the value being converted, as torch7's error messages did
// ("<?>.encoder.weight").
struct ToT7 {
  lua_State *L;
  int keepIdx, orderIdx, cudaIdx;
  std::unordered_map<const void *, Memo> &memo;
  int hookIdx = 0;
  std::vector<std::string> path{"<?>"};
  int depth = 0;

  t7::Value convert(int idx) {
    idx = idx > 0 ? idx : lua_gettop(L) + idx + 1;
    lua_checkstack(L, 16);
    if (!hookIdx) return convertAs(idx, idx);
    if (const void *key = identity(idx); key) {
      if (auto it = memo.find(key); it != memo.end())
        return it->second.open ? t7::Value::recursive(it->second.value) : it->second.value;
    }
    lua_pushvalue(L, hookIdx);
    lua_pushvalue(L, idx);
    lua_call(L, 1, 1);
    t7::Value result = convertAs(lua_gettop(L), idx);
    lua_pop(L, 1);
    return result;
  }

 private:
  // A Lua error naming where the value being converted is.
  [[noreturn]] void fail(const std::string &what) const {
    std::string where;
    for (const auto &name : path) where += (where.empty() ? "" : ".") + name;
    throw t7::Error("writeObject: " + what + " at " + where);
  }

  // The memo key of a table or function, else null.
  const void *identity(int idx) const {
    return lua_istable(L, idx) || lua_isfunction(L, idx) ? lua_topointer(L, idx) : nullptr;
  }

  // Converts the value at idx, which the hook made of the one at original (the same
  // without a hook); its memo entry is the original's.
  t7::Value convertAs(int idx, int original) {
    switch (lua_type(L, idx)) {
      case LUA_TNIL: return t7::Value();
      case LUA_TNUMBER: return t7::Value(lua_tonumber(L, idx));
      case LUA_TBOOLEAN: return t7::Value(bool(lua_toboolean(L, idx)));
      case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        return t7::Value(std::string(s, n));
      }
      case LUA_TUSERDATA: {
        void *p;
#define LT_FROM_UD(Name, T, ...)                                                                               \
  if ((p = testObject(L, idx, "torch." #Name "Tensor"))) return t7::Value(static_cast<TH##Name##Tensor *>(p)); \
  if ((p = testObject(L, idx, "torch." #Name "Storage"))) return t7::Value(static_cast<TH##Name##Storage *>(p));
        TH_FORALL_TYPES(LT_FROM_UD)
        if (const char *cudaClass = cudaArrayClassOf(L, idx)) {  // Note [CUDA records in files]
          const std::string className = cudaClass;
          pushObjectFunction(L, "toFile");
          lua_pushvalue(L, idx);
          lua_pushvalue(L, cudaIdx);
          lua_call(L, 2, 1);
          t7::Value value;
#define LT_FROM_COPY(Name, T, ...)                                                                  \
  if ((p = testObject(L, -1, "torch." #Name "Tensor"))) value = static_cast<TH##Name##Tensor *>(p); \
  if ((p = testObject(L, -1, "torch." #Name "Storage"))) value = static_cast<TH##Name##Storage *>(p);
          TH_FORALL_TYPES(LT_FROM_COPY)
#undef LT_FROM_COPY
          lua_pop(L, 1);
          if (value.isNil()) fail("toFile gave no CPU copy of a " + className);
          value.object()->className = className;
          return value;
        }
#undef LT_FROM_UD
        fail(std::string("cannot write a ") + luaL_typename(L, idx) + " that is no storage or tensor");
      }
      case LUA_TTABLE:
      case LUA_TFUNCTION: {
        const void *key = identity(original) ? identity(original) : identity(idx);
        if (auto it = memo.find(key); it != memo.end())
          return it->second.open ? t7::Value::recursive(it->second.value) : it->second.value;
        if (++depth > t7::kMaxDepth) fail("values nested too deeply");
        if (original != idx) keep(original);
        t7::Value result = lua_istable(L, idx) ? convertTable(idx, key) : convertFunction(idx, key);
        memo[key].open = false;
        depth--;
        return result;
      }
      default: fail(std::string("cannot write a value of type ") + luaL_typename(L, idx));
    }
  }

  // The value at idx stays alive (its address is a memo key) as long as the writer.
  void keep(int idx) {
    lua_pushvalue(L, idx);
    lua_pushboolean(L, 1);
    lua_rawset(L, keepIdx);
  }

  void remember(int idx, const void *key, const t7::Value &value) {
    memo[key] = Memo{value, true};
    keep(idx);
  }

  // The value at idx under the name `name` in the path.
  t7::Value convertNamed(int idx, std::string name) {
    path.push_back(std::move(name));
    t7::Value value = convert(idx);
    path.pop_back();
    return value;
  }

  // The name in the path of a table's entry of the key at idx (read from a copy: lua_next
  // needs the key itself unchanged).
  std::string keyName(int idx) {
    if (lua_type(L, idx) != LUA_TSTRING && lua_type(L, idx) != LUA_TNUMBER) return "<?>";
    lua_pushvalue(L, idx);
    std::string name = lua_tostring(L, -1);
    lua_pop(L, 1);
    return name;
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
    if (!className.empty()) path.push_back(className);
    auto add = [&] {
      if (!className.empty() && !isWritable(L, -1)) {  // torch7 skips it, saying so
        const std::string field = keyName(-2);
        std::string where;
        for (size_t i = 0; i + 1 < path.size(); i++) where += (where.empty() ? "" : ".") + path[i];
        lua_getglobal(L, "print");
        lua_pushfstring(L, "$ Warning: cannot write object field <%s> of <%s> %s", field.c_str(), className.c_str(),
                        where.c_str());
        lua_call(L, 1, 0);
        return;
      }
      const int k = lua_gettop(L) - 1;
      t7::Value key = convertNamed(k, "<?>");
      t7::Value value = convertNamed(k + 1, keyName(k));
      table->entries.emplace_back(std::move(key), std::move(value));
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
    if (!className.empty()) path.pop_back();
    return result;
  }

  // torch7's record of a function: string.dump's bytecode and the upvalues as
  // {name=, id=, value=} tables; functions sharing an upvalue write the same id.
  t7::Value convertFunction(int idx, const void *key) {
    if (lua_iscfunction(L, idx)) fail("cannot write a C function");
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
      auto upvalue =
          t7::makeTable({{"name", name}, {"id", double(reinterpret_cast<uintptr_t>(lua_upvalueid(L, idx, i)))}});
      t7::Value value = convertNamed(lua_gettop(L), name);
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
  int memoIdx, joinsIdx, orderIdx, fileIdx, cudaIdx;

  void push(const t7::Value &value) {
    lua_checkstack(L, 16);
    switch (value.kind()) {
      case t7::Value::Kind::Nil: lua_pushnil(L); return;
      case t7::Value::Kind::Number: lua_pushnumber(L, value.number()); return;
      case t7::Value::Kind::Boolean: lua_pushboolean(L, value.boolean()); return;
      case t7::Value::Kind::String: lua_pushlstring(L, value.string().data(), value.string().size()); return;
      case t7::Value::Kind::Recursive:
        if (!pushMemo(value.target().identity())) lua_pushnil(L);
        return;
      case t7::Value::Kind::Function: pushFunction(*value.function()); return;
      case t7::Value::Kind::Table: {
        auto table = value.table();
        if (pushMemo(table.get())) return;
        lua_newtable(L);
        setMemo(table.get());
        fill(*table);
        return;
      }
      case t7::Value::Kind::Object: pushObject(value.object()); return;
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
      if (isCudaArrayClass(object->className.c_str())) {  // Note [CUDA records in files]
        pushObjectFunction(L, "fromCuda");
        lua_insert(L, -2);
        lua_pushstring(L, object->className.c_str());
        lua_pushvalue(L, fileIdx);
        lua_pushvalue(L, cudaIdx);
        lua_call(L, 4, 1);
      }
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
    lua_pushvalue(L, fileIdx);
    lua_call(L, 4, 1);
    setMemo(object.get());
  }

#define LT_PUSH_TH(Name, T, ...)                      \
  void pushTH(TH##Name##Tensor *t) {                  \
    TH##Name##Tensor_retain(t);                       \
    luat::pushObject(L, t, "torch." #Name "Tensor");  \
  }                                                   \
  void pushTH(TH##Name##Storage *s) {                 \
    TH##Name##Storage_retain(s);                      \
    luat::pushObject(L, s, "torch." #Name "Storage"); \
  }
  TH_FORALL_TYPES(LT_PUSH_TH)
#undef LT_PUSH_TH

  // torch7's reading of a function: its bytecode loaded, then each upvalue set from its
  // record, and upvalues written with one id joined again.
  void pushFunction(const t7::Function &function) {
    if (pushMemo(&function)) return;
    // LuaJIT runs bytecode unverified: a corrupt dump must fail here, not crash later.
    const int nupvalues = checkBytecode(function.bytecode.data(), function.bytecode.size());
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
  if (done != bytes.size())
    throw t7::Error("writeObject: wrote " + std::to_string(done) + " bytes instead of " + std::to_string(bytes.size()));
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
  f->encoding.binary = f->reader->format() == t7::Format::Binary;
  if (f->encoding.binary) f->encoding.longSize = f->reader->longSize();
  f->stream->consume(f->reader->offset());
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

// readObject(file[, detectFormat]): the next object, with the file's long size. With
// detectFormat the file's first byte decides between binary and ascii. A call made by an
// object reading its own payload goes on with the reader of the call that met the object.
int readObject(lua_State *L) {
  File *f = checkReadable(L, 1);
  const bool detectFormat = lua_toboolean(L, 2);
  if (f->encoding.binary && f->encoding.littleEndian != kLittleEndianHost)
    return luaL_error(L, "readObject: objects are read in the native (little endian) encoding only");
  t7::ReadOptions options;
  if (!detectFormat) options.format = f->encoding.binary ? t7::Format::Binary : t7::Format::Ascii;
  options.longSize = f->encoding.longSize;
  options.allowFunctions = f->allowFunctions;
  const bool nested = f->objectDepth > 0;
  const bool fresh = !nested && (!f->reader || f->readerOptions.format != options.format ||
                                 f->readerOptions.longSize != options.longSize ||
                                 f->readerOptions.allowFunctions != options.allowFunctions);
  lua_settop(L, 1);
  const int memo = pushEnvTable(L, 1, "read", fresh);
  const int joins = pushEnvTable(L, 1, "joins", fresh);
  const int cuda = pushEnvTable(L, 1, "cudaRead", fresh);
  const int orders = pushKeyOrders(L);
  return guard(L, [&] {
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
    FromT7{L, memo, joins, orders, 1, cuda}.push(value);
    call.done = true;
    return 1;
  });
}

// Note [Long size] in t7/t7.h for the binary object of the file from start to end:
// t7::detectLongSize decides, and each of its attempts is readObject from start with the
// file's long size set to 8 or 4, under lua_pcall, so that its object or error stays on
// the stack. The attempts go through the file rather than the t7 reader alone because
// objects that read their own payload read it from the file (Note [Own payloads]), and
// only the file can go back over it. The file is left after the reading that stands.
int readDetectingLongSize(lua_State *L, File *f, bool detectFormat, size_t start, size_t end) {
  lua_settop(L, 1);
  const bool hadError = f->hasError;
  f->reader.reset();  // the first attempt reads afresh, as the later one does
  struct Attempt {
    bool ok;       // its object is at stack slot 2 + its index, else its error
    size_t after;  // the file's position after it
  };
  Attempt attempts[2] = {};  // with 8-byte longs, with 4-byte longs
  int made = 0;
  const int longSize = t7::detectLongSize([&](int n) {
    if (made > 0 && !f->stream->seek(start))
      luaL_error(L, "readObject: cannot go back to read the object again with %d-byte longs", n);
    f->encoding.longSize = n;
    lua_pushcfunction(L, readObject);
    lua_pushvalue(L, 1);
    lua_pushboolean(L, detectFormat);
    Attempt &attempt = attempts[made++];
    attempt.ok = lua_pcall(L, 2, 1, 0) == 0;
    attempt.after = f->stream->position();
    return t7::LongSizeAttempt{attempt.ok && attempt.after == end, false};
  });
  const int standing = longSize == 8 ? 0 : 1;
  f->encoding.longSize = longSize;
  f->hasError = hadError || !attempts[standing].ok;
  if (made > standing + 1) {  // a later attempt moved the file and made the reader
    f->reader.reset();
    f->stream->seek(attempts[standing].after);
  }
  lua_pushvalue(L, 2 + standing);
  return attempts[standing].ok ? 1 : lua_error(L);
}

// readObject(file[, detectFormat[, detectLongSize]]): readObject above, and with
// detectLongSize a binary file's long size is found (readDetectingLongSize).
int file_readObject(lua_State *L) {
  File *f = checkReadable(L, 1);
  const bool detectFormat = lua_toboolean(L, 2), detectLongSize = lua_toboolean(L, 3);
  if (detectLongSize && f->objectDepth == 0) {
    const size_t start = f->stream->position();
    const std::string_view bytes = f->stream->rest();
    const bool binary =
        detectFormat ? t7::detectFormat(bytes.data(), bytes.size()) == t7::Format::Binary : f->encoding.binary;
    if (binary) return readDetectingLongSize(L, f, detectFormat, start, start + bytes.size());
  }
  lua_settop(L, 2);
  return readObject(L);
}

// writeObject(file, object[, debugname[, hook]]): debugname names the object in error
// messages ("<?>" by default), hook(value) gives what is written for each value (ToT7). A
// call made by an object writing its own payload goes on with the writer of the call that
// met the object.
int file_writeObject(lua_State *L) {
  File *f = checkWritable(L, 1);
  if (f->encoding.binary && f->encoding.littleEndian != kLittleEndianHost)
    return luaL_error(L, "writeObject: objects are written in the native (little endian) encoding only");
  t7::WriteOptions options;
  options.format = f->encoding.binary ? t7::Format::Binary : t7::Format::Ascii;
  options.longSize = f->encoding.longSize;
  options.referenced = f->referenced;
  const bool nested = f->objectDepth > 0;
  const bool fresh =
      !nested && (!f->writer || f->writerOptions.format != options.format ||
                  f->writerOptions.longSize != options.longSize || f->writerOptions.referenced != options.referenced);
  if (fresh) f->written.clear();
  lua_settop(L, 4);
  const char *debugname = luaL_optstring(L, 3, "<?>");
  if (!lua_isnil(L, 4)) luaL_checktype(L, 4, LUA_TFUNCTION);
  const int keep = pushEnvTable(L, 1, "keep", fresh);
  const int cuda = pushEnvTable(L, 1, "cudaWritten", fresh);
  const int orders = pushKeyOrders(L);
  return guard(L, [&] {
    ObjectCall call(f);
    if (fresh) {
      f->writer = std::make_unique<t7::Writer>(options);
      f->writerOptions = options;
    }
    if (call.outermost()) f->writer->setPayloadWriter([L, f](const t7::Object &o) { writePayload(L, f, o); });
    ToT7 convert{L, keep, orders, cuda, f->written, lua_isnil(L, 4) ? 0 : 4, {debugname}};
    const t7::Value value = convert.convert(2);
    f->writer->write(value);
    writeBytes(f, f->writer->takeBytes());
    call.done = true;
    return 0;
  });
}

}  // namespace

const luaL_Reg kFileObjects[] = {
    {"file_readObject", file_readObject},
    {"file_writeObject", file_writeObject},
    {"file_setObjectFunctions", file_setObjectFunctions},
    {nullptr, nullptr},
};

}  // namespace luat
