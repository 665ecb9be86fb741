#ifndef TH_GENERIC_FILE
#error "include TH/THTensor.hpp instead"
#endif

template <>
struct Traits<scalar_t> {
  using Tensor = THTensor;
  using Storage = THStorage;
  static constexpr const char *name = TH_STRINGIFY(Real);
  /* Entry points that generic code of another type needs (e.g. a LongTensor of indices). */
  static Tensor *newWithSize(int n, const int64_t *size, const int64_t *stride) {
    return THTensor_(newWithSize)(n, size, stride);
  }
  static void resizeNd(Tensor *t, int n, const int64_t *size, const int64_t *stride) {
    THTensor_(resizeNd)(t, n, size, stride);
  }
  static Tensor *newContiguous(Tensor *t) { return THTensor_(newContiguous)(t); }
};
inline void thFree(THTensor *t) { THTensor_(free)(t); }
inline void thFree(THStorage *s) { THStorage_(free)(s); }
