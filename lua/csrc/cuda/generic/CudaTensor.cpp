// One element type's CUDA storage and tensor functions for `require 'cutorch'`, over THC
// (index groups built with TH_INDEX_BASE=1); included once per THC type by Cutorch.cpp.
// The functions carry the CPU binding's names and argument orders (lua/csrc/generic/
// Tensor.cpp), so that torch's Lua classes and TensorMath declarations (lua/torch/*.lua)
// serve these types as they are. Dimensions and indices from Lua count from 1.
#ifndef THC_GENERIC_FILE
#error "include lua/csrc/cuda/Cutorch.cpp's generator instead"
#endif

#define LC_STORAGE_NAME "torch.Cuda" LC_STR(CReal) "Storage"
#define LC_TENSOR_NAME "torch.Cuda" LC_STR(CReal) "Tensor"
#define LC_(NAME) LC_CAT3(LC_, Real, NAME)

static THCStorage *LC_(checkStorage)(lua_State *L, int idx) {
  return static_cast<THCStorage *>(luat::checkObject(L, idx, LC_STORAGE_NAME));
}
static THCTensor *LC_(check)(lua_State *L, int idx) {
  return static_cast<THCTensor *>(luat::checkObject(L, idx, LC_TENSOR_NAME));
}
static void LC_(pushStorage)(lua_State *L, THCStorage *s) { luat::pushObject(L, s, LC_STORAGE_NAME); }
static void LC_(push)(lua_State *L, THCTensor *t) { luat::pushObject(L, t, LC_TENSOR_NAME); }

#ifdef TH_REAL_IS_HALF
static lua_Number LC_(toNumber)(scalar_t v) { return TH_half2float(v); }
static scalar_t LC_(fromNumber)(lua_Number n) { return TH_float2half(static_cast<float>(n)); }
#else
static lua_Number LC_(toNumber)(scalar_t v) { return static_cast<lua_Number>(v); }
static scalar_t LC_(fromNumber)(lua_Number n) { return static_cast<scalar_t>(n); }
#endif
static scalar_t LC_(checkValue)(lua_State *L, int idx) {
  if (lua_isboolean(L, idx)) return LC_(fromNumber)(lua_toboolean(L, idx));
  return LC_(fromNumber)(luaL_checknumber(L, idx));
}
// The dimension argument at idx (1-based in Lua) as THC's 0-based one.
static int LC_(checkDim)(lua_State *L, int idx, THCTensor *t) {
  int d = static_cast<int>(luaL_checkinteger(L, idx));
  int n = THCTensor_(nElement)(cutorch::state(), t) == 0 ? 0 : t->nDimension;
  luaL_argcheck(L, d >= 1 && d <= n, idx,
                n == 0 ? "dimension out of range (tensor has no dimensions)" : "dimension out of range");
  return d - 1;
}

// --- storages ---

static int LC_(storage_new)(lua_State *L) {
  ptrdiff_t n = static_cast<ptrdiff_t>(luaL_optnumber(L, 1, 0));
  luaL_argcheck(L, n >= 0, 1, "storage size must be non-negative");
  return luat::guard(L, [&] {
    LC_(pushStorage)(L, THCStorage_(newWithSize)(cutorch::state(), n));
    return 1;
  });
}
static int LC_(storage_gc)(lua_State *L) {
  luat::Box *b = static_cast<luat::Box *>(lua_touserdata(L, 1));
  if (b && b->ptr) THCStorage_(free)(cutorch::state(), static_cast<THCStorage *>(b->ptr));
  if (b) b->ptr = nullptr;
  return 0;
}
static int LC_(storage_size)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(LC_(checkStorage)(L, 1)->size));
  return 1;
}
static int LC_(storage_get)(lua_State *L) {
  THCStorage *s = LC_(checkStorage)(L, 1);
  int64_t i = static_cast<int64_t>(luaL_checknumber(L, 2));
  if (i < 1 || i > s->size)
    return luaL_error(L, "index %d out of bounds for a storage of size %d", (int)i, (int)s->size);
  return luat::guard(L, [&] {
    lua_pushnumber(L, LC_(toNumber)(THCStorage_(get)(cutorch::state(), s, i - 1)));
    return 1;
  });
}
static int LC_(storage_set)(lua_State *L) {
  THCStorage *s = LC_(checkStorage)(L, 1);
  int64_t i = static_cast<int64_t>(luaL_checknumber(L, 2));
  scalar_t v = LC_(checkValue)(L, 3);
  if (i < 1 || i > s->size)
    return luaL_error(L, "index %d out of bounds for a storage of size %d", (int)i, (int)s->size);
  return luat::guard(L, [&] {
    THCStorage_(set)(cutorch::state(), s, i - 1, v);
    return 0;
  });
}
static int LC_(storage_resize)(lua_State *L) {
  THCStorage *s = LC_(checkStorage)(L, 1);
  lua_Number n = luaL_checknumber(L, 2);
  luaL_argcheck(L, n >= 0, 2, "storage size must be non-negative");
  return luat::guard(L, [&] {
    THCStorage_(resize)(cutorch::state(), s, static_cast<ptrdiff_t>(n));
    lua_settop(L, 1);
    return 1;
  });
}
static int LC_(storage_fill)(lua_State *L) {
  THCStorage *s = LC_(checkStorage)(L, 1);
  scalar_t v = LC_(checkValue)(L, 2);
  return luat::guard(L, [&] {
    THCStorage_(fill)(cutorch::state(), s, v);
    lua_settop(L, 1);
    return 1;
  });
}
static int LC_(storage_elementSize)(lua_State *L) {
  lua_pushinteger(L, static_cast<lua_Integer>(sizeof(scalar_t)));
  return 1;
}
static int LC_(storage_pointer)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(reinterpret_cast<uintptr_t>(LC_(checkStorage)(L, 1))));
  return 1;
}
// storage_copyFrom(cuda, cpu) / storage_copyTo(cpu, cuda): whole storages of one element
// type and size, between host and device.
static int LC_(storage_copyFrom)(lua_State *L) {
  THCStorage *s = LC_(checkStorage)(L, 1);
  THStorage *src = static_cast<THStorage *>(luat::checkObject(L, 2, "torch." LC_STR(Real) "Storage"));
  luaL_argcheck(L, src->size == s->size, 2, "copy: storages of different sizes");
  return luat::guard(L, [&] {
    THCStorage_(copyCPU)(cutorch::state(), s, src);
    lua_settop(L, 1);
    return 1;
  });
}
static int LC_(storage_copyTo)(lua_State *L) {
  THStorage *r = static_cast<THStorage *>(luat::checkObject(L, 1, "torch." LC_STR(Real) "Storage"));
  THCStorage *s = LC_(checkStorage)(L, 2);
  luaL_argcheck(L, r->size == s->size, 2, "copy: storages of different sizes");
  return luat::guard(L, [&] {
    THStorage_(copyCuda)(cutorch::state(), r, s);
    lua_settop(L, 1);
    return 1;
  });
}

