// The C side of `require 'torch'`: storages and tensors of every element type over TH
// (built with TH_INDEX_BASE=1), the random generator, and torch.save/torch.load through
// legacy/t7. The Lua side (lua/torch/*.lua) builds the classes on these functions.
#include "lua/csrc/common.h"

#include <cmath>
#include <map>
#include <memory>

#include "legacy/t7.h"

#define LT_STR_(x) #x
#define LT_STR(x) LT_STR_(x)
#define LT_CAT3_(a, b, c) a##b##c
#define LT_CAT3(a, b, c) LT_CAT3_(a, b, c)

namespace luat {
THGenerator *generator() { return THGenerator_default(); }
}  // namespace luat

#include "lua/csrc/generic/Tensor.cpp"
#include "TH/THGenerateAllTypes.h"

namespace {

int manualSeed(lua_State *L) {
  lua_Number s = luaL_checknumber(L, 1);
  THRandom_manualSeed(luat::generator(), static_cast<uint64_t>(s));
  return 0;
}
int seed(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THRandom_seed(luat::generator())));
  return 1;
}
int initialSeed(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THRandom_initialSeed(luat::generator())));
  return 1;
}
int randomNumber(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THRandom_random(luat::generator())));
  return 1;
}
int uniformNumber(lua_State *L) {
  double a = luaL_optnumber(L, 1, 0), b = luaL_optnumber(L, 2, 1);
  lua_pushnumber(L, THRandom_uniform(luat::generator(), a, b));
  return 1;
}
int normalNumber(lua_State *L) {
  double m = luaL_optnumber(L, 1, 0), s = luaL_optnumber(L, 2, 1);
  luaL_argcheck(L, s > 0, 2, "standard deviation must be positive");
  lua_pushnumber(L, THRandom_normal(luat::generator(), m, s));
  return 1;
}
int exponentialNumber(lua_State *L) {
  double lambda = luaL_optnumber(L, 1, 1);
  luaL_argcheck(L, lambda > 0, 1, "lambda must be positive");
  lua_pushnumber(L, THRandom_exponential(luat::generator(), lambda));
  return 1;
}
int cauchyNumber(lua_State *L) {
  double median = luaL_optnumber(L, 1, 0), sigma = luaL_optnumber(L, 2, 1);
  luaL_argcheck(L, sigma > 0, 2, "sigma must be positive");
  lua_pushnumber(L, THRandom_cauchy(luat::generator(), median, sigma));
  return 1;
}
int logNormalNumber(lua_State *L) {
  double m = luaL_optnumber(L, 1, 1), s = luaL_optnumber(L, 2, 2);
  luaL_argcheck(L, s > 0, 2, "standard deviation must be positive");
  lua_pushnumber(L, THRandom_logNormal(luat::generator(), m, s));
  return 1;
}
int geometricNumber(lua_State *L) {
  double p = luaL_checknumber(L, 1);
  luaL_argcheck(L, p > 0 && p < 1, 1, "p must be > 0 and < 1");
  lua_pushnumber(L, THRandom_geometric(luat::generator(), p));
  return 1;
}
int bernoulliNumber(lua_State *L) {
  double p = luaL_optnumber(L, 1, 0.5);
  luaL_argcheck(L, p >= 0 && p <= 1, 1, "probability must be in [0, 1]");
  lua_pushnumber(L, THRandom_bernoulli(luat::generator(), p));
  return 1;
}
// The generator's whole state as a ByteTensor, and back (checked before it is changed).
int getRNGState(lua_State *L) {
  return luat::guard(L, [&] {
    THByteTensor *state = THByteTensor_new();
    luat::pushObject(L, state, "torch.ByteTensor");
    THGenerator_getState(luat::generator(), state);
    return 1;
  });
}
int setRNGState(lua_State *L) {
  THByteTensor *state = static_cast<THByteTensor *>(luat::checkObject(L, 1, "torch.ByteTensor"));
  return luat::guard(L, [&] {
    THGenerator_setState(luat::generator(), state);
    return 0;
  });
}
int setnumthreads(lua_State *L) {
  THSetNumThreads(static_cast<int>(luaL_checkinteger(L, 1)));
  return 0;
}
int getnumthreads(lua_State *L) {
  lua_pushinteger(L, THGetNumThreads());
  return 1;
}

