#ifndef THC_GENERIC_FILE
#error "compile THCUNN/Linear.cu instead"
#endif

static std::string THNN_(Linear_shape)(THCState *state, THCTensor *t) {
  return t ? THCTensor_(sizeDesc)(state, t) : "NULL";
}

static scalar_t THNN_(Linear_scalar)(double v) {
#ifdef TH_REAL_IS_HALF
  return TH_float2half(static_cast<float>(v));
#else
  return static_cast<scalar_t>(v);
#endif
}

static bool THNN_(Linear_isVectorOf)(THCTensor *t, int64_t n) { return t->nDimension == 1 && t->size[0] == n; }

// input [inputSize] or [batch, inputSize] against weight [outputSize, inputSize].
static void THNN_(Linear_checkInput)(THCState *state, const char *fn, THCTensor *input, THCTensor *weight,
                                     int weightArg) {
  THArgCheck(weight->nDimension == 2, weightArg, "%s: weight must be [outputSize, inputSize], got %s", fn,
             THNN_(Linear_shape)(state, weight).c_str());
  THArgCheck(input->nDimension == 1 || input->nDimension == 2, 2,
             "%s: input must be [inputSize] or [batch, inputSize], got %s", fn,
             THNN_(Linear_shape)(state, input).c_str());
  THArgCheck(input->size[input->nDimension - 1] == weight->size[1], 2,
             "%s: size mismatch, input %s does not match weight %s (inputSize %lld)", fn,
             THNN_(Linear_shape)(state, input).c_str(), THNN_(Linear_shape)(state, weight).c_str(),
             (long long)weight->size[1]);
}

static void THNN_(Linear_checkGradOutput)(THCState *state, const char *fn, THCTensor *input, THCTensor *gradOutput,
                                          int64_t outputSize) {
  const bool ok = input->nDimension == 1 ? THNN_(Linear_isVectorOf)(gradOutput, outputSize)
                                         : gradOutput->nDimension == 2 && gradOutput->size[0] == input->size[0] &&
                                               gradOutput->size[1] == outputSize;
  THArgCheck(ok, 3, "%s: gradOutput %s does not match input %s and outputSize %lld", fn,
             THNN_(Linear_shape)(state, gradOutput).c_str(), THNN_(Linear_shape)(state, input).c_str(),
             (long long)outputSize);
}

// A vector of n ones (the bias is added to, and its gradient summed over, a batch's rows by
// products with it).
static void THNN_(Linear_ones)(THCState *state, THCTensor *addBuffer, int64_t n) {
  THCTensor_(resize1d)(state, addBuffer, n);
  THCTensor_(fill)(state, addBuffer, THNN_(Linear_scalar)(1));
}

void THNN_(Linear_updateOutput)(THCState *state, THCTensor *input, THCTensor *output, THCTensor *weight,
                                THCTensor *bias, THCTensor *addBuffer) {
  const char *fn = "Linear_updateOutput";
  THNN_(Linear_checkInput)(state, fn, input, weight, 4);
  const int64_t outputSize = weight->size[0];
  THArgCheck(!bias || THNN_(Linear_isVectorOf)(bias, outputSize), 5, "%s: bias must be [%lld], got %s", fn,
             (long long)outputSize, THNN_(Linear_shape)(state, bias).c_str());
  const bool batched = input->nDimension == 2;
  THArgCheck(!(batched && bias) || addBuffer, 6, "%s: addBuffer is needed to add the bias to a batch", fn);
  const scalar_t one = THNN_(Linear_scalar)(1);
  if (!batched) {
    if (bias) {
      THCTensor_(resize1d)(state, output, outputSize);
      THCTensor_(copy)(state, output, bias);
      THCTensor_(addmv)(state, output, one, output, one, weight, input);
    } else {
      THCTensor_(mv)(state, output, weight, input);
    }
    return;
  }
  THCTensor *weightT = THCTensor_(newTranspose)(state, weight, 0, 1);
  THCTensor_(mm)(state, output, input, weightT);
  THCTensor_(free)(state, weightT);
  if (bias) {
    THNN_(Linear_ones)(state, addBuffer, input->size[0]);
    THCTensor_(addr)(state, output, one, output, one, addBuffer, bias);
  }
}

