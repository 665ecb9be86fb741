#ifndef TH_GENERIC_FILE
#error "compile TH/THTensorMathCompare.cpp instead"
#endif

/* Each comparison comes as a Byte mask or a result of t's type, against a value or a tensor. */
#define TH_MATH_COMPARE(NAME, OP)                                                \
  void THTensor_(NAME##Value)(THByteTensor * r, THTensor * t, scalar_t value) {  \
    thm::map([value](scalar_t x) { return x OP value; }, r, t);                  \
  }                                                                              \
  void THTensor_(NAME##ValueT)(THTensor * r, THTensor * t, scalar_t value) {     \
    thm::map([value](scalar_t x) { return x OP value; }, r, t);                  \
  }                                                                              \
  void THTensor_(NAME##Tensor)(THByteTensor * r, THTensor * ta, THTensor * tb) { \
    thm::checkSameCount(#NAME "Tensor", ta, "ta", tb, 3, "tb");                  \
    thm::map([](scalar_t x, scalar_t y) { return x OP y; }, r, ta, tb);          \
  }                                                                              \
  void THTensor_(NAME##TensorT)(THTensor * r, THTensor * ta, THTensor * tb) {    \
    thm::checkSameCount(#NAME "TensorT", ta, "ta", tb, 3, "tb");                 \
    thm::map([](scalar_t x, scalar_t y) { return x OP y; }, r, ta, tb);          \
  }
TH_MATH_COMPARE(lt, <)
TH_MATH_COMPARE(le, <=)
TH_MATH_COMPARE(gt, >)
TH_MATH_COMPARE(ge, >=)
TH_MATH_COMPARE(eq, ==)
TH_MATH_COMPARE(ne, !=)
#undef TH_MATH_COMPARE
