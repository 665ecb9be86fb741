// One element type's storage and tensor functions (included once per type, see Tensor.cpp).
// Dimensions and indices coming from Lua count from 1 and are converted here.
#ifndef TH_GENERIC_FILE
#define TH_GENERIC_FILE "lua/csrc/generic/Tensor.cpp"
#else

#define LT_STORAGE_NAME "torch." LT_STR(Real) "Storage"
#define LT_TENSOR_NAME "torch." LT_STR(Real) "Tensor"
#define LT_(NAME) LT_CAT3(LT_, Real, NAME)

static THStorage *LT_(checkStorage)(lua_State *L, int idx) {
  return static_cast<THStorage *>(luat::checkObject(L, idx, LT_STORAGE_NAME));
}
static THTensor *LT_(check)(lua_State *L, int idx) {
  return static_cast<THTensor *>(luat::checkObject(L, idx, LT_TENSOR_NAME));
}
static void LT_(pushStorage)(lua_State *L, THStorage *s) { luat::pushObject(L, s, LT_STORAGE_NAME); }
static void LT_(push)(lua_State *L, THTensor *t) { luat::pushObject(L, t, LT_TENSOR_NAME); }

// Half holds IEEE half precision and converts on access, as torch7's HalfTensor did.
#ifdef TH_REAL_IS_HALF
static lua_Number LT_(toNumber)(scalar_t v) { return TH_half2float(v); }
static scalar_t LT_(fromNumber)(lua_Number n) { return TH_float2half(static_cast<float>(n)); }
#else
static lua_Number LT_(toNumber)(scalar_t v) { return static_cast<lua_Number>(v); }
static scalar_t LT_(fromNumber)(lua_Number n) { return static_cast<scalar_t>(n); }
#endif

static scalar_t LT_(checkValue)(lua_State *L, int idx) {
  if (lua_isboolean(L, idx)) return LT_(fromNumber)(lua_toboolean(L, idx));
  return LT_(fromNumber)(luaL_checknumber(L, idx));
}

// The dimension argument at idx (1-based in Lua) as TH's 0-based one.
static int LT_(checkDim)(lua_State *L, int idx, THTensor *t) {
  int d = static_cast<int>(luaL_checkinteger(L, idx));
  int n = THTensor_(nElement)(t) == 0 ? 0 : t->nDimension;  // torch7's empty tensor has none
  luaL_argcheck(L, d >= 1 && d <= n, idx,
                n == 0 ? "dimension out of range (tensor has no dimensions)" : "dimension out of range");
  return d - 1;
}

// --- storages ---

static int LT_(storage_new)(lua_State *L) {
  return luat::guard(L, [&] {
    ptrdiff_t n = static_cast<ptrdiff_t>(luaL_optnumber(L, 1, 0));
    luaL_argcheck(L, n >= 0, 1, "storage size must be non-negative");
    LT_(pushStorage)(L, THStorage_(newWithSize)(n));
    return 1;
  });
}
static int LT_(storage_gc)(lua_State *L) {
  luat::Box *b = static_cast<luat::Box *>(lua_touserdata(L, 1));
  if (b && b->ptr) THStorage_(free)(static_cast<THStorage *>(b->ptr));
  if (b) b->ptr = nullptr;
  return 0;
}
static int LT_(storage_size)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THStorage_(size)(LT_(checkStorage)(L, 1))));
  return 1;
}
static int LT_(storage_get)(lua_State *L) {
  THStorage *s = LT_(checkStorage)(L, 1);
  int64_t i = static_cast<int64_t>(luaL_checknumber(L, 2));
  if (i < 1 || i > THStorage_(size)(s))
    return luaL_error(L, "index %d out of bounds for a storage of size %d", (int)i, (int)THStorage_(size)(s));
  lua_pushnumber(L, LT_(toNumber)(THStorage_(data)(s)[i - 1]));
  return 1;
}
static int LT_(storage_set)(lua_State *L) {
  THStorage *s = LT_(checkStorage)(L, 1);
  int64_t i = static_cast<int64_t>(luaL_checknumber(L, 2));
  scalar_t v = LT_(checkValue)(L, 3);
  if (i < 1 || i > THStorage_(size)(s))
    return luaL_error(L, "index %d out of bounds for a storage of size %d", (int)i, (int)THStorage_(size)(s));
  THStorage_(data)(s)[i - 1] = v;
  return 0;
}
static int LT_(storage_resize)(lua_State *L) {
  return luat::guard(L, [&] {
    THStorage *s = LT_(checkStorage)(L, 1);
    lua_Number n = luaL_checknumber(L, 2);
    luaL_argcheck(L, n >= 0, 2, "storage size must be non-negative");
    THStorage_(resize)(s, static_cast<ptrdiff_t>(n));
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(storage_fill)(lua_State *L) {
  THStorage *s = LT_(checkStorage)(L, 1);
  THStorage_(fill)(s, LT_(checkValue)(L, 2));
  lua_settop(L, 1);
  return 1;
}
static int LT_(storage_elementSize)(lua_State *L) {
  lua_pushinteger(L, static_cast<lua_Integer>(THStorage_(elementSize)()));
  return 1;
}

// A storage on `size` elements of another from `offset` (1-based), as torch7's
// Storage(storage, offset, size): its memory is the other's, which it keeps alive (the
// allocator's context) and cannot resize.
static void *LT_(viewMalloc)(void *, ptrdiff_t) {
  THError("a storage view cannot allocate");
  return nullptr;
}
static void LT_(viewFree)(void *ctx, void *) { THStorage_(free)(static_cast<THStorage *>(ctx)); }
static THAllocator LT_(viewAllocator) = {LT_(viewMalloc), nullptr, LT_(viewFree)};
static int LT_(storage_view)(lua_State *L) {
  THStorage *s = LT_(checkStorage)(L, 1);
  const ptrdiff_t n = THStorage_(size)(s);
  const ptrdiff_t offset = static_cast<ptrdiff_t>(luaL_optnumber(L, 2, 1));
  luaL_argcheck(L, offset >= 1 && offset <= n, 2, "offset out of bounds");
  const ptrdiff_t size = static_cast<ptrdiff_t>(luaL_optnumber(L, 3, static_cast<lua_Number>(n - offset + 1)));
  luaL_argcheck(L, size >= 1 && offset - 1 + size <= n, 3, "size out of bounds");
  return luat::guard(L, [&] {
    THStorage_(retain)(s);
    THStorage *v = THStorage_(newWithDataAndAllocator)(THStorage_(data)(s) + offset - 1, size, &LT_(viewAllocator), s);
    LT_(pushStorage)(L, v);
    return 1;
  });
}
// torch7's Storage(filename[, shared[, size[, sharedMem]]]): the file mapped (size 0: all of
// it); shared: writes reach the file, else they stay this storage's; sharedMem (with
// shared): POSIX shared memory of that name rather than a file, removed with the storage
// (Note [Shared memory storages in Lua] in Tensor.cpp).
static int LT_(storage_newMapped)(lua_State *L) {
  const char *filename = luaL_checkstring(L, 1);
  const bool shared = lua_toboolean(L, 2);
  const lua_Number n = luaL_optnumber(L, 3, 0);
  luaL_argcheck(L, n >= 0, 3, "storage size must be non-negative");
  const bool sharedMem = shared && lua_toboolean(L, 4);
  return luat::guard(L, [&] {
    const ptrdiff_t size = static_cast<ptrdiff_t>(n);
    THStorage *s;
    if (!sharedMem) {
      s = THStorage_(newWithMapping)(filename, size, shared ? TH_ALLOCATOR_MAPPED_SHARED : 0);
    } else {
      auto *ctx = new luat::UnlinkingMap{THMapAllocatorContext_new(filename, TH_ALLOCATOR_MAPPED_SHAREDMEM), filename};
      try {
        s = THStorage_(newWithAllocator)(size, &luat::unlinkingMapAllocator, ctx);
      } catch (...) {
        THMapAllocatorContext_free(ctx->map);
        delete ctx;
        throw;
      }
      if (size == 0) s->size = THMapAllocatorContext_size(ctx->map) / static_cast<ptrdiff_t>(sizeof(scalar_t));
      s->flag &= ~TH_STORAGE_RESIZABLE;
    }
    LT_(pushStorage)(L, s);
    return 1;
  });
}
static int LT_(storage_pointer)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(reinterpret_cast<uintptr_t>(LT_(checkStorage)(L, 1))));
  return 1;
}

// --- tensors ---

static int LT_(tensor_gc)(lua_State *L) {
  luat::Box *b = static_cast<luat::Box *>(lua_touserdata(L, 1));
  if (b && b->ptr) THTensor_(free)(static_cast<THTensor *>(b->ptr));
  if (b) b->ptr = nullptr;
  return 0;
}

// new(storage|nil, offset(1-based), sizes LongStorage|nil, strides LongStorage|nil)
static int LT_(tensor_newWithStorage)(lua_State *L) {
  return luat::guard(L, [&] {
    THStorage *s = lua_isnoneornil(L, 1) ? nullptr : LT_(checkStorage)(L, 1);
    int64_t offset = static_cast<int64_t>(luaL_optnumber(L, 2, 1)) - 1;
    std::vector<int64_t> sizes, strides;
    if (!lua_isnoneornil(L, 3)) sizes = luat::readSizes(L, 3);
    if (!lua_isnoneornil(L, 4)) strides = luat::readSizes(L, 4);
    luaL_argcheck(L, offset >= 0, 2, "storage offset must be at least 1");
    luaL_argcheck(L, strides.empty() || strides.size() == sizes.size(), 4, "as many strides as sizes expected");
    for (int64_t v : sizes) luaL_argcheck(L, v >= 0, 3, "sizes must be non-negative");
    THTensor *t;
    if (sizes.empty()) {
      // torch7's empty tensor: no elements
      t = THTensor_(new)();
      if (s) {
        int64_t zero = 0;
        THTensor_(setStorageNd)(t, s, offset, 1, &zero, nullptr);
      }
    } else if (s) {
      if (strides.empty()) {
        // contiguous strides, checked against the storage below
        strides.resize(sizes.size());
        int64_t st = 1;
        for (size_t i = sizes.size(); i-- > 0;) {
          strides[i] = st;
          st *= sizes[i];
        }
      }
      int64_t last = offset;
      bool empty = false;
      for (size_t i = 0; i < sizes.size(); i++) {
        if (sizes[i] == 0) empty = true;
        last += (sizes[i] - 1) * strides[i];
      }
      if (!empty && last >= THStorage_(size)(s))
        luaL_error(L, "the tensor (sizes and offset) does not fit in a storage of size %d", (int)THStorage_(size)(s));
      t = THTensor_(newWithStorage)(s, offset, (int)sizes.size(), sizes.data(), strides.data());
    } else {
      t = THTensor_(newWithSize)((int)sizes.size(), sizes.data(), strides.empty() ? nullptr : strides.data());
    }
    LT_(push)(L, t);
    return 1;
  });
}

static int LT_(tensor_nDimension)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  lua_pushinteger(L, THTensor_(nElement)(t) == 0 ? 0 : t->nDimension);
  return 1;
}
static int LT_(tensor_size)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  bool empty = THTensor_(nElement)(t) == 0;
  if (lua_isnoneornil(L, 2)) {
    luat::pushLongStorage(L, t->size, empty ? 0 : t->nDimension);
    return 1;
  }
  if (empty)
    return luaL_error(L, "dimension %d out of range of a tensor without dimensions", (int)luaL_checkinteger(L, 2));
  lua_pushnumber(L, static_cast<lua_Number>(t->size[LT_(checkDim)(L, 2, t)]));
  return 1;
}
static int LT_(tensor_stride)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  bool empty = THTensor_(nElement)(t) == 0;
  if (lua_isnoneornil(L, 2)) {
    luat::pushLongStorage(L, t->stride, empty ? 0 : t->nDimension);
    return 1;
  }
  if (empty)
    return luaL_error(L, "dimension %d out of range of a tensor without dimensions", (int)luaL_checkinteger(L, 2));
  lua_pushnumber(L, static_cast<lua_Number>(t->stride[LT_(checkDim)(L, 2, t)]));
  return 1;
}
static int LT_(tensor_nElement)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THTensor_(nElement)(LT_(check)(L, 1))));
  return 1;
}
static int LT_(tensor_storageOffset)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(LT_(check)(L, 1)->storageOffset + 1));
  return 1;
}
static int LT_(tensor_storage)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  THStorage *s = t->storage;
  THStorage_(retain)(s);
  LT_(pushStorage)(L, s);
  return 1;
}
static int LT_(tensor_isContiguous)(lua_State *L) {
  lua_pushboolean(L, THTensor_(isContiguous)(LT_(check)(L, 1)));
  return 1;
}
static int LT_(tensor_pointer)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(reinterpret_cast<uintptr_t>(LT_(check)(L, 1))));
  return 1;
}

