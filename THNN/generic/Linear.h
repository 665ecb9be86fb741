#ifndef TH_GENERIC_FILE
#error "include THNN/Linear.h instead"
#endif

/* ---- Linear: output = input weight^T + bias ------------------------------------------
 * input: [inputSize] or [batch, inputSize]; weight: [outputSize, inputSize]; bias:
 * [outputSize] or NULL; addBuffer: a vector the kernels fill with batch ones (used to
 * add the bias to every row by a rank-one update, and to sum gradOutput's rows). */
TH_API void THNN_(Linear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                       THTensor *bias, THTensor *addBuffer);
/* gradInput may be NULL (nothing to do). */
TH_API void THNN_(Linear_updateGradInput)(THNNState *state, THTensor *input, THTensor *gradOutput, THTensor *gradInput,
                                          THTensor *weight);
/* gradWeight += scale gradOutput^T input; gradBias += scale (sum of gradOutput's rows) unless
 * bias or gradBias is NULL. gradInput is unused (torch7's argument list). */
TH_API void THNN_(Linear_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                            THTensor *gradInput, THTensor *weight, THTensor *bias, THTensor *gradWeight,
                                            THTensor *gradBias, THTensor *addBuffer, accreal scale);

/* ---- Bilinear (torch7's nn.Bilinear): output[b][k] = input1[b] weight[k] input2[b]^T + bias[k]
 * input1: [batch, in1], input2: [batch, in2] (or both unbatched: [in1], [in2]); weight:
 * [outputSize, in1, in2]; bias: [outputSize] or NULL; output: [batch, outputSize]. buffer
 * is scratch space the kernels resize. */
TH_API void THNN_(Bilinear_updateOutput)(THNNState *state, THTensor *input1, THTensor *input2, THTensor *output,
                                         THTensor *weight, THTensor *bias, THTensor *buffer);
/* gradInput1 or gradInput2 may be NULL (that gradient is not computed). */
TH_API void THNN_(Bilinear_updateGradInput)(THNNState *state, THTensor *input1, THTensor *input2, THTensor *gradOutput,
                                            THTensor *gradInput1, THTensor *gradInput2, THTensor *weight,
                                            THTensor *buffer);
/* gradWeight[k] += scale sum_b gradOutput[b][k] input1[b]^T input2[b]; gradBias (may be
 * NULL) += scale (sum of gradOutput's rows). */
TH_API void THNN_(Bilinear_accGradParameters)(THNNState *state, THTensor *input1, THTensor *input2,
                                              THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
                                              THTensor *buffer, accreal scale);

/* ---- BatchNormalization over dimension 1 of input [N, C] or [N, C, ...] ---------------
 * weight, bias: [C] or NULL (1 and 0). In training mode the batch statistics normalise
 * (biased variance), save_mean and save_std are resized to [C] and receive the mean and
 * the inverse standard deviation 1 / sqrt(var + eps), and running_mean / running_var
 * (may be NULL when training) move by momentum towards the mean and the unbiased
 * variance. In evaluation mode running_mean and running_var normalise. */
TH_API void THNN_(BatchNormalization_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                   THTensor *weight, THTensor *bias, THTensor *running_mean,
                                                   THTensor *running_var, THTensor *save_mean, THTensor *save_std,
                                                   bool train, double momentum, double eps);
/* gradInput, gradWeight, gradBias may each be NULL; gradWeight and gradBias accumulate
 * scale times their gradient. Uses save_mean / save_std in training mode, the running
 * statistics otherwise (the mode must match the forward's). */
/* ---- LayerNormalization over the last `normalized` elements of input ----------------
 * input (contiguous) is seen as rows of `normalized` elements, each normalised by its own
 * mean and biased variance; weight, bias: `normalized` elements or NULL (1 and 0).
 * save_mean and save_invstd are resized to the row count and receive each row's mean and
 * 1 / sqrt(var + eps). */
TH_API void THNN_(LayerNormalization_updateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                   THTensor *weight, THTensor *bias, THTensor *save_mean,
                                                   THTensor *save_invstd, int64_t normalized, double eps);
