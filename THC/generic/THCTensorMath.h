#ifndef THC_GENERIC_FILE
#error "include THC/THCTensorMath.h instead"
#endif

/* TH's element-wise math (TH/generic/THTensorMath.h) on the GPU, with the same rules:
 * operands have the same number of elements (shapes may differ, each is walked in row-major
 * order), r takes the first input's shape, integer division by zero and integer negative
 * powers raise (the divisors are checked on the GPU before r is written), integers wrap. The
 * tensors live on one device; the work runs there. No math on Half, as in TH. */
#if !defined(TH_REAL_IS_HALF)

/* r = t op value */
THC_API void THCTensor_(add)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(sub)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(mul)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(div)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(fmod)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(remainder)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(pow)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(tpow)(THCState *state, THCTensor *r, scalar_t value, THCTensor *t);
THC_API void THCTensor_(clamp)(THCState *state, THCTensor *r, THCTensor *t, scalar_t minValue, scalar_t maxValue);
THC_API void THCTensor_(cmaxValue)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(cminValue)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);
THC_API void THCTensor_(floorDivide)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value);

/* r = t op src */
THC_API void THCTensor_(cadd)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value, THCTensor *src);
THC_API void THCTensor_(csub)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value, THCTensor *src);
THC_API void THCTensor_(cmul)(THCState *state, THCTensor *r, THCTensor *t, THCTensor *src);
THC_API void THCTensor_(cdiv)(THCState *state, THCTensor *r, THCTensor *t, THCTensor *src);
THC_API void THCTensor_(cpow)(THCState *state, THCTensor *r, THCTensor *t, THCTensor *src);
THC_API void THCTensor_(cfmod)(THCState *state, THCTensor *r, THCTensor *t, THCTensor *src);
THC_API void THCTensor_(cremainder)(THCState *state, THCTensor *r, THCTensor *t, THCTensor *src);
THC_API void THCTensor_(cmax)(THCState *state, THCTensor *r, THCTensor *t, THCTensor *src);
THC_API void THCTensor_(cmin)(THCState *state, THCTensor *r, THCTensor *t, THCTensor *src);
THC_API void THCTensor_(cfloorDivide)(THCState *state, THCTensor *r, THCTensor *t, THCTensor *src);
THC_API void THCTensor_(addcmul)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value, THCTensor *src1,
                                 THCTensor *src2);
THC_API void THCTensor_(addcdiv)(THCState *state, THCTensor *r, THCTensor *t, scalar_t value, THCTensor *src1,
                                 THCTensor *src2);

/* The unary ops of Note [Pointwise op tables], r = f(t), from the same element expressions
 * as TH's kernels. */
#define THC_UNARY_DECLARATION(Op, torch, th, Types, ...) \
  TH_IF_##Types(THC_API void THCTensor_(th)(THCState * state, THCTensor * r, THCTensor * t);)
TH_FORALL_UNARY_OPS(THC_UNARY_DECLARATION)
#undef THC_UNARY_DECLARATION

/* The binary kernels generated from an expression (THPointwiseOps.h). */
#define THC_BINARY_DECLARATION(cth, th, Types, luaTensor, luaValue, ...)                                       \
  TH_IF_##Types(THC_API void THCTensor_(cth)(THCState * state, THCTensor * r, THCTensor * t, THCTensor * src); \
                THC_API void THCTensor_(th)(THCState * state, THCTensor * r, THCTensor * t, scalar_t value);)
TH_FORALL_GENERATED_BINARY_KERNELS(THC_BINARY_DECLARATION)
#undef THC_BINARY_DECLARATION

#if TH_REAL_IS_FLOATING
THC_API void THCTensor_(lerp)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b, scalar_t weight);
THC_API void THCTensor_(round)(THCState *state, THCTensor *r, THCTensor *t); /* halves away from zero */
#endif

/* Comparisons: a Byte mask (1 where true), or with the T suffix a result of t's type. */
#define THC_COMPARE_DECLARATION(Op, torch, th, alias)                                                          \
  THC_API void THCTensor_(th##Value)(THCState * state, THCudaByteTensor * r, THCTensor * t, scalar_t value);   \
  THC_API void THCTensor_(th##ValueT)(THCState * state, THCTensor * r, THCTensor * t, scalar_t value);         \
  THC_API void THCTensor_(th##Tensor)(THCState * state, THCudaByteTensor * r, THCTensor * ta, THCTensor * tb); \
  THC_API void THCTensor_(th##TensorT)(THCState * state, THCTensor * r, THCTensor * ta, THCTensor * tb);
TH_FORALL_COMPARE_OPS(THC_COMPARE_DECLARATION)
#undef THC_COMPARE_DECLARATION

#endif
