#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensorMathUnary.cu instead"
#endif

#if !defined(TH_REAL_IS_HALF)
#define THC_UNARY_DEFINITION(Op, torch, th, Types, ...)                               \
  TH_IF_##Types(void THCTensor_(th)(THCState * state, THCTensor * r, THCTensor * t) { \
    thc::map(state, #th, thc::Op##Fn(), r, t);                                        \
  })
TH_FORALL_UNARY_OPS(THC_UNARY_DEFINITION)
#undef THC_UNARY_DEFINITION
#endif
