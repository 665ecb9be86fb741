#ifndef TH_GENERIC_FILE
#error "compile TH/THTensorMath.cpp instead"
#endif

void THTensor_(fill)(THTensor *r, scalar_t value) {
  th::apply([value](scalar_t &y) { y = value; }, th::ref(r));
}

void THTensor_(zero)(THTensor *r) { THTensor_(fill)(r, 0); }

/* r = t op value */

void THTensor_(add)(THTensor *r, THTensor *t, scalar_t value) {
  if (thm::mapValueVector(th::vec::withValue<scalar_t>(th::vec::WithValue::Add), r, t, value)) return;
  thm::map([value](scalar_t x) { return thm::add(x, value); }, r, t);
}

void THTensor_(sub)(THTensor *r, THTensor *t, scalar_t value) {
#if TH_REAL_IS_FLOATING /* the vector kernels' types; -value could overflow an integer */
  if (thm::mapValueVector(th::vec::withValue<scalar_t>(th::vec::WithValue::Add), r, t, scalar_t(-value))) return;
#endif
  thm::map([value](scalar_t x) { return thm::sub(x, value); }, r, t);
}

void THTensor_(mul)(THTensor *r, THTensor *t, scalar_t value) {
  if (thm::mapValueVector(th::vec::withValue<scalar_t>(th::vec::WithValue::Mul), r, t, value)) return;
  thm::map([value](scalar_t x) { return thm::mul(x, value); }, r, t);
}

void THTensor_(div)(THTensor *r, THTensor *t, scalar_t value) {
  THArgCheck(!TH_REAL_IS_INTEGRAL || value != 0, 3, "div: integer division by zero");
  if (thm::mapValueVector(th::vec::withValue<scalar_t>(th::vec::WithValue::Div), r, t, value)) return;
  thm::map([value](scalar_t x) { return thm::div(x, value); }, r, t);
}

void THTensor_(fmod)(THTensor *r, THTensor *t, scalar_t value) {
  THArgCheck(!TH_REAL_IS_INTEGRAL || value != 0, 3, "fmod: integer division by zero");
  thm::map([value](scalar_t x) { return thm::fmod(x, value); }, r, t);
}

void THTensor_(remainder)(THTensor *r, THTensor *t, scalar_t value) {
  THArgCheck(!TH_REAL_IS_INTEGRAL || value != 0, 3, "remainder: integer division by zero");
  thm::map([value](scalar_t x) { return thm::remainder(x, value); }, r, t);
}

void THTensor_(pow)(THTensor *r, THTensor *t, scalar_t value) {
  THArgCheck(!TH_REAL_IS_INTEGRAL || !(value < 0), 3, "pow: integers to negative integer powers are not allowed");
#if TH_REAL_IS_FLOATING
  {
    /* Small constant powers as multiplications and roots, as PyTorch computes them (so
     * pow(-inf, 0.5) is sqrt's NaN); x^2 is exact either way. */
    if (value == 2) return thm::map([](scalar_t x) { return x * x; }, r, t);
    if (value == 3) return thm::map([](scalar_t x) { return x * x * x; }, r, t);
    if (value == -1) return THTensor_(cinv)(r, t);
    if (value == -2) return thm::map([](scalar_t x) { return 1 / (x * x); }, r, t);
    if (value == scalar_t(0.5)) return THTensor_(sqrt)(r, t);
    if (value == scalar_t(-0.5)) return THTensor_(rsqrt)(r, t);
  }
#endif
  thm::map([value](scalar_t x) { return thm::pow(x, value); }, r, t);
}

void THTensor_(tpow)(THTensor *r, scalar_t value, THTensor *t) {
  thm::checkNoNegative("tpow", t, 3, "t");
  thm::map([value](scalar_t x) { return thm::pow(value, x); }, r, t);
}

void THTensor_(clamp)(THTensor *r, THTensor *t, scalar_t minValue, scalar_t maxValue) {
  thm::map([minValue, maxValue](scalar_t x) { return x < minValue ? minValue : (x > maxValue ? maxValue : x); }, r, t);
}

