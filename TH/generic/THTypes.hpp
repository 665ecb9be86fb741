#ifndef TH_GENERIC_FILE
#error "include TH/THTypes.hpp instead"
#endif

template <>
struct TH<scalar_t> : TypeInfo<scalar_t> {
  using Tensor = THTensor;
  using Storage = THStorage;
#define TH_TYPES_MEMBER(name) static constexpr auto name = &THTensor_(name);
  TH_TYPES_BASIC_FNS(TH_TYPES_MEMBER)
#if !defined(TH_REAL_IS_HALF)
  TH_TYPES_ARITH_FNS(TH_TYPES_MEMBER)
#endif
#if TH_REAL_IS_FLOATING && !defined(TH_REAL_IS_HALF)
  TH_TYPES_FLOATING_FNS(TH_TYPES_MEMBER)
#endif
#if defined(TH_REAL_IS_BYTE)
  TH_TYPES_BYTE_FNS(TH_TYPES_MEMBER)
#endif
#undef TH_TYPES_MEMBER
#define TH_TYPES_UNARY_MEMBER(Op, torch, th, Types, ...) TH_IF_##Types(static constexpr auto th = &THTensor_(th);)
  TH_FORALL_UNARY_OPS(TH_TYPES_UNARY_MEMBER)
#undef TH_TYPES_UNARY_MEMBER
#define TH_TYPES_BINARY_MEMBER(Op, torch, cth, th, Types) \
  TH_IF_##Types(static constexpr auto cth = &THTensor_(cth); static constexpr auto th = &THTensor_(th);)
  TH_FORALL_BINARY_OPS(TH_TYPES_BINARY_MEMBER)
#undef TH_TYPES_BINARY_MEMBER
#define TH_TYPES_COMPARE_MEMBER(Op, torch, th, alias)                  \
  TH_IF_All(static constexpr auto th##Value = &THTensor_(th##Value);   \
            static constexpr auto th##ValueT = &THTensor_(th##ValueT); \
            static constexpr auto th##Tensor = &THTensor_(th##Tensor); \
            static constexpr auto th##TensorT = &THTensor_(th##TensorT);)
  TH_FORALL_COMPARE_OPS(TH_TYPES_COMPARE_MEMBER)
#undef TH_TYPES_COMPARE_MEMBER
  static Tensor *newEmpty() { return THTensor_(new)(); }
  struct S {
#define TH_TYPES_STORAGE_MEMBER(name) static constexpr auto name = &THStorage_(name);
    TH_TYPES_STORAGE_FNS(TH_TYPES_STORAGE_MEMBER)
#undef TH_TYPES_STORAGE_MEMBER
    static Storage *newEmpty() { return THStorage_(new)(); }
  };
#if !defined(TH_REAL_IS_HALF)
  struct Blas {
#define TH_TYPES_BLAS_MEMBER(name) static constexpr auto name = &THBlas_(name);
    TH_TYPES_BLAS_FNS(TH_TYPES_BLAS_MEMBER)
#undef TH_TYPES_BLAS_MEMBER
  };
#endif
};
inline void thFree(THTensor *t) { THTensor_(free)(t); }
inline void thFree(THStorage *s) { THStorage_(free)(s); }