/* gradInput, gradWeight, gradBias may each be NULL; gradWeight and gradBias accumulate
 * scale times their gradient. gradOutput contiguous, input's element count. */
TH_API void THNN_(LayerNormalization_backward)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THTensor *gradWeight, THTensor *gradBias,
                                               THTensor *weight, THTensor *save_mean, THTensor *save_invstd,
                                               int64_t normalized, double scale);

TH_API void THNN_(BatchNormalization_backward)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                               THTensor *gradInput, THTensor *gradWeight, THTensor *gradBias,
                                               THTensor *weight, THTensor *running_mean, THTensor *running_var,
                                               THTensor *save_mean, THTensor *save_std, bool train, double scale,
                                               double eps);

/* ==== Kernels taking indices: ids and keys count from TH_INDEX_BASE. ==================== */

/* ---- LookupTable: output = weight[input] ---------------------------------------------
 * input: ids of any shape; weight: [nIndex, dim]; output gets input's sizes plus [dim]. */
TH_API void THNN_(LookupTable_updateOutput)(THNNState *state, THLongTensor *input, THTensor *output, THTensor *weight);
/* gradWeight[input[i]] += scale gradOutput[i] for every id but paddingValue (an id in
 * the caller's base; one outside the table means no padding). With scaleGradByFreq each
 * contribution is divided by the number of times its id occurs in input; count is
 * resized to [nIndex] and receives those numbers. sorted and indices are unused on the
 * CPU (torch7's argument list) and may be NULL. */
TH_API void THNN_(LookupTable_accGradParameters)(THNNState *state, THLongTensor *input, THTensor *gradOutput,
                                                 THTensor *gradWeight, THIntTensor *count, THLongTensor *sorted,
                                                 THLongTensor *indices, bool scaleGradByFreq, int paddingValue,
                                                 accreal scale);
/* Every row of weight listed in idx (repeats allowed, idx is not modified) whose
 * normType-norm exceeds maxNorm is scaled to norm maxNorm. */
TH_API void THNN_(LookupTable_renorm)(THNNState *state, THLongTensor *idx, THTensor *weight, accreal maxNorm,
                                      accreal normType);

/* ---- SparseLinear (torch7's nn.SparseLinear): output = input weight^T + bias, input sparse
 * weight: [outputSize, inputSize]; bias, gradBias: [outputSize].
 * input: [nnz, 3] rows (sample id, feature id, value) in any order; output is
 * [batch, outputSize], sized by the caller (the entries do not tell the batch size).
 * Legacy input: [batch, nnz, 2] rows (feature id, value) per sample. Entries with value 0
 * are skipped. Ids are stored as integral values of the tensor's type. */
TH_API void THNN_(SparseLinear_updateOutput)(THNNState *state, THTensor *input, THTensor *output, THTensor *weight,
                                             THTensor *bias);
/* gradOutput: [batch, outputSize] ([outputSize] for one sample). gradWeight += scale
 * gradOutput^T input + weightDecay weight; gradBias += scale (sum of gradOutput's rows). */
TH_API void THNN_(SparseLinear_accGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                  THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                                  THTensor *bias, accreal weightDecay, accreal scale);
/* Sparse SGD step: bias -= learningRate gradBias, and weight's columns of the features
 * present in lastInput -= learningRate gradWeight's. */
TH_API void THNN_(SparseLinear_updateParameters)(THNNState *state, THTensor *weight, THTensor *bias,
                                                 THTensor *gradWeight, THTensor *gradBias, THTensor *lastInput,
                                                 accreal learningRate);
/* gradBias = 0 and gradWeight's columns of the features present in lastInput = 0. */
TH_API void THNN_(SparseLinear_zeroGradParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                                   THTensor *lastInput);
/* The same four for the legacy input format; legacyUpdateOutput resizes output. */
TH_API void THNN_(SparseLinear_legacyUpdateOutput)(THNNState *state, THTensor *input, THTensor *output,
                                                   THTensor *weight, THTensor *bias);
