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

static scalar_t LT_(checkValue)(lua_State *L, int idx) {
  if (lua_isboolean(L, idx)) return static_cast<scalar_t>(lua_toboolean(L, idx));
  return static_cast<scalar_t>(luaL_checknumber(L, idx));
}

// The dimension argument at idx (1-based in Lua) as TH's 0-based one.
static int LT_(checkDim)(lua_State *L, int idx, THTensor *t) {
  int d = static_cast<int>(luaL_checkinteger(L, idx));
  int n = THTensor_(nElement)(t) == 0 ? 0 : t->nDimension;  // torch7's empty tensor has none
  luaL_argcheck(L, d >= 1 && d <= n, idx, n == 0 ? "dimension out of range (tensor has no dimensions)"
                                                  : "dimension out of range");
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
  if (i < 1 || i > THStorage_(size)(s)) return luaL_error(L, "index %d out of bounds for a storage of size %d", (int)i, (int)THStorage_(size)(s));
  lua_pushnumber(L, static_cast<lua_Number>(THStorage_(data)(s)[i - 1]));
  return 1;
}
static int LT_(storage_set)(lua_State *L) {
  THStorage *s = LT_(checkStorage)(L, 1);
  int64_t i = static_cast<int64_t>(luaL_checknumber(L, 2));
  scalar_t v = LT_(checkValue)(L, 3);
  if (i < 1 || i > THStorage_(size)(s)) return luaL_error(L, "index %d out of bounds for a storage of size %d", (int)i, (int)THStorage_(size)(s));
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
        for (size_t i = sizes.size(); i-- > 0;) { strides[i] = st; st *= sizes[i]; }
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
  if (empty) return luaL_error(L, "dimension %d out of range of a tensor without dimensions", (int)luaL_checkinteger(L, 2));
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
  if (empty) return luaL_error(L, "dimension %d out of range of a tensor without dimensions", (int)luaL_checkinteger(L, 2));
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
      luaL_error(L, "narrow: out of range (first %d, size %d) for dimension %d of size %d", (int)first + 1, (int)size, d + 1, (int)t->size[d]);
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
    if (THTensor_(nElement)(t) == 0) { lua_settop(L, 1); return 1; }
#define LT_COPY_FROM(Name)                                                                  \
    if ((src = luat::testObject(L, 2, "torch." #Name "Tensor"))) {                           \
      auto *s = static_cast<TH##Name##Tensor *>(src);                                        \
      if (TH##Name##Tensor_nElement(s) != THTensor_(nElement)(t))                            \
        luaL_error(L, "copy: sizes do not match (%d elements into %d)", (int)TH##Name##Tensor_nElement(s), (int)THTensor_(nElement)(t)); \
      THTensor_(copy##Name)(t, s);                                                           \
      lua_settop(L, 1);                                                                      \
      return 1;                                                                              \
    }
    LT_COPY_FROM(Byte) LT_COPY_FROM(Char) LT_COPY_FROM(Short) LT_COPY_FROM(Int)
    LT_COPY_FROM(Long) LT_COPY_FROM(Float) LT_COPY_FROM(Double)
#undef LT_COPY_FROM
    luaL_typerror(L, 2, "tensor");
    return 0;
  });
}
static int LT_(tensor_fill)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  scalar_t v = LT_(checkValue)(L, 2);
  return luat::guard(L, [&] { THTensor_(fill)(t, v); lua_settop(L, 1); return 1; });
}
static int LT_(tensor_zero)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] { THTensor_(zero)(t); lua_settop(L, 1); return 1; });
}
static int LT_(tensor_clone)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] { LT_(push)(L, THTensor_(newClone)(t)); return 1; });
}
static int LT_(tensor_contiguous)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] { LT_(push)(L, THTensor_(newContiguous)(t)); return 1; });
}

// --- math primitives: r is the result, written in place (Lua decides r) ---

#define LT_VALUE_OP(op)                                                      \
  static int LT_(op)(lua_State * L) {                                        \
    THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);                   \
    scalar_t v = LT_(checkValue)(L, 3);                                      \
    return luat::guard(L, [&] { THTensor_(op)(r, t, v); return 0; });        \
  }
LT_VALUE_OP(add)
LT_VALUE_OP(mul)
LT_VALUE_OP(div)
LT_VALUE_OP(pow)
LT_VALUE_OP(fmod)
LT_VALUE_OP(remainder)
#undef LT_VALUE_OP