void THTensor_(cmaxValue)(THTensor *r, THTensor *t, scalar_t value) {
  thm::map([value](scalar_t x) { return thm::max(x, value); }, r, t);
}

void THTensor_(cminValue)(THTensor *r, THTensor *t, scalar_t value) {
  thm::map([value](scalar_t x) { return thm::min(x, value); }, r, t);
}

/* r = t op src */

void THTensor_(cadd)(THTensor *r, THTensor *t, scalar_t value, THTensor *src) {
  thm::checkSameCount("cadd", t, "t", src, 4, "src");
  if (thm::zipVector(th::vec::binary<scalar_t>(th::vec::Binary::AddScaled), r, t, src, value)) return;
  thm::map([value](scalar_t x, scalar_t y) { return thm::add(x, thm::mul(value, y)); }, r, t, src);
}

void THTensor_(csub)(THTensor *r, THTensor *t, scalar_t value, THTensor *src) {
  thm::checkSameCount("csub", t, "t", src, 4, "src");
#if TH_REAL_IS_FLOATING /* the vector kernels' types; -value could overflow an integer */
  if (thm::zipVector(th::vec::binary<scalar_t>(th::vec::Binary::AddScaled), r, t, src, scalar_t(-value))) return;
#endif
  thm::map([value](scalar_t x, scalar_t y) { return thm::sub(x, thm::mul(value, y)); }, r, t, src);
}

void THTensor_(cmul)(THTensor *r, THTensor *t, THTensor *src) {
  thm::checkSameCount("cmul", t, "t", src, 3, "src");
  if (thm::zipVector(th::vec::binary<scalar_t>(th::vec::Binary::Mul), r, t, src, scalar_t(1))) return;
  thm::map([](scalar_t x, scalar_t y) { return thm::mul(x, y); }, r, t, src);
}

void THTensor_(cdiv)(THTensor *r, THTensor *t, THTensor *src) {
  thm::checkSameCount("cdiv", t, "t", src, 3, "src");
  thm::checkNoZero("cdiv", src, 3, "src");
  if (thm::zipVector(th::vec::binary<scalar_t>(th::vec::Binary::Div), r, t, src, scalar_t(1))) return;
  thm::map([](scalar_t x, scalar_t y) { return thm::div(x, y); }, r, t, src);
}

void THTensor_(cpow)(THTensor *r, THTensor *t, THTensor *src) {
  thm::checkSameCount("cpow", t, "t", src, 3, "src");
  thm::checkNoNegative("cpow", src, 3, "src");
  thm::map([](scalar_t x, scalar_t y) { return thm::pow(x, y); }, r, t, src);
}

void THTensor_(cfmod)(THTensor *r, THTensor *t, THTensor *src) {
  thm::checkSameCount("cfmod", t, "t", src, 3, "src");
  thm::checkNoZero("cfmod", src, 3, "src");
  thm::map([](scalar_t x, scalar_t y) { return thm::fmod(x, y); }, r, t, src);
}

void THTensor_(cremainder)(THTensor *r, THTensor *t, THTensor *src) {
  thm::checkSameCount("cremainder", t, "t", src, 3, "src");
  thm::checkNoZero("cremainder", src, 3, "src");
  thm::map([](scalar_t x, scalar_t y) { return thm::remainder(x, y); }, r, t, src);
}

void THTensor_(cmax)(THTensor *r, THTensor *t, THTensor *src) {
  thm::checkSameCount("cmax", t, "t", src, 3, "src");
  thm::map([](scalar_t x, scalar_t y) { return thm::max(x, y); }, r, t, src);
}

void THTensor_(cmin)(THTensor *r, THTensor *t, THTensor *src) {
  thm::checkSameCount("cmin", t, "t", src, 3, "src");
  thm::map([](scalar_t x, scalar_t y) { return thm::min(x, y); }, r, t, src);
}

