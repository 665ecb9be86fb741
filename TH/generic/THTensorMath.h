#ifndef TH_GENERIC_FILE
#error "include TH/THTensorMath.h instead"
#endif

/* Operands of an element-wise op must have the same number of elements (their shapes may
 * differ: each is walked in row-major order); r takes the shape of the first input.
 * Integer division, fmod and remainder by zero and integer negative powers raise an error;
 * integer results otherwise wrap around. */

TH_API void THTensor_(fill)(THTensor *r, scalar_t value);
TH_API void THTensor_(zero)(THTensor *r);

/* r = t op value */
TH_API void THTensor_(add)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(sub)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(mul)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(div)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(fmod)(THTensor *r, THTensor *t, scalar_t value);      /* sign of t */
TH_API void THTensor_(remainder)(THTensor *r, THTensor *t, scalar_t value); /* sign of value */
TH_API void THTensor_(pow)(THTensor *r, THTensor *t, scalar_t value);       /* t ^ value */
TH_API void THTensor_(tpow)(THTensor *r, scalar_t value, THTensor *t);      /* value ^ t */
TH_API void THTensor_(clamp)(THTensor *r, THTensor *t, scalar_t minValue, scalar_t maxValue);
TH_API void THTensor_(cmaxValue)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(cminValue)(THTensor *r, THTensor *t, scalar_t value);

/* r = t op src */
TH_API void THTensor_(cadd)(THTensor *r, THTensor *t, scalar_t value, THTensor *src); /* t + value * src */
TH_API void THTensor_(csub)(THTensor *r, THTensor *t, scalar_t value, THTensor *src); /* t - value * src */
TH_API void THTensor_(cmul)(THTensor *r, THTensor *t, THTensor *src);
TH_API void THTensor_(cdiv)(THTensor *r, THTensor *t, THTensor *src);
TH_API void THTensor_(cpow)(THTensor *r, THTensor *t, THTensor *src);
TH_API void THTensor_(cfmod)(THTensor *r, THTensor *t, THTensor *src);
TH_API void THTensor_(cremainder)(THTensor *r, THTensor *t, THTensor *src);
TH_API void THTensor_(cmax)(THTensor *r, THTensor *t, THTensor *src);
TH_API void THTensor_(cmin)(THTensor *r, THTensor *t, THTensor *src);
TH_API void THTensor_(addcmul)(THTensor *r, THTensor *t, scalar_t value, THTensor *src1, THTensor *src2);
TH_API void THTensor_(addcdiv)(THTensor *r, THTensor *t, scalar_t value, THTensor *src1, THTensor *src2);

/* The unary ops of Note [Pointwise op tables] (THPointwiseOps.h), r = f(t). */
#define TH_UNARY_DECLARATION(Op, torch, th, Types, ...) \
  TH_IF_##Types(TH_API void THTensor_(th)(THTensor * r, THTensor * t);)
TH_FORALL_UNARY_OPS(TH_UNARY_DECLARATION)
#undef TH_UNARY_DECLARATION

/* floor(t / src) and floor(t / value); integer division by zero raises. */
TH_API void THTensor_(cfloorDivide)(THTensor *r, THTensor *t, THTensor *src);
TH_API void THTensor_(floorDivide)(THTensor *r, THTensor *t, scalar_t value);

/* The binary kernels generated from an expression (THPointwiseOps.h): r = t op src, r = t op value. */
#define TH_BINARY_DECLARATION(cth, th, Types, luaTensor, luaValue, ...)                 \
  TH_IF_##Types(TH_API void THTensor_(cth)(THTensor * r, THTensor * t, THTensor * src); \
                TH_API void THTensor_(th)(THTensor * r, THTensor * t, scalar_t value);)
TH_FORALL_GENERATED_BINARY_KERNELS(TH_BINARY_DECLARATION)
#undef TH_BINARY_DECLARATION

#if TH_REAL_IS_FLOATING
TH_API void THTensor_(lerp)(THTensor *r, THTensor *a, THTensor *b, scalar_t weight); /* a + weight * (b - a) */
TH_API void THTensor_(round)(THTensor *r, THTensor *t); /* halves away from zero (torch7); the Round op is rint */
#endif

/* Comparisons: a ByteTensor mask (1 where true), or with the T suffix a result of t's type. */
TH_API void THTensor_(ltValue)(struct THByteTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(leValue)(struct THByteTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(gtValue)(struct THByteTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(geValue)(struct THByteTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(eqValue)(struct THByteTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(neValue)(struct THByteTensor *r, THTensor *t, scalar_t value);

TH_API void THTensor_(ltValueT)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(leValueT)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(gtValueT)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(geValueT)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(eqValueT)(THTensor *r, THTensor *t, scalar_t value);
TH_API void THTensor_(neValueT)(THTensor *r, THTensor *t, scalar_t value);

TH_API void THTensor_(ltTensor)(struct THByteTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(leTensor)(struct THByteTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(gtTensor)(struct THByteTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(geTensor)(struct THByteTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(eqTensor)(struct THByteTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(neTensor)(struct THByteTensor *r, THTensor *ta, THTensor *tb);

TH_API void THTensor_(ltTensorT)(THTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(leTensorT)(THTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(gtTensorT)(THTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(geTensorT)(THTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(eqTensorT)(THTensor *r, THTensor *ta, THTensor *tb);
TH_API void THTensor_(neTensorT)(THTensor *r, THTensor *ta, THTensor *tb);