// Views: each returns a new tensor on the same storage.
static int LT_(tensor_narrow)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    int d = LT_(checkDim)(L, 2, t);
    int64_t first = static_cast<int64_t>(luaL_checknumber(L, 3)) - 1;
    int64_t size = static_cast<int64_t>(luaL_checknumber(L, 4));
    if (first < 0 || size < 0 || first + size > t->size[d])
      luaL_error(L, "narrow: out of range (first %d, size %d) for dimension %d of size %d", (int)first + 1, (int)size,
                 d + 1, (int)t->size[d]);
    LT_(push)(L, THTensor_(newNarrow)(t, d, first, size));
    return 1;
  });
}
static int LT_(tensor_select)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    int d = LT_(checkDim)(L, 2, t);
    int64_t i = static_cast<int64_t>(luaL_checknumber(L, 3));
    if (i < 0) i += t->size[d] + 1;
    if (i < 1 || i > t->size[d])
      luaL_error(L, "index %d is out of range for dimension %d of size %d", (int)i, d + 1, (int)t->size[d]);
    THTensor *r = THTensor_(newSelect)(t, d, i - 1);
    LT_(push)(L, r);
    return 1;
  });
}
static int LT_(tensor_transpose)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    int a = LT_(checkDim)(L, 2, t), b = LT_(checkDim)(L, 3, t);
    LT_(push)(L, THTensor_(newTranspose)(t, a, b));
    return 1;
  });
}
static int LT_(tensor_unfold)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    int d = LT_(checkDim)(L, 2, t);
    int64_t size = static_cast<int64_t>(luaL_checknumber(L, 3));
    int64_t step = static_cast<int64_t>(luaL_checknumber(L, 4));
    LT_(push)(L, THTensor_(newUnfold)(t, d, size, step));
    return 1;
  });
}
static int LT_(tensor_view)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    std::vector<int64_t> sizes = luat::readSizes(L, 2);
    LT_(push)(L, THTensor_(newView)(t, (int)sizes.size(), sizes.data()));
    return 1;
  });
}
static int LT_(tensor_expand)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    std::vector<int64_t> sizes = luat::readSizes(L, 2);
    LT_(push)(L, THTensor_(newExpand)(t, (int)sizes.size(), sizes.data()));
    return 1;
  });
}
static int LT_(tensor_squeeze)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    THTensor *r = THTensor_(newWithTensor)(t);
    if (lua_isnoneornil(L, 2)) {
      // torch7 keeps one dimension when every size is 1
      if (THTensor_(nElement)(t) == 1 && t->nDimension > 0) {
        int64_t one = 1;
        THTensor_(view)(r, t, 1, &one);
      } else {
        THTensor_(squeeze)(r, t);
      }
    } else {
      int d = LT_(checkDim)(L, 2, t);
      if (t->nDimension > 1) THTensor_(squeeze1d)(r, t, d);
    }
    LT_(push)(L, r);
    return 1;
  });
}
// In place: returns self.
static int LT_(tensor_resize)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    std::vector<int64_t> sizes = luat::readSizes(L, 2);
    for (int64_t v : sizes) luaL_argcheck(L, v >= 0, 2, "sizes must be non-negative");
    if (sizes.empty()) sizes.push_back(0);
    THTensor_(resizeNd)(t, (int)sizes.size(), sizes.data(), nullptr);
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(tensor_set)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    THTensor_(set)(t, LT_(check)(L, 2));
    lua_settop(L, 1);
    return 1;
  });
}

