#ifndef TH_GENERIC_FILE
#error "include TH/THTensorIndex.h instead"
#endif

/* Indices are THLongTensors counting from TH_INDEX_BASE; dimensions count from 0. Every
 * index is checked before anything is written: a bad one raises an index error naming
 * it in the caller's base and leaves all tensors unchanged. */

/* r = src with dimension dim restricted to the entries listed in the vector index:
 * r.select(dim, i) = src.select(dim, index[i]). */
TH_API void THTensor_(indexSelect)(THTensor *r, THTensor *src, int dim, THLongTensor *index);
/* t.select(dim, index[i]) = src.select(dim, i) (later i win on repeats); src has t's sizes
 * except in dim, where it has one entry per index. */
TH_API void THTensor_(indexCopy)(THTensor *t, int dim, THLongTensor *index, THTensor *src);
/* t.select(dim, index[i]) += src.select(dim, i) (repeats accumulate). */
TH_API void THTensor_(indexAdd)(THTensor *t, int dim, THLongTensor *index, THTensor *src);
/* t.select(dim, index[i]) = value. */
TH_API void THTensor_(indexFill)(THTensor *t, int dim, THLongTensor *index, scalar_t value);

/* r gets index's sizes; r[p] = src[p with p[dim] replaced by index[p]]. index has src's
 * number of dimensions and sizes no larger than src's outside dim. */
TH_API void THTensor_(gather)(THTensor *r, THTensor *src, int dim, THLongTensor *index);
/* t[p with p[dim] replaced by index[p]] = src[p] for every position p of index; index is
 * no larger than src anywhere and than t outside dim. */
TH_API void THTensor_(scatter)(THTensor *t, int dim, THLongTensor *index, THTensor *src);
TH_API void THTensor_(scatterAdd)(THTensor *t, int dim, THLongTensor *index, THTensor *src);
TH_API void THTensor_(scatterFill)(THTensor *t, int dim, THLongTensor *index, scalar_t value);

/* Masks hold 0 or 1 and have as many elements as the tensor they select from (both are
 * walked in row-major order). */
TH_API void THTensor_(maskedFill)(THTensor *t, THByteTensor *mask, scalar_t value);
/* The selected elements of t get the first elements of src, in row-major order. */
TH_API void THTensor_(maskedCopy)(THTensor *t, THByteTensor *mask, THTensor *src);
/* r = the selected elements of src as a vector. */
TH_API void THTensor_(maskedSelect)(THTensor *r, THTensor *src, THByteTensor *mask);
/* r = N x nDimension matrix of the positions of t's N non-zero elements, row-major order. */
TH_API void THTensor_(nonzero)(THLongTensor *r, THTensor *t);

/* Flat indices into a tensor viewed as contiguous; negative ones count from the end
 * (-1 is the last element) in both bases. */
/* r gets index's sizes; r[p] = src.flat[index[p]]. */
TH_API void THTensor_(take)(THTensor *r, THTensor *src, THLongTensor *index);
/* t.flat[index[i]] = src[i] (or += when accumulate); index and src have as many elements. */
TH_API void THTensor_(put)(THTensor *t, THLongTensor *index, THTensor *src, int accumulate);
