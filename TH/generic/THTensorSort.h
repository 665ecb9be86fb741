#ifndef TH_GENERIC_FILE
#error "include TH/THTensorSort.h instead"
#endif

/* Every function works on the lines of t along dim (a 0-dim tensor is one line of one
 * element, dim 0). Results go to the first arguments, which are resized and may be t
 * itself or share its storage; indices count from TH_INDEX_BASE.
 *
 * Note [NaN order]: NaN counts as greater than every number and equal to itself, as in
 * PyTorch: max returns it, sort puts it last ascending and first descending, topk with
 * dir = 1 picks it first. Equal values keep their order (ties go to the lower index), so
 * sort is stable and topk/kthvalue return what a stable sort would put there.
 *
 * Reductions (max, min, kthvalue, median, mode) drop dim from the result unless keepdim,
 * and raise an error for a dimension of size 0. */

/* The first occurrence of the largest/smallest element; the first NaN if there is one. */
TH_API void THTensor_(max)(THTensor *values, THLongTensor *indices, THTensor *t, int dim, int keepdim);
TH_API void THTensor_(min)(THTensor *values, THLongTensor *indices, THTensor *t, int dim, int keepdim);

/* rt = t sorted along dim (ascending, or descending if descending != 0), stably;
 * ri = where each element of rt was in t. */
TH_API void THTensor_(sort)(THTensor *rt, THLongTensor *ri, THTensor *t, int dim, int descending);

/* The k largest (dir != 0) or smallest (dir == 0) elements of every line, 0 <= k <= size.
 * sorted != 0: in order, largest first for dir != 0, smallest first otherwise (as sort);
 * sorted == 0: in no particular order. A 0-dim t takes k = 1 only. */
TH_API void THTensor_(topk)(THTensor *rt, THLongTensor *ri, THTensor *t, int64_t k, int dim, int dir, int sorted);

/* The k-th smallest element, k from 1 to size (whatever TH_INDEX_BASE); its index is the
 * one a stable ascending sort puts at position k. */
TH_API void THTensor_(kthvalue)(THTensor *values, THLongTensor *indices, THTensor *t, int64_t k, int dim, int keepdim);

/* The lower median (kthvalue with k = (size + 1) / 2); NaN with the first NaN's index when
 * the line holds a NaN (as PyTorch's median). */
TH_API void THTensor_(median)(THTensor *values, THLongTensor *indices, THTensor *t, int dim, int keepdim);

/* The most frequent value, the smallest of them on a tie (NaNs count as one value, the
 * largest); its index is that of its last occurrence (as PyTorch on the CPU). */
TH_API void THTensor_(mode)(THTensor *values, THLongTensor *indices, THTensor *t, int dim, int keepdim);

/* The lower median of all elements; NaN if any is NaN. An error for an empty tensor. */
TH_API scalar_t THTensor_(medianall)(THTensor *t);
