// Shared helpers of the LuaJIT binding: boxing TH pointers as userdata of a named class,
// and turning TH's C++ exceptions into Lua errors.
#ifndef LUA_TORCH_COMMON_H
#define LUA_TORCH_COMMON_H

#include <lua.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "TH/TH.h"

// The bytes that THAlloc/THRealloc hold for this copy of TH right now (as malloc counts them),
// defined in TH/THGeneral.cpp.
TH_API ptrdiff_t THHeapSize(void);

namespace luat {

// The userdata of a storage or tensor: one reference on the TH object.
struct Box {
  void *ptr;
};

// Note [Heap tracking]: Lua's collector counts only the small userdata of a tensor, not
// the memory TH holds for it, so a loop that drops a fresh 1 MB tensor at each turn would
// grow by 1 MB a turn until the collector happens to run. As torch7's
// torch.setheaptracking(true) did, the binding watches TH's heap (THHeapSize) and runs a
// full collection when it has grown past twice what the last collection left (64 MB at
// least). The check sits where the binding hands Lua a new storage or tensor, on the Lua
// thread that receives it: collecting there runs finalizers on the running thread, with
// the new object not yet Lua's, unlike collecting inside TH's allocator (torch7's way),
// which may happen on any thread. On by default; torch.setheaptracking(false) turns it off.
struct HeapTracking {
  static constexpr ptrdiff_t kMinThreshold = ptrdiff_t(64) << 20;
  std::atomic<bool> enabled{true};
  std::atomic<ptrdiff_t> threshold{kMinThreshold};
  // Bytes of memory another copy of TH made (Python's, in the bridge) that Lua took a
  // reference on since the last collection: TH's count here does not see them.
  std::atomic<ptrdiff_t> foreign{0};
};
inline HeapTracking &heapTracking() {
  static HeapTracking tracking;
  return tracking;
}

inline void collectIfHeapGrew(lua_State *L) {
  HeapTracking &h = heapTracking();
  if (!h.enabled.load(std::memory_order_relaxed) ||
      THHeapSize() + h.foreign.load(std::memory_order_relaxed) <= h.threshold.load(std::memory_order_relaxed))
    return;
  lua_gc(L, LUA_GCCOLLECT, 0);
  const ptrdiff_t live = THHeapSize();
  h.foreign.store(0, std::memory_order_relaxed);
  h.threshold.store(live > HeapTracking::kMinThreshold / 2 ? 2 * live : HeapTracking::kMinThreshold,
                    std::memory_order_relaxed);
}

// For a binding that hands Lua a reference on memory that another copy of TH made.
inline void noteForeignBytes(ptrdiff_t bytes) { heapTracking().foreign.fetch_add(bytes, std::memory_order_relaxed); }

// Pushes a new userdata holding p (whose reference it takes over) with the metatable
// registered under tname.
inline void pushObject(lua_State *L, void *p, const char *tname) {
  collectIfHeapGrew(L);
  Box *b = static_cast<Box *>(lua_newuserdata(L, sizeof(Box)));
  b->ptr = p;
  luaL_getmetatable(L, tname);
  lua_setmetatable(L, -2);
}

// The object at idx when it is a userdata of class tname, else null.
inline void *testObject(lua_State *L, int idx, const char *tname) {
  void *u = lua_touserdata(L, idx);
  if (!u || !lua_getmetatable(L, idx)) return nullptr;
  luaL_getmetatable(L, tname);
  bool same = lua_rawequal(L, -1, -2);
  lua_pop(L, 2);
  return same ? static_cast<Box *>(u)->ptr : nullptr;
}

inline void *checkObject(lua_State *L, int idx, const char *tname) {
  void *p = testObject(L, idx, tname);
  if (!p) luaL_typerror(L, idx, tname);
  return p;
}

// Runs f and turns a C++ exception into a Lua error. The message is copied out of the
// exception first, so that no C++ object is alive when lua_error unwinds the stack.
template <typename F>
int guard(lua_State *L, F &&f) {
  char msg[1024];
  try {
    return f();
  } catch (const std::exception &e) {
    // Lua's own errors (luaL_error inside f) are foreign exceptions and pass through.
    snprintf(msg, sizeof msg, "%s", e.what());
  }
  return luaL_error(L, "%s", msg);
}

// Sizes given as numbers from idx on, or as one LongStorage at idx.
inline std::vector<int64_t> readSizes(lua_State *L, int idx) {
  std::vector<int64_t> sizes;
  if (THLongStorage *s = static_cast<THLongStorage *>(testObject(L, idx, "torch.LongStorage"))) {
    for (ptrdiff_t i = 0; i < THLongStorage_size(s); i++) sizes.push_back(THLongStorage_get(s, i));
    return sizes;
  }
  int top = lua_gettop(L);
  for (int i = idx; i <= top; i++) {
    if (lua_isnil(L, i)) break;
    sizes.push_back(static_cast<int64_t>(luaL_checknumber(L, i)));
  }
  return sizes;
}

inline void pushLongStorage(lua_State *L, const int64_t *v, int n) {
  THLongStorage *s = THLongStorage_newWithSize(n);
  for (int i = 0; i < n; i++) THLongStorage_set(s, i, v[i]);
  pushObject(L, s, "torch.LongStorage");
}

THGenerator *generator();

}  // namespace luat

#endif