// self <- src, element by element, from a tensor of any type.
static int LT_(tensor_copy)(lua_State *L) {
  return luat::guard(L, [&] {
    THTensor *t = LT_(check)(L, 1);
    void *src;
    if (THTensor_(nElement)(t) == 0) {
      lua_settop(L, 1);
      return 1;
    }
#define LT_COPY_FROM(Name, ...)                                                                          \
  if ((src = luat::testObject(L, 2, "torch." #Name "Tensor"))) {                                         \
    auto *s = static_cast<TH##Name##Tensor *>(src);                                                      \
    if (TH##Name##Tensor_nElement(s) != THTensor_(nElement)(t))                                          \
      luaL_error(L, "copy: sizes do not match (%d elements into %d)", (int)TH##Name##Tensor_nElement(s), \
                 (int)THTensor_(nElement)(t));                                                           \
    THTensor_(copy##Name)(t, s);                                                                         \
    lua_settop(L, 1);                                                                                    \
    return 1;                                                                                            \
  }
    TH_FORALL_TYPES(LT_COPY_FROM)
#undef LT_COPY_FROM
    luaL_typerror(L, 2, "tensor");
    return 0;
  });
}
#ifdef TH_REAL_IS_HALF
// TH has no arithmetic on Half: the value goes through a float tensor of the same shape.
static void LT_(fillHalf)(THTensor *t, float v) {
  THFloatTensor *f = THFloatTensor_newWithSize(t->nDimension, t->size, nullptr);
  THFloatTensor_fill(f, v);
  THTensor_(copyFloat)(t, f);
  THFloatTensor_free(f);
}
#endif
static int LT_(tensor_fill)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  scalar_t v = LT_(checkValue)(L, 2);
  return luat::guard(L, [&] {
#ifdef TH_REAL_IS_HALF
    if (THTensor_(nElement)(t) > 0) LT_(fillHalf)(t, TH_half2float(v));
#else
    THTensor_(fill)(t, v);
#endif
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(tensor_zero)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
#ifdef TH_REAL_IS_HALF
    if (THTensor_(nElement)(t) > 0) LT_(fillHalf)(t, 0);
#else
    THTensor_(zero)(t);
#endif
    lua_settop(L, 1);
    return 1;
  });
}
// permute(t, d1, ..., dn): a view whose dimension i is t's dimension di.
static int LT_(tensor_permute)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  const int n = THTensor_(nElement)(t) == 0 ? 0 : t->nDimension;
  luaL_argcheck(L, lua_gettop(L) - 1 == n, 2, "permute: one dimension per dimension of the tensor expected");
  std::vector<int> dims(n);
  std::vector<bool> seen(n, false);
  for (int i = 0; i < n; i++) {
    dims[i] = LT_(checkDim)(L, i + 2, t);
    luaL_argcheck(L, !seen[dims[i]], i + 2, "permute: a dimension appears twice");
    seen[dims[i]] = true;
  }
  return luat::guard(L, [&] {
    THTensor *r = THTensor_(newWithTensor)(t);
    if (n > 0) THTensor_(permute)(r, t, dims.data());
    LT_(push)(L, r);
    return 1;
  });
}
static int LT_(tensor_isSetTo)(lua_State *L) {
  lua_pushboolean(L, THTensor_(isSetTo)(LT_(check)(L, 1), LT_(check)(L, 2)));
  return 1;
}
static int LT_(tensor_isSize)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  std::vector<int64_t> sizes = luat::readSizes(L, 2);
  const int n = THTensor_(nElement)(t) == 0 ? 0 : t->nDimension;
  bool same = static_cast<int>(sizes.size()) == n;
  for (int i = 0; same && i < n; i++) same = sizes[i] == t->size[i];
  lua_pushboolean(L, same);
  return 1;
}
static int LT_(tensor_clone)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    LT_(push)(L, THTensor_(newClone)(t));
    return 1;
  });
}
static int LT_(tensor_contiguous)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    LT_(push)(L, THTensor_(newContiguous)(t));
    return 1;
  });
}

#ifndef TH_REAL_IS_HALF
// --- math primitives: r is the result, written in place (Lua decides r) ---

#define LT_VALUE_OP(op)                                    \
  static int LT_(op)(lua_State * L) {                      \
    THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2); \
    scalar_t v = LT_(checkValue)(L, 3);                    \
    return luat::guard(L, [&] {                            \
      THTensor_(op)(r, t, v);                              \
      return 0;                                            \
    });                                                    \
  }
LT_VALUE_OP(add)
LT_VALUE_OP(mul)
LT_VALUE_OP(div)
LT_VALUE_OP(pow)
LT_VALUE_OP(fmod)
LT_VALUE_OP(remainder)

#define LT_PAIR_OP(op)                                                            \
  static int LT_(op)(lua_State * L) {                                             \
    THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2), *s = LT_(check)(L, 3); \
    return luat::guard(L, [&] {                                                   \
      THTensor_(op)(r, t, s);                                                     \
      return 0;                                                                   \
    });                                                                           \
  }
LT_PAIR_OP(cmul)
LT_PAIR_OP(cdiv)
LT_PAIR_OP(cpow)
LT_PAIR_OP(cmax)
LT_PAIR_OP(cmin)

static int LT_(cadd)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  scalar_t v = LT_(checkValue)(L, 3);
  THTensor *s = LT_(check)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(cadd)(r, t, v, s);
    return 0;
  });
}
static int LT_(addmm)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1);
  scalar_t beta = LT_(checkValue)(L, 2);
  THTensor *t = LT_(check)(L, 3);
  scalar_t alpha = LT_(checkValue)(L, 4);
  THTensor *a = LT_(check)(L, 5), *b = LT_(check)(L, 6);
  return luat::guard(L, [&] {
    THTensor_(addmm)(r, beta, t, alpha, a, b);
    return 0;
  });
}

#define LT_UNARY_OP(op)                                    \
  static int LT_(op)(lua_State * L) {                      \
    THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2); \
    return luat::guard(L, [&] {                            \
      THTensor_(op)(r, t);                                 \
      return 0;                                            \
    });                                                    \
  }
// The unary ops of Note [Pointwise op tables] (TH/THPointwiseOps.h), by their TH names.
#define LT_UNARY_BINDING(Op, torch, th, Types, ...) TH_IF_##Types(LT_UNARY_OP(th))
TH_FORALL_UNARY_OPS(LT_UNARY_BINDING)
#undef LT_UNARY_BINDING
#if TH_REAL_IS_FLOATING
LT_UNARY_OP(round)  // torch7's: halves away from zero
#endif

static int LT_(sumall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(sumall)(t)));
    return 1;
  });
}
static int LT_(prodall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(prodall)(t)));
    return 1;
  });
}
static int LT_(maxall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(maxall)(t)));
    return 1;
  });
}
static int LT_(minall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(minall)(t)));
    return 1;
  });
}
static int LT_(meanall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
#if TH_REAL_IS_FLOATING
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(meanall)(t)));
    return 1;
  });
#else
  ptrdiff_t n = THTensor_(nElement)(t);
  if (n == 0) return luaL_error(L, "mean of an empty tensor");
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(sumall)(t)) / n);
    return 1;
  });
#endif
}
// sum(r, t, dim): torch7 keeps the reduced dimension (size 1)
static int LT_(sum)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  return luat::guard(L, [&] {
    THTensor_(sum)(r, t, d, 1);
    return 0;
  });
}
static int LT_(prod)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  return luat::guard(L, [&] {
    THTensor_(prod)(r, t, d, 1);
    return 0;
  });
}
static int LT_(max)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1);
  THLongTensor *i = static_cast<THLongTensor *>(luat::checkObject(L, 2, "torch.LongTensor"));
  THTensor *t = LT_(check)(L, 3);
  int d = LT_(checkDim)(L, 4, t);
  return luat::guard(L, [&] {
    THTensor_(max)(r, i, t, d, 1);
    return 0;
  });
}
static int LT_(min)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1);
  THLongTensor *i = static_cast<THLongTensor *>(luat::checkObject(L, 2, "torch.LongTensor"));
  THTensor *t = LT_(check)(L, 3);
  int d = LT_(checkDim)(L, 4, t);
  return luat::guard(L, [&] {
    THTensor_(min)(r, i, t, d, 1);
    return 0;
  });
}
#if TH_REAL_IS_FLOATING
static int LT_(mean)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  return luat::guard(L, [&] {
    THTensor_(mean)(r, t, d, 1);
    return 0;
  });
}
#endif
// Index functions: index tensors hold 1-based values (TH built with TH_INDEX_BASE=1).
static THLongTensor *LT_(checkIndex)(lua_State *L, int idx) {
  return static_cast<THLongTensor *>(luat::checkObject(L, idx, "torch.LongTensor"));
}
static int LT_(indexSelect)(lua_State *L) {  // (r, src, dim, index)
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  THLongTensor *i = LT_(checkIndex)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(indexSelect)(r, t, d, i);
    return 0;
  });
}
static int LT_(gather)(lua_State *L) {  // (r, src, dim, index)
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  THLongTensor *i = LT_(checkIndex)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(gather)(r, t, d, i);
    return 0;
  });
}
static int LT_(scatter)(lua_State *L) {  // (t, dim, index, src | value)
  THTensor *t = LT_(check)(L, 1);
  int d = LT_(checkDim)(L, 2, t);
  THLongTensor *i = LT_(checkIndex)(L, 3);
  if (lua_isnumber(L, 4)) {
    scalar_t v = LT_(checkValue)(L, 4);
    return luat::guard(L, [&] {
      THTensor_(scatterFill)(t, d, i, v);
      return 0;
    });
  }
  THTensor *src = LT_(check)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(scatter)(t, d, i, src);
    return 0;
  });
}
static int LT_(sort)(lua_State *L) {  // (rt, ri, t, dim, descending)
  THTensor *rt = LT_(check)(L, 1);
  THLongTensor *ri = LT_(checkIndex)(L, 2);
  THTensor *t = LT_(check)(L, 3);
  int d = LT_(checkDim)(L, 4, t);
  int desc = lua_toboolean(L, 5);
  return luat::guard(L, [&] {
    THTensor_(sort)(rt, ri, t, d, desc);
    return 0;
  });
}
static int LT_(nonzero)(lua_State *L) {  // (r, t)
  THLongTensor *r = LT_(checkIndex)(L, 1);
  THTensor *t = LT_(check)(L, 2);
  return luat::guard(L, [&] {
    THTensor_(nonzero)(r, t);
    return 0;
  });
}