// --- tensors ---

static int LC_(tensor_gc)(lua_State *L) {
  luat::Box *b = static_cast<luat::Box *>(lua_touserdata(L, 1));
  if (b && b->ptr) THCTensor_(free)(cutorch::state(), static_cast<THCTensor *>(b->ptr));
  if (b) b->ptr = nullptr;
  return 0;
}
// new(storage|nil, offset(1-based), sizes LongStorage|nil, strides LongStorage|nil)
static int LC_(tensor_newWithStorage)(lua_State *L) {
  THCStorage *s = lua_isnoneornil(L, 1) ? nullptr : LC_(checkStorage)(L, 1);
  int64_t offset = static_cast<int64_t>(luaL_optnumber(L, 2, 1)) - 1;
  std::vector<int64_t> sizes, strides;
  if (!lua_isnoneornil(L, 3)) sizes = luat::readSizes(L, 3);
  if (!lua_isnoneornil(L, 4)) strides = luat::readSizes(L, 4);
  luaL_argcheck(L, offset >= 0, 2, "storage offset must be at least 1");
  luaL_argcheck(L, strides.empty() || strides.size() == sizes.size(), 4, "as many strides as sizes expected");
  for (int64_t v : sizes) luaL_argcheck(L, v >= 0, 3, "sizes must be non-negative");
  if (s && !sizes.empty()) {
    if (strides.empty()) {
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
    if (!empty && last >= s->size)
      return luaL_error(L, "the tensor (sizes and offset) does not fit in a storage of size %d", (int)s->size);
  }
  return luat::guard(L, [&] {
    THCState *state = cutorch::state();
    THCTensor *t;
    if (sizes.empty()) {
      t = THCTensor_(new)(state);
      if (s) {
        int64_t zero = 0;
        THCTensor_(setStorageNd)(state, t, s, offset, 1, &zero, nullptr);
      }
    } else if (s) {
      t = THCTensor_(newWithStorage)(state, s, offset, (int)sizes.size(), sizes.data(), strides.data());
    } else {
      t = THCTensor_(newWithSize)(state, (int)sizes.size(), sizes.data(), strides.empty() ? nullptr : strides.data());
    }
    LC_(push)(L, t);
    return 1;
  });
}
static int LC_(tensor_nDimension)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  lua_pushinteger(L, THCTensor_(nElement)(cutorch::state(), t) == 0 ? 0 : t->nDimension);
  return 1;
}
static int LC_(tensor_size)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  bool empty = THCTensor_(nElement)(cutorch::state(), t) == 0;
  if (lua_isnoneornil(L, 2)) {
    luat::pushLongStorage(L, t->size, empty ? 0 : t->nDimension);
    return 1;
  }
  lua_pushnumber(L, static_cast<lua_Number>(t->size[LC_(checkDim)(L, 2, t)]));
  return 1;
}
static int LC_(tensor_stride)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  bool empty = THCTensor_(nElement)(cutorch::state(), t) == 0;
  if (lua_isnoneornil(L, 2)) {
    luat::pushLongStorage(L, t->stride, empty ? 0 : t->nDimension);
    return 1;
  }
  lua_pushnumber(L, static_cast<lua_Number>(t->stride[LC_(checkDim)(L, 2, t)]));
  return 1;
}
static int LC_(tensor_nElement)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(THCTensor_(nElement)(cutorch::state(), LC_(check)(L, 1))));
  return 1;
}
static int LC_(tensor_storageOffset)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(LC_(check)(L, 1)->storageOffset + 1));
  return 1;
}
static int LC_(tensor_storage)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  THCStorage_(retain)(cutorch::state(), t->storage);
  LC_(pushStorage)(L, t->storage);
  return 1;
}
static int LC_(tensor_isContiguous)(lua_State *L) {
  lua_pushboolean(L, THCTensor_(isContiguous)(cutorch::state(), LC_(check)(L, 1)));
  return 1;
}
static int LC_(tensor_pointer)(lua_State *L) {
  lua_pushnumber(L, static_cast<lua_Number>(reinterpret_cast<uintptr_t>(LC_(check)(L, 1))));
  return 1;
}
static int LC_(tensor_getDevice)(lua_State *L) {
  lua_pushinteger(L, THCTensor_(getDevice)(cutorch::state(), LC_(check)(L, 1)) + 1);
  return 1;
}

