#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensorMathCompare.cu instead"
#endif

#if !defined(TH_REAL_IS_HALF)
/* The Fn of each row of TH_FORALL_COMPARE_OPS is named after its Op (Lt -> LtFn). */
#define THC_COMPARE_DEFINITION(Op, torch, th, alias)                                                    \
  void THCTensor_(th##Value)(THCState * state, THCudaByteTensor * r, THCTensor * t, scalar_t value) {   \
    thc::map(state, #th "Value", thc::CompareValue<scalar_t, thc::Op##Fn>{value}, r, t);                \
  }                                                                                                     \
  void THCTensor_(th##ValueT)(THCState * state, THCTensor * r, THCTensor * t, scalar_t value) {         \
    thc::map(state, #th "ValueT", thc::CompareValue<scalar_t, thc::Op##Fn>{value}, r, t);               \
  }                                                                                                     \
  void THCTensor_(th##Tensor)(THCState * state, THCudaByteTensor * r, THCTensor * ta, THCTensor * tb) { \
    thc::checkSameCount(#th "Tensor", ta, "ta", tb, 3, "tb");                                           \
    thc::map(state, #th "Tensor", thc::Op##Fn(), r, ta, tb);                                            \
  }                                                                                                     \
  void THCTensor_(th##TensorT)(THCState * state, THCTensor * r, THCTensor * ta, THCTensor * tb) {       \
    thc::checkSameCount(#th "TensorT", ta, "ta", tb, 3, "tb");                                          \
    thc::map(state, #th "TensorT", thc::Op##Fn(), r, ta, tb);                                           \
  }
TH_FORALL_COMPARE_OPS(THC_COMPARE_DEFINITION)
#undef THC_COMPARE_DEFINITION
#endif