void THTensor_(addcmul)(THTensor *r, THTensor *t, scalar_t value, THTensor *src1, THTensor *src2) {
  thm::checkSameCount("addcmul", t, "t", src1, 4, "src1");
  thm::checkSameCount("addcmul", t, "t", src2, 5, "src2");
  thm::map([value](scalar_t x, scalar_t y, scalar_t z) { return thm::add(x, thm::mul(thm::mul(value, y), z)); }, r, t,
           src1, src2);
}

/* t + value * src1 / src2, in that order (torch7), so integers divide the product. */
void THTensor_(addcdiv)(THTensor *r, THTensor *t, scalar_t value, THTensor *src1, THTensor *src2) {
  thm::checkSameCount("addcdiv", t, "t", src1, 4, "src1");
  thm::checkSameCount("addcdiv", t, "t", src2, 5, "src2");
  thm::checkNoZero("addcdiv", src2, 5, "src2");
  thm::map([value](scalar_t x, scalar_t y, scalar_t z) { return thm::add(x, thm::div(thm::mul(value, y), z)); }, r, t,
           src1, src2);
}

/* The unary ops of Note [Pointwise op tables], from their element expressions; contiguous
 * Float and Double through Note [Vector kernels] where the op has one. */
#define TH_UNARY_DEFINITION(Op, torch, th, Types, ...)                      \
  TH_IF_##Types(void THTensor_(th)(THTensor * r, THTensor * t) {            \
    if (thm::mapVector(thv::unary<scalar_t>(thv::Unary::Op), r, t)) return; \
    thm::map([](scalar_t x) -> scalar_t { return __VA_ARGS__; }, r, t);     \
  })
TH_FORALL_UNARY_OPS(TH_UNARY_DEFINITION)
#undef TH_UNARY_DEFINITION

/* The binary kernels generated from their element expressions. */
#define TH_BINARY_DEFINITION(cth, th, Types, luaTensor, luaValue, ...)                       \
  TH_IF_##Types(                                                                             \
      void THTensor_(cth)(THTensor * r, THTensor * t, THTensor * src) {                      \
        thm::checkSameCount(#cth, t, "t", src, 3, "src");                                    \
        thm::map([](scalar_t x, scalar_t y) -> scalar_t { return __VA_ARGS__; }, r, t, src); \
      } void THTensor_(th)(THTensor * r, THTensor * t, scalar_t value) {                     \
        thm::map(                                                                            \
            [value](scalar_t x) -> scalar_t {                                                \
              const scalar_t y = value;                                                      \
              return __VA_ARGS__;                                                            \
            },                                                                               \
            r, t);                                                                           \
      })
TH_FORALL_GENERATED_BINARY_KERNELS(TH_BINARY_DEFINITION)
#undef TH_BINARY_DEFINITION

void THTensor_(cfloorDivide)(THTensor *r, THTensor *t, THTensor *src) {
  thm::checkSameCount("cfloorDivide", t, "t", src, 3, "src");
  thm::checkNoZero("cfloorDivide", src, 3, "src");
  thm::map([](scalar_t x, scalar_t y) { return thm::floorDivide(x, y); }, r, t, src);
}

void THTensor_(floorDivide)(THTensor *r, THTensor *t, scalar_t value) {
  THArgCheck(!TH_REAL_IS_INTEGRAL || value != 0, 3, "floorDivide: integer division by zero");
  thm::map([value](scalar_t x) { return thm::floorDivide(x, value); }, r, t);
}

#if TH_REAL_IS_FLOATING
void THTensor_(lerp)(THTensor *r, THTensor *a, THTensor *b, scalar_t weight) {
  thm::checkSameCount("lerp", a, "a", b, 3, "b");
  thm::map([weight](scalar_t x, scalar_t y) { return x + weight * (y - x); }, r, a, b);
}

void THTensor_(round)(THTensor *r, THTensor *t) {
  thm::map([](scalar_t x) { return std::round(x); }, r, t);
}
#endif
