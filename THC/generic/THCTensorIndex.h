#ifndef THC_GENERIC_FILE
#error "include THC/THCTensorIndex.h instead"
#endif

/* The arithmetic types, as TH (no indexing ops on Half). */
#if !defined(TH_REAL_IS_HALF)

/* r = src with dimension dim restricted to the entries listed in the vector index. */
THC_API void THCTensor_(indexSelect)(THCState *state, THCTensor *r, THCTensor *src, int dim, THCudaLongTensor *index);
/* t.select(dim, index[i]) = src.select(dim, i) (later i win on repeats). */
THC_API void THCTensor_(indexCopy)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, THCTensor *src);
/* t.select(dim, index[i]) += src.select(dim, i) (repeats accumulate). */
THC_API void THCTensor_(indexAdd)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, THCTensor *src);
/* t.select(dim, index[i]) = value. */
THC_API void THCTensor_(indexFill)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, scalar_t value);

/* r gets index's sizes; r[p] = src[p with p[dim] replaced by index[p]]. */
THC_API void THCTensor_(gather)(THCState *state, THCTensor *r, THCTensor *src, int dim, THCudaLongTensor *index);
/* t[p with p[dim] replaced by index[p]] = src[p] for every position p of index. */
THC_API void THCTensor_(scatter)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, THCTensor *src);
THC_API void THCTensor_(scatterAdd)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, THCTensor *src);
THC_API void THCTensor_(scatterFill)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, scalar_t value);

/* Masks hold 0 or 1 and have as many elements as the tensor they select from (both are
 * walked in row-major order). */
THC_API void THCTensor_(maskedFill)(THCState *state, THCTensor *t, THCudaByteTensor *mask, scalar_t value);
/* The selected elements of t get the first elements of src, in row-major order. */
THC_API void THCTensor_(maskedCopy)(THCState *state, THCTensor *t, THCudaByteTensor *mask, THCTensor *src);
/* r = the selected elements of src as a vector. */
THC_API void THCTensor_(maskedSelect)(THCState *state, THCTensor *r, THCTensor *src, THCudaByteTensor *mask);
/* r = N x nDimension matrix of the positions of t's N non-zero elements, row-major order. */
THC_API void THCTensor_(nonzero)(THCState *state, THCudaLongTensor *r, THCTensor *t);

/* Flat indices into a tensor viewed as contiguous; negative ones count from the end. */
/* r gets index's sizes; r[p] = src.flat[index[p]]. */
THC_API void THCTensor_(take)(THCState *state, THCTensor *r, THCTensor *src, THCudaLongTensor *index);
/* t.flat[index[i]] = src[i] (or += when accumulate); index and src have as many elements. */
THC_API void THCTensor_(put)(THCState *state, THCTensor *t, THCudaLongTensor *index, THCTensor *src, int accumulate);

#ifdef __cplusplus
namespace thc {
template <>
struct IndexOps<scalar_t> {
#define THC_INDEX_MEMBER(name) static constexpr auto name = &THCTensor_(name);
  THC_INDEX_FNS(THC_INDEX_MEMBER)
#undef THC_INDEX_MEMBER
};
}  // namespace thc
#endif

#endif