// --- Lua values <-> t7 values ---

// Lua -> t7. classOf (a Lua function at classIdx) names the torch class of a table (nil
// for a plain table); memo keeps one t7 value per Lua table, so shared tables stay shared.
struct ToT7 {
  lua_State *L;
  int classIdx;
  std::map<const void *, t7::Value> memo;
  int depth = 0;

  t7::Value convert(int idx) {
    idx = idx > 0 ? idx : lua_gettop(L) + idx + 1;
    switch (lua_type(L, idx)) {
      case LUA_TNIL: return t7::Value();
      case LUA_TNUMBER: return t7::Value(lua_tonumber(L, idx));
      case LUA_TBOOLEAN: return t7::Value(static_cast<bool>(lua_toboolean(L, idx)));
      case LUA_TSTRING: {
        size_t n;
        const char *s = lua_tolstring(L, idx, &n);
        return t7::Value(std::string(s, n));
      }
      case LUA_TUSERDATA: {
        void *p;
#define LT_FROM_UD(Name, T)                                                                            \
  if ((p = luat::testObject(L, idx, "torch." #Name "Tensor"))) return t7::Value(static_cast<TH##Name##Tensor *>(p)); \
  if ((p = luat::testObject(L, idx, "torch." #Name "Storage"))) return t7::Value(static_cast<TH##Name##Storage *>(p));
        LT_FROM_UD(Byte, uint8_t) LT_FROM_UD(Char, int8_t) LT_FROM_UD(Short, int16_t) LT_FROM_UD(Int, int32_t)
        LT_FROM_UD(Long, int64_t) LT_FROM_UD(Float, float) LT_FROM_UD(Double, double)
#undef LT_FROM_UD
        throw t7::Error("torch.save: cannot save this userdata");
      }
      case LUA_TTABLE: {
        const void *key = lua_topointer(L, idx);
        auto it = memo.find(key);
        if (it != memo.end()) return it->second;
        if (++depth > t7::kMaxDepth) throw t7::Error("torch.save: tables nested too deeply (a cycle?)");
        lua_pushvalue(L, classIdx);
        lua_pushvalue(L, idx);
        lua_call(L, 1, 1);
        std::string cls = lua_isstring(L, -1) ? lua_tostring(L, -1) : "";
        lua_pop(L, 1);
        auto table = std::make_shared<t7::Table>();
        t7::Value result;
        if (cls.empty()) {
          result = t7::Value(table);
        } else {
          result = t7::Value(t7::makeObject(cls, t7::Value(table)));
        }
        memo[key] = result;
        lua_pushnil(L);
        while (lua_next(L, idx)) {
          t7::Value k = convert(-2);
          t7::Value v = convert(-1);
          table->entries.emplace_back(std::move(k), std::move(v));
          lua_pop(L, 1);
        }
        depth--;
        return result;
      }
      default:
        throw t7::Error(std::string("torch.save: cannot save a value of type ") + luaL_typename(L, idx));
    }
  }
};

// t7 -> Lua. makeObject (at makeIdx) turns a class name and its content into a Lua object;
// memoIdx is a table from object identities (light userdata) to the Lua values made.
struct FromT7 {
  lua_State *L;
  int makeIdx;
  int memoIdx;

  bool pushMemo(const void *id) {
    if (!id) return false;
    lua_pushlightuserdata(L, const_cast<void *>(id));
    lua_rawget(L, memoIdx);
    if (!lua_isnil(L, -1)) return true;
    lua_pop(L, 1);
    return false;
  }
  void setMemo(const void *id) {  // value on top of the stack
    lua_pushlightuserdata(L, const_cast<void *>(id));
    lua_pushvalue(L, -2);
    lua_rawset(L, memoIdx);
  }

  void push(const t7::Value &value) {
    lua_checkstack(L, 8);
    switch (value.kind()) {
      case t7::Value::Kind::Nil: lua_pushnil(L); return;
      case t7::Value::Kind::Number: lua_pushnumber(L, value.number()); return;
      case t7::Value::Kind::Boolean: lua_pushboolean(L, value.boolean()); return;
      case t7::Value::Kind::String: lua_pushlstring(L, value.string().data(), value.string().size()); return;
      case t7::Value::Kind::Recursive: {
        t7::Value target = value.target();
        if (!pushMemo(target.identity())) lua_pushnil(L);
        return;
      }
      case t7::Value::Kind::Function:
        throw t7::Error("torch.load: Lua functions in .t7 files are not supported yet");
      case t7::Value::Kind::Table: {
        auto table = value.table();
        if (pushMemo(table.get())) return;
        lua_newtable(L);
        setMemo(table.get());
        for (auto &kv : table->entries) {
          push(kv.first);
          push(kv.second);
          if (lua_isnil(L, -2)) lua_pop(L, 2);
          else lua_rawset(L, -3);
        }
        return;
      }
      case t7::Value::Kind::Object: {
        auto obj = value.object();
        if (obj->tensor) {
          if (pushMemo(obj->tensor.raw())) return;
          obj->tensor.visit([&](auto *t) { pushTensor(t); });
          setMemo(obj->tensor.raw());
          return;
        }
        if (obj->storage) {
          if (pushMemo(obj->storage.raw())) return;
          obj->storage.visit([&](auto *s) { pushStorage(s); });
          setMemo(obj->storage.raw());
          return;
        }
        if (pushMemo(obj.get())) return;
        // the object's identity is its content table, made before its fields are read,
        // so that back references inside it find it
        lua_pushvalue(L, makeIdx);
        lua_pushstring(L, obj->className.c_str());
        if (obj->content.kind() == t7::Value::Kind::Table) {
          auto table = obj->content.table();
          lua_newtable(L);
          lua_pushvalue(L, -1);
          setMemo(obj.get());
          lua_pop(L, 1);
          int at = lua_gettop(L);
          for (auto &kv : table->entries) {
            push(kv.first);
            push(kv.second);
            if (lua_isnil(L, -2)) lua_pop(L, 2);
            else lua_rawset(L, at);
          }
        } else {
          push(obj->content);
        }
        lua_call(L, 2, 1);
        setMemo(obj.get());
        return;
      }
    }
    lua_pushnil(L);
  }

#define LT_PUSH_TH(Name, T)                                            \
  void pushTensor(TH##Name##Tensor *t) {                               \
    TH##Name##Tensor_retain(t);                                        \
    luat::pushObject(L, t, "torch." #Name "Tensor");                   \
  }                                                                    \
  void pushStorage(TH##Name##Storage *s) {                             \
    TH##Name##Storage_retain(s);                                       \
    luat::pushObject(L, s, "torch." #Name "Storage");                  \
  }
  LT_PUSH_TH(Byte, uint8_t) LT_PUSH_TH(Char, int8_t) LT_PUSH_TH(Short, int16_t) LT_PUSH_TH(Int, int32_t)
  LT_PUSH_TH(Long, int64_t) LT_PUSH_TH(Float, float) LT_PUSH_TH(Double, double)
#undef LT_PUSH_TH
  void pushTensor(THHalfTensor *) { throw t7::Error("torch.load: HalfTensor is not supported by the Lua binding"); }
  void pushStorage(THHalfStorage *) { throw t7::Error("torch.load: HalfStorage is not supported by the Lua binding"); }
};

t7::WriteOptions writeOptions(lua_State *L, int idx) {
  t7::WriteOptions o;
  const char *fmt = luaL_optstring(L, idx, "binary");
  std::string f = fmt;
  if (f == "ascii") o.format = t7::Format::Ascii;
  else if (f != "binary") luaL_error(L, "unknown format '%s' (binary or ascii expected)", fmt);
  return o;
}

// save(path, obj, format, classOf)
int save(lua_State *L) {
  const char *path = luaL_checkstring(L, 1);
  luaL_checktype(L, 4, LUA_TFUNCTION);
  t7::WriteOptions o = writeOptions(L, 3);
  return luat::guard(L, [&] {
    ToT7 conv{L, 4, {}};
    t7::Value v = conv.convert(2);
    t7::saveFile(path, v, o);
    return 0;
  });
}
// serialize(obj, format, classOf) -> string
int serialize(lua_State *L) {
  luaL_checktype(L, 3, LUA_TFUNCTION);
  t7::WriteOptions o = writeOptions(L, 2);
  return luat::guard(L, [&] {
    ToT7 conv{L, 3, {}};
    std::string bytes = t7::save(conv.convert(1), o);
    lua_pushlstring(L, bytes.data(), bytes.size());
    return 1;
  });
}

t7::ReadOptions readOptions(lua_State *L, int idx) {
  t7::ReadOptions o;
  if (!lua_isnoneornil(L, idx)) {
    std::string f = luaL_checkstring(L, idx);
    if (f == "ascii") o.format = t7::Format::Ascii;
    else if (f == "binary") o.format = t7::Format::Binary;
    else if (f == "b32") { o.format = t7::Format::Binary; o.longSize = 4; }
    else if (f == "b64") { o.format = t7::Format::Binary; o.longSize = 8; }
    else luaL_error(L, "unknown format '%s' (binary, ascii, b32 or b64 expected)", f.c_str());
  }
  return o;
}

// load(path, format, makeObject) / deserialize(bytes, format, makeObject)
int loadCommon(lua_State *L, bool fromFile) {
  size_t n;
  const char *arg = luaL_checklstring(L, 1, &n);
  luaL_checktype(L, 3, LUA_TFUNCTION);
  t7::ReadOptions o = readOptions(L, 2);
  lua_settop(L, 3);
  lua_newtable(L);  // memo at 4
  return luat::guard(L, [&] {
    t7::Value v = fromFile ? t7::loadFile(std::string(arg, n), o) : t7::load(arg, n, o);
    FromT7 conv{L, 3, 4};
    conv.push(v);
    return 1;
  });
}
int load(lua_State *L) { return loadCommon(L, true); }
int deserialize(lua_State *L) { return loadCommon(L, false); }

const luaL_Reg functions[] = {
    {"manualSeed", manualSeed},
    {"seed", seed},
    {"initialSeed", initialSeed},
    {"random", randomNumber},
    {"uniform", uniformNumber},
    {"normal", normalNumber},
    {"exponential", exponentialNumber},
    {"cauchy", cauchyNumber},
    {"logNormal", logNormalNumber},
    {"geometric", geometricNumber},
    {"bernoulli", bernoulliNumber},
    {"getRNGState", getRNGState},
    {"setRNGState", setRNGState},
    {"setnumthreads", setnumthreads},
    {"getnumthreads", getnumthreads},
    {"save", save},
    {"serialize", serialize},
    {"load", load},
    {"deserialize", deserialize},
    {nullptr, nullptr},
};

}  // namespace

extern "C" __attribute__((visibility("default"))) int luaopen_torch_cimpl(lua_State *L) {
  lua_newtable(L);
  luaL_register(L, nullptr, functions);
  LT_Byteopen(L);
  LT_Charopen(L);
  LT_Shortopen(L);
  LT_Intopen(L);
  LT_Longopen(L);
  LT_Floatopen(L);
  LT_Doubleopen(L);
  return 1;
}
