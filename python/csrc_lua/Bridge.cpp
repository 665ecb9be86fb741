// torch._lua: the core of torch.lua, Lua code run inside the Python process.
//
//   import torch.lua
//   rt = torch.lua.Runtime()                 # a LuaJIT state with `torch` loaded
//   f = rt.eval("function(t) t:fill(7) return t:sum() end")
//   x = torch.zeros(3)
//   f(x)                                     # 21; x is now [7, 7, 7]: same memory
//
// A Runtime owns one lua_State; every Lua value handed to Python (a LuaObject: tables,
// functions, torch7 objects) holds a registry reference and a share of the state, so the
// state lives until the last of them goes. Tensors and storages cross as new views on the
// same TH storage: this module links its own TH (1-based indices, for the Lua packages) and
// torch._C another (0-based), both private to their shared object; they agree on the storage
// layout, so each side takes its own reference on the other's storages through the address
// (Note [Storages across the two TH copies]).
//
// Everything that can raise a Lua error (metamethods, calls, loading code) runs inside
// lua_pcall, so a Lua error never unwinds through C++ or Python frames; it becomes a
// torch.lua.LuaError carrying Lua's message and traceback.
//
// Note [Lua without the GIL]: Lua code runs without the GIL, so other Python threads keep
// running while it computes (Note [Releasing the GIL] in python/csrc/Bind.h). A lua_State is
// not thread-safe: each State has a lock, held by whoever touches it (recursive: Lua calls a
// Python function that calls Lua again on the same thread). Nobody waits for a State's lock
// while holding the GIL (StateLock lets the GIL go first), so a thread running Lua may always
// take the GIL back: to call a Python function (callPython) or to drop a reference on one
// (pyRefGc). A LuaObject freed while another thread holds its State's lock leaves its
// registry references to be dropped by the next thread that takes the lock.
#include <pybind11/pybind11.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "TH/THTypes.hpp"
#include "lua/csrc/common.h"

namespace py = pybind11;

extern "C" int luaopen_torch_cimpl(lua_State *L);

namespace luat {
struct LuaSource {
  const char *module;
  const char *chunkname;
  const char *code;
};
extern const LuaSource kLuaSources[];  // lua/embed.py: every lua/<package>/*.lua
}  // namespace luat

namespace torch_lua {

namespace {

struct LuaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Lua helpers that Python's operations go through, so that metamethods run protected.
const char *kHelpers = R"lua(
local H = {}
function H.handler(e)
  if type(e) ~= 'string' then
    local ok, s = pcall(tostring, e)
    e = ok and type(s) == 'string' and s or ('(a Lua ' .. type(e) .. ' was raised as the error)')
  end
  return debug.traceback(e, 2)
end
function H.get(t, k) return t[k] end
function H.set(t, k, v) t[k] = v end
function H.len(t) return #t end
-- obj.name from Python: a function that obj finds through its metatable (a class method of a
-- torch7 object, or of any Lua object with an __index) comes bound to obj, as obj:name(...)
function H.attr(t, k)
  local v = t[k]
  local bound = type(v) == 'function' and getmetatable(t) ~= nil and (type(t) ~= 'table' or rawget(t, k) == nil)
  return v, bound
end
function H.describe(v)
  local name = torch and torch.typename and torch.typename(v)
  local ok, s = pcall(tostring, v)
  if not ok or type(s) ~= 'string' then s = type(v) end
  if name and not s:find(name, 1, true) then s = name .. ': ' .. s end
  return s
end
function H.typename(v)
  return torch and torch.typename and torch.typename(v) or type(v)
end
function H.require(name)
  local m = require(name)
  if not name:find('.', 1, true) then _G[name] = m end  -- as th's -l: 'nn' becomes a global
  return m
end
return H
)lua";

// The element types Lua has (torch.types): TH's arithmetic types (Note [The type table] in
// TH/THGeneral.h), named by th::Type.
using Elem = th::Type;

// Python objects looked up once: torch's dtypes, classes and the storage hook of torch._C.
struct PyTorch {
  py::object torch, tensorType, storageBase, retainStorage, empty, boolType;
  std::vector<py::object> dtypeOf, storageClassOf;  // by Elem

