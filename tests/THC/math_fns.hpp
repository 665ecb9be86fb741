// thct::Math<T>: TH's and THC's element-wise math of element type T side by side, generated
// from the op tables, for test_math.cpp. Included once per type through THC_GENERIC_FILE.
#ifndef THC_GENERIC_FILE
#error "include it through THCGenerateAllTypes.h"
#endif

#if !defined(TH_REAL_IS_HALF)
template <>
struct Math<scalar_t> {
#define THCT_PAIR(name) static constexpr auto name = std::make_pair(&THTensor_(name), &THCTensor_(name));
  // clang-format off
  THCT_PAIR(add) THCT_PAIR(sub) THCT_PAIR(mul) THCT_PAIR(div) THCT_PAIR(fmod) THCT_PAIR(remainder)
  THCT_PAIR(pow) THCT_PAIR(tpow) THCT_PAIR(clamp) THCT_PAIR(cmaxValue) THCT_PAIR(cminValue)
  THCT_PAIR(floorDivide) THCT_PAIR(cadd) THCT_PAIR(csub) THCT_PAIR(cmul) THCT_PAIR(cdiv) THCT_PAIR(cpow)
  THCT_PAIR(cfmod) THCT_PAIR(cremainder) THCT_PAIR(cmax) THCT_PAIR(cmin) THCT_PAIR(cfloorDivide)
  THCT_PAIR(addcmul) THCT_PAIR(addcdiv)
  // clang-format on
#define THCT_UNARY(Op, torch, th, Types, ...) TH_IF_##Types(THCT_PAIR(th))
                  TH_FORALL_UNARY_OPS(THCT_UNARY)
#undef THCT_UNARY
#define THCT_BINARY(cth, th, Types, luaTensor, luaValue, ...) TH_IF_##Types(THCT_PAIR(cth) THCT_PAIR(th))
                      TH_FORALL_GENERATED_BINARY_KERNELS(THCT_BINARY)
#undef THCT_BINARY
#define THCT_COMPARE(Op, torch, th, alias) \
  THCT_PAIR(th##Value) THCT_PAIR(th##ValueT) THCT_PAIR(th##Tensor) THCT_PAIR(th##TensorT)
                          TH_FORALL_COMPARE_OPS(THCT_COMPARE)
#undef THCT_COMPARE
#if TH_REAL_IS_FLOATING
                              THCT_PAIR(lerp) THCT_PAIR(round)
#endif
#undef THCT_PAIR
};
#endif
