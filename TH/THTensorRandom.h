/* Random tensor fills with torch7's generator (THRandom.h): elements are drawn one after
 * another in row-major order of the tensor (also for non-contiguous ones), one generator
 * call per element as in torch7, so a seed gives torch7's values:
 *
 *   THRandom_manualSeed(gen, 123);
 *   THDoubleTensor_bernoulli(t, gen, 0.3);  // torch.Tensor(20):bernoulli(0.3) after torch.manualSeed(123)
 *
 * The fills run on one thread (the stream order defines the result); a generator is not
 * thread-safe, so callers sharing one lock around each call. gen may be NULL for
 * THGenerator_default(). randperm and multinomial return indices counted from
 * TH_INDEX_BASE (they live in indexed/THTensorRandomIndex.cpp). */
#ifndef TH_THTENSORRANDOM_H
#define TH_THTENSORRANDOM_H

#include "TH/THRandom.h"
#include "TH/THTensor.h"

#define TH_GENERIC_FILE "TH/generic/THTensorRandom.h"
#include "TH/THGenerateAllTypes.h"

#endif