// Views: each a new tensor on the same storage.
static int LC_(tensor_narrow)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  int d = LC_(checkDim)(L, 2, t);
  int64_t first = static_cast<int64_t>(luaL_checknumber(L, 3)) - 1;
  int64_t size = static_cast<int64_t>(luaL_checknumber(L, 4));
  if (first < 0 || size < 0 || first + size > t->size[d])
    return luaL_error(L, "narrow: out of range (first %d, size %d) for dimension %d of size %d", (int)first + 1,
                      (int)size, d + 1, (int)t->size[d]);
  return luat::guard(L, [&] {
    LC_(push)(L, THCTensor_(newNarrow)(cutorch::state(), t, d, first, size));
    return 1;
  });
}
static int LC_(tensor_select)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  int d = LC_(checkDim)(L, 2, t);
  int64_t i = static_cast<int64_t>(luaL_checknumber(L, 3));
  if (i < 0) i += t->size[d] + 1;
  if (i < 1 || i > t->size[d])
    return luaL_error(L, "index %d is out of range for dimension %d of size %d", (int)i, d + 1, (int)t->size[d]);
  return luat::guard(L, [&] {
    LC_(push)(L, THCTensor_(newSelect)(cutorch::state(), t, d, i - 1));
    return 1;
  });
}
static int LC_(tensor_transpose)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  int a = LC_(checkDim)(L, 2, t), b = LC_(checkDim)(L, 3, t);
  return luat::guard(L, [&] {
    LC_(push)(L, THCTensor_(newTranspose)(cutorch::state(), t, a, b));
    return 1;
  });
}
static int LC_(tensor_unfold)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  int d = LC_(checkDim)(L, 2, t);
  int64_t size = static_cast<int64_t>(luaL_checknumber(L, 3)), step = static_cast<int64_t>(luaL_checknumber(L, 4));
  return luat::guard(L, [&] {
    LC_(push)(L, THCTensor_(newUnfold)(cutorch::state(), t, d, size, step));
    return 1;
  });
}
static int LC_(tensor_view)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  std::vector<int64_t> sizes = luat::readSizes(L, 2);
  return luat::guard(L, [&] {
    LC_(push)(L, THCTensor_(newView)(cutorch::state(), t, (int)sizes.size(), sizes.data()));
    return 1;
  });
}
static int LC_(tensor_expand)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  std::vector<int64_t> sizes = luat::readSizes(L, 2);
  return luat::guard(L, [&] {
    LC_(push)(L, THCTensor_(newExpand)(cutorch::state(), t, (int)sizes.size(), sizes.data()));
    return 1;
  });
}
static int LC_(tensor_squeeze)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  const int d = lua_isnoneornil(L, 2) ? -1 : LC_(checkDim)(L, 2, t);
  return luat::guard(L, [&] {
    THCState *state = cutorch::state();
    THCTensor *r = THCTensor_(newWithTensor)(state, t);
    if (d < 0 && THCTensor_(nElement)(state, t) == 1 && t->nDimension > 0) {
      int64_t one = 1;  // torch7 keeps one dimension when every size is 1
      THCTensor_(view)(state, r, t, 1, &one);
    } else if (d < 0) {
      THCTensor_(squeeze)(state, r, t);
    } else if (t->nDimension > 1) {
      THCTensor_(squeeze1d)(state, r, t, d);
    }
    LC_(push)(L, r);
    return 1;
  });
}
static int LC_(tensor_permute)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  std::vector<int> dims;
  for (int i = 2; i <= lua_gettop(L); i++) dims.push_back(LC_(checkDim)(L, i, t));
  luaL_argcheck(L, (int)dims.size() == t->nDimension, 2, "permute: one dimension per dimension of the tensor expected");
  return luat::guard(L, [&] {
    THCState *state = cutorch::state();
    THCTensor *r = THCTensor_(newWithTensor)(state, t);
    THCTensor_(permute)(state, r, t, dims.data());
    LC_(push)(L, r);
    return 1;
  });
}
static int LC_(tensor_resize)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  std::vector<int64_t> sizes = luat::readSizes(L, 2);
  for (int64_t v : sizes) luaL_argcheck(L, v >= 0, 2, "sizes must be non-negative");
  if (sizes.empty()) sizes.push_back(0);
  return luat::guard(L, [&] {
    THCTensor_(resizeNd)(cutorch::state(), t, (int)sizes.size(), sizes.data(), nullptr);
    lua_settop(L, 1);
    return 1;
  });
}
static int LC_(tensor_set)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1), *src = LC_(check)(L, 2);
  return luat::guard(L, [&] {
    THCTensor_(set)(cutorch::state(), t, src);
    lua_settop(L, 1);
    return 1;
  });
}
static int LC_(tensor_isSetTo)(lua_State *L) {
  lua_pushboolean(L, THCTensor_(isSetTo)(cutorch::state(), LC_(check)(L, 1), LC_(check)(L, 2)));
  return 1;
}
static int LC_(tensor_isSize)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  std::vector<int64_t> sizes = luat::readSizes(L, 2);
  bool same = THCTensor_(nElement)(cutorch::state(), t) == 0 ? sizes.empty() : (int)sizes.size() == t->nDimension;
  for (size_t i = 0; same && i < sizes.size(); i++) same = sizes[i] == t->size[i];
  lua_pushboolean(L, same);
  return 1;
}
static int LC_(tensor_clone)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  return luat::guard(L, [&] {
    LC_(push)(L, THCTensor_(newClone)(cutorch::state(), t));
    return 1;
  });
}
static int LC_(tensor_contiguous)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  return luat::guard(L, [&] {
    LC_(push)(L, THCTensor_(newContiguous)(cutorch::state(), t));
    return 1;
  });
}

// self <- src element by element: src a CUDA tensor of any type (on any device) or a CPU
// tensor of any type; the counts must agree.
static int LC_(tensor_copy)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  THCState *state = cutorch::state();
  const ptrdiff_t n = THCTensor_(nElement)(state, t);
  void *src;
  auto sizesAgree = [&](ptrdiff_t m) {
    if (m != n) luaL_error(L, "copy: sizes do not match (%d elements into %d)", (int)m, (int)n);
  };
