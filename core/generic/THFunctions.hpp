#ifndef TH_GENERIC_FILE
#error "include core/THFunctions.hpp instead"
#endif

template <>
struct TH<scalar_t> {
  using Tensor = THTensor;
  using Storage = THStorage;
#define TORCH_TH_MEMBER(name) static constexpr auto name = &THTensor_(name);
  TORCH_TH_BASIC_FNS(TORCH_TH_MEMBER)
#if !defined(TH_REAL_IS_HALF)
  TORCH_TH_ARITH_FNS(TORCH_TH_MEMBER)
#endif
#if !defined(TH_REAL_IS_HALF) && !defined(TH_REAL_IS_BYTE)
  TORCH_TH_SIGNED_FNS(TORCH_TH_MEMBER)
#endif
#if TH_REAL_IS_FLOATING && !defined(TH_REAL_IS_HALF)
  TORCH_TH_FLOATING_FNS(TORCH_TH_MEMBER)
#endif
#if defined(TH_REAL_IS_BYTE)
  TORCH_TH_BYTE_FNS(TORCH_TH_MEMBER)
#endif
#undef TORCH_TH_MEMBER
  static Tensor *newEmpty() { return THTensor_(new)(); }
  struct S {
#define TORCH_TH_STORAGE_MEMBER(name) static constexpr auto name = &THStorage_(name);
    TORCH_TH_STORAGE_FNS(TORCH_TH_STORAGE_MEMBER)
#undef TORCH_TH_STORAGE_MEMBER
    static Storage *newEmpty() { return THStorage_(new)(); }
  };
};
