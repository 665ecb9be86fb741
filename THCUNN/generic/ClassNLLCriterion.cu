#ifndef THC_GENERIC_FILE
#error "compile THCUNN/indexed/Criterion.cu instead"
#endif

// THNN's argument numbers: weights is argument 6 of updateOutput, 7 of updateGradInput.

void THNN_(ClassNLLCriterion_updateOutput)(THCState *state, THCTensor *input, THCudaLongTensor *target,
                                           THCTensor *output, bool sizeAverage, THCTensor *weights,
                                           THCTensor *total_weight, int64_t ignore_index, bool reduce) {
  thnn::criterion::checkClassNLLShapes(input, target, weights, 6);
  thcunn::run(state, false, false, input, target, (THCTensor *)nullptr, output, sizeAverage, weights, total_weight,
              ignore_index, reduce);
}

void THNN_(ClassNLLCriterion_updateGradInput)(THCState *state, THCTensor *input, THCudaLongTensor *target,
                                              THCTensor *gradOutput, THCTensor *gradInput, bool sizeAverage,
                                              THCTensor *weights, THCTensor *total_weight, int64_t ignore_index,
                                              bool reduce) {
  thnn::criterion::checkClassNLLShapes(input, target, weights, 7);
  thcunn::run(state, false, true, input, target, gradOutput, gradInput, sizeAverage, weights, total_weight,
              ignore_index, reduce);
}

void THNN_(SpatialClassNLLCriterion_updateOutput)(THCState *state, THCTensor *input, THCudaLongTensor *target,
                                                  THCTensor *output, bool sizeAverage, THCTensor *weights,
                                                  THCTensor *total_weight, int64_t ignore_index, bool reduce) {
  thnn::criterion::checkSpatialClassNLLShapes(input, target, weights, 6);
  thcunn::run(state, true, false, input, target, (THCTensor *)nullptr, output, sizeAverage, weights, total_weight,
              ignore_index, reduce);
}

void THNN_(SpatialClassNLLCriterion_updateGradInput)(THCState *state, THCTensor *input, THCudaLongTensor *target,
                                                     THCTensor *gradOutput, THCTensor *gradInput, bool sizeAverage,
                                                     THCTensor *weights, THCTensor *total_weight, int64_t ignore_index,
                                                     bool reduce) {
  thnn::criterion::checkSpatialClassNLLShapes(input, target, weights, 7);
  thcunn::run(state, true, true, input, target, gradOutput, gradInput, sizeAverage, weights, total_weight, ignore_index,
              reduce);
}