void THNN_(Linear_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput, THCTensor *gradInput,
                                   THCTensor *weight) {
  const char *fn = "Linear_updateGradInput";
  THNN_(Linear_checkInput)(state, fn, input, weight, 5);
  THNN_(Linear_checkGradOutput)(state, fn, input, gradOutput, weight->size[0]);
  if (!gradInput) return;
  if (input->nDimension == 1) {
    THCTensor *weightT = THCTensor_(newTranspose)(state, weight, 0, 1);
    THCTensor_(mv)(state, gradInput, weightT, gradOutput);
    THCTensor_(free)(state, weightT);
  } else {
    THCTensor_(mm)(state, gradInput, gradOutput, weight);
  }
}

void THNN_(Linear_accGradParameters)(THCState *state, THCTensor *input, THCTensor *gradOutput, THCTensor *gradInput,
                                     THCTensor *weight, THCTensor *bias, THCTensor *gradWeight, THCTensor *gradBias,
                                     THCTensor *addBuffer, accreal scale) {
  const char *fn = "Linear_accGradParameters";
  THNN_(Linear_checkInput)(state, fn, input, weight, 5);
  const int64_t outputSize = weight->size[0];
  THNN_(Linear_checkGradOutput)(state, fn, input, gradOutput, outputSize);
  THArgCheck(THCTensor_(isSameSizeAs)(state, gradWeight, weight), 7, "%s: gradWeight %s must have weight's size %s", fn,
             THNN_(Linear_shape)(state, gradWeight).c_str(), THNN_(Linear_shape)(state, weight).c_str());
  const bool withBias = bias && gradBias;
  THArgCheck(!withBias || THNN_(Linear_isVectorOf)(gradBias, outputSize), 8, "%s: gradBias must be [%lld], got %s", fn,
             (long long)outputSize, THNN_(Linear_shape)(state, gradBias).c_str());
  const bool batched = input->nDimension == 2;
  THArgCheck(!(batched && withBias) || addBuffer, 9, "%s: addBuffer is needed to sum a batch's bias gradient", fn);
  const scalar_t one = THNN_(Linear_scalar)(1), s = THNN_(Linear_scalar)(scale);
  if (!batched) {
    THCTensor_(addr)(state, gradWeight, one, gradWeight, s, gradOutput, input);
    if (withBias) {
      // gradBias += s gradOutput, as the product of gradOutput (one column) with a one
      THCTensor *column = THCTensor_(new)(state);
      int64_t sizes[2] = {outputSize, 1}, strides[2] = {gradOutput->stride[0], 1};
      THCTensor_(setStorageNd)(state, column, gradOutput->storage, gradOutput->storageOffset, 2, sizes, strides);
      THCTensor *oneVector = THCTensor_(newWithSize1d)(state, 1);
      THCTensor_(fill)(state, oneVector, one);
      THCTensor_(addmv)(state, gradBias, one, gradBias, s, column, oneVector);
      THCTensor_(free)(state, oneVector);
      THCTensor_(free)(state, column);
    }
    return;
  }
  THCTensor *gradOutputT = THCTensor_(newTranspose)(state, gradOutput, 0, 1);
  THCTensor_(addmm)(state, gradWeight, one, gradWeight, s, gradOutputT, input);
  if (withBias) {
    THNN_(Linear_ones)(state, addBuffer, input->size[0]);
    THCTensor_(addmv)(state, gradBias, one, gradBias, s, gradOutputT, addBuffer);
  }
  THCTensor_(free)(state, gradOutputT);
}
