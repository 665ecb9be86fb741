#ifndef THC_GENERIC_FILE
#error "compile THC/THCStorage.cpp instead"
#endif

scalar_t *THCStorage_(data)(THCState *, const THCStorage *self) { return self->data; }
ptrdiff_t THCStorage_(size)(THCState *, const THCStorage *self) { return self->size; }
size_t THCStorage_(elementSize)(THCState *) { return sizeof(scalar_t); }
int THCStorage_(getDevice)(THCState *, const THCStorage *self) { return thc::pointerDevice(self->data); }

void THCStorage_(set)(THCState *state, THCStorage *self, ptrdiff_t index, scalar_t value) {
  if (index < 0 || index >= self->size)
    THIndexError("index %td is out of range for a storage of size %td", index, self->size);
  thc::DeviceGuard guard(thc::pointerDevice(self->data));
  cudaStream_t stream = THCState_getCurrentStream(state);
  THCudaCheck(cudaMemcpyAsync(self->data + index, &value, sizeof(scalar_t), cudaMemcpyHostToDevice, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
}

scalar_t THCStorage_(get)(THCState *state, const THCStorage *self, ptrdiff_t index) {
  if (index < 0 || index >= self->size)
    THIndexError("index %td is out of range for a storage of size %td", index, self->size);
  thc::DeviceGuard guard(thc::pointerDevice(self->data));
  cudaStream_t stream = THCState_getCurrentStream(state);
  scalar_t value;
  THCudaCheck(cudaMemcpyAsync(&value, self->data + index, sizeof(scalar_t), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
  return value;
}

THCStorage *THCStorage_(new)(THCState *state) { return THCStorage_(newWithSize)(state, 0); }

THCStorage *THCStorage_(newWithSize)(THCState *state, ptrdiff_t size) {
  return reinterpret_cast<THCStorage *>(THStorage_(newWithAllocator)(size, THCCachingAllocator_get(), state));
}

void THCStorage_(retain)(THCState *, THCStorage *self) { THStorage_(retain)(thc::th(self)); }
void THCStorage_(free)(THCState *, THCStorage *self) { THStorage_(free)(thc::th(self)); }

void THCStorage_(resize)(THCState *, THCStorage *self, ptrdiff_t size) {
  thc::DeviceGuard guard(thc::pointerDevice(self->data));
  THStorage_(resize)(thc::th(self), size);
}

void THCStorage_(fill)(THCState *state, THCStorage *self, scalar_t value) {
  THCTensor *view = THCTensor_(newWithStorage1d)(state, self, 0, self->size, 1);
  try {
    THCTensor_(fill)(state, view, value);
  } catch (...) {
    THCTensor_(free)(state, view);
    throw;
  }
  THCTensor_(free)(state, view);
}

void THCStorage_(copyCPU)(THCState *state, THCStorage *self, THStorage *src) {
  if (self->size != src->size)
    THValueError("copy: the storages hold %td and %td elements; they must be the same size", self->size, src->size);
  thc::DeviceGuard guard(thc::pointerDevice(self->data));
  cudaStream_t stream = THCState_getCurrentStream(state);
  THCudaCheck(cudaMemcpyAsync(self->data, src->data, self->size * sizeof(scalar_t), cudaMemcpyHostToDevice, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
}

void THStorage_(copyCuda)(THCState *state, THStorage *self, THCStorage *src) {
  if (self->size != src->size)
    THValueError("copy: the storages hold %td and %td elements; they must be the same size", self->size, src->size);
  thc::DeviceGuard guard(thc::pointerDevice(src->data));
  cudaStream_t stream = THCState_getCurrentStream(state);
  THCudaCheck(cudaMemcpyAsync(self->data, src->data, self->size * sizeof(scalar_t), cudaMemcpyDeviceToHost, stream));
  THCudaCheck(cudaStreamSynchronize(stream));
}
