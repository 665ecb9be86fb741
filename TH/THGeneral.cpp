#include "TH/THGeneral.h"

#include <malloc.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <atomic>
#include <string>

#include "TH/THError.hpp"

namespace {

std::atomic<ptrdiff_t> heapSize{0};  // THHeapSize

ptrdiff_t usableSize(void *ptr) { return ptr ? ptrdiff_t(malloc_usable_size(ptr)) : 0; }

thread_local THErrorHandlerFunction errorHandler = nullptr;
thread_local void *errorHandlerData = nullptr;
thread_local THArgErrorHandlerFunction argErrorHandler = nullptr;
thread_local void *argErrorHandlerData = nullptr;

std::string vformat(const char *fmt, va_list args) {
  char buffer[2048];
  vsnprintf(buffer, sizeof(buffer), fmt, args);
  return buffer;
}

// The message carries the text first and the place after, so users read what went wrong.
std::string located(const std::string &msg, const char *file, int line) {
  const char *base = strrchr(file, '/');
  return msg + " (" + (base ? base + 1 : file) + ":" + std::to_string(line) + ")";
}

[[noreturn]] void raise(th::ErrorKind kind, int argNumber, const std::string &msg) {
  if (argNumber > 0 && argErrorHandler) argErrorHandler(argNumber, msg.c_str(), argErrorHandlerData);
  if (errorHandler) errorHandler(msg.c_str(), errorHandlerData);
  // A handler that returns cannot make the call succeed: fall back to the exception.
  throw th::Error(msg, kind, argNumber);
}

}  // namespace

void _THError(const char *file, int line, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  raise(th::ErrorKind::Runtime, 0, located(msg, file, line));
}

void THErrorKind(th::ErrorKind kind, const char *file, int line, const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  raise(kind, 0, located(msg, file, line));
}

void _THArgCheck(const char *file, int line, int condition, int argNumber, const char *fmt, ...) {
  if (condition) return;
  va_list args;
  va_start(args, fmt);
  std::string msg = vformat(fmt, args);
  va_end(args);
  raise(th::ErrorKind::Runtime, argNumber,
        located("invalid argument " + std::to_string(argNumber) + ": " + msg, file, line));
}

void THSetErrorHandler(THErrorHandlerFunction handler, void *data) {
  errorHandler = handler;
  errorHandlerData = data;
}

void THSetArgErrorHandler(THArgErrorHandlerFunction handler, void *data) {
  argErrorHandler = handler;
  argErrorHandlerData = data;
}

void *THAlloc(ptrdiff_t size) {
  THArgCheck(size >= 0, 1, "invalid memory size %td", size);
  if (size == 0) return nullptr;
  // 64-byte alignment keeps SIMD loads aligned and matches what BLAS likes. Small blocks
  // (structs, size arrays, tiny tensors) take plain malloc's 16 bytes: memalign costs more
  // than the rest of creating a one-element tensor.
  void *ptr = nullptr;
  if (size < 256) {
    ptr = malloc((size_t)size);
  } else if (posix_memalign(&ptr, 64, (size_t)size) != 0) {
    ptr = nullptr;
  }
  if (ptr == nullptr) THError("out of memory: failed to allocate %td bytes", size);
  heapSize.fetch_add(usableSize(ptr), std::memory_order_relaxed);
  return ptr;
}

void *THRealloc(void *ptr, ptrdiff_t size) {
  THArgCheck(size >= 0, 2, "invalid memory size %td", size);
  if (size == 0) {
    THFree(ptr);
    return nullptr;
  }
  if (!ptr) return THAlloc(size);
  const ptrdiff_t before = usableSize(ptr);
  void *newptr = realloc(ptr, (size_t)size);
  if (!newptr) THError("out of memory: failed to reallocate %td bytes", size);
  heapSize.fetch_add(usableSize(newptr) - before, std::memory_order_relaxed);
  return newptr;
}

void THFree(void *ptr) {
  heapSize.fetch_sub(usableSize(ptr), std::memory_order_relaxed);
  free(ptr);
}

// Declared where it is used (lua/csrc/common.h): TH's headers are every TH user's inputs, and
// one more function does not justify rebuilding all of them.
TH_API ptrdiff_t THHeapSize(void);
ptrdiff_t THHeapSize(void) { return heapSize.load(std::memory_order_relaxed); }

void THSetNumThreads(int num_threads) {
  if (num_threads > 0) omp_set_num_threads(num_threads);
}

int THGetNumThreads(void) { return omp_get_max_threads(); }

float TH_half2float(THHalf h) {
  uint32_t sign = (uint32_t)(h.x & 0x8000) << 16;
  uint32_t exponent = (h.x >> 10) & 0x1f;
  uint32_t mantissa = h.x & 0x3ff;
  uint32_t bits;
  if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalise it
      int shift = 0;
      while (!(mantissa & 0x400)) {
        mantissa <<= 1;
        shift++;
      }
      mantissa &= 0x3ff;
      bits = sign | ((uint32_t)(127 - 15 + 1 - shift) << 23) | (mantissa << 13);
    }
  } else if (exponent == 31) {
    bits = sign | 0x7f800000u | (mantissa << 13);
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

THHalf TH_float2half(float f) {
  uint32_t bits;
  memcpy(&bits, &f, sizeof bits);
  uint16_t sign = (uint16_t)((bits >> 16) & 0x8000);
  uint32_t abs = bits & 0x7fffffffu;
  THHalf h;
  if (abs >= 0x7f800000u) {  // inf or nan
    h.x = sign | 0x7c00 | (abs > 0x7f800000u ? 0x200 : 0);
    return h;
  }
  if (abs >= 0x477ff000u) {  // rounds to beyond the largest half
    h.x = sign | 0x7c00;
    return h;
  }
  if (abs < 0x38800000u) {  // subnormal half (or zero): round to nearest even
    if (abs < 0x33000000u) {
      h.x = sign;
      return h;
    }
    uint32_t mantissa = (abs & 0x7fffff) | 0x800000;
    int shift = 113 - (int)(abs >> 23) + 13;  // 126 - exponent + 13 ... into 10 bits
    uint32_t half_m = mantissa >> shift;
    uint32_t rem = mantissa & ((1u << shift) - 1);
    uint32_t halfway = 1u << (shift - 1);
    if (rem > halfway || (rem == halfway && (half_m & 1))) half_m++;
    h.x = sign | (uint16_t)half_m;
    return h;
  }
  uint32_t exponent = (abs >> 23) - 127 + 15;
  uint32_t mantissa = abs & 0x7fffff;
  uint32_t half = (exponent << 10) | (mantissa >> 13);
  uint32_t rem = mantissa & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) half++;  // may carry into the exponent
  h.x = sign | (uint16_t)half;
  return h;
}
