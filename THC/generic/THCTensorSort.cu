#ifndef THC_GENERIC_FILE
#error "compile THC/indexed/THCTensorSort.cu instead"
#endif

#if !defined(TH_REAL_IS_HALF)

void THCTensor_(max)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int dim,
                     int keepdim) {
  thc::extreme<true, scalar_t>(state, "max", values, indices, t, dim, keepdim);
}
void THCTensor_(min)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int dim,
                     int keepdim) {
  thc::extreme<false, scalar_t>(state, "min", values, indices, t, dim, keepdim);
}

void THCTensor_(sort)(THCState *state, THCTensor *rt, THCudaLongTensor *ri, THCTensor *t, int dim, int descending) {
  thc::sort<scalar_t>(state, rt, ri, t, dim, descending != 0);
}
void THCTensor_(topk)(THCState *state, THCTensor *rt, THCudaLongTensor *ri, THCTensor *t, int64_t k, int dim, int dir,
                      int sorted) {
  (void)sorted;  // always in order: what TH leaves unspecified
  thc::topk<scalar_t>(state, rt, ri, t, k, dim, dir != 0);
}

void THCTensor_(kthvalue)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int64_t k,
                          int dim, int keepdim) {
  thc::kthvalue<scalar_t>(state, values, indices, t, k, dim, keepdim);
}
void THCTensor_(median)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int dim,
                        int keepdim) {
  thc::pickAlong<scalar_t>(state, "median", thc::Pick::Median, 0, 4, values, indices, t, dim, keepdim);
}
void THCTensor_(mode)(THCState *state, THCTensor *values, THCudaLongTensor *indices, THCTensor *t, int dim,
                      int keepdim) {
  thc::pickAlong<scalar_t>(state, "mode", thc::Pick::Chosen, 0, 4, values, indices, t, dim, keepdim);
}
scalar_t THCTensor_(medianall)(THCState *state, THCTensor *t) { return thc::medianall<scalar_t>(state, t); }

#endif
