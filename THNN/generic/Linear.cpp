#ifndef TH_GENERIC_FILE
#error "compile THNN/Linear.cpp instead"
#endif

/* ---- Linear ------------------------------------------------------------------------ */

// input [inputSize] or [batch, inputSize] against weight [outputSize, inputSize].
static void THNN_(Linear_checkInput)(const char *fn, THTensor *input, THTensor *weight, int weightArg) {
  THArgCheck(weight->nDimension == 2, weightArg, "%s: weight must be [outputSize, inputSize], got %s", fn,
             shape(weight).c_str());
  THArgCheck(input->nDimension == 1 || input->nDimension == 2, 2,
             "%s: input must be [inputSize] or [batch, inputSize], got %s", fn, shape(input).c_str());
  THArgCheck(input->size[input->nDimension - 1] == weight->size[1], 2,
             "%s: size mismatch, input %s does not match weight %s (inputSize %lld)", fn, shape(input).c_str(),
             shape(weight).c_str(), (long long)weight->size[1]);
}

// gradOutput is shaped like the output: [outputSize] or [batch, outputSize].
static void THNN_(Linear_checkGradOutput)(const char *fn, THTensor *input, THTensor *gradOutput, int64_t outputSize) {
  const bool ok = input->nDimension == 1 ? linear::isVectorOf(gradOutput, outputSize)
                                         : gradOutput->nDimension == 2 && gradOutput->size[0] == input->size[0] &&
                                               gradOutput->size[1] == outputSize;
  THArgCheck(ok, 3, "%s: gradOutput %s does not match input %s and outputSize %lld", fn, shape(gradOutput).c_str(),
             shape(input).c_str(), (long long)outputSize);
}

// The bias is added to (and its gradient summed over) a batch's rows through a vector of ones.
static void THNN_(Linear_ones)(THTensor *addBuffer, int64_t n) {
  THTensor_(resize1d)(addBuffer, n);
  THTensor_(fill)(addBuffer, 1);
}

void THNN_(Linear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight, THTensor *bias,
                                THTensor *addBuffer) {
  const char *fn = "Linear_updateOutput";
  THNN_(Linear_checkInput)(fn, input, weight, 4);
  const int64_t outputSize = weight->size[0];
  THArgCheck(!bias || linear::isVectorOf(bias, outputSize), 5, "%s: bias must be [%lld], got %s", fn,
             (long long)outputSize, shape(bias).c_str());
  const bool batched = input->nDimension == 2;
  THArgCheck(!(batched && bias) || addBuffer, 6, "%s: addBuffer is needed to add the bias to a batch", fn);

  if (!batched) {
    THTensor_(mv)(output, weight, input);
    if (bias) THTensor_(cadd)(output, output, 1, bias);
    return;
  }
  auto weightT = th::own(THTensor_(newTranspose)(weight, 0, 1));
  THTensor_(mm)(output, input, weightT.get());
  if (bias) {
    THNN_(Linear_ones)(addBuffer, input->size[0]);
    THTensor_(addr)(output, 1, output, 1, addBuffer, bias);
  }
}

void THNN_(Linear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                   THTensor *weight) {
  const char *fn = "Linear_updateGradInput";
  THNN_(Linear_checkInput)(fn, input, weight, 5);
  THNN_(Linear_checkGradOutput)(fn, input, gradOutput, weight->size[0]);
  if (!gradInput) return;
  if (input->nDimension == 1) {
    auto weightT = th::own(THTensor_(newTranspose)(weight, 0, 1));
    THTensor_(mv)(gradInput, weightT.get(), gradOutput);
  } else {
    THTensor_(mm)(gradInput, gradOutput, weight);
  }
}

void THNN_(Linear_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                     THTensor *weight, THTensor *bias, THTensor *gradWeight, THTensor *gradBias,
                                     THTensor *addBuffer, accreal scale) {
  const char *fn = "Linear_accGradParameters";
  THNN_(Linear_checkInput)(fn, input, weight, 5);
  const int64_t outputSize = weight->size[0];
  THNN_(Linear_checkGradOutput)(fn, input, gradOutput, outputSize);
  THArgCheck(THTensor_(isSameSizeAs)(gradWeight, weight), 7, "%s: gradWeight %s must have weight's size %s", fn,
             shape(gradWeight).c_str(), shape(weight).c_str());
  const bool withBias = bias && gradBias;
  THArgCheck(!withBias || linear::isVectorOf(gradBias, outputSize), 8, "%s: gradBias must be [%lld], got %s", fn,
             (long long)outputSize, shape(gradBias).c_str());
  const bool batched = input->nDimension == 2;
  THArgCheck(!(batched && withBias) || addBuffer, 9, "%s: addBuffer is needed to sum a batch's bias gradient", fn);

  const scalar_t s = (scalar_t)scale;
  if (!batched) {
    THTensor_(addr)(gradWeight, 1, gradWeight, s, gradOutput, input);
    if (withBias) THTensor_(cadd)(gradBias, gradBias, s, gradOutput);
    return;
  }
  auto gradOutputT = th::own(THTensor_(newTranspose)(gradOutput, 0, 1));
  THTensor_(addmm)(gradWeight, 1, gradWeight, s, gradOutputT.get(), input);
  if (withBias) {
    THNN_(Linear_ones)(addBuffer, input->size[0]);
    THTensor_(addmv)(gradBias, 1, gradBias, s, gradOutputT.get(), addBuffer);
  }
}

