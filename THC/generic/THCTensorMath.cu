#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensorMath.cu instead"
#endif

#if !defined(TH_REAL_IS_HALF)

/* r = t op value */
#define THC_VALUE_OP(name, Fn)                                                            \
  void THCTensor_(name)(THCState * state, THCTensor * r, THCTensor * t, scalar_t value) { \
    thc::map(state, #name, thc::WithValue<scalar_t, thc::Fn>{value}, r, t);               \
  }
THC_VALUE_OP(add, AddFn)
THC_VALUE_OP(sub, SubFn)
THC_VALUE_OP(mul, MulFn)
THC_VALUE_OP(cmaxValue, MaxFn)
THC_VALUE_OP(cminValue, MinFn)
#undef THC_VALUE_OP

/* Integer divisions by a zero value and negative integer powers raise, as in TH. */
#define THC_CHECKED_VALUE_OP(name, Fn, cond, message)                                     \
  void THCTensor_(name)(THCState * state, THCTensor * r, THCTensor * t, scalar_t value) { \
    THArgCheck(cond, 3, message);                                                         \
    thc::map(state, #name, thc::WithValue<scalar_t, thc::Fn>{value}, r, t);               \
  }
THC_CHECKED_VALUE_OP(div, DivFn, !TH_REAL_IS_INTEGRAL || value != 0, "div: integer division by zero")
THC_CHECKED_VALUE_OP(fmod, FmodFn, !TH_REAL_IS_INTEGRAL || value != 0, "fmod: integer division by zero")
THC_CHECKED_VALUE_OP(remainder, RemainderFn, !TH_REAL_IS_INTEGRAL || value != 0, "remainder: integer division by zero")
THC_CHECKED_VALUE_OP(floorDivide, FloorDivideFn, !TH_REAL_IS_INTEGRAL || value != 0,
                     "floorDivide: integer division by zero")
THC_CHECKED_VALUE_OP(pow, PowFn, !TH_REAL_IS_INTEGRAL || !thc::isNegative(value),
                     "pow: integers to negative integer powers are not allowed")
#undef THC_CHECKED_VALUE_OP

void THCTensor_(tpow)(THCState *state, THCTensor *r, scalar_t value, THCTensor *t) {
  thc::checkNoNegative(state, "tpow", t, 3, "t");
  thc::map(state, "tpow", thc::WithValue<scalar_t, thc::TpowFn>{value}, r, t);
}

void THCTensor_(clamp)(THCState *state, THCTensor *r, THCTensor *t, scalar_t minValue, scalar_t maxValue) {
  thc::map(state, "clamp", thc::Clamp<scalar_t>{minValue, maxValue}, r, t);
}

/* r = t op src */
void THCTensor_(cadd)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value, THCTensor *src) {
  thc::checkSameCount("cadd", t, "t", src, 4, "src");
  thc::map(state, "cadd", thc::AddScaled<scalar_t>{value}, r, t, src);
}

void THCTensor_(csub)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value, THCTensor *src) {
  thc::checkSameCount("csub", t, "t", src, 4, "src");
  thc::map(state, "csub", thc::SubScaled<scalar_t>{value}, r, t, src);
}

#define THC_TENSOR_OP(name, Fn, check)                                                     \
  void THCTensor_(name)(THCState * state, THCTensor * r, THCTensor * t, THCTensor * src) { \
    thc::checkSameCount(#name, t, "t", src, 3, "src");                                     \
    check;                                                                                 \
    thc::map(state, #name, thc::Fn<scalar_t>(), r, t, src);                                \
  }
THC_TENSOR_OP(cmul, MulFn, )
THC_TENSOR_OP(cmax, MaxFn, )
THC_TENSOR_OP(cmin, MinFn, )
THC_TENSOR_OP(cdiv, DivFn, thc::checkNoZero(state, "cdiv", src, 3, "src"))
THC_TENSOR_OP(cfmod, FmodFn, thc::checkNoZero(state, "cfmod", src, 3, "src"))
THC_TENSOR_OP(cremainder, RemainderFn, thc::checkNoZero(state, "cremainder", src, 3, "src"))
THC_TENSOR_OP(cfloorDivide, FloorDivideFn, thc::checkNoZero(state, "cfloorDivide", src, 3, "src"))
THC_TENSOR_OP(cpow, PowFn, thc::checkNoNegative(state, "cpow", src, 3, "src"))
#undef THC_TENSOR_OP

void THCTensor_(addcmul)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value, THCTensor *src1,
                         THCTensor *src2) {
  thc::checkSameCount("addcmul", t, "t", src1, 4, "src1");
  thc::checkSameCount("addcmul", t, "t", src2, 5, "src2");
  thc::map(state, "addcmul", thc::AddCMul<scalar_t>{value}, r, t, src1, src2);
}

void THCTensor_(addcdiv)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value, THCTensor *src1,
                         THCTensor *src2) {
  thc::checkSameCount("addcdiv", t, "t", src1, 4, "src1");
  thc::checkSameCount("addcdiv", t, "t", src2, 5, "src2");
  thc::checkNoZero(state, "addcdiv", src2, 5, "src2");
  thc::map(state, "addcdiv", thc::AddCDiv<scalar_t>{value}, r, t, src1, src2);
}

#define THC_BINARY_DEFINITION(cth, th, Types, luaTensor, luaValue, ...)                       \
  TH_IF_##Types(                                                                              \
      void THCTensor_(cth)(THCState * state, THCTensor * r, THCTensor * t, THCTensor * src) { \
        thc::checkSameCount(#cth, t, "t", src, 3, "src");                                     \
        thc::map(state, #cth, thc::cth##Fn<scalar_t>(), r, t, src);                           \
      } void THCTensor_(th)(THCState * state, THCTensor * r, THCTensor * t, scalar_t value) { \
        thc::map(state, #th, thc::WithValue<scalar_t, thc::cth##Fn>{value}, r, t);            \
      })
TH_FORALL_GENERATED_BINARY_KERNELS(THC_BINARY_DEFINITION)
#undef THC_BINARY_DEFINITION

#if TH_REAL_IS_FLOATING
void THCTensor_(lerp)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b, scalar_t weight) {
  thc::checkSameCount("lerp", a, "a", b, 3, "b");
  thc::map(state, "lerp", thc::Lerp<scalar_t>{weight}, r, a, b);
}

void THCTensor_(round)(THCState *state, THCTensor *r, THCTensor *t) {
  thc::map(state, "round", thc::RoundAway<scalar_t>(), r, t);
}
#endif

#endif