TH_API void THNN_(SparseLinear_legacyAccGradParameters)(THNNState *state, THTensor *input, THTensor *gradOutput,
                                                        THTensor *gradWeight, THTensor *gradBias, THTensor *weight,
                                                        THTensor *bias, accreal weightDecay, accreal scale);
TH_API void THNN_(SparseLinear_legacyUpdateParameters)(THNNState *state, THTensor *weight, THTensor *bias,
                                                       THTensor *gradWeight, THTensor *gradBias, THTensor *lastInput,
                                                       accreal learningRate);
TH_API void THNN_(SparseLinear_legacyZeroGradParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                                         THTensor *lastInput);

/* ---- IndexLinear (torch7's nn.IndexLinear): a linear layer over sparse inputs whose
 * weight is stored transposed, one row per feature.
 * A batch is keys [K] and values [K], sample j owning the sizes[j] entries that start at
 * cumSumSizes[j] - sizes[j] (cumSumSizes is the running sum of sizes, [batch]). Feature
 * key k uses weight row k - TH_INDEX_BASE + keysOffset. weight: [inputSize, outputSize],
 * or [inputSize, 4 + outputSize] for max-normalised inputs, where columns 0..3 of a row
 * hold the largest |value| seen, its inverse, a learning-rate scale and a shift, and a
 * value v enters as v / max + shift (sign(v) + shift when |v| exceeds max). bias:
 * [outputSize]. output: [batch, outputSize].
 * With normalisation, normalizedValues is resized to [K] and receives the normalised
 * values, and train != 0 updates columns 0..2 of the rows used, entry by entry. */
TH_API void THNN_(IndexLinear_updateOutput)(THNNState *state, THLongTensor *keys, int64_t keysOffset, THTensor *values,
                                            THLongTensor *sizes, THLongTensor *cumSumSizes, THTensor *output,
                                            THTensor *weight, THTensor *bias, THTensor *normalizedValues, int train);
/* values: the forward's values, or its normalizedValues with normalisation. gradOutput:
 * [batch, outputSize] ([outputSize] for one sample). gradWeight is a dense per-entry
 * gradient, resized to [K, outputSize] (row i = scale values[i] gradOutput[j]) or, with
 * normalisation, [K, 2 outputSize] (scale gradOutput[j], then scale values[i]
 * gradOutput[j]); it is overwritten, not accumulated. gradBias += scale (sum of gradOutput's
 * rows). weightDecay and valuesBuffer are unused (torch7's argument list; weight decay is
 * applied by updateParameters). */
TH_API void THNN_(IndexLinear_accGradParameters)(THNNState *state, THLongTensor *keys, int64_t keysOffset,
                                                 THTensor *values, THLongTensor *sizes, THLongTensor *cumSumSizes,
                                                 THTensor *gradOutput, THTensor *gradWeight, THTensor *gradBias,
                                                 THTensor *weight, THTensor *bias, THTensor *valuesBuffer,
                                                 accreal weightDecay, accreal scale);
/* SGD step with accGradParameters' gradWeight, whose row i belongs to runningKeys[i]:
 * bias -= learningRate gradBias; for each row in turn, the weights shrink by weightDecay
 * (sparse weight decay) and move by -learningRate times their gradient (with
 * normalisation, both scaled by column 2, and the shift moves too). cumSumSizes is unused
 * (torch7's argument list). */
TH_API void THNN_(IndexLinear_updateParameters)(THNNState *state, THTensor *gradWeight, THTensor *gradBias,
                                                THTensor *weight, THTensor *bias, THLongTensor *runningKeys,
                                                THLongTensor *cumSumSizes, int64_t keysOffset, accreal weightDecay,
                                                accreal learningRate);
/* accGradParameters then updateParameters with learning rate 1, without the gradient
 * buffer. */
TH_API void THNN_(IndexLinear_accUpdateGradParameters)(THNNState *state, THLongTensor *keys, int64_t keysOffset,
                                                       THTensor *values, THLongTensor *sizes, THLongTensor *cumSumSizes,
                                                       THTensor *gradOutput, THTensor *weight, THTensor *bias,
                                                       accreal weightDecay, accreal scale);