#define LT_PAIR_OP(op)                                                                     \
  static int LT_(op)(lua_State * L) {                                                      \
    THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2), *s = LT_(check)(L, 3);          \
    return luat::guard(L, [&] { THTensor_(op)(r, t, s); return 0; });                      \
  }
LT_PAIR_OP(cmul)
LT_PAIR_OP(cdiv)
LT_PAIR_OP(cpow)
LT_PAIR_OP(cmax)
LT_PAIR_OP(cmin)
#undef LT_PAIR_OP

static int LT_(cadd)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  scalar_t v = LT_(checkValue)(L, 3);
  THTensor *s = LT_(check)(L, 4);
  return luat::guard(L, [&] { THTensor_(cadd)(r, t, v, s); return 0; });
}
static int LT_(addmm)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1);
  scalar_t beta = LT_(checkValue)(L, 2);
  THTensor *t = LT_(check)(L, 3);
  scalar_t alpha = LT_(checkValue)(L, 4);
  THTensor *a = LT_(check)(L, 5), *b = LT_(check)(L, 6);
  return luat::guard(L, [&] { THTensor_(addmm)(r, beta, t, alpha, a, b); return 0; });
}

#define LT_UNARY_OP(op)                                              \
  static int LT_(op)(lua_State * L) {                                \
    THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);           \
    return luat::guard(L, [&] { THTensor_(op)(r, t); return 0; });   \
  }
#if !defined(TH_REAL_IS_BYTE)
LT_UNARY_OP(neg)
LT_UNARY_OP(abs)
#endif
LT_UNARY_OP(sign)
#if TH_REAL_IS_FLOATING
LT_UNARY_OP(exp)
LT_UNARY_OP(log)
LT_UNARY_OP(sqrt)
LT_UNARY_OP(tanh)
LT_UNARY_OP(sigmoid)
LT_UNARY_OP(sin)
LT_UNARY_OP(cos)
LT_UNARY_OP(floor)
LT_UNARY_OP(ceil)
LT_UNARY_OP(round)
#endif
#undef LT_UNARY_OP

static int LT_(sumall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] { lua_pushnumber(L, static_cast<lua_Number>(THTensor_(sumall)(t))); return 1; });
}
static int LT_(prodall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] { lua_pushnumber(L, static_cast<lua_Number>(THTensor_(prodall)(t))); return 1; });
}
static int LT_(maxall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] { lua_pushnumber(L, static_cast<lua_Number>(THTensor_(maxall)(t))); return 1; });
}
static int LT_(minall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] { lua_pushnumber(L, static_cast<lua_Number>(THTensor_(minall)(t))); return 1; });
}
static int LT_(meanall)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
#if TH_REAL_IS_FLOATING
  return luat::guard(L, [&] { lua_pushnumber(L, static_cast<lua_Number>(THTensor_(meanall)(t))); return 1; });
#else
  ptrdiff_t n = THTensor_(nElement)(t);
  if (n == 0) return luaL_error(L, "mean of an empty tensor");
  return luat::guard(L, [&] { lua_pushnumber(L, static_cast<lua_Number>(THTensor_(sumall)(t)) / n); return 1; });