static int LT_(equal)(lua_State *L) {
  THTensor *a = LT_(check)(L, 1), *b = LT_(check)(L, 2);
  return luat::guard(L, [&] {
    lua_pushboolean(L, THTensor_(equal)(a, b));
    return 1;
  });
}

// --- random ---

#if !TH_REAL_IS_FLOATING
// A double tensor of t's sizes, for distributions TH draws only as floating point.
static THDoubleTensor *LT_(drawDoubles)(THTensor *t) {
  return THDoubleTensor_newWithSize(t->nDimension, t->size, nullptr);
}
#endif

static int LT_(uniform)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  double a = luaL_optnumber(L, 2, 0), b = luaL_optnumber(L, 3, 1);
  return luat::guard(L, [&] {
#if TH_REAL_IS_FLOATING
    THTensor_(uniform)(t, luat::generator(), a, b);
#else
    THDoubleTensor *d = LT_(drawDoubles)(t);
    THDoubleTensor_uniform(d, luat::generator(), a, b);
    THTensor_(copyDouble)(t, d);
    THDoubleTensor_free(d);
#endif
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(normal)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  double m = luaL_optnumber(L, 2, 0), s = luaL_optnumber(L, 3, 1);
  luaL_argcheck(L, s > 0, 3, "standard deviation must be positive");
  return luat::guard(L, [&] {
#if TH_REAL_IS_FLOATING
    THTensor_(normal)(t, luat::generator(), m, s);
#else
    THDoubleTensor *d = LT_(drawDoubles)(t);
    THDoubleTensor_normal(d, luat::generator(), m, s);
    THTensor_(copyDouble)(t, d);
    THDoubleTensor_free(d);
#endif
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(bernoulli)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  double p = luaL_optnumber(L, 2, 0.5);
  luaL_argcheck(L, p >= 0 && p <= 1, 2, "probability must be in [0, 1]");
  return luat::guard(L, [&] {
    THTensor_(bernoulli)(t, luat::generator(), p);
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(random)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    THTensor_(random)(t, luat::generator());
    lua_settop(L, 1);
    return 1;
  });
}

// --- the rest of torch7's TensorMath over TH (arguments in TH's order; dims and indices
// 1-based; argument shapes are chosen by TensorMath.lua, sizes and indices checked by TH) ---

static THByteTensor *LT_(checkMask)(lua_State *L, int idx) {
  return static_cast<THByteTensor *>(luat::checkObject(L, idx, "torch.ByteTensor"));
}

LT_VALUE_OP(sub)
LT_VALUE_OP(cmaxValue)
LT_VALUE_OP(cminValue)
static int LT_(tpow)(lua_State *L) {  // (r, value, t): value ^ t
  THTensor *r = LT_(check)(L, 1);
  scalar_t v = LT_(checkValue)(L, 2);
  THTensor *t = LT_(check)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(tpow)(r, v, t);
    return 0;
  });
}
static int LT_(clamp)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  scalar_t lo = LT_(checkValue)(L, 3), hi = LT_(checkValue)(L, 4);
  luaL_argcheck(L, lo <= hi, 4, "clamp: min must not exceed max");
  return luat::guard(L, [&] {
    THTensor_(clamp)(r, t, lo, hi);
    return 0;
  });
}
LT_PAIR_OP(cfmod)
LT_PAIR_OP(cremainder)
static int LT_(csub)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  scalar_t v = LT_(checkValue)(L, 3);
  THTensor *s = LT_(check)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(csub)(r, t, v, s);
    return 0;
  });
}
#define LT_ADDC_OP(op)                                     \
  static int LT_(op)(lua_State * L) {                      \
    THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2); \
    scalar_t v = LT_(checkValue)(L, 3);                    \
    THTensor *a = LT_(check)(L, 4), *b = LT_(check)(L, 5); \
    return luat::guard(L, [&] {                            \
      THTensor_(op)(r, t, v, a, b);                        \
      return 0;                                            \
    });                                                    \
  }
LT_ADDC_OP(addcmul)
LT_ADDC_OP(addcdiv)
#undef LT_ADDC_OP

#if TH_REAL_IS_FLOATING
static int LT_(lerp)(lua_State *L) {  // (r, a, b, weight)
  THTensor *r = LT_(check)(L, 1), *a = LT_(check)(L, 2), *b = LT_(check)(L, 3);
  scalar_t w = LT_(checkValue)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(lerp)(r, a, b, w);
    return 0;
  });
}
#endif

// The binary kernels TH generates from the op tables, under torch7's method names:
// (r, t, src) and (r, t, value).
#define LT_GENERATED_BINARY(cth, th, Types, luaTensor, luaValue, ...)                   \
  TH_IF_##Types(                                                                        \
      static int LT_(cth)(lua_State * L) {                                              \
        THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2), *src = LT_(check)(L, 3); \
        return luat::guard(L, [&] {                                                     \
          THTensor_(cth)(r, t, src);                                                    \
          return 0;                                                                     \
        });                                                                             \
      } static int LT_(th)(lua_State * L) {                                             \
        THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);                          \
        scalar_t v = LT_(checkValue)(L, 3);                                             \
        return luat::guard(L, [&] {                                                     \
          THTensor_(th)(r, t, v);                                                       \
          return 0;                                                                     \
        });                                                                             \
      })
TH_FORALL_GENERATED_BINARY_KERNELS(LT_GENERATED_BINARY)
#undef LT_GENERATED_BINARY

// Comparisons: (mask, t, value | tensor) into a ByteTensor, or with T (r, t, ...) into t's type.
#define LT_COMPARE_OP(op)                                                         \
  static int LT_(op##Value)(lua_State * L) {                                      \
    THByteTensor *r = LT_(checkMask)(L, 1);                                       \
    THTensor *t = LT_(check)(L, 2);                                               \
    scalar_t v = LT_(checkValue)(L, 3);                                           \
    return luat::guard(L, [&] {                                                   \
      THTensor_(op##Value)(r, t, v);                                              \
      return 0;                                                                   \
    });                                                                           \
  }                                                                               \
  static int LT_(op##ValueT)(lua_State * L) {                                     \
    THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);                        \
    scalar_t v = LT_(checkValue)(L, 3);                                           \
    return luat::guard(L, [&] {                                                   \
      THTensor_(op##ValueT)(r, t, v);                                             \
      return 0;                                                                   \
    });                                                                           \
  }                                                                               \
  static int LT_(op##Tensor)(lua_State * L) {                                     \
    THByteTensor *r = LT_(checkMask)(L, 1);                                       \
    THTensor *a = LT_(check)(L, 2), *b = LT_(check)(L, 3);                        \
    return luat::guard(L, [&] {                                                   \
      THTensor_(op##Tensor)(r, a, b);                                             \
      return 0;                                                                   \
    });                                                                           \
  }                                                                               \
  static int LT_(op##TensorT)(lua_State * L) {                                    \
    THTensor *r = LT_(check)(L, 1), *a = LT_(check)(L, 2), *b = LT_(check)(L, 3); \
    return luat::guard(L, [&] {                                                   \
      THTensor_(op##TensorT)(r, a, b);                                            \
      return 0;                                                                   \
    });                                                                           \
  }
#define LT_COMPARE_BINDING(Op, torch, th, alias) LT_COMPARE_OP(th)
TH_FORALL_COMPARE_OPS(LT_COMPARE_BINDING)
#undef LT_COMPARE_BINDING
#undef LT_COMPARE_OP

#if defined(TH_REAL_IS_BYTE)
static int LT_(all)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    lua_pushboolean(L, THTensor_(logicalall)(t));
    return 1;
  });
}
static int LT_(any)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    lua_pushboolean(L, THTensor_(logicalany)(t));
    return 1;
  });
}
#endif

