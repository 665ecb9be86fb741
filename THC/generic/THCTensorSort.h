#ifndef THC_GENERIC_FILE
#error "include THC/THCTensorSort.h instead"
#endif

#if !defined(TH_REAL_IS_HALF)

/* Every function works on the lines of t along dim (a 0-dim tensor is one line of one
 * element, dim 0). Results go to the first arguments, which are resized (keeping their
 * strides when the size is already right, as TH) and may be t itself or share its
 * storage; values and indices must not share one. Reductions (max, min, kthvalue, median,
 * mode) drop dim from the result unless keepdim, and raise an error for a dimension of
 * size 0. */

/* The first occurrence of the largest/smallest element; the first NaN if there is one. */
THC_API void THCTensor_(max)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int dim,
                             int keepdim);
THC_API void THCTensor_(min)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int dim,
                             int keepdim);

/* rt = t sorted along dim (ascending, or descending if descending != 0), stably;
 * ri = where each element of rt was in t. */
THC_API void THCTensor_(sort)(THCState *state, THCTensor *rt, THCudaLongTensor *ri, THCTensor *t, int dim,
                              int descending);

/* The k largest (dir != 0) or smallest (dir == 0) elements of every line, 0 <= k <= size,
 * in sort's order (also when sorted == 0, which TH leaves unspecified). A 0-dim t takes
 * k = 1 only. */
THC_API void THCTensor_(topk)(THCState *state, THCTensor *rt, THCudaLongTensor *ri, THCTensor *t, int64_t k, int dim,
                              int dir, int sorted);

/* The k-th smallest element, k from 1 to size (whatever TH_INDEX_BASE); its index is the
 * one a stable ascending sort puts at position k. */
THC_API void THCTensor_(kthvalue)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t,
                                  int64_t k, int dim, int keepdim);

/* The lower median (kthvalue with k = (size + 1) / 2); NaN with the first NaN's index when
 * the line holds a NaN. */
THC_API void THCTensor_(median)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int dim,
                                int keepdim);

/* The most frequent value, the smallest of them on a tie (NaNs count as one value, the
 * largest); its index is that of its last occurrence. */
THC_API void THCTensor_(mode)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int dim,
                              int keepdim);

/* The lower median of all elements; NaN if any is NaN. An error for an empty tensor.
 * Waits for the stream. */
THC_API scalar_t THCTensor_(medianall)(THCState *state, THCTensor *t);

#ifdef __cplusplus
namespace thc {
template <>
struct SortOps<scalar_t> {
#define THC_SORT_MEMBER(name) static constexpr auto name = &THCTensor_(name);
  THC_SORT_FNS(THC_SORT_MEMBER)
#undef THC_SORT_MEMBER
};
}  // namespace thc
#endif

#endif