#endif
}
// sum(r, t, dim): torch7 keeps the reduced dimension (size 1)
static int LT_(sum)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  return luat::guard(L, [&] { THTensor_(sum)(r, t, d, 1); return 0; });
}
static int LT_(prod)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  return luat::guard(L, [&] { THTensor_(prod)(r, t, d, 1); return 0; });
}
static int LT_(max)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1);
  THLongTensor *i = static_cast<THLongTensor *>(luat::checkObject(L, 2, "torch.LongTensor"));
  THTensor *t = LT_(check)(L, 3);
  int d = LT_(checkDim)(L, 4, t);
  return luat::guard(L, [&] { THTensor_(max)(r, i, t, d, 1); return 0; });
}
static int LT_(min)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1);
  THLongTensor *i = static_cast<THLongTensor *>(luat::checkObject(L, 2, "torch.LongTensor"));
  THTensor *t = LT_(check)(L, 3);
  int d = LT_(checkDim)(L, 4, t);
  return luat::guard(L, [&] { THTensor_(min)(r, i, t, d, 1); return 0; });
}
#if TH_REAL_IS_FLOATING
static int LT_(mean)(lua_State *L) {
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  return luat::guard(L, [&] { THTensor_(mean)(r, t, d, 1); return 0; });
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
  return luat::guard(L, [&] { THTensor_(indexSelect)(r, t, d, i); return 0; });
}
static int LT_(gather)(lua_State *L) {  // (r, src, dim, index)
  THTensor *r = LT_(check)(L, 1), *t = LT_(check)(L, 2);
  int d = LT_(checkDim)(L, 3, t);
  THLongTensor *i = LT_(checkIndex)(L, 4);
  return luat::guard(L, [&] { THTensor_(gather)(r, t, d, i); return 0; });
}
static int LT_(scatter)(lua_State *L) {  // (t, dim, index, src | value)
  THTensor *t = LT_(check)(L, 1);
  int d = LT_(checkDim)(L, 2, t);
  THLongTensor *i = LT_(checkIndex)(L, 3);
  if (lua_isnumber(L, 4)) {
    scalar_t v = LT_(checkValue)(L, 4);
    return luat::guard(L, [&] { THTensor_(scatterFill)(t, d, i, v); return 0; });
  }
  THTensor *src = LT_(check)(L, 4);
  return luat::guard(L, [&] { THTensor_(scatter)(t, d, i, src); return 0; });
}
static int LT_(sort)(lua_State *L) {  // (rt, ri, t, dim, descending)
  THTensor *rt = LT_(check)(L, 1);
  THLongTensor *ri = LT_(checkIndex)(L, 2);
  THTensor *t = LT_(check)(L, 3);
  int d = LT_(checkDim)(L, 4, t);
  int desc = lua_toboolean(L, 5);
  return luat::guard(L, [&] { THTensor_(sort)(rt, ri, t, d, desc); return 0; });
}
static int LT_(nonzero)(lua_State *L) {  // (r, t)
  THLongTensor *r = LT_(checkIndex)(L, 1);
  THTensor *t = LT_(check)(L, 2);
  return luat::guard(L, [&] { THTensor_(nonzero)(r, t); return 0; });
}

static int LT_(equal)(lua_State *L) {
  THTensor *a = LT_(check)(L, 1), *b = LT_(check)(L, 2);
  return luat::guard(L, [&] { lua_pushboolean(L, THTensor_(equal)(a, b)); return 1; });
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
  return luat::guard(L, [&] { THTensor_(bernoulli)(t, luat::generator(), p); lua_settop(L, 1); return 1; });
}
static int LT_(random)(lua_State *L) {
  THTensor *t = LT_(check)(L, 1);
  return luat::guard(L, [&] { THTensor_(random)(t, luat::generator()); lua_settop(L, 1); return 1; });
}

static const luaL_Reg LT_(functions)[] = {
    {"storage_new", LT_(storage_new)},
    {"storage_gc", LT_(storage_gc)},
    {"storage_size", LT_(storage_size)},
    {"storage_get", LT_(storage_get)},
    {"storage_set", LT_(storage_set)},
    {"storage_resize", LT_(storage_resize)},
    {"storage_fill", LT_(storage_fill)},
    {"storage_pointer", LT_(storage_pointer)},
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
#if !defined(TH_REAL_IS_BYTE)
    {"neg", LT_(neg)},
    {"abs", LT_(abs)},
#endif
    {"sign", LT_(sign)},
#if TH_REAL_IS_FLOATING
    {"exp", LT_(exp)},
    {"log", LT_(log)},
    {"sqrt", LT_(sqrt)},
    {"tanh", LT_(tanh)},
    {"sigmoid", LT_(sigmoid)},
    {"sin", LT_(sin)},
    {"cos", LT_(cos)},
    {"floor", LT_(floor)},
    {"ceil", LT_(ceil)},
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
    {nullptr, nullptr},
};

static void LT_(open)(lua_State *L) {
  luaL_newmetatable(L, LT_STORAGE_NAME);
  lua_pop(L, 1);
  luaL_newmetatable(L, LT_TENSOR_NAME);
  lua_pop(L, 1);
  lua_newtable(L);
  luaL_register(L, nullptr, LT_(functions));
  lua_setfield(L, -2, LT_STR(Real));
}

#undef LT_STORAGE_NAME
#undef LT_TENSOR_NAME
#undef LT_
#endif