#define LC_COPY_FROM(Name, T, ...)                                            \
  if ((src = luat::testObject(L, 2, "torch." #Name "Tensor"))) {              \
    auto *s = static_cast<TH##Name##Tensor *>(src);                           \
    sizesAgree(TH##Name##Tensor_nElement(s));                                 \
    return luat::guard(L, [&] {                                               \
      if (n > 0) THCTensor_(copy##Name)(state, t, s);                         \
      lua_settop(L, 1);                                                       \
      return 1;                                                               \
    });                                                                       \
  }                                                                           \
  if ((src = luat::testObject(L, 2, cutorch::tensorClass(th::Type::Name)))) { \
    auto *s = static_cast<thc::THC<T>::Tensor *>(src);                        \
    sizesAgree(thc::THC<T>::nElement(state, s));                              \
    return luat::guard(L, [&] {                                               \
      if (n > 0) THCTensor_(copyCuda##Name)(state, t, s);                     \
      lua_settop(L, 1);                                                       \
      return 1;                                                               \
    });                                                                       \
  }
  TH_FORALL_TYPES(LC_COPY_FROM)
#undef LC_COPY_FROM
  return luaL_typerror(L, 2, "tensor");
}
// copyToCpu(cpu, cuda): a CPU tensor of this element type <- this CUDA type (other CPU
// types go through it, in Lua).
static int LC_(tensor_copyToCpu)(lua_State *L) {
  THTensor *r = static_cast<THTensor *>(luat::checkObject(L, 1, "torch." LC_STR(Real) "Tensor"));
  THCTensor *t = LC_(check)(L, 2);
  THCState *state = cutorch::state();
  if (THTensor_(nElement)(r) != THCTensor_(nElement)(state, t))
    return luaL_error(L, "copy: sizes do not match (%d elements into %d)", (int)THCTensor_(nElement)(state, t),
                      (int)THTensor_(nElement)(r));
  return luat::guard(L, [&] {
    if (THTensor_(nElement)(r) > 0) THTensor_(copyCuda)(state, r, t);
    lua_settop(L, 1);
    return 1;
  });
}
static int LC_(tensor_fill)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  scalar_t v = LC_(checkValue)(L, 2);
  return luat::guard(L, [&] {
    THCTensor_(fill)(cutorch::state(), t, v);
    lua_settop(L, 1);
    return 1;
  });
}
static int LC_(tensor_zero)(lua_State *L) {
  THCTensor *t = LC_(check)(L, 1);
  return luat::guard(L, [&] {
    THCTensor_(zero)(cutorch::state(), t);
    lua_settop(L, 1);
    return 1;
  });
}

// --- math: r is the result, written in place (TensorMath.lua decides r) ---
// Argument readers for the generated bindings: LC_A_T tensor, LC_A_V value, LC_A_D
// dimension of the tensor argument before it, LC_A_N number, LC_A_L/B index/mask tensor.
#define LC_A_T(i) LC_(check)(L, i)
#define LC_A_V(i) LC_(checkValue)(L, i)
#define LC_A_N(i) luaL_checknumber(L, i)
#define LC_A_I(i) static_cast<int64_t>(luaL_checknumber(L, i))
#define LC_A_B(i) static_cast<bool>(lua_toboolean(L, i))
#define LC_A_LONG(i) static_cast<THCudaLongTensor *>(luat::checkObject(L, i, "torch.CudaLongTensor"))
#define LC_A_BYTE(i) static_cast<THCudaByteTensor *>(luat::checkObject(L, i, "torch.CudaByteTensor"))
#define LC_A_D(i, of) LC_(checkDim)(L, i, of)

// A binding whose body calls THC with the arguments read (all read before anything runs).
#define LC_BIND(name, ...)              \
  static int LC_(name)(lua_State * L) { \
    THCState *state = cutorch::state(); \
    __VA_ARGS__                         \
  }
#define LC_RUN(...)           \
  return luat::guard(L, [&] { \
    __VA_ARGS__;              \
    return 0;                 \
  })
#define LC_RETURN(expr)                               \
  return luat::guard(L, [&] {                         \
    lua_pushnumber(L, static_cast<lua_Number>(expr)); \
    return 1;                                         \
  })

#ifndef TH_REAL_IS_HALF
#define LC_VALUE_OP(op)                                                                   \
  LC_BIND(op, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t v = LC_A_V(3); \
          LC_RUN(THCTensor_(op)(state, r, t, v));)
LC_VALUE_OP(add)
LC_VALUE_OP(sub)
LC_VALUE_OP(mul)
LC_VALUE_OP(div)
LC_VALUE_OP(pow)
LC_VALUE_OP(fmod)
LC_VALUE_OP(remainder)
LC_VALUE_OP(cmaxValue)
LC_VALUE_OP(cminValue)
#undef LC_VALUE_OP
#define LC_PAIR_OP(op)                                                                      \
  LC_BIND(op, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); THCTensor *s = LC_A_T(3); \
          LC_RUN(THCTensor_(op)(state, r, t, s));)
LC_PAIR_OP(cmul)
LC_PAIR_OP(cdiv)
LC_PAIR_OP(cpow)
LC_PAIR_OP(cfmod)
LC_PAIR_OP(cremainder)
LC_PAIR_OP(cmax)
LC_PAIR_OP(cmin)
#undef LC_PAIR_OP
LC_BIND(cadd, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t v = LC_A_V(3); THCTensor *s = LC_A_T(4);
        LC_RUN(THCTensor_(cadd)(state, r, t, v, s));)
LC_BIND(csub, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t v = LC_A_V(3); THCTensor *s = LC_A_T(4);
        LC_RUN(THCTensor_(csub)(state, r, t, v, s));)
LC_BIND(tpow, THCTensor *r = LC_A_T(1); scalar_t v = LC_A_V(2); THCTensor *t = LC_A_T(3);
        LC_RUN(THCTensor_(tpow)(state, r, v, t));)
LC_BIND(clamp, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t lo = LC_A_V(3); scalar_t hi = LC_A_V(4);
        LC_RUN(THCTensor_(clamp)(state, r, t, lo, hi));)
LC_BIND(addcmul, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t v = LC_A_V(3); THCTensor *a = LC_A_T(4);
        THCTensor *b = LC_A_T(5); LC_RUN(THCTensor_(addcmul)(state, r, t, v, a, b));)
LC_BIND(addcdiv, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t v = LC_A_V(3); THCTensor *a = LC_A_T(4);
        THCTensor *b = LC_A_T(5); LC_RUN(THCTensor_(addcdiv)(state, r, t, v, a, b));)

// The op tables' unary ops and generated binary kernels (Note [Pointwise op tables]).
#define LC_UNARY_OP(op) \
  LC_BIND(op, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); LC_RUN(THCTensor_(op)(state, r, t));)
#define LC_UNARY_BINDING(Op, torch, th, Types, ...) TH_IF_##Types(LC_UNARY_OP(th))
TH_FORALL_UNARY_OPS(LC_UNARY_BINDING)
#undef LC_UNARY_BINDING
#if TH_REAL_IS_FLOATING
LC_UNARY_OP(round)
LC_BIND(lerp, THCTensor *r = LC_A_T(1); THCTensor *a = LC_A_T(2); THCTensor *b = LC_A_T(3); scalar_t w = LC_A_V(4);
        LC_RUN(THCTensor_(lerp)(state, r, a, b, w));)
#endif
#undef LC_UNARY_OP
#define LC_GENERATED_BINARY(cth, th, Types, luaTensor, luaValue, ...)                                             \
  TH_IF_##Types(LC_BIND(luaTensor, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); THCTensor *s = LC_A_T(3);  \
                        LC_RUN(THCTensor_(cth)(state, r, t, s));)                                                 \
                    LC_BIND(luaValue, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t v = LC_A_V(3); \
                            LC_RUN(THCTensor_(th)(state, r, t, v));))