/* ---- Bilinear ---------------------------------------------------------------------- */

// input1 [batch, in1] and input2 [batch, in2] (or [in1] and [in2]) against weight [out, in1, in2].
static void THNN_(Bilinear_checkInputs)(const char *fn, THTensor *input1, THTensor *input2, THTensor *weight,
                                        int weightArg) {
  THArgCheck(weight->nDimension == 3, weightArg, "%s: weight must be [outputSize, in1, in2], got %s", fn,
             shape(weight).c_str());
  THArgCheck(input1->nDimension == 1 || input1->nDimension == 2, 2, "%s: input1 must be [in1] or [batch, in1], got %s",
             fn, shape(input1).c_str());
  THArgCheck(
      input2->nDimension == input1->nDimension && (input1->nDimension == 1 || input2->size[0] == input1->size[0]), 3,
      "%s: input2 %s must have input1's batch layout %s", fn, shape(input2).c_str(), shape(input1).c_str());
  const int last = input1->nDimension - 1;
  THArgCheck(input1->size[last] == weight->size[1], 2, "%s: input1 %s does not match weight %s", fn,
             shape(input1).c_str(), shape(weight).c_str());
  THArgCheck(input2->size[last] == weight->size[2], 3, "%s: input2 %s does not match weight %s", fn,
             shape(input2).c_str(), shape(weight).c_str());
}

static void THNN_(Bilinear_checkGradOutput)(const char *fn, THTensor *input1, THTensor *gradOutput,
                                            int64_t outputSize) {
  const bool ok = input1->nDimension == 1 ? linear::isVectorOf(gradOutput, outputSize)
                                          : gradOutput->nDimension == 2 && gradOutput->size[0] == input1->size[0] &&
                                                gradOutput->size[1] == outputSize;
  THArgCheck(ok, 4, "%s: gradOutput %s does not match input1 %s and outputSize %lld", fn, shape(gradOutput).c_str(),
             shape(input1).c_str(), (long long)outputSize);
}

// t as a [batch, n] view: an unbatched [n] becomes a batch of one.
static THTensor *THNN_(Bilinear_batchView)(THTensor *t) {
  THTensor *v = THTensor_(newWithTensor)(t);
  if (v->nDimension == 1) THTensor_(unsqueeze1d)(v, v, 0);
  return v;
}

// buffer = diag(gradOutput[:, k]) x: x's rows scaled by their sample's gradient for output k.
static void THNN_(Bilinear_scaleRows)(THTensor *buffer, THTensor *x, THTensor *gradOutput, int64_t k) {
  THTensor_(resize2d)(buffer, x->size[0], x->size[1]);
  const auto b = linear::mat(buffer), xm = linear::mat(x), g = linear::mat(gradOutput);
  for (int64_t i = 0; i < xm.rows; i++)
    for (int64_t j = 0; j < xm.cols; j++) b(i, j) = g(i, k) * xm(i, j);
}

void THNN_(Bilinear_updateOutput)(THNNState *state, THTensor *input1, THTensor *input2, THTensor *output,
                                  THTensor *weight, THTensor *bias, THTensor *buffer) {
  const char *fn = "Bilinear_updateOutput";
  THNN_(Bilinear_checkInputs)(fn, input1, input2, weight, 5);
  const int64_t outputSize = weight->size[0];
  THArgCheck(!bias || linear::isVectorOf(bias, outputSize), 6, "%s: bias must be [%lld], got %s", fn,
             (long long)outputSize, shape(bias).c_str());
  THArgCheck(buffer != nullptr, 7, "%s: buffer must not be NULL", fn);

  auto x1 = th::own(THNN_(Bilinear_batchView)(input1));
  auto x2 = th::own(THNN_(Bilinear_batchView)(input2));
  const int64_t batch = x1->size[0];
  if (input1->nDimension == 1)
    THTensor_(resize1d)(output, outputSize);
  else
    THTensor_(resize2d)(output, batch, outputSize);
  const auto out = linear::mat(output), x2m = linear::mat(x2.get());
  auto weightK = th::own(THTensor_(new)());
  for (int64_t k = 0; k < outputSize; k++) {
    // row b of buffer is input1[b] weight[k]; its dot product with input2[b] is output[b][k]
    THTensor_(select)(weightK.get(), weight, 0, k);
    THTensor_(mm)(buffer, x1.get(), weightK.get());
    const auto buf = linear::mat(buffer);
    const accreal b = bias ? (accreal)linear::vec(bias)[k] : 0;
    for (int64_t i = 0; i < batch; i++) {
      accreal sum = b;
      for (int64_t j = 0; j < x2m.cols; j++) sum += (accreal)buf(i, j) * x2m(i, j);
      out(i, k) = (scalar_t)sum;
    }
  }
}

