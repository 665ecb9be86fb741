/* LAPACK on Float and Double CUDA tensors through cuSOLVER's dense API: TH's
 * THTensorLapack (TH/THTensorLapack.h) with the state first, torch7's argument order.
 *
 *   THCudaDoubleTensor *x = THCudaDoubleTensor_new(state), *lu = THCudaDoubleTensor_new(state);
 *   THCudaDoubleTensor_gesv(state, x, lu, b, a);       // a @ x = b
 *
 * TH's semantics: inputs are never modified (cuSOLVER works on column-major copies), so a
 * result may be an input, and an input passed as NULL stands for the result in its place.
 * Results are resized as in TH. A failure (singular matrix, matrix not positive definite,
 * no convergence) raises TH's error and leaves every tensor unchanged: the status cuSOLVER
 * writes on the device is read back (the stream is synchronised) before any result is
 * written. Eigenvectors and singular vectors are those of another algorithm than TH's
 * (syevd for syev) and may differ from TH's by sign. TH's gels and geev have no
 * counterpart here.
 *
 * Each device gets one cuSOLVER handle, created on first use and bound to the current
 * stream at each call; it lives until the process ends. cuSOLVER is used only by this
 * part of THC, so the rest of THC runs where libcusolver is absent. */
#ifndef THC_TENSOR_LAPACK_H
#define THC_TENSOR_LAPACK_H

#include "THC/THCTensor.h"

#define THC_GENERIC_FILE "THC/generic/THCTensorLapack.h"
#include "THC/THCGenerateAllTypes.h"

#endif
