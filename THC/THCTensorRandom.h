/* Random tensor fills on the GPU with the current device's Philox generator (THCRandom_*,
 * THCGeneral.h), TH's distributions with cutorch's signatures (the state first, no
 * generator argument):
 *
 *   THCRandom_manualSeed(state, 123);
 *   THCudaTensor_normal(state, t, 0, 1);     // the same values after the same seed
 *   THCudaTensor_bernoulli(state, m, 0.3);
 *
 * Element i of the result (its row-major linear index, whatever the strides) depends only
 * on the seed, the generator's offset at the call and i (Note [Philox counters],
 * THCPhilox.cuh), so a transposed or narrowed result holds, per linear index, the values a
 * contiguous one of the same shape would get. The values are not TH's (another generator);
 * the distributions, argument checks and errors are. A result whose elements share memory
 * (an expanded tensor) gets one of the values drawn for each shared element. Arguments are
 * checked before anything is written, those held in device tensors too (probabilities,
 * standard deviations), which waits for the stream. Element types: TH's (all but Half).
 * randperm and multinomial return indices counted from TH_INDEX_BASE (they live in
 * indexed/THCTensorRandomIndex.cu). */
#ifndef THC_TENSOR_RANDOM_H
#define THC_TENSOR_RANDOM_H

#include "THC/THCTensor.h"

#define THC_GENERIC_FILE "THC/generic/THCTensorRandom.h"
#include "THC/THCGenerateAllTypes.h"

#endif