  PyTorch() {
    torch = py::module::import("torch");
    py::object C = torch.attr("_C");
    tensorType = C.attr("Tensor");
    storageBase = C.attr("_StorageBase");
    retainStorage = storageBase.attr("_retain_cdata");
    empty = torch.attr("empty");
    boolType = torch.attr("bool");
#define BRIDGE_DTYPE(Name, T, dtype)     \
  dtypeOf.push_back(torch.attr(#dtype)); \
  storageClassOf.push_back(torch.attr(#Name "Storage"));
    TH_FORALL_ARITH_TYPES(BRIDGE_DTYPE)
#undef BRIDGE_DTYPE
  }
  // The Lua element type of a torch dtype (bool is stored as bytes: a ByteTensor on the same
  // memory); a TypeError for those Lua lacks (float16).
  Elem elemOf(py::handle dtype) const {
    if (boolType.is(dtype)) return Elem::Byte;
    for (size_t i = 0; i < dtypeOf.size(); i++) {
      if (dtypeOf[i].is(dtype)) return static_cast<Elem>(i);
    }
    throw py::type_error("torch.lua: Lua has no tensors of type " + py::str(dtype).cast<std::string>() +
                         " (it has uint8, int8, int16, int32, int64, float32 and float64)");
  }
};

PyTorch &pyTorch() {
  // Leaked on purpose: Python objects must not be released after the interpreter is gone.
  static PyTorch *t = new PyTorch();
  return *t;
}

// The registry key under which a lua_State keeps its State (Python functions called from Lua
// find it there, to hand Lua values to Python).
char kStateKey;

struct State : std::enable_shared_from_this<State> {
  lua_State *L = nullptr;
  int helpers = LUA_NOREF;    // registry reference of the H table above
  std::recursive_mutex lock;  // Note [Lua without the GIL]
  std::mutex pendingLock;
  std::vector<int> pendingUnrefs;  // registry references freed while lock was taken

  // Drops the references left by LuaObjects freed while another thread held lock (called
  // with lock held).
  void dropPending() {
    std::vector<int> refs;
    {
      std::lock_guard<std::mutex> hold(pendingLock);
      refs.swap(pendingUnrefs);
    }
    for (int ref : refs) luaL_unref(L, LUA_REGISTRYINDEX, ref);
  }
  State() {
    L = luaL_newstate();
    if (!L) throw std::bad_alloc();
    lua_pushlightuserdata(L, &kStateKey);
    lua_pushlightuserdata(L, this);
    lua_rawset(L, LUA_REGISTRYINDEX);
  }
  ~State() { lua_close(L); }
  State(const State &) = delete;
  State &operator=(const State &) = delete;
};
using StatePtr = std::shared_ptr<State>;

// Holds a State's lock for a scope, taken without holding the GIL (Note [Lua without the
// GIL]): when another thread has it, the GIL is let go while waiting.
class StateLock {
 public:
  explicit StateLock(State &st) : st_(st) {
    if (!st_.lock.try_lock()) {
      py::gil_scoped_release release;
      st_.lock.lock();
    }
    st_.dropPending();
  }
  ~StateLock() { st_.lock.unlock(); }
  StateLock(const StateLock &) = delete;
  StateLock &operator=(const StateLock &) = delete;

 private:
  State &st_;
};

// Restores the Lua stack's height when a Python call leaves, on success or error.
struct StackGuard {
  lua_State *L;
  int top;
  explicit StackGuard(lua_State *L) : L(L), top(lua_gettop(L)) {}
  ~StackGuard() { lua_settop(L, top); }
};

void pushHelper(State &st, const char *name) {
  lua_rawgeti(st.L, LUA_REGISTRYINDEX, st.helpers);
  lua_getfield(st.L, -1, name);
  lua_remove(st.L, -2);
}

// Calls the function below the nargs arguments on top of the stack in protected mode, with
// the traceback handler; leaves its results on the stack and returns how many there are.
int protectedCall(State &st, int nargs) {
  lua_State *L = st.L;
  int base = lua_gettop(L) - nargs;  // the function's slot
  pushHelper(st, "handler");
  lua_insert(L, base);
  int status;
  {
    py::gil_scoped_release release;  // the caller holds st's lock
    status = lua_pcall(L, nargs, LUA_MULTRET, base);
  }
  lua_remove(L, base);
  if (status != 0) {
    const char *msg = lua_tostring(L, -1);
    std::string text = msg ? msg : "(a Lua error without a message)";
    lua_pop(L, 1);
    throw LuaError(text);
  }
  return lua_gettop(L) - base + 1;
}

// A Lua value held for Python. A bound method also holds the object it is bound to.
class LuaObject {
 public:
  LuaObject(StatePtr st, int idx) : st_(std::move(st)) {
    lua_pushvalue(st_->L, idx);
    ref_ = luaL_ref(st_->L, LUA_REGISTRYINDEX);
  }
  LuaObject(StatePtr st, int idx, int selfIdx) : LuaObject(std::move(st), idx) {
    lua_pushvalue(st_->L, selfIdx);
    self_ = luaL_ref(st_->L, LUA_REGISTRYINDEX);
  }
  // With the GIL held (Python frees it): waiting for the State's lock here could deadlock
  // with a thread running Lua that wants the GIL, so when that thread has the lock the
  // references are left for it (Note [Lua without the GIL]).
  ~LuaObject() {
    if (st_->lock.try_lock()) {
      luaL_unref(st_->L, LUA_REGISTRYINDEX, ref_);
      if (self_ != LUA_NOREF) luaL_unref(st_->L, LUA_REGISTRYINDEX, self_);
      st_->lock.unlock();
      return;
    }
    std::lock_guard<std::mutex> hold(st_->pendingLock);
    st_->pendingUnrefs.push_back(ref_);
    if (self_ != LUA_NOREF) st_->pendingUnrefs.push_back(self_);
  }
  LuaObject(const LuaObject &) = delete;
  LuaObject &operator=(const LuaObject &) = delete;

  State &state() const { return *st_; }
  const StatePtr &statePtr() const { return st_; }
  void push() const { lua_rawgeti(st_->L, LUA_REGISTRYINDEX, ref_); }
  bool bound() const { return self_ != LUA_NOREF; }
  void pushSelf() const { lua_rawgeti(st_->L, LUA_REGISTRYINDEX, self_); }

 private:
  StatePtr st_;
  int ref_ = LUA_NOREF;
  int self_ = LUA_NOREF;
};

// --- Python -> Lua ---

void pushPythonFunction(lua_State *L, py::handle fn);

constexpr int kMaxDepth = 200;

// Note [Storages across the two TH copies]
// A Python tensor's TH storage is handed to Lua by address: this module's TH takes a
// reference of its own (retain), makes a Lua tensor on it with the Python tensor's offset,
// sizes and strides, and the Lua tensor's __gc drops that reference later. The other way,
// torch._C._StorageBase._retain_cdata takes torch._C's reference on a Lua storage. Either
// copy may drop the last reference: free() calls the allocator that made the memory
// (function pointers into the .so that made it, which Python never unloads).
void pushTensor(lua_State *L, py::handle t) {
  PyTorch &pt = pyTorch();
  Elem elem = pt.elemOf(t.attr("dtype"));
  py::object storage = t.attr("_storage")();  // holds the storage while Lua retains it
  void *raw = reinterpret_cast<void *>(storage.attr("_cdata").cast<uintptr_t>());
  int64_t offset = t.attr("storage_offset")().cast<int64_t>();
  std::vector<int64_t> sizes, strides;
  for (py::handle s : t.attr("size")()) sizes.push_back(s.cast<int64_t>());
  for (py::handle s : t.attr("stride")()) strides.push_back(s.cast<int64_t>());
  if (sizes.empty()) {  // torch7 has no 0-d tensors: a Python scalar tensor is a 1-element one
    sizes.push_back(1);
    strides.push_back(1);
  }
  int n = static_cast<int>(sizes.size());
  switch (elem) {
#define BRIDGE_PUSH_TENSOR(Name, T, dtype)                                                                           \
  case Elem::Name:                                                                                                   \
    luat::noteForeignBytes(TH##Name##Storage_size(static_cast<TH##Name##Storage *>(raw)) * ptrdiff_t(sizeof(T)));    \
    luat::pushObject(L,                                                                                              \
                     TH##Name##Tensor_newWithStorage(static_cast<TH##Name##Storage *>(raw), offset, n, sizes.data(), \
                                                     strides.data()),                                                \
                     "torch." #Name "Tensor");                                                                       \
    return;
    TH_FORALL_ARITH_TYPES(BRIDGE_PUSH_TENSOR)
#undef BRIDGE_PUSH_TENSOR
    case Elem::Half: break;  // elemOf refused float16 already
  }
}

void pushStorage(lua_State *L, py::handle s) {
  Elem elem = pyTorch().elemOf(s.attr("dtype"));
  void *raw = reinterpret_cast<void *>(s.attr("_cdata").cast<uintptr_t>());
  switch (elem) {
#define BRIDGE_PUSH_STORAGE(Name, T, dtype)                                                                       \
  case Elem::Name:                                                                                                \
    luat::noteForeignBytes(TH##Name##Storage_size(static_cast<TH##Name##Storage *>(raw)) * ptrdiff_t(sizeof(T))); \
    TH##Name##Storage_retain(static_cast<TH##Name##Storage *>(raw));                                              \
    luat::pushObject(L, raw, "torch." #Name "Storage");                                                           \
    return;
    TH_FORALL_ARITH_TYPES(BRIDGE_PUSH_STORAGE)
#undef BRIDGE_PUSH_STORAGE
    case Elem::Half: break;  // elemOf refused float16 already
  }
}

// Pushes the Lua values of Python ones. The memo (a Lua table, made on the stack when the
// converter is, removed by done()) maps Python containers already converted to their tables,
// so shared and cyclic lists and dicts stay shared and cyclic.
struct ToLua {
  const StatePtr &st;
  int memoIdx;
  int depth = 0;

  explicit ToLua(const StatePtr &st) : st(st) {
    lua_newtable(st->L);
    memoIdx = lua_gettop(st->L);
  }
  void done() { lua_remove(st->L, memoIdx); }

  void push(py::handle v) {
    lua_State *L = st->L;
    if (!lua_checkstack(L, 4)) throw std::runtime_error("torch.lua: Lua stack overflow");
    if (v.is_none()) {
      lua_pushnil(L);
    } else if (PyBool_Check(v.ptr())) {
      lua_pushboolean(L, v.ptr() == Py_True);
    } else if (PyLong_Check(v.ptr())) {
      int overflow = 0;
      long long i = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
      double d = static_cast<double>(i);
      if (overflow || std::fabs(d) >= 9223372036854775808.0 || static_cast<long long>(d) != i) {
        throw py::value_error("torch.lua: the integer " + py::str(v).cast<std::string>() +
                              " has no exact Lua number (a double)");
      }
      lua_pushnumber(L, d);
    } else if (PyFloat_Check(v.ptr())) {
      lua_pushnumber(L, PyFloat_AsDouble(v.ptr()));
    } else if (PyUnicode_Check(v.ptr())) {
      Py_ssize_t n;
      const char *s = PyUnicode_AsUTF8AndSize(v.ptr(), &n);
      if (!s) throw py::error_already_set();
      lua_pushlstring(L, s, n);
    } else if (PyBytes_Check(v.ptr())) {
      lua_pushlstring(L, PyBytes_AS_STRING(v.ptr()), PyBytes_GET_SIZE(v.ptr()));
    } else if (py::isinstance<LuaObject>(v)) {
      const LuaObject &o = v.cast<const LuaObject &>();
      if (o.statePtr() != st) throw py::value_error("torch.lua: a Lua value cannot move to another Runtime");
      if (o.bound()) throw py::type_error("torch.lua: a bound Lua method cannot be passed back to Lua");
      o.push();
    } else if (py::isinstance(v, pyTorch().tensorType)) {
      pushTensor(L, v);
    } else if (py::isinstance(v, pyTorch().storageBase)) {
      pushStorage(L, v);
    } else if (PyList_Check(v.ptr()) || PyTuple_Check(v.ptr()) || PyDict_Check(v.ptr())) {
      pushTable(v);
    } else if (PyCallable_Check(v.ptr())) {
      pushPythonFunction(L, v);
    } else {
      throw py::type_error(std::string("torch.lua: cannot pass a Python ") + Py_TYPE(v.ptr())->tp_name +
                           " to Lua (numbers, strings, bools, None, lists, tuples, dicts, tensors, "
                           "storages, callables and Lua values can)");
    }
  }

  void pushTable(py::handle v) {
    lua_State *L = st->L;
    lua_pushlightuserdata(L, v.ptr());
    lua_rawget(L, memoIdx);
    if (!lua_isnil(L, -1)) return;
    lua_pop(L, 1);
    if (++depth > kMaxDepth) throw py::value_error("torch.lua: lists or dicts nested too deeply");
    lua_newtable(L);
    lua_pushlightuserdata(L, v.ptr());
    lua_pushvalue(L, -2);
    lua_rawset(L, memoIdx);
    if (PyDict_Check(v.ptr())) {
      for (auto kv : py::reinterpret_borrow<py::dict>(v)) {
        if (kv.first.is_none()) throw py::value_error("torch.lua: a dict with the key None has no Lua table");
        if (PyFloat_Check(kv.first.ptr()) && std::isnan(PyFloat_AsDouble(kv.first.ptr()))) {
          throw py::value_error("torch.lua: a dict with the key nan has no Lua table");
        }
        push(kv.first);
        push(kv.second);
        lua_rawset(L, -3);
      }
    } else {
      py::sequence seq = py::reinterpret_borrow<py::sequence>(v);
      for (size_t i = 0; i < seq.size(); i++) {
        push(seq[i]);
        lua_rawseti(L, -2, static_cast<int>(i + 1));
      }
    }
    depth--;
  }
};

// --- Lua -> Python ---

py::object tensorToPython(Elem elem, THByteTensor *t) {
  PyTorch &pt = pyTorch();
  py::object dtype = pt.dtypeOf[static_cast<int>(elem)];
  py::object result = pt.empty(0, py::arg("dtype") = dtype);
  // torch7's tensor without dimensions is an empty one (Python's 0-d tensor holds one value)
  if (!t->storage || t->nDimension == 0) return result;
  py::object storage = pt.retainStorage(dtype, reinterpret_cast<uintptr_t>(t->storage));
  py::tuple sizes(t->nDimension), strides(t->nDimension);
  for (int d = 0; d < t->nDimension; d++) {
    sizes[d] = py::int_(t->size[d]);
    strides[d] = py::int_(t->stride[d]);
  }
  return result.attr("set_")(storage, t->storageOffset, sizes, strides);
}

py::object storageToPython(Elem elem, void *raw) {
  PyTorch &pt = pyTorch();
  int i = static_cast<int>(elem);
  return pt.storageClassOf[i].attr("_wrap")(pt.retainStorage(pt.dtypeOf[i], reinterpret_cast<uintptr_t>(raw)));
}

py::object toPython(const StatePtr &st, int idx) {
  lua_State *L = st->L;
  switch (lua_type(L, idx)) {
    case LUA_TNIL:
    case LUA_TNONE: return py::none();
    case LUA_TBOOLEAN: return py::bool_(lua_toboolean(L, idx) != 0);
    case LUA_TNUMBER: {
      // Lua 5.1 has one number type: integral values come back as int, like lupa does
      double d = lua_tonumber(L, idx);
      if (std::floor(d) == d && std::fabs(d) < 9223372036854775808.0) return py::int_(static_cast<long long>(d));
      return py::float_(d);
    }
    case LUA_TSTRING: {
      size_t n;
      const char *s = lua_tolstring(L, idx, &n);
      PyObject *u = PyUnicode_DecodeUTF8(s, static_cast<Py_ssize_t>(n), nullptr);
      if (u) return py::reinterpret_steal<py::object>(u);
      PyErr_Clear();  // not UTF-8: the bytes as they are
      return py::bytes(s, n);
    }
    case LUA_TUSERDATA: {
      void *p;
#define BRIDGE_FROM_USERDATA(Name, T, dtype)                           \
  if ((p = luat::testObject(L, idx, "torch." #Name "Tensor")))         \
    return tensorToPython(Elem::Name, static_cast<THByteTensor *>(p)); \
  if ((p = luat::testObject(L, idx, "torch." #Name "Storage"))) return storageToPython(Elem::Name, p);
      TH_FORALL_ARITH_TYPES(BRIDGE_FROM_USERDATA)
#undef BRIDGE_FROM_USERDATA
      return py::cast(new LuaObject(st, idx), py::return_value_policy::take_ownership);
    }
    default: return py::cast(new LuaObject(st, idx), py::return_value_policy::take_ownership);
  }
}

// The n values on top of the stack as Python's return value: None, the value, or a tuple.
py::object results(const StatePtr &st, int n) {
  lua_State *L = st->L;
  int first = lua_gettop(L) - n + 1;
  if (n == 0) return py::none();
  if (n == 1) return toPython(st, first);
  py::tuple t(n);
  for (int i = 0; i < n; i++) t[i] = toPython(st, first + i);
  return std::move(t);
}

// --- Python functions called from Lua ---

// A Python callable becomes a Lua C closure whose upvalue is a userdata holding one reference
// on it (dropped by the userdata's __gc), so Lua code sees an ordinary function.
const char *kPyRefMeta = "torch.lua.PythonReference";

int pyRefGc(lua_State *L) {
  auto **slot = static_cast<PyObject **>(lua_touserdata(L, 1));
  if (slot && *slot && Py_IsInitialized()) {
    py::gil_scoped_acquire gil;  // Lua's collector runs without it (Note [Lua without the GIL])
    Py_DECREF(*slot);
  }
  if (slot) *slot = nullptr;
  return 0;
}

// Calls the Python function with the Lua arguments; pushes its results (a tuple gives several
// values, None none) and returns how many. On a Python error, fills msg and returns -1.
int callPythonProtected(lua_State *L, char *msg, size_t msgSize) {
  py::gil_scoped_acquire gil;  // Lua runs without it (Note [Lua without the GIL])
  try {
    PyObject *fn = *static_cast<PyObject **>(lua_touserdata(L, lua_upvalueindex(1)));
    if (!fn) throw std::runtime_error("the Python function was released");
    lua_pushlightuserdata(L, &kStateKey);
    lua_rawget(L, LUA_REGISTRYINDEX);
    StatePtr st = static_cast<State *>(lua_touserdata(L, -1))->shared_from_this();
    lua_pop(L, 1);
    int nargs = lua_gettop(L);
    py::tuple args(nargs);
    for (int i = 0; i < nargs; i++) args[i] = toPython(st, i + 1);
    py::object out = py::reinterpret_borrow<py::object>(fn)(*args);
    lua_settop(L, 0);
    if (out.is_none()) return 0;
    ToLua conv(st);
    int n = 1;
    if (PyTuple_Check(out.ptr())) {
      n = static_cast<int>(PyTuple_GET_SIZE(out.ptr()));
      if (!lua_checkstack(L, n + 4)) throw std::runtime_error("too many results");
      for (py::handle v : out) conv.push(v);
    } else {
      conv.push(out);
    }
    conv.done();
    return n;
  } catch (const std::exception &e) {
    snprintf(msg, msgSize, "Python: %s", e.what());
  }
  return -1;
}

int callPython(lua_State *L) {
  char msg[2048];
  int n = callPythonProtected(L, msg, sizeof msg);
  // every C++ and Python object of the call is gone before lua_error unwinds this frame
  if (n < 0) return luaL_error(L, "%s", msg);
  return n;
}

void pushPythonFunction(lua_State *L, py::handle fn) {
  auto **slot = static_cast<PyObject **>(lua_newuserdata(L, sizeof(PyObject *)));
  *slot = nullptr;
  if (luaL_newmetatable(L, kPyRefMeta)) {
    lua_pushcfunction(L, pyRefGc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  *slot = fn.inc_ref().ptr();
  lua_pushcclosure(L, callPython, 1);
}

// --- LuaObject's Python methods ---

py::object call(const LuaObject &o, py::args args, py::kwargs kwargs) {
  if (kwargs && kwargs.size()) throw py::type_error("torch.lua: Lua functions take no keyword arguments");
  State &s = o.state();
  lua_State *L = s.L;
  StateLock locked(s);
  StackGuard guard(L);
  if (!lua_checkstack(L, static_cast<int>(args.size()) + 8)) throw std::runtime_error("torch.lua: too many arguments");
  ToLua conv(o.statePtr());
  o.push();
  int nargs = static_cast<int>(args.size());
  if (o.bound()) {
    o.pushSelf();
    nargs++;
  }
  for (py::handle a : args) conv.push(a);
  conv.done();
  return results(o.statePtr(), protectedCall(s, nargs));
}

// Runs helper(o, extra...) and returns its first `want` results on the stack.
void runHelper(const LuaObject &o, const char *helper, std::initializer_list<py::handle> extra, int want) {
  State &s = o.state();
  ToLua conv(o.statePtr());
  pushHelper(s, helper);
  o.push();
  for (py::handle e : extra) conv.push(e);
  conv.done();
  int n = protectedCall(s, 1 + static_cast<int>(extra.size()));
  lua_settop(s.L, lua_gettop(s.L) - n + want);
}

py::object getItem(const LuaObject &o, py::handle key) {
  StateLock locked(o.state());
  StackGuard guard(o.state().L);
  runHelper(o, "get", {key}, 1);
  return toPython(o.statePtr(), -1);
}

void setItem(const LuaObject &o, py::handle key, py::handle value) {
  StateLock locked(o.state());
  StackGuard guard(o.state().L);
  if (key.is_none()) throw py::key_error("torch.lua: a Lua table has no nil key");
  runHelper(o, "set", {key, value}, 0);
}

bool isSpecialName(const std::string &name) {
  return name.size() > 4 && name.compare(0, 2, "__") == 0 && name.compare(name.size() - 2, 2, "__") == 0;
}

py::object getAttr(const LuaObject &o, const std::string &name) {
  // Python probes objects for protocols (__array__, __length_hint__, ...): those are not Lua fields
  if (isSpecialName(name)) throw py::attribute_error(name);
  const StatePtr &st = o.statePtr();
  lua_State *L = st->L;
  StateLock locked(*st);
  StackGuard guard(L);
  runHelper(o, "attr", {py::str(name)}, 2);
  if (lua_isnil(L, -2)) throw py::attribute_error("the Lua value has no field '" + name + "' (it is nil)");
  if (lua_toboolean(L, -1)) {
    o.push();
    return py::cast(new LuaObject(st, -3, lua_gettop(L)), py::return_value_policy::take_ownership);
  }
  return toPython(st, -2);
}

std::string describe(const LuaObject &o) {
  StateLock locked(o.state());
  StackGuard guard(o.state().L);
  runHelper(o, "describe", {}, 1);
  const char *s = lua_tostring(o.state().L, -1);
  return std::string(o.bound() ? "bound method " : "") + (s ? s : "?");
}

int64_t length(const LuaObject &o) {
  StateLock locked(o.state());
  StackGuard guard(o.state().L);
  runHelper(o, "len", {}, 1);
  lua_State *L = o.state().L;
  if (!lua_isnumber(L, -1)) throw py::type_error("torch.lua: the Lua length of this value is not a number");
  return static_cast<int64_t>(lua_tonumber(L, -1));
}

// The table's keys (raw, in pairs() order).
py::list keys(const LuaObject &o) {
  lua_State *L = o.state().L;
  StateLock locked(o.state());
  StackGuard guard(L);
  o.push();
  if (!lua_istable(L, -1)) throw py::type_error("torch.lua: only Lua tables can be iterated");
  py::list out;
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    lua_pop(L, 1);
    out.append(toPython(o.statePtr(), -1));
  }
  return out;
}

bool equal(const LuaObject &a, py::handle other) {
  if (!py::isinstance<LuaObject>(other)) return false;
  const LuaObject &b = other.cast<const LuaObject &>();
  if (a.statePtr() != b.statePtr() || a.bound() != b.bound()) return false;
  lua_State *L = a.state().L;
  StateLock locked(a.state());
  StackGuard guard(L);
  a.push();
  b.push();
  bool same = lua_rawequal(L, -1, -2);
  if (same && a.bound()) {
    a.pushSelf();
    b.pushSelf();
    same = lua_rawequal(L, -1, -2);
  }
  return same;
}

size_t hashOf(const LuaObject &o) {
  StateLock locked(o.state());
  StackGuard guard(o.state().L);
  o.push();
  return std::hash<const void *>()(lua_topointer(o.state().L, -1));
}

// Plain tables (no metatable) as lists (keys exactly 1..n, n >= 1) or dicts, recursively;
// other values as toPython gives them. memo keeps shared and cyclic tables so.
struct ToPlain {
  const StatePtr &st;
  std::unordered_map<const void *, py::object> memo;

  py::object convert(int idx) {
    lua_State *L = st->L;
    idx = idx > 0 ? idx : lua_gettop(L) + idx + 1;
    if (!lua_istable(L, idx) || lua_getmetatable(L, idx)) {
      if (lua_istable(L, idx)) lua_pop(L, 1);
      return toPython(st, idx);
    }
    const void *id = lua_topointer(L, idx);
    auto it = memo.find(id);
    if (it != memo.end()) return it->second;
    if (!lua_checkstack(L, 4)) throw std::runtime_error("torch.lua: Lua stack overflow");
    size_t n = lua_objlen(L, idx), count = 0;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      count++;
      lua_pop(L, 1);
    }
    bool isList = n > 0 && count == n;
    for (size_t i = 1; isList && i <= n; i++) {  // a border n does not promise 1..n-1
      lua_rawgeti(L, idx, static_cast<int>(i));
      isList = !lua_isnil(L, -1);
      lua_pop(L, 1);
    }
    if (isList) {
      py::list out;
      memo[id] = out;
      for (size_t i = 1; i <= n; i++) {
        lua_rawgeti(L, idx, static_cast<int>(i));
        out.append(convert(-1));
        lua_pop(L, 1);
      }
      return std::move(out);
    }
    py::dict out;
    memo[id] = out;
    lua_pushnil(L);
    while (lua_next(L, idx)) {
      py::object v = convert(-1);
      lua_pop(L, 1);
      py::object k = toPython(st, -1);
      out[k] = v;
    }
    return std::move(out);
  }
};

py::object toPlain(py::handle value) {
  if (!py::isinstance<LuaObject>(value)) return py::reinterpret_borrow<py::object>(value);
  const LuaObject &o = value.cast<const LuaObject &>();
  if (o.bound()) return py::reinterpret_borrow<py::object>(value);
  StateLock locked(o.state());
  StackGuard guard(o.state().L);
  o.push();
  ToPlain conv{o.statePtr(), {}};
  return conv.convert(-1);
}

std::string typeName(const LuaObject &o) {
  StateLock locked(o.state());
  StackGuard guard(o.state().L);
  runHelper(o, "typename", {}, 1);
  const char *s = lua_tostring(o.state().L, -1);
  return s ? s : "?";
}

// --- Runtime ---

// package.preload entries for the compiled-in Lua files; TORCH_LUA_PATH (a folder holding
// torch/, nn/, ...) puts the tree's files first instead, as `th` does.
void installSources(lua_State *L) {
  lua_getglobal(L, "package");
  lua_getfield(L, -1, "preload");
  lua_pushcfunction(L, luaopen_torch_cimpl);
  lua_setfield(L, -2, "torch.cimpl");
  const char *dir = getenv("TORCH_LUA_PATH");
  if (dir && *dir) {
    lua_getfield(L, -2, "path");
    std::string path = std::string(dir) + "/?.lua;" + dir + "/?/init.lua;" + lua_tostring(L, -1);
    lua_pop(L, 1);
    lua_pushstring(L, path.c_str());
    lua_setfield(L, -3, "path");
  } else {
    for (const luat::LuaSource *s = luat::kLuaSources; s->module; s++) {
      if (luaL_loadbuffer(L, s->code, strlen(s->code), s->chunkname) != 0) {
        std::string msg = lua_tostring(L, -1);
        throw LuaError("torch.lua: the embedded Lua file " + std::string(s->chunkname + 1) +
                       " does not compile: " + msg);
      }
      lua_setfield(L, -2, s->module);
    }
  }
  lua_pop(L, 2);
}

class Runtime {
 public:
  Runtime() : st_(std::make_shared<State>()) {
    lua_State *L = st_->L;
    StackGuard guard(L);
    luaL_openlibs(L);
    installSources(L);
    if (luaL_loadbuffer(L, kHelpers, strlen(kHelpers), "=torch.lua") != 0) throw LuaError(lua_tostring(L, -1));
    lua_call(L, 0, 1);  // cannot fail: it only defines functions
    st_->helpers = luaL_ref(L, LUA_REGISTRYINDEX);
    require("torch");
  }

  py::object run(const std::string &code, const char *chunkname) {
    lua_State *L = st_->L;
    StateLock locked(*st_);
    StackGuard guard(L);
    if (luaL_loadbuffer(L, code.data(), code.size(), chunkname) != 0) {
      std::string msg = lua_tostring(L, -1);
      throw LuaError(msg);
    }
    return results(st_, protectedCall(*st_, 0));
  }
  py::object eval(const std::string &expr) { return run("return " + expr, "=eval"); }
  py::object execute(const std::string &code) { return run(code, "=execute"); }

  py::object require(const std::string &name) {
    StateLock locked(*st_);
    StackGuard guard(st_->L);
    pushHelper(*st_, "require");
    lua_pushlstring(st_->L, name.data(), name.size());
    return results(st_, protectedCall(*st_, 1));
  }

  py::object globals() {
    StateLock locked(*st_);
    StackGuard guard(st_->L);
    lua_pushvalue(st_->L, LUA_GLOBALSINDEX);
    return toPython(st_, -1);
  }
  py::object getGlobal(const std::string &name) {
    py::object g = globals();
    return getItem(g.cast<const LuaObject &>(), py::str(name));
  }
  void setGlobal(const std::string &name, py::handle value) {
    py::object g = globals();
    setItem(g.cast<const LuaObject &>(), py::str(name), value);
  }

 private:
  StatePtr st_;
};

}  // namespace

}  // namespace torch_lua

PYBIND11_MODULE(_lua, m) {
  using namespace torch_lua;
  m.doc() = "The core of torch.lua (see torch/lua.py): LuaJIT states with the Lua torch packages.";
  py::register_exception<LuaError>(m, "LuaError", PyExc_RuntimeError);

  py::class_<LuaObject>(m, "LuaObject")
      .def("__call__", &call)
      .def("__getattr__", &getAttr)
      .def("__setattr__",
           [](const LuaObject &o, const std::string &name, py::handle v) { setItem(o, py::str(name), v); })
      .def("__getitem__", &getItem)
      .def("__setitem__", &setItem)
      .def("__contains__", [](const LuaObject &o, py::handle key) { return !getItem(o, key).is_none(); })
      .def("__len__", &length)
      .def("__iter__", [](const LuaObject &o) { return py::iter(keys(o)); })
      .def("__eq__", &equal)
      .def("__hash__", &hashOf)
      .def("__bool__", [](const LuaObject &) { return true; })
      .def("__repr__", [](const LuaObject &o) { return "<Lua " + describe(o) + ">"; });

  py::class_<Runtime>(m, "Runtime")
      .def(py::init<>(), "A new Lua state with `torch` loaded (a global).")
      .def("eval", &Runtime::eval, py::arg("expr"),
           "The values of a Lua expression: None, the value, or a tuple of them.")
      .def("execute", &Runtime::execute, py::arg("code"), "Runs a Lua chunk; returns what it returns.")
      .def("require", &Runtime::require, py::arg("name"),
           "require(name); a top-level package also becomes a global (rt.require('nn')).")
      .def_property_readonly("globals", &Runtime::globals, "Lua's _G, as a LuaObject.")
      .def("__getitem__", &Runtime::getGlobal)
      .def("__setitem__", &Runtime::setGlobal);

  m.def("to_python", &toPlain, py::arg("value"));
  m.def("typename", &typeName, py::arg("value"));
}