// --- reductions ---

static int LT_(trace)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(trace)(t)));
    return 1;
  });
}
static int LT_(cumsum)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  return luat::guard(L, [&] {
    THTensor_(cumsum)(r, t, d);
    return 0;
  });
}
static int LT_(cumprod)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  return luat::guard(L, [&] {
    THTensor_(cumprod)(r, t, d);
    return 0;
  });
}
#if TH_REAL_IS_FLOATING
static int LT_(varall)(lua_State *L) {  // (t, biased)
  THTensor *t = LT_(check)(L, 1);
  int biased = lua_toboolean(L, 2);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(varall)(t, biased)));
    return 1;
  });
}
static int LT_(stdall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  int biased = lua_toboolean(L, 2);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(stdall)(t, biased)));
    return 1;
  });
}
static int LT_(var)(lua_State *L) {  // (r, t, dim, biased)
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  int biased = lua_toboolean(L, 4);
  return luat::guard(L, [&] {
    THTensor_(var)(r, t, d, biased, 1);
    return 0;
  });
}
static int LT_(std)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  int biased = lua_toboolean(L, 4);
  return luat::guard(L, [&] {
    THTensor_(std)(r, t, d, biased, 1);
    return 0;
  });
}
static int LT_(normall)(lua_State *L) {  // (t, p)
  THTensor *t = LT_(check)(L, 1);
  scalar_t p = LT_(checkValue)(L, 2);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(normall)(t, p)));
    return 1;
  });
}
static int LT_(norm)(lua_State *L) {  // (r, t, p, dim)
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  scalar_t p = LT_(checkValue)(L, 3);
  int d = LT_(checkDim)(L, 4, t);
  return luat::guard(L, [&] {
    THTensor_(norm)(r, t, p, d, 1);
    return 0;
  });
}
static int LT_(dist)(lua_State *L) {  // (a, b, p)
  THTensor *a = LT_(check)(L, 1), *b = LT_(check)(L, 2);
  scalar_t p = LT_(checkValue)(L, 3);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(dist)(a, b, p)));
    return 1;
  });
}
static int LT_(renorm)(lua_State *L) {  // (r, t, p, dim, maxnorm)
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  scalar_t p = LT_(checkValue)(L, 3);
  int d = LT_(checkDim)(L, 4, t);
  scalar_t maxnorm = LT_(checkValue)(L, 5);
  luaL_argcheck(L, p > 0, 3, "renorm: p must be positive");
  return luat::guard(L, [&] {
    THTensor_(renorm)(r, t, p, d, maxnorm);
    return 0;
  });
}
static int LT_(histc)(lua_State *L) {  // (r, t, nbins, min, max)
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int64_t nbins = static_cast<int64_t>(luaL_checknumber(L, 3));
  scalar_t lo = LT_(checkValue)(L, 4), hi = LT_(checkValue)(L, 5);
  luaL_argcheck(L, nbins > 0, 3, "histc: the number of bins must be positive");
  luaL_argcheck(L, lo <= hi, 5, "histc: min must not exceed max");
  return luat::guard(L, [&] {
    THTensor_(histc)(r, t, nbins, lo, hi);
    return 0;
  });
}
static int LT_(linspace)(lua_State *L) {  // (r, a, b, n)
  THTensor *r = LT_(check)(L, 1);
  scalar_t a = LT_(checkValue)(L, 2), b = LT_(checkValue)(L, 3);
  int64_t n = static_cast<int64_t>(luaL_checknumber(L, 4));
  // as torch7: one point only between equal ends
  luaL_argcheck(L, n > 1 || (n == 1 && a == b), 4, "linspace: 2 points at least between distinct ends");
  return luat::guard(L, [&] {
    THTensor_(linspace)(r, a, b, n);
    return 0;
  });
}
static int LT_(logspace)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1);
  scalar_t a = LT_(checkValue)(L, 2), b = LT_(checkValue)(L, 3);
  int64_t n = static_cast<int64_t>(luaL_checknumber(L, 4));
  // as torch7: one point only between equal ends
  luaL_argcheck(L, n > 1 || (n == 1 && a == b), 4, "logspace: 2 points at least between distinct ends");
  return luat::guard(L, [&] {
    THTensor_(logspace)(r, a, b, n);
    return 0;
  });
}
#endif

// (values, indices, t, dim) and friends: torch7 keeps the reduced dimension
#define LT_INDEXED_REDUCE(op)                \
  static int LT_(op)(lua_State * L) {        \
    THTensor *r = LT_(check)(L, 1);          \
    THLongTensor *i = LT_(checkIndex)(L, 2); \
    THTensor *t = LT_(check)(L, 3);          \
    int d = LT_(checkDim)(L, 4, t);          \
    return luat::guard(L, [&] {              \
      THTensor_(op)(r, i, t, d, 1);          \
      return 0;                              \
    });                                      \
  }
LT_INDEXED_REDUCE(median)
LT_INDEXED_REDUCE(mode)
#undef LT_INDEXED_REDUCE
static int LT_(kthvalue)(lua_State *L) {  // (values, indices, t, k, dim)
  THTensor *r = LT_(check)(L, 1);
  THLongTensor *i = LT_(checkIndex)(L, 2);
  THTensor *t = LT_(check)(L, 3);
  int64_t k = static_cast<int64_t>(luaL_checknumber(L, 4));
  int d = LT_(checkDim)(L, 5, t);
  if (k < 1 || k > t->size[d])
    return luaL_error(L, "kthvalue: k = %d is out of range for a dimension of size %d", (int)k, (int)t->size[d]);
  return luat::guard(L, [&] {
    THTensor_(kthvalue)(r, i, t, k, d, 1);
    return 0;
  });
}
static int LT_(topk)(lua_State *L) {  // (values, indices, t, k, dim, largest, sorted)
  THTensor *r = LT_(check)(L, 1);
  THLongTensor *i = LT_(checkIndex)(L, 2);
  THTensor *t = LT_(check)(L, 3);
  int64_t k = static_cast<int64_t>(luaL_checknumber(L, 4));
  int d = LT_(checkDim)(L, 5, t);
  int dir = lua_toboolean(L, 6), sorted = lua_toboolean(L, 7);
  if (k < 0 || k > t->size[d])
    return luaL_error(L, "topk: k = %d is out of range for a dimension of size %d", (int)k, (int)t->size[d]);
  return luat::guard(L, [&] {
    THTensor_(topk)(r, i, t, k, d, dir, sorted);
    return 0;
  });
}

// --- construction and structure ---