void THNN_(Bilinear_updateGradInput)(THNNState *state, THTensor *input1, THTensor *input2, THTensor *gradOutput,
                                     THTensor *gradInput1, THTensor *gradInput2, THTensor *weight, THTensor *buffer) {
  const char *fn = "Bilinear_updateGradInput";
  THNN_(Bilinear_checkInputs)(fn, input1, input2, weight, 7);
  const int64_t outputSize = weight->size[0];
  THNN_(Bilinear_checkGradOutput)(fn, input1, gradOutput, outputSize);
  THArgCheck(buffer != nullptr, 8, "%s: buffer must not be NULL", fn);

  auto x1 = th::own(THNN_(Bilinear_batchView)(input1));
  auto x2 = th::own(THNN_(Bilinear_batchView)(input2));
  auto g = th::own(THNN_(Bilinear_batchView)(gradOutput));
  auto weightK = th::own(THTensor_(new)());
  auto weightKT = th::own(THTensor_(new)());
  // gradInput1 = sum_k diag(gradOutput[:, k]) input2 weight[k]^T
  if (gradInput1) {
    THTensor_(resizeAs)(gradInput1, input1);
    THTensor_(zero)(gradInput1);
    auto gi = th::own(THNN_(Bilinear_batchView)(gradInput1));
    for (int64_t k = 0; k < outputSize; k++) {
      THNN_(Bilinear_scaleRows)(buffer, x2.get(), g.get(), k);
      THTensor_(select)(weightK.get(), weight, 0, k);
      THTensor_(transpose)(weightKT.get(), weightK.get(), 0, 1);
      THTensor_(addmm)(gi.get(), 1, gi.get(), 1, buffer, weightKT.get());
    }
  }
  // gradInput2 = sum_k diag(gradOutput[:, k]) input1 weight[k]
  if (gradInput2) {
    THTensor_(resizeAs)(gradInput2, input2);
    THTensor_(zero)(gradInput2);
    auto gi = th::own(THNN_(Bilinear_batchView)(gradInput2));
    for (int64_t k = 0; k < outputSize; k++) {
      THNN_(Bilinear_scaleRows)(buffer, x1.get(), g.get(), k);
      THTensor_(select)(weightK.get(), weight, 0, k);
      THTensor_(addmm)(gi.get(), 1, gi.get(), 1, buffer, weightK.get());
    }
  }
}

void THNN_(Bilinear_accGradParameters)(THNNState *state, THTensor *input1, THTensor *input2, THTensor *gradOutput,
                                       THTensor *gradWeight, THTensor *gradBias, THTensor *buffer, accreal scale) {
  const char *fn = "Bilinear_accGradParameters";
  THNN_(Bilinear_checkInputs)(fn, input1, input2, gradWeight, 5);
  const int64_t outputSize = gradWeight->size[0];
  THNN_(Bilinear_checkGradOutput)(fn, input1, gradOutput, outputSize);
  THArgCheck(!gradBias || linear::isVectorOf(gradBias, outputSize), 6, "%s: gradBias must be [%lld], got %s", fn,
             (long long)outputSize, shape(gradBias).c_str());
  THArgCheck(buffer != nullptr, 7, "%s: buffer must not be NULL", fn);

  auto x1 = th::own(THNN_(Bilinear_batchView)(input1));
  auto x2 = th::own(THNN_(Bilinear_batchView)(input2));
  auto g = th::own(THNN_(Bilinear_batchView)(gradOutput));
  auto gradWeightK = th::own(THTensor_(new)());
  auto bufferT = th::own(THTensor_(new)());
  // gradWeight[k] += scale (diag(gradOutput[:, k]) input1)^T input2
  for (int64_t k = 0; k < outputSize; k++) {
    THNN_(Bilinear_scaleRows)(buffer, x1.get(), g.get(), k);
    THTensor_(transpose)(bufferT.get(), buffer, 0, 1);
    THTensor_(select)(gradWeightK.get(), gradWeight, 0, k);
    THTensor_(addmm)(gradWeightK.get(), 1, gradWeightK.get(), (scalar_t)scale, bufferT.get(), x2.get());
  }
  if (gradBias) {
    const auto gm = linear::mat(g.get());
    const auto gb = linear::vec(gradBias);
    for (int64_t k = 0; k < outputSize; k++) {
      accreal sum = 0;
      for (int64_t i = 0; i < gm.rows; i++) sum += gm(i, k);
      gb[k] += (scalar_t)(scale * sum);
    }
  }
}
