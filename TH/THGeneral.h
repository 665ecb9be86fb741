/* TH: the CPU tensor library.
 *
 * A worked example of the whole API (the element type is in every name):
 *
 *   THFloatTensor *a = THFloatTensor_newWithSize2d(2, 3);   // 2x3, uninitialised
 *   THFloatTensor_fill(a, 1.5f);
 *   THFloatTensor *t = THFloatTensor_newTranspose(a, 0, 1); // 3x2 view, same storage
 *   THFloatTensor *r = THFloatTensor_new();
 *   THFloatTensor_mul(r, t, 2.0f);                         // r is resized to 3x2
 *   float s = (float)THFloatTensor_sumall(r);              // 18
 *   THFloatTensor_free(t); THFloatTensor_free(r); THFloatTensor_free(a);
 *
 * Every function that takes or returns an index (indexSelect, gather, max's indices, ...)
 * counts from TH_INDEX_BASE, a compile-time definition: 0 for Python, 1 for Lua.
 *
 * Errors: a bad argument calls the thread's error handler (THSetErrorHandler); when
 * there is none, or it returns, a C++ exception th::Error is thrown. Inputs are checked
 * before anything is written, so a failed call leaves its arguments unchanged.
 */
#ifndef TH_GENERAL_H
#define TH_GENERAL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define TH_EXTERNC extern "C"
#else
#define TH_EXTERNC extern
#endif
#define TH_API TH_EXTERNC __attribute__((visibility("default")))

#ifndef TH_INDEX_BASE
#define TH_INDEX_BASE 0
#endif

#define TH_STRINGIFY_EXPAND(x) #x
#define TH_STRINGIFY(x) TH_STRINGIFY_EXPAND(x)
#define TH_CONCAT_2_EXPAND(x, y) x##y
#define TH_CONCAT_2(x, y) TH_CONCAT_2_EXPAND(x, y)
#define TH_CONCAT_3_EXPAND(x, y, z) x##y##z
#define TH_CONCAT_3(x, y, z) TH_CONCAT_3_EXPAND(x, y, z)
#define TH_CONCAT_4_EXPAND(x, y, z, w) x##y##z##w
#define TH_CONCAT_4(x, y, z, w) TH_CONCAT_4_EXPAND(x, y, z, w)

/* Note [The type table]: the element types, listed once as _(TH name, C type, PyTorch dtype
 * name). Storages and tensors exist for each, arithmetic for all but Half. Everything else
 * that enumerates types is generated from this list: TH<T> in THTypes.hpp (the per-type
 * function tables), the core's ScalarType, the .t7 library's types, both bindings' type
 * tables and the tests'. THGenerate*.h hold the same list in the form generic files need
 * (a preprocessor list cannot #include). */
#define TH_FORALL_ARITH_TYPES(_) \
  _(Byte, uint8_t, uint8)        \
  _(Char, int8_t, int8)          \
  _(Short, int16_t, int16)       \
  _(Int, int32_t, int32)         \
  _(Long, int64_t, int64)        \
  _(Float, float, float32)       \
  _(Double, double, float64)
#define TH_FORALL_TYPES(_) TH_FORALL_ARITH_TYPES(_) _(Half, THHalf, float16)

/* Error handling. The handler receives the formatted message ("file:line: text"). */
typedef void (*THErrorHandlerFunction)(const char *msg, void *data);
typedef void (*THArgErrorHandlerFunction)(int argNumber, const char *msg, void *data);

TH_API void _THError(const char *file, int line, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));
TH_API void _THArgCheck(const char *file, int line, int condition, int argNumber, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
TH_API void THSetErrorHandler(THErrorHandlerFunction handler, void *data);
TH_API void THSetArgErrorHandler(THArgErrorHandlerFunction handler, void *data);

#define THError(...) _THError(__FILE__, __LINE__, __VA_ARGS__)
#define THArgCheck(COND, ARG, ...)                                     \
  do {                                                                 \
    if (!(COND)) _THArgCheck(__FILE__, __LINE__, 0, ARG, __VA_ARGS__); \
  } while (0)
#define THAssertMsg(COND, ...)                              \
  do {                                                      \
    if (!(COND)) _THError(__FILE__, __LINE__, __VA_ARGS__); \
  } while (0)

/* Memory: THAlloc raises an error (never returns NULL for size > 0) on failure. */
TH_API void *THAlloc(ptrdiff_t size);
TH_API void *THRealloc(void *ptr, ptrdiff_t size);
TH_API void THFree(void *ptr);

/* Threads: OpenMP is used for element counts above TH_OMP_THRESHOLD. */
#define TH_OMP_THRESHOLD 32768
TH_API void THSetNumThreads(int num_threads);
TH_API int THGetNumThreads(void);
/* The threads a parallel region should use now: THGetNumThreads() less the cores that other
 * processes kept busy in the last sampled interval (Note [Threads the machine can give]). */
TH_API int THUsableThreads(void);

/* Note [Loops cloned per instruction set]: the plain x86-64 build has 128-bit vectors alone;
 * a loop the compiler vectorises (the activations' element-wise formulas) marked
 * TH_CLONES_PER_ISA is compiled three times, for AVX-512, AVX2 and plain x86-64, and the
 * loader picks the processor's best (GCC's target_clones). Inline functions the clones call
 * are compiled into each clone or called in their plain build, so no clone's instructions
 * leak into code an old processor runs; C++17's ISO mode contracts no multiply-add, so every
 * clone rounds as the plain one does. The larger kernels have their own sets (Note [Vector
 * kernels] in THVector.h). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__)
#define TH_CLONES_PER_ISA __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define TH_CLONES_PER_ISA
#endif

/* Half precision (IEEE 754 binary16), storage type only. */
typedef struct THHalf {
  uint16_t x;
} THHalf;
TH_API float TH_half2float(THHalf h);
TH_API THHalf TH_float2half(float f);

#endif