static int LT_(eye)(lua_State *L) {  // (r, n, m)
  THTensor *r = LT_(check)(L, 1);
  int64_t n = static_cast<int64_t>(luaL_checknumber(L, 2)), m = static_cast<int64_t>(luaL_optnumber(L, 3, 0));
  luaL_argcheck(L, n > 0, 2, "eye: the number of rows must be positive");
  luaL_argcheck(L, m >= 0, 3, "eye: the number of columns must not be negative");
  return luat::guard(L, [&] {
    THTensor_(eye)(r, n, m);
    return 0;
  });
}
static int LT_(range)(lua_State *L) {  // (r, xmin, xmax, step)
  THTensor *r = LT_(check)(L, 1);
  double a = luaL_checknumber(L, 2), b = luaL_checknumber(L, 3), step = luaL_checknumber(L, 4);
  luaL_argcheck(L, step != 0, 4, "range: step must not be zero");
  luaL_argcheck(L, (step > 0 && b >= a) || (step < 0 && b <= a), 4, "range: the step does not lead from xmin to xmax");
  return luat::guard(L, [&] {
    THTensor_(range)(r, a, b, step);
    return 0;
  });
}
static int LT_(diag)(lua_State *L) {  // (r, t, k)
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int k = static_cast<int>(luaL_checkinteger(L, 3));
  return luat::guard(L, [&] {
    THTensor_(diag)(r, t, k);
    return 0;
  });
}
static int LT_(tril)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int64_t k = static_cast<int64_t>(luaL_checknumber(L, 3));
  return luat::guard(L, [&] {
    THTensor_(tril)(r, t, k);
    return 0;
  });
}
static int LT_(triu)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int64_t k = static_cast<int64_t>(luaL_checknumber(L, 3));
  return luat::guard(L, [&] {
    THTensor_(triu)(r, t, k);
    return 0;
  });
}
// (r, {tensors...}, dim): the tensors are non-empty and of this type (TensorMath.lua checks)
static int LT_(catArray)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  int n = static_cast<int>(lua_objlen(L, 2));
  std::vector<THTensor *> inputs(n);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, 2, i + 1);
    inputs[i] = LT_(check)(L, -1);
    lua_pop(L, 1);
  }
  luaL_argcheck(L, n > 0, 2, "cat: at least one tensor expected");
  int d = LT_(checkDim)(L, 3, inputs[0]);
  return luat::guard(L, [&] {
    THTensor_(catArray)(r, inputs.data(), n, d);
    return 0;
  });
}
static int LT_(cross)(lua_State *L) {  // (r, a, b, dim); dim 0: the first dimension of size 3
  THTensor *r = LT_(check)(L, 1), *a = LT_(check)(L, 2), *b = LT_(check)(L, 3);
  int d = luaL_checkinteger(L, 4) == 0 ? -1 : LT_(checkDim)(L, 4, a);
  return luat::guard(L, [&] {
    THTensor_(cross)(r, a, b, d);
    return 0;
  });
}

// --- matrix products ---

static int LT_(dot)(lua_State *L) {
  THTensor *a = LT_(check)(L, 1), *b = LT_(check)(L, 2);
  return luat::guard(L, [&] {
    lua_pushnumber(L, static_cast<lua_Number>(THTensor_(dot)(a, b)));
    return 1;
  });
}
#define LT_PRODUCT_OP(op)                                                         \
  static int LT_(op)(lua_State * L) {                                             \
    THTensor *r = LT_(check)(L, 1), *a = LT_(check)(L, 2), *b = LT_(check)(L, 3); \
    return luat::guard(L, [&] {                                                   \
      THTensor_(op)(r, a, b);                                                     \
      return 0;                                                                   \
    });                                                                           \
  }
LT_PRODUCT_OP(mv)
LT_PRODUCT_OP(mm)
LT_PRODUCT_OP(bmm)
#undef LT_PRODUCT_OP
static int LT_(ger)(lua_State *L) {  // (r, vec1, vec2): the outer product, r's old values ignored
  THTensor *r = LT_(check)(L, 1), *a = LT_(check)(L, 2), *b = LT_(check)(L, 3);
  luaL_argcheck(L, a->nDimension == 1 && b->nDimension == 1, 2, "ger: vectors expected");
  return luat::guard(L, [&] {
    THTensor *zeros = THTensor_(newWithSize2d)(a->size[0], b->size[0]);
    THTensor_(zero)(zeros);
    THTensor_(addr)(r, 0, zeros, 1, a, b);
    THTensor_(free)(zeros);
    return 0;
  });
}
// (r, beta, t, alpha, a, b): r = beta t + alpha a*b
#define LT_ADDPRODUCT_OP(op)                               \
  static int LT_(op)(lua_State * L) {                      \
    THTensor *r = LT_(check)(L, 1);                        \
    scalar_t beta = LT_(checkValue)(L, 2);                 \
    THTensor *t = LT_(check)(L, 3);                        \
    scalar_t alpha = LT_(checkValue)(L, 4);                \
    THTensor *a = LT_(check)(L, 5), *b = LT_(check)(L, 6); \
    return luat::guard(L, [&] {                            \
      THTensor_(op)(r, beta, t, alpha, a, b);              \
      return 0;                                            \
    });                                                    \
  }
LT_ADDPRODUCT_OP(addmv)
LT_ADDPRODUCT_OP(addr)
LT_ADDPRODUCT_OP(addbmm)
LT_ADDPRODUCT_OP(baddbmm)
#undef LT_ADDPRODUCT_OP

// (r, x, k, nd, flip, mode): torch7's conv2/conv3 (flip) and xcorr2/xcorr3
static int LT_(conv)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *x = LT_(check)(L, 2), *k = LT_(check)(L, 3);
  int nd = static_cast<int>(luaL_checkinteger(L, 4)), flip = lua_toboolean(L, 5);
  const char *mode = luaL_checkstring(L, 6);
  return luat::guard(L, [&] {
    THTensor_(conv)(r, x, k, nd, flip, mode[0]);
    return 0;
  });
}

// --- index and mask functions (1-based indices) ---

static int LT_(indexCopy)(lua_State *L) {  // (t, dim, index, src)
  THTensor *t = LT_(check)(L, 1);
  int d = LT_(checkDim)(L, 2, t);
  THLongTensor *i = LT_(checkIndex)(L, 3);
  THTensor *src = LT_(check)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(indexCopy)(t, d, i, src);
    return 0;
  });
}
static int LT_(indexAdd)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  int d = LT_(checkDim)(L, 2, t);
  THLongTensor *i = LT_(checkIndex)(L, 3);
  THTensor *src = LT_(check)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(indexAdd)(t, d, i, src);
    return 0;
  });
}
static int LT_(indexFill)(lua_State *L) {  // (t, dim, index, value)
  THTensor *t = LT_(check)(L, 1);
  int d = LT_(checkDim)(L, 2, t);
  THLongTensor *i = LT_(checkIndex)(L, 3);
  scalar_t v = LT_(checkValue)(L, 4);
  return luat::guard(L, [&] {
    THTensor_(indexFill)(t, d, i, v);
    return 0;
  });
}
static int LT_(maskedFill)(lua_State *L) {  // (t, mask, value)
  THTensor *t = LT_(check)(L, 1);
  THByteTensor *m = LT_(checkMask)(L, 2);
  scalar_t v = LT_(checkValue)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(maskedFill)(t, m, v);
    return 0;
  });
}
static int LT_(maskedCopy)(lua_State *L) {  // (t, mask, src)
  THTensor *t = LT_(check)(L, 1);
  THByteTensor *m = LT_(checkMask)(L, 2);
  THTensor *src = LT_(check)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(maskedCopy)(t, m, src);
    return 0;
  });
}
static int LT_(maskedSelect)(lua_State *L) {  // (r, src, mask)
  THTensor *r = LT_(check)(L, 1), *src = LT_(check)(L, 2);
  THByteTensor *m = LT_(checkMask)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(maskedSelect)(r, src, m);
    return 0;
  });
}

// --- random (in place on the first argument, which is returned) ---

