#ifndef THC_GENERIC_FILE
#error "compile THC/indexed/THCTensorIndex.cu instead"
#endif

#if !defined(TH_REAL_IS_HALF)

void THCTensor_(indexSelect)(THCState *state, THCTensor *r, THCTensor *src, int dim, THCudaLongTensor *index) {
  thc::indexSelect(state, r, src, dim, index);
}
void THCTensor_(indexCopy)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, THCTensor *src) {
  thc::indexStore(state, "indexCopy", false, t, dim, index, src);
}
void THCTensor_(indexAdd)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, THCTensor *src) {
  thc::indexStore(state, "indexAdd", true, t, dim, index, src);
}
void THCTensor_(indexFill)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, scalar_t value) {
  thc::indexFill(state, t, dim, index, value);
}

void THCTensor_(gather)(THCState *state, THCTensor *r, THCTensor *src, int dim, THCudaLongTensor *index) {
  thc::gather(state, r, src, dim, index);
}
void THCTensor_(scatter)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, THCTensor *src) {
  thc::scatterWith(state, "scatter", thc::Store{}, t, dim, index, src);
}
void THCTensor_(scatterAdd)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, THCTensor *src) {
  thc::scatterWith(state, "scatterAdd", thc::StoreAdd{}, t, dim, index, src);
}
void THCTensor_(scatterFill)(THCState *state, THCTensor *t, int dim, THCudaLongTensor *index, scalar_t value) {
  thc::scatterWith(state, "scatterFill", thc::StoreValue<scalar_t>{value}, t, dim, index, (THCTensor *)nullptr);
}

void THCTensor_(maskedFill)(THCState *state, THCTensor *t, THCudaByteTensor *mask, scalar_t value) {
  thc::maskedFill(state, t, mask, value);
}
void THCTensor_(maskedCopy)(THCState *state, THCTensor *t, THCudaByteTensor *mask, THCTensor *src) {
  thc::maskedCopy(state, t, mask, src);
}
void THCTensor_(maskedSelect)(THCState *state, THCTensor *r, THCTensor *src, THCudaByteTensor *mask) {
  thc::maskedSelect(state, r, src, mask);
}
void THCTensor_(nonzero)(THCState *state, THCudaLongTensor *r, THCTensor *t) { thc::nonzero(state, r, t); }

void THCTensor_(take)(THCState *state, THCTensor *r, THCTensor *src, THCudaLongTensor *index) {
  thc::take(state, r, src, index);
}
void THCTensor_(put)(THCState *state, THCTensor *t, THCudaLongTensor *index, THCTensor *src, int accumulate) {
  thc::put(state, t, index, src, accumulate);
}

#endif