TH_FORALL_GENERATED_BINARY_KERNELS(LC_GENERATED_BINARY)
#undef LC_GENERATED_BINARY

// Comparisons: (mask CudaByteTensor, t, value | tensor), or with T (r, t, ...) into t's type.
#define LC_COMPARE_BINDING(Op, torch, th, alias)                                                              \
  LC_BIND(th##Value, THCudaByteTensor *r = LC_A_BYTE(1); THCTensor *t = LC_A_T(2); scalar_t v = LC_A_V(3);    \
          LC_RUN(THCTensor_(th##Value)(state, r, t, v));)                                                     \
  LC_BIND(th##ValueT, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t v = LC_A_V(3);             \
          LC_RUN(THCTensor_(th##ValueT)(state, r, t, v));)                                                    \
  LC_BIND(th##Tensor, THCudaByteTensor *r = LC_A_BYTE(1); THCTensor *a = LC_A_T(2); THCTensor *b = LC_A_T(3); \
          LC_RUN(THCTensor_(th##Tensor)(state, r, a, b));)                                                    \
  LC_BIND(th##TensorT, THCTensor *r = LC_A_T(1); THCTensor *a = LC_A_T(2); THCTensor *b = LC_A_T(3);          \
          LC_RUN(THCTensor_(th##TensorT)(state, r, a, b));)
TH_FORALL_COMPARE_OPS(LC_COMPARE_BINDING)
#undef LC_COMPARE_BINDING

// --- reductions (torch7 keeps the reduced dimension) ---
LC_BIND(sumall, THCTensor *t = LC_A_T(1); LC_RETURN(THCTensor_(sumall)(state, t));)
LC_BIND(prodall, THCTensor *t = LC_A_T(1); LC_RETURN(THCTensor_(prodall)(state, t));)
LC_BIND(maxall, THCTensor *t = LC_A_T(1); LC_RETURN(LC_(toNumber)(THCTensor_(maxall)(state, t)));)
LC_BIND(minall, THCTensor *t = LC_A_T(1); LC_RETURN(LC_(toNumber)(THCTensor_(minall)(state, t)));)
LC_BIND(trace, THCTensor *t = LC_A_T(1); LC_RETURN(THCTensor_(trace)(state, t));)
LC_BIND(equal, THCTensor *a = LC_A_T(1); THCTensor *b = LC_A_T(2); return luat::guard(L, [&] {
          lua_pushboolean(L, THCTensor_(equal)(state, a, b));
          return 1;
        });)
LC_BIND(sum, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t);
        LC_RUN(THCTensor_(sum)(state, r, t, d, 1));)
LC_BIND(prod, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t);
        LC_RUN(THCTensor_(prod)(state, r, t, d, 1));)
LC_BIND(cumsum, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t);
        LC_RUN(THCTensor_(cumsum)(state, r, t, d));)
LC_BIND(cumprod, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t);
        LC_RUN(THCTensor_(cumprod)(state, r, t, d));)
// (values, indices CudaLongTensor, t, dim) and friends
#define LC_INDEXED_REDUCE(op)                                                                         \
  LC_BIND(op, THCTensor *r = LC_A_T(1); THCudaLongTensor *i = LC_A_LONG(2); THCTensor *t = LC_A_T(3); \
          int d = LC_A_D(4, t); LC_RUN(THCTensor_(op)(state, r, i, t, d, 1));)
LC_INDEXED_REDUCE(max)
LC_INDEXED_REDUCE(min)
LC_INDEXED_REDUCE(median)
LC_INDEXED_REDUCE(mode)
#undef LC_INDEXED_REDUCE
LC_BIND(kthvalue, THCTensor *r = LC_A_T(1); THCudaLongTensor *i = LC_A_LONG(2); THCTensor *t = LC_A_T(3);
        int64_t k = LC_A_I(4); int d = LC_A_D(5, t); LC_RUN(THCTensor_(kthvalue)(state, r, i, t, k, d, 1));)
LC_BIND(sort, THCTensor *r = LC_A_T(1); THCudaLongTensor *i = LC_A_LONG(2); THCTensor *t = LC_A_T(3);
        int d = LC_A_D(4, t); bool desc = LC_A_B(5); LC_RUN(THCTensor_(sort)(state, r, i, t, d, desc));)
LC_BIND(topk, THCTensor *r = LC_A_T(1); THCudaLongTensor *i = LC_A_LONG(2); THCTensor *t = LC_A_T(3);
        int64_t k = LC_A_I(4); int d = LC_A_D(5, t); bool largest = LC_A_B(6); bool sorted = LC_A_B(7);
        LC_RUN(THCTensor_(topk)(state, r, i, t, k, d, largest, sorted));)
#if TH_REAL_IS_FLOATING
LC_BIND(meanall, THCTensor *t = LC_A_T(1); LC_RETURN(THCTensor_(meanall)(state, t));)
LC_BIND(mean, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t);
        LC_RUN(THCTensor_(mean)(state, r, t, d, 1));)
LC_BIND(varall, THCTensor *t = LC_A_T(1); bool biased = LC_A_B(2); LC_RETURN(THCTensor_(varall)(state, t, biased));)
LC_BIND(stdall, THCTensor *t = LC_A_T(1); bool biased = LC_A_B(2); LC_RETURN(THCTensor_(stdall)(state, t, biased));)
LC_BIND(var, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t); bool biased = LC_A_B(4);
        LC_RUN(THCTensor_(var)(state, r, t, d, biased, 1));)
LC_BIND(std, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t); bool biased = LC_A_B(4);
        LC_RUN(THCTensor_(std)(state, r, t, d, biased, 1));)
LC_BIND(normall, THCTensor *t = LC_A_T(1); scalar_t p = LC_A_V(2); LC_RETURN(THCTensor_(normall)(state, t, p));)
LC_BIND(norm, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t p = LC_A_V(3); int d = LC_A_D(4, t);
        LC_RUN(THCTensor_(norm)(state, r, t, p, d, 1));)
LC_BIND(dist, THCTensor *a = LC_A_T(1); THCTensor *b = LC_A_T(2); scalar_t p = LC_A_V(3);
        LC_RETURN(THCTensor_(dist)(state, a, b, p));)
LC_BIND(renorm, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); scalar_t p = LC_A_V(3); int d = LC_A_D(4, t);
        scalar_t maxnorm = LC_A_V(5); LC_RUN(THCTensor_(renorm)(state, r, t, p, d, maxnorm));)
LC_BIND(linspace, THCTensor *r = LC_A_T(1); scalar_t a = LC_A_V(2); scalar_t b = LC_A_V(3); int64_t n = LC_A_I(4);
        LC_RUN(THCTensor_(linspace)(state, r, a, b, n));)
LC_BIND(logspace, THCTensor *r = LC_A_T(1); scalar_t a = LC_A_V(2); scalar_t b = LC_A_V(3); int64_t n = LC_A_I(4);
        LC_RUN(THCTensor_(logspace)(state, r, a, b, n));)
#endif
#if defined(TH_REAL_IS_BYTE)
LC_BIND(all, THCTensor *t = LC_A_T(1); return luat::guard(L, [&] {
          lua_pushboolean(L, THCTensor_(logicalall)(state, t));
          return 1;
        });)
LC_BIND(any, THCTensor *t = LC_A_T(1); return luat::guard(L, [&] {
          lua_pushboolean(L, THCTensor_(logicalany)(state, t));
          return 1;
        });)
#endif

// --- construction and structure ---
LC_BIND(eye, THCTensor *r = LC_A_T(1); int64_t n = LC_A_I(2); int64_t m = LC_A_I(3);
        LC_RUN(THCTensor_(eye)(state, r, n, m));)
LC_BIND(range, THCTensor *r = LC_A_T(1); double a = LC_A_N(2); double b = LC_A_N(3); double step = LC_A_N(4);
        luaL_argcheck(L, step != 0, 4, "range: step must not be zero");
        LC_RUN(THCTensor_(range)(state, r, static_cast<accreal>(a), static_cast<accreal>(b),
                                 static_cast<accreal>(step)));)
LC_BIND(diag, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int k = static_cast<int>(LC_A_I(3));
        LC_RUN(THCTensor_(diag)(state, r, t, k));)
LC_BIND(tril, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int64_t k = LC_A_I(3);
        LC_RUN(THCTensor_(tril)(state, r, t, k));)
LC_BIND(triu, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int64_t k = LC_A_I(3);
        LC_RUN(THCTensor_(triu)(state, r, t, k));)
LC_BIND(cross, THCTensor *r = LC_A_T(1); THCTensor *a = LC_A_T(2); THCTensor *b = LC_A_T(3);
        int d = luaL_checkinteger(L, 4) == 0 ? -1 : LC_A_D(4, a); LC_RUN(THCTensor_(cross)(state, r, a, b, d));)
// (r, {tensors...}, dim): non-empty tensors of this type (TensorMath.lua checks)
static int LC_(catArray)(lua_State *L) {
  THCTensor *r = LC_(check)(L, 1);
  luaL_checktype(L, 2, LUA_TTABLE);
  int n = static_cast<int>(lua_objlen(L, 2));
  luaL_argcheck(L, n > 0, 2, "cat: at least one tensor expected");
  std::vector<THCTensor *> inputs(n);
  for (int i = 0; i < n; i++) {
    lua_rawgeti(L, 2, i + 1);
    inputs[i] = LC_(check)(L, -1);
    lua_pop(L, 1);
  }
  int d = LC_(checkDim)(L, 3, inputs[0]);
  return luat::guard(L, [&] {
    THCTensor_(catArray)(cutorch::state(), r, inputs.data(), n, d);
    return 0;
  });
}

// --- index and mask functions (1-based CudaLongTensor indices, CudaByteTensor masks) ---
LC_BIND(indexSelect, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t);
        THCudaLongTensor *i = LC_A_LONG(4); LC_RUN(THCTensor_(indexSelect)(state, r, t, d, i));)
LC_BIND(gather, THCTensor *r = LC_A_T(1); THCTensor *t = LC_A_T(2); int d = LC_A_D(3, t);
        THCudaLongTensor *i = LC_A_LONG(4); LC_RUN(THCTensor_(gather)(state, r, t, d, i));)
static int LC_(scatter)(lua_State *L) {  // (t, dim, index, src | value)
  THCState *state = cutorch::state();
  THCTensor *t = LC_A_T(1);
  int d = LC_A_D(2, t);
  THCudaLongTensor *i = LC_A_LONG(3);
  if (lua_isnumber(L, 4)) {
    scalar_t v = LC_A_V(4);
    LC_RUN(THCTensor_(scatterFill)(state, t, d, i, v));
  }
  THCTensor *src = LC_A_T(4);
  LC_RUN(THCTensor_(scatter)(state, t, d, i, src));
}
LC_BIND(indexCopy, THCTensor *t = LC_A_T(1); int d = LC_A_D(2, t); THCudaLongTensor *i = LC_A_LONG(3);
        THCTensor *src = LC_A_T(4); LC_RUN(THCTensor_(indexCopy)(state, t, d, i, src));)
LC_BIND(indexAdd, THCTensor *t = LC_A_T(1); int d = LC_A_D(2, t); THCudaLongTensor *i = LC_A_LONG(3);
        THCTensor *src = LC_A_T(4); LC_RUN(THCTensor_(indexAdd)(state, t, d, i, src));)
LC_BIND(indexFill, THCTensor *t = LC_A_T(1); int d = LC_A_D(2, t); THCudaLongTensor *i = LC_A_LONG(3);
        scalar_t v = LC_A_V(4); LC_RUN(THCTensor_(indexFill)(state, t, d, i, v));)
LC_BIND(maskedFill, THCTensor *t = LC_A_T(1); THCudaByteTensor *m = LC_A_BYTE(2); scalar_t v = LC_A_V(3);
        LC_RUN(THCTensor_(maskedFill)(state, t, m, v));)
LC_BIND(maskedCopy, THCTensor *t = LC_A_T(1); THCudaByteTensor *m = LC_A_BYTE(2); THCTensor *src = LC_A_T(3);
        LC_RUN(THCTensor_(maskedCopy)(state, t, m, src));)
LC_BIND(maskedSelect, THCTensor *r = LC_A_T(1); THCTensor *src = LC_A_T(2); THCudaByteTensor *m = LC_A_BYTE(3);
        LC_RUN(THCTensor_(maskedSelect)(state, r, src, m));)
LC_BIND(nonzero, THCudaLongTensor *r = LC_A_LONG(1); THCTensor *t = LC_A_T(2);
        LC_RUN(THCTensor_(nonzero)(state, r, t));)

// --- matrix products ---
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
LC_BIND(dot, THCTensor *a = LC_A_T(1); THCTensor *b = LC_A_T(2); LC_RETURN(THCTensor_(dot)(state, a, b));)
#define LC_PRODUCT_OP(op)                                                                   \
  LC_BIND(op, THCTensor *r = LC_A_T(1); THCTensor *a = LC_A_T(2); THCTensor *b = LC_A_T(3); \
          LC_RUN(THCTensor_(op)(state, r, a, b));)
LC_PRODUCT_OP(mv)
LC_PRODUCT_OP(mm)
LC_PRODUCT_OP(bmm)
#undef LC_PRODUCT_OP
// (r, vec1, vec2): the outer product, r's old values ignored
LC_BIND(ger, THCTensor *r = LC_A_T(1); THCTensor *a = LC_A_T(2); THCTensor *b = LC_A_T(3);
        luaL_argcheck(L, a->nDimension == 1 && b->nDimension == 1, 2, "ger: vectors expected");
        LC_RUN(THCTensor_(resize2d)(state, r, a->size[0], b->size[0]); THCTensor_(zero)(state, r);
               THCTensor_(addr)(state, r, 0, r, 1, a, b));)
// (r, beta, t, alpha, a, b): r = beta t + alpha a*b
#define LC_ADDPRODUCT_OP(op)                                                                 \
  LC_BIND(op, THCTensor *r = LC_A_T(1); scalar_t beta = LC_A_V(2); THCTensor *t = LC_A_T(3); \
          scalar_t alpha = LC_A_V(4); THCTensor *a = LC_A_T(5); THCTensor *b = LC_A_T(6);    \
          LC_RUN(THCTensor_(op)(state, r, beta, t, alpha, a, b));)
LC_ADDPRODUCT_OP(addmv)
LC_ADDPRODUCT_OP(addmm)
LC_ADDPRODUCT_OP(addr)
LC_ADDPRODUCT_OP(addbmm)
LC_ADDPRODUCT_OP(baddbmm)
#undef LC_ADDPRODUCT_OP
#endif

// --- random: in place on the first argument, which is returned ---
#define LC_RANDOM_RUN(...)    \
  return luat::guard(L, [&] { \
    __VA_ARGS__;              \
    lua_settop(L, 1);         \
    return 1;                 \
  })
LC_BIND(random, THCTensor *t = LC_A_T(1); LC_RANDOM_RUN(THCTensor_(random)(state, t));)
LC_BIND(clampedRandom, THCTensor *t = LC_A_T(1); int64_t a = LC_A_I(2); int64_t b = LC_A_I(3);
        LC_RANDOM_RUN(THCTensor_(clampedRandom)(state, t, a, b));)
LC_BIND(geometric, THCTensor *t = LC_A_T(1); double p = LC_A_N(2); LC_RANDOM_RUN(THCTensor_(geometric)(state, t, p));)
LC_BIND(bernoulli, THCTensor *t = LC_A_T(1); double p = luaL_optnumber(L, 2, 0.5);
        LC_RANDOM_RUN(THCTensor_(bernoulli)(state, t, p));)
LC_BIND(randperm, THCTensor *t = LC_A_T(1); int64_t n = LC_A_I(2); LC_RUN(THCTensor_(randperm)(state, t, n));)
#if TH_REAL_IS_FLOATING
LC_BIND(uniform, THCTensor *t = LC_A_T(1); double a = luaL_optnumber(L, 2, 0); double b = luaL_optnumber(L, 3, 1);
        LC_RANDOM_RUN(THCTensor_(uniform)(state, t, a, b));)
LC_BIND(normal, THCTensor *t = LC_A_T(1); double m = luaL_optnumber(L, 2, 0); double s = luaL_optnumber(L, 3, 1);
        LC_RANDOM_RUN(THCTensor_(normal)(state, t, m, s));)
LC_BIND(exponential, THCTensor *t = LC_A_T(1); double lambda = LC_A_N(2);
        LC_RANDOM_RUN(THCTensor_(exponential)(state, t, lambda));)
LC_BIND(cauchy, THCTensor *t = LC_A_T(1); double m = LC_A_N(2); double s = LC_A_N(3);
        LC_RANDOM_RUN(THCTensor_(cauchy)(state, t, m, s));)
LC_BIND(logNormal, THCTensor *t = LC_A_T(1); double m = LC_A_N(2); double s = LC_A_N(3);
        LC_RANDOM_RUN(THCTensor_(logNormal)(state, t, m, s));)
LC_BIND(multinomial, THCudaLongTensor *r = LC_A_LONG(1); THCTensor *p = LC_A_T(2); int n = static_cast<int>(LC_A_I(3));
        bool replacement = LC_A_B(4); LC_RUN(THCTensor_(multinomial)(state, r, p, n, replacement));)
#endif
#undef LC_RANDOM_RUN
#endif  // TH_REAL_IS_HALF

static const luaL_Reg LC_(functions)[] = {
    {"storage_new", LC_(storage_new)},
    {"storage_gc", LC_(storage_gc)},
    {"storage_size", LC_(storage_size)},
    {"storage_get", LC_(storage_get)},
    {"storage_set", LC_(storage_set)},
    {"storage_resize", LC_(storage_resize)},
    {"storage_fill", LC_(storage_fill)},
    {"storage_elementSize", LC_(storage_elementSize)},
    {"storage_pointer", LC_(storage_pointer)},
    {"storage_copyFrom", LC_(storage_copyFrom)},
    {"storage_copyTo", LC_(storage_copyTo)},
    {"new", LC_(tensor_newWithStorage)},
    {"tensor_gc", LC_(tensor_gc)},
    {"nDimension", LC_(tensor_nDimension)},
    {"size", LC_(tensor_size)},
    {"stride", LC_(tensor_stride)},
    {"nElement", LC_(tensor_nElement)},
    {"storageOffset", LC_(tensor_storageOffset)},
    {"storage", LC_(tensor_storage)},
    {"isContiguous", LC_(tensor_isContiguous)},
    {"pointer", LC_(tensor_pointer)},
    {"getDevice", LC_(tensor_getDevice)},
    {"narrow", LC_(tensor_narrow)},
    {"select", LC_(tensor_select)},
    {"transpose", LC_(tensor_transpose)},
    {"unfold", LC_(tensor_unfold)},
    {"view", LC_(tensor_view)},
    {"expand", LC_(tensor_expand)},
    {"squeeze", LC_(tensor_squeeze)},
    {"permute", LC_(tensor_permute)},
    {"resize", LC_(tensor_resize)},
    {"set", LC_(tensor_set)},
    {"isSetTo", LC_(tensor_isSetTo)},
    {"isSize", LC_(tensor_isSize)},
    {"clone", LC_(tensor_clone)},
    {"contiguous", LC_(tensor_contiguous)},
    {"copy", LC_(tensor_copy)},
    {"copyToCpu", LC_(tensor_copyToCpu)},
    {"fill", LC_(tensor_fill)},
    {"zero", LC_(tensor_zero)},
#ifndef TH_REAL_IS_HALF
#define LC_ENTRY(name) {#name, LC_(name)},
    LC_ENTRY(add) LC_ENTRY(sub) LC_ENTRY(mul) LC_ENTRY(div) LC_ENTRY(pow) LC_ENTRY(fmod) LC_ENTRY(remainder) LC_ENTRY(
        cmaxValue) LC_ENTRY(cminValue) LC_ENTRY(cmul) LC_ENTRY(cdiv) LC_ENTRY(cpow) LC_ENTRY(cfmod) LC_ENTRY(cremainder)
        LC_ENTRY(cmax) LC_ENTRY(cmin) LC_ENTRY(cadd) LC_ENTRY(csub) LC_ENTRY(tpow) LC_ENTRY(clamp) LC_ENTRY(
            addcmul) LC_ENTRY(addcdiv)
#define LC_UNARY_ENTRY(Op, torch, th, Types, ...) TH_IF_##Types(LC_ENTRY(th))
            TH_FORALL_UNARY_OPS(LC_UNARY_ENTRY)
#undef LC_UNARY_ENTRY
#define LC_BINARY_ENTRY(cth, th, Types, luaTensor, luaValue, ...) TH_IF_##Types(LC_ENTRY(luaTensor) LC_ENTRY(luaValue))
                TH_FORALL_GENERATED_BINARY_KERNELS(LC_BINARY_ENTRY)
#undef LC_BINARY_ENTRY
#define LC_COMPARE_ENTRY(Op, torch, th, alias) \
  LC_ENTRY(th##Value) LC_ENTRY(th##ValueT) LC_ENTRY(th##Tensor) LC_ENTRY(th##TensorT)
                    TH_FORALL_COMPARE_OPS(LC_COMPARE_ENTRY)
#undef LC_COMPARE_ENTRY
                        LC_ENTRY(sumall) LC_ENTRY(prodall) LC_ENTRY(maxall)
                            LC_ENTRY(minall) LC_ENTRY(trace) LC_ENTRY(equal) LC_ENTRY(sum) LC_ENTRY(prod) LC_ENTRY(
                                cumsum) LC_ENTRY(cumprod) LC_ENTRY(max) LC_ENTRY(min) LC_ENTRY(median) LC_ENTRY(mode)
                                LC_ENTRY(kthvalue) LC_ENTRY(sort) LC_ENTRY(topk) LC_ENTRY(eye) LC_ENTRY(range) LC_ENTRY(
                                    diag) LC_ENTRY(tril) LC_ENTRY(triu) LC_ENTRY(cross) LC_ENTRY(catArray)
                                    LC_ENTRY(indexSelect) LC_ENTRY(gather) LC_ENTRY(scatter) LC_ENTRY(indexCopy)
                                        LC_ENTRY(indexAdd) LC_ENTRY(indexFill) LC_ENTRY(maskedFill) LC_ENTRY(
                                            maskedCopy) LC_ENTRY(maskedSelect) LC_ENTRY(nonzero)
                                            LC_ENTRY(random) LC_ENTRY(clampedRandom) LC_ENTRY(geometric) LC_ENTRY(
                                                bernoulli) LC_ENTRY(randperm)
#if TH_REAL_IS_FLOATING
                                                LC_ENTRY(round)
                                                    LC_ENTRY(lerp) LC_ENTRY(meanall) LC_ENTRY(mean)
                                                        LC_ENTRY(varall) LC_ENTRY(stdall) LC_ENTRY(
                                                            var) LC_ENTRY(std) LC_ENTRY(normall)
                                                            LC_ENTRY(norm) LC_ENTRY(dist) LC_ENTRY(renorm) LC_ENTRY(
                                                                linspace) LC_ENTRY(logspace) LC_ENTRY(uniform)
                                                                LC_ENTRY(normal) LC_ENTRY(exponential) LC_ENTRY(
                                                                    cauchy) LC_ENTRY(logNormal) LC_ENTRY(multinomial)
#endif
#if defined(TH_REAL_IS_FLOAT) || defined(TH_REAL_IS_DOUBLE)
                                                                    LC_ENTRY(dot) LC_ENTRY(mv) LC_ENTRY(mm)
                                                                        LC_ENTRY(bmm) LC_ENTRY(ger)
                                                                            LC_ENTRY(addmv)
                                                                                LC_ENTRY(addmm)
                                                                                    LC_ENTRY(addr) LC_ENTRY(addbmm)
                                                                                        LC_ENTRY(baddbmm)
#endif
#if defined(TH_REAL_IS_BYTE)
                                                                                            LC_ENTRY(all) LC_ENTRY(any)
#endif
#undef LC_ENTRY
#endif
                                                                                                {nullptr, nullptr},
};

// C["Cuda<CReal>"] = the functions, and the two metatables registered.
static void LC_(open)(lua_State *L) {
  luaL_newmetatable(L, LC_STORAGE_NAME);
  lua_pop(L, 1);
  luaL_newmetatable(L, LC_TENSOR_NAME);
  lua_pop(L, 1);
  lua_newtable(L);
  luaL_register(L, nullptr, LC_(functions));
  lua_setfield(L, -2, "Cuda" LC_STR(CReal));
}

#undef LC_A_T
#undef LC_A_V
#undef LC_A_N
#undef LC_A_I
#undef LC_A_B
#undef LC_A_LONG
#undef LC_A_BYTE
#undef LC_A_D
#undef LC_BIND
#undef LC_RUN
#undef LC_RETURN
#undef LC_STORAGE_NAME
#undef LC_TENSOR_NAME
#undef LC_
