#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensorCopy.cu instead"
#endif

void THCTensor_(copy)(THCState *state, THCTensor *self, THCTensor *src) { thc::copyDevice(state, self, src); }

#define THC_COPY_FROM_CUDA(Name, T, dtype)                                                          \
  void THCTensor_(copyCuda##Name)(THCState * state, THCTensor * self, THCuda##Name##Tensor * src) { \
    thc::copyDevice(state, self, src);                                                              \
  }
TH_FORALL_TYPES(THC_COPY_FROM_CUDA)
#undef THC_COPY_FROM_CUDA

#define THC_COPY_FROM_HOST(Name, T, dtype)                                                  \
  void THCTensor_(copy##Name)(THCState * state, THCTensor * self, TH##Name##Tensor * src) { \
    thc::copyFromHost(state, self, src);                                                    \
  }
TH_FORALL_TYPES(THC_COPY_FROM_HOST)
#undef THC_COPY_FROM_HOST

#define THC_COPY_TO_HOST(Name, T, dtype)                                                          \
  void THTensor_(copyCuda##Name)(THCState * state, THTensor * self, THCuda##Name##Tensor * src) { \
    thc::copyToHost(state, self, src);                                                            \
  }
TH_FORALL_TYPES(THC_COPY_TO_HOST)
#undef THC_COPY_TO_HOST

void THTensor_(copyCuda)(THCState *state, THTensor *self, THCTensor *src) { thc::copyToHost(state, self, src); }

void THCTensor_(copyAsyncCPU)(THCState *state, THCTensor *self, THTensor *src) {
  thc::copyAsync(state, self, src, true);
}
void THTensor_(copyAsyncCuda)(THCState *state, THTensor *self, THCTensor *src) {
  thc::copyAsync(state, src, self, false);
}

void THCTensor_(fill)(THCState *state, THCTensor *self, scalar_t value) { thc::fill(state, self, value); }
void THCTensor_(zero)(THCState *state, THCTensor *self) { thc::fill(state, self, thc::convert<scalar_t>(0)); }