static int LT_(clampedRandom)(lua_State *L) {  // (t, min, max): integers in [min, max)
  THTensor *t = LT_(check)(L, 1);
  int64_t a = static_cast<int64_t>(luaL_checknumber(L, 2)), b = static_cast<int64_t>(luaL_checknumber(L, 3));
  return luat::guard(L, [&] {
    THTensor_(clampedRandom)(t, luat::generator(), a, b);
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(geometric)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  double p = luaL_checknumber(L, 2);
  return luat::guard(L, [&] {
    THTensor_(geometric)(t, luat::generator(), p);
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(bernoulliTensor)(lua_State *L) {  // (t, p): p a FloatTensor or DoubleTensor
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] {
    if (auto *pf = static_cast<THFloatTensor *>(luat::testObject(L, 2, "torch.FloatTensor")))
      THTensor_(bernoulli_FloatTensor)(t, luat::generator(), pf);
    else
      THTensor_(bernoulli_DoubleTensor)(t, luat::generator(),
                                        static_cast<THDoubleTensor *>(luat::checkObject(L, 2, "torch.DoubleTensor")));
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(randperm)(lua_State *L) {  // (r, n)
  THTensor *r = LT_(check)(L, 1);
  int64_t n = static_cast<int64_t>(luaL_checknumber(L, 2));
  luaL_argcheck(L, n >= 1, 2, "randperm: n must be positive");
  return luat::guard(L, [&] {
    THTensor_(randperm)(r, luat::generator(), n);
    return 0;
  });
}
#if TH_REAL_IS_FLOATING
static int LT_(exponential)(lua_State *L) {  // (t, lambda)
  THTensor *t = LT_(check)(L, 1);
  double lambda = luaL_optnumber(L, 2, 1);
  luaL_argcheck(L, lambda > 0, 2, "exponential: lambda must be positive");
  return luat::guard(L, [&] {
    THTensor_(exponential)(t, luat::generator(), lambda);
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(cauchy)(lua_State *L) {  // (t, median, sigma)
  THTensor *t = LT_(check)(L, 1);
  double median = luaL_optnumber(L, 2, 0), sigma = luaL_optnumber(L, 3, 1);
  luaL_argcheck(L, sigma > 0, 3, "cauchy: sigma must be positive");
  return luat::guard(L, [&] {
    THTensor_(cauchy)(t, luat::generator(), median, sigma);
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(logNormal)(lua_State *L) {  // (t, mean, stdv)
  THTensor *t = LT_(check)(L, 1);
  double mean = luaL_optnumber(L, 2, 1), stdv = luaL_optnumber(L, 3, 2);
  luaL_argcheck(L, stdv > 0, 3, "logNormal: the standard deviation must be positive");
  return luat::guard(L, [&] {
    THTensor_(logNormal)(t, luat::generator(), mean, stdv);
    lua_settop(L, 1);
    return 1;
  });
}
static int LT_(multinomial)(lua_State *L) {  // (r LongTensor, prob, n, replacement)
  THLongTensor *r = LT_(checkIndex)(L, 1);
  THTensor *p = LT_(check)(L, 2);
  int n = static_cast<int>(luaL_checkinteger(L, 3));
  int replacement = lua_toboolean(L, 4);
  luaL_argcheck(L, n >= 1, 3, "multinomial: the number of samples must be positive");
  return luat::guard(L, [&] {
    THTensor_(multinomial)(r, luat::generator(), p, n, replacement);
    return 0;
  });
}
#endif

// --- LAPACK (Float and Double); option letters are checked by TensorMath.lua ---

#if TH_REAL_IS_FLOATING
#define LT_SOLVE_OP(op)                                                                                    \
  static int LT_(op)(lua_State * L) {                                                                      \
    THTensor *rb = LT_(check)(L, 1), *ra = LT_(check)(L, 2), *b = LT_(check)(L, 3), *a = LT_(check)(L, 4); \
    return luat::guard(L, [&] {                                                                            \
      THTensor_(op)(rb, ra, b, a);                                                                         \
      return 0;                                                                                            \
    });                                                                                                    \
  }
LT_SOLVE_OP(gesv)
LT_SOLVE_OP(gels)
#undef LT_SOLVE_OP
static int LT_(getri)(lua_State *L) {
  THTensor *ra = LT_(check)(L, 1), *a = LT_(check)(L, 2);
  return luat::guard(L, [&] {
    THTensor_(getri)(ra, a);
    return 0;
  });
}
static int LT_(potrf)(lua_State *L) {  // (ra, a, uplo)
  THTensor *ra = LT_(check)(L, 1), *a = LT_(check)(L, 2);
  const char *uplo = luaL_checkstring(L, 3);
  return luat::guard(L, [&] {
    THTensor_(potrf)(ra, a, uplo);
    return 0;
  });
}
static int LT_(potri)(lua_State *L) {
  THTensor *ra = LT_(check)(L, 1), *a = LT_(check)(L, 2);
  const char *uplo = luaL_checkstring(L, 3);
  return luat::guard(L, [&] {
    THTensor_(potri)(ra, a, uplo);
    return 0;
  });
}
static int LT_(potrs)(lua_State *L) {  // (rb, b, a, uplo)
  THTensor *rb = LT_(check)(L, 1), *b = LT_(check)(L, 2), *a = LT_(check)(L, 3);
  const char *uplo = luaL_checkstring(L, 4);
  return luat::guard(L, [&] {
    THTensor_(potrs)(rb, b, a, uplo);
    return 0;
  });
}
static int LT_(syev)(lua_State *L) {  // (re, rv, a, jobz, uplo)
  THTensor *re = LT_(check)(L, 1), *rv = LT_(check)(L, 2), *a = LT_(check)(L, 3);
  const char *jobz = luaL_checkstring(L, 4), *uplo = luaL_checkstring(L, 5);
  return luat::guard(L, [&] {
    THTensor_(syev)(re, rv, a, jobz, uplo);
    return 0;
  });
}
static int LT_(geev)(lua_State *L) {  // (re, rv, a, jobvr)
  THTensor *re = LT_(check)(L, 1), *rv = LT_(check)(L, 2), *a = LT_(check)(L, 3);
  const char *jobvr = luaL_checkstring(L, 4);
  return luat::guard(L, [&] {
    THTensor_(geev)(re, rv, a, jobvr);
    return 0;
  });
}
static int LT_(gesvd)(lua_State *L) {  // (ru, rs, rv, a, jobu)
  THTensor *ru = LT_(check)(L, 1), *rs = LT_(check)(L, 2), *rv = LT_(check)(L, 3), *a = LT_(check)(L, 4);
  const char *jobu = luaL_checkstring(L, 5);
  return luat::guard(L, [&] {
    THTensor_(gesvd)(ru, rs, rv, a, jobu);
    return 0;
  });
}
static int LT_(pstrf)(lua_State *L) {  // (ra, rpiv IntTensor, a, uplo, tol): pivots from 1
  THTensor *ra = LT_(check)(L, 1);
  auto *piv = static_cast<THIntTensor *>(luat::checkObject(L, 2, "torch.IntTensor"));
  THTensor *a = LT_(check)(L, 3);
  const char *uplo = luaL_checkstring(L, 4);
  scalar_t tol = static_cast<scalar_t>(luaL_optnumber(L, 5, -1));
  return luat::guard(L, [&] {
    THTensor_(pstrf)(ra, piv, a, uplo, tol);
    THIntTensor_add(piv, piv, 1);
    return 0;
  });
}
static int LT_(multinomialAliasSetup)(lua_State *L) {  // (probs, J, q)
  THTensor *probs = LT_(check)(L, 1);
  THLongTensor *J = LT_(checkIndex)(L, 2);
  THTensor *q = LT_(check)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(multinomialAliasSetup)(probs, J, q);
    return 0;
  });
}
static int LT_(multinomialAliasDraw)(lua_State *L) {  // (self, J, q)
  THLongTensor *self = LT_(checkIndex)(L, 1), *J = LT_(checkIndex)(L, 2);
  THTensor *q = LT_(check)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(multinomialAliasDraw)(self, luat::generator(), J, q);
    return 0;
  });
}
static int LT_(qr)(lua_State *L) {  // (rq, rr, a)
  THTensor *rq = LT_(check)(L, 1), *rr = LT_(check)(L, 2), *a = LT_(check)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(qr)(rq, rr, a);
    return 0;
  });
}
static int LT_(geqrf)(lua_State *L) {  // (ra, rtau, a)
  THTensor *ra = LT_(check)(L, 1), *rtau = LT_(check)(L, 2), *a = LT_(check)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(geqrf)(ra, rtau, a);
    return 0;
  });
}
static int LT_(orgqr)(lua_State *L) {  // (rq, a, tau)
  THTensor *rq = LT_(check)(L, 1), *a = LT_(check)(L, 2), *tau = LT_(check)(L, 3);
  return luat::guard(L, [&] {
    THTensor_(orgqr)(rq, a, tau);
    return 0;
  });
}
static int LT_(ormqr)(lua_State *L) {  // (rc, a, tau, c, side, trans)
  THTensor *rc = LT_(check)(L, 1), *a = LT_(check)(L, 2), *tau = LT_(check)(L, 3), *c = LT_(check)(L, 4);
  const char *side = luaL_checkstring(L, 5), *trans = luaL_checkstring(L, 6);
  return luat::guard(L, [&] {
    THTensor_(ormqr)(rc, a, tau, c, side, trans);
    return 0;
  });
}
#endif

#undef LT_VALUE_OP
#undef LT_PAIR_OP
#undef LT_UNARY_OP
#endif  // TH_REAL_IS_HALF

static const luaL_Reg LT_(functions)[] = {
    {"storage_new", LT_(storage_new)},
    {"storage_gc", LT_(storage_gc)},
    {"storage_size", LT_(storage_size)},
    {"storage_get", LT_(storage_get)},
    {"storage_set", LT_(storage_set)},
    {"storage_resize", LT_(storage_resize)},
    {"storage_fill", LT_(storage_fill)},
    {"storage_pointer", LT_(storage_pointer)},
    {"storage_elementSize", LT_(storage_elementSize)},
    {"storage_view", LT_(storage_view)},
    {"storage_newMapped", LT_(storage_newMapped)},
    {"tensor_gc", LT_(tensor_gc)},
    {"new", LT_(tensor_newWithStorage)},
    {"nDimension", LT_(tensor_nDimension)},
    {"size", LT_(tensor_size)},
    {"stride", LT_(tensor_stride)},
    {"nElement", LT_(tensor_nElement)},
    {"storageOffset", LT_(tensor_storageOffset)},
    {"storage", LT_(tensor_storage)},
    {"isContiguous", LT_(tensor_isContiguous)},
    {"pointer", LT_(tensor_pointer)},
    {"narrow", LT_(tensor_narrow)},
    {"select", LT_(tensor_select)},
    {"transpose", LT_(tensor_transpose)},
    {"unfold", LT_(tensor_unfold)},
    {"view", LT_(tensor_view)},
    {"expand", LT_(tensor_expand)},
    {"squeeze", LT_(tensor_squeeze)},
    {"resize", LT_(tensor_resize)},
    {"set", LT_(tensor_set)},
    {"copy", LT_(tensor_copy)},
    {"fill", LT_(tensor_fill)},
    {"zero", LT_(tensor_zero)},
    {"clone", LT_(tensor_clone)},
    {"contiguous", LT_(tensor_contiguous)},
    {"permute", LT_(tensor_permute)},
    {"isSetTo", LT_(tensor_isSetTo)},
    {"isSize", LT_(tensor_isSize)},
    {nullptr, nullptr},
};

#ifndef TH_REAL_IS_HALF
static const luaL_Reg LT_(mathFunctions)[] = {
    {"add", LT_(add)},
    {"mul", LT_(mul)},
    {"div", LT_(div)},
    {"pow", LT_(pow)},
    {"fmod", LT_(fmod)},
    {"remainder", LT_(remainder)},
    {"cmul", LT_(cmul)},
    {"cdiv", LT_(cdiv)},
    {"cpow", LT_(cpow)},
    {"cmax", LT_(cmax)},
    {"cmin", LT_(cmin)},
    {"cadd", LT_(cadd)},
    {"addmm", LT_(addmm)},
#if TH_REAL_IS_FLOATING
    {"round", LT_(round)},
    {"mean", LT_(mean)},
#endif
    {"sumall", LT_(sumall)},
    {"prodall", LT_(prodall)},
    {"maxall", LT_(maxall)},
    {"minall", LT_(minall)},
    {"meanall", LT_(meanall)},
    {"sum", LT_(sum)},
    {"prod", LT_(prod)},
    {"max", LT_(max)},
    {"min", LT_(min)},
    {"equal", LT_(equal)},
    {"indexSelect", LT_(indexSelect)},
    {"gather", LT_(gather)},
    {"scatter", LT_(scatter)},
    {"sort", LT_(sort)},
    {"nonzero", LT_(nonzero)},
    {"uniform", LT_(uniform)},
    {"normal", LT_(normal)},
    {"bernoulli", LT_(bernoulli)},
    {"random", LT_(random)},
    {"sub", LT_(sub)},
    {"cmaxValue", LT_(cmaxValue)},
    {"cminValue", LT_(cminValue)},
    {"tpow", LT_(tpow)},
    {"clamp", LT_(clamp)},
    {"cfmod", LT_(cfmod)},
    {"cremainder", LT_(cremainder)},
    {"csub", LT_(csub)},
    {"addcmul", LT_(addcmul)},
    {"addcdiv", LT_(addcdiv)},
#define LT_COMPARE_REG(op)                                                                         \
  {#op "Value", LT_(op##Value)}, {#op "ValueT", LT_(op##ValueT)}, {#op "Tensor", LT_(op##Tensor)}, \
      {#op "TensorT", LT_(op##TensorT)},
#define LT_COMPARE_ENTRY(Op, torch, th, alias) LT_COMPARE_REG(th)
    TH_FORALL_COMPARE_OPS(LT_COMPARE_ENTRY)
#undef LT_COMPARE_ENTRY
#undef LT_COMPARE_REG
#define LT_UNARY_ENTRY(Op, torch, th, Types, ...) TH_IF_##Types({#th, LT_(th)}, )
        TH_FORALL_UNARY_OPS(LT_UNARY_ENTRY)
#undef LT_UNARY_ENTRY
#define LT_GENERATED_BINARY_ENTRY(cth, th, Types, luaTensor, luaValue, ...) \
  TH_IF_##Types({#luaTensor, LT_(cth)}, {#luaValue, LT_(th)}, )
            TH_FORALL_GENERATED_BINARY_KERNELS(LT_GENERATED_BINARY_ENTRY)
#undef LT_GENERATED_BINARY_ENTRY
#if defined(TH_REAL_IS_BYTE)
                {"all", LT_(all)},
    {"any", LT_(any)},
#endif
    {"trace", LT_(trace)},
    {"cumsum", LT_(cumsum)},
    {"cumprod", LT_(cumprod)},
    {"median", LT_(median)},
    {"mode", LT_(mode)},
    {"kthvalue", LT_(kthvalue)},
    {"topk", LT_(topk)},
    {"eye", LT_(eye)},
    {"range", LT_(range)},
    {"diag", LT_(diag)},
    {"tril", LT_(tril)},
    {"triu", LT_(triu)},
    {"catArray", LT_(catArray)},
    {"cross", LT_(cross)},
    {"dot", LT_(dot)},
    {"mv", LT_(mv)},
    {"mm", LT_(mm)},
    {"bmm", LT_(bmm)},
    {"ger", LT_(ger)},
    {"addmv", LT_(addmv)},
    {"addr", LT_(addr)},
    {"addbmm", LT_(addbmm)},
    {"baddbmm", LT_(baddbmm)},
    {"conv", LT_(conv)},
    {"indexCopy", LT_(indexCopy)},
    {"indexAdd", LT_(indexAdd)},
    {"indexFill", LT_(indexFill)},
    {"maskedFill", LT_(maskedFill)},
    {"maskedCopy", LT_(maskedCopy)},
    {"maskedSelect", LT_(maskedSelect)},
    {"clampedRandom", LT_(clampedRandom)},
    {"geometric", LT_(geometric)},
    {"bernoulliTensor", LT_(bernoulliTensor)},
    {"randperm", LT_(randperm)},
#if TH_REAL_IS_FLOATING
    {"lerp", LT_(lerp)},
    {"varall", LT_(varall)},
    {"stdall", LT_(stdall)},
    {"var", LT_(var)},
    {"std", LT_(std)},
    {"normall", LT_(normall)},
    {"norm", LT_(norm)},
    {"dist", LT_(dist)},
    {"renorm", LT_(renorm)},
    {"histc", LT_(histc)},
    {"linspace", LT_(linspace)},
    {"logspace", LT_(logspace)},
    {"exponential", LT_(exponential)},
    {"cauchy", LT_(cauchy)},
    {"logNormal", LT_(logNormal)},
    {"multinomial", LT_(multinomial)},
    {"gesv", LT_(gesv)},
    {"gels", LT_(gels)},
    {"getri", LT_(getri)},
    {"potrf", LT_(potrf)},
    {"potrs", LT_(potrs)},
    {"potri", LT_(potri)},
    {"syev", LT_(syev)},
    {"geev", LT_(geev)},
    {"gesvd", LT_(gesvd)},
    {"qr", LT_(qr)},
    {"geqrf", LT_(geqrf)},
    {"orgqr", LT_(orgqr)},
    {"ormqr", LT_(ormqr)},
    {"pstrf", LT_(pstrf)},
    {"multinomialAliasSetup", LT_(multinomialAliasSetup)},
    {"multinomialAliasDraw", LT_(multinomialAliasDraw)},
#endif
    {nullptr, nullptr},
};
#endif

static void LT_(open)(lua_State *L) {
  luaL_newmetatable(L, LT_STORAGE_NAME);
  lua_pop(L, 1);
  luaL_newmetatable(L, LT_TENSOR_NAME);
  lua_pop(L, 1);
  lua_newtable(L);
  luaL_register(L, nullptr, LT_(functions));
#ifndef TH_REAL_IS_HALF
  luaL_register(L, nullptr, LT_(mathFunctions));
#endif
  lua_setfield(L, -2, LT_STR(Real));
}

#undef LT_STORAGE_NAME
#undef LT_TENSOR_NAME
#undef LT_
#endif
