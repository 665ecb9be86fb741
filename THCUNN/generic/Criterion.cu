#ifndef THC_GENERIC_FILE
#error "compile THCUNN/Criterion.cu instead"
#endif

// THNN's argument numbers: weights is argument 6 of BCE's updateOutput, 7 of its
// updateGradInput; the others have none (0).

void THNN_(AbsCriterion_updateOutput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *output,
                                      bool sizeAverage, bool reduce) {
  thcunn::updateOutput(state, thcunn::Kind::Abs, input, target, output, sizeAverage, nullptr, 0, reduce);
}

void THNN_(AbsCriterion_updateGradInput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *gradOutput,
                                         THCTensor *gradInput, bool sizeAverage, bool reduce) {
  thcunn::updateGradInput(state, thcunn::Kind::Abs, input, target, gradOutput, gradInput, sizeAverage, nullptr, 0,
                          reduce);
}

void THNN_(BCECriterion_updateOutput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *output,
                                      bool sizeAverage, THCTensor *weights, bool reduce) {
  thcunn::updateOutput(state, thcunn::Kind::BCE, input, target, output, sizeAverage, weights, 6, reduce);
}

void THNN_(BCECriterion_updateGradInput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *gradOutput,
                                         THCTensor *gradInput, bool sizeAverage, THCTensor *weights, bool reduce) {
  thcunn::updateGradInput(state, thcunn::Kind::BCE, input, target, gradOutput, gradInput, sizeAverage, weights, 7,
                          reduce);
}

void THNN_(DistKLDivCriterion_updateOutput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *output,
                                            bool sizeAverage, bool reduce) {
  thcunn::updateOutput(state, thcunn::Kind::DistKLDiv, input, target, output, sizeAverage, nullptr, 0, reduce);
}

void THNN_(DistKLDivCriterion_updateGradInput)(THCState *state, THCTensor *input, THCTensor *target,
                                               THCTensor *gradOutput, THCTensor *gradInput, bool sizeAverage,
                                               bool reduce) {
  thcunn::updateGradInput(state, thcunn::Kind::DistKLDiv, input, target, gradOutput, gradInput, sizeAverage, nullptr, 0,
                          reduce);
}

/* sum |x|: no target, never averaged; gradOutput is argument 3 */
void THNN_(L1Cost_updateOutput)(THCState *state, THCTensor *input, THCTensor *output) {
  thcunn::Call c{thcunn::Kind::L1Cost};
  thcunn::run(state, c, input, nullptr, nullptr, nullptr, output);
}

void THNN_(L1Cost_updateGradInput)(THCState *state, THCTensor *input, THCTensor *gradOutput, THCTensor *gradInput) {
  thcunn::Call c{thcunn::Kind::L1Cost};
  c.gradient = true;
  c.gradOutputArg = 3;
  thcunn::run(state, c, input, nullptr, nullptr, gradOutput, gradInput);
}

/* always reduced, and no gradOutput (torch7) */
void THNN_(MarginCriterion_updateOutput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *output,
                                         bool sizeAverage, accreal margin) {
  thnn::criterion::checkPointwise(input, target, nullptr, 0);
  thcunn::Call c{thcunn::Kind::Margin, (double)margin};
  c.sizeAverage = sizeAverage;
  thcunn::run(state, c, input, target, nullptr, nullptr, output);
}

void THNN_(MarginCriterion_updateGradInput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *gradInput,
                                            bool sizeAverage, accreal margin) {
  thnn::criterion::checkPointwise(input, target, nullptr, 0);
  thcunn::Call c{thcunn::Kind::Margin, (double)margin};
  c.sizeAverage = sizeAverage;
  c.gradient = true;
  c.noGradOutput = true;
  thcunn::run(state, c, input, target, nullptr, nullptr, gradInput);
}

void THNN_(MSECriterion_updateOutput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *output,
                                      bool sizeAverage, bool reduce) {
  thcunn::updateOutput(state, thcunn::Kind::MSE, input, target, output, sizeAverage, nullptr, 0, reduce);
}

void THNN_(MSECriterion_updateGradInput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *gradOutput,
                                         THCTensor *gradInput, bool sizeAverage, bool reduce) {
  thcunn::updateGradInput(state, thcunn::Kind::MSE, input, target, gradOutput, gradInput, sizeAverage, nullptr, 0,
                          reduce);
}

void THNN_(SmoothL1Criterion_updateOutput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *output,
                                           bool sizeAverage, bool reduce) {
  thcunn::updateOutput(state, thcunn::Kind::SmoothL1, input, target, output, sizeAverage, nullptr, 0, reduce);
}

void THNN_(SmoothL1Criterion_updateGradInput)(THCState *state, THCTensor *input, THCTensor *target,
                                              THCTensor *gradOutput, THCTensor *gradInput, bool sizeAverage,
                                              bool reduce) {
  thcunn::updateGradInput(state, thcunn::Kind::SmoothL1, input, target, gradOutput, gradInput, sizeAverage, nullptr, 0,
                          reduce);
}

void THNN_(SoftMarginCriterion_updateOutput)(THCState *state, THCTensor *input, THCTensor *target, THCTensor *output,
                                             bool sizeAverage, bool reduce) {
  thcunn::updateOutput(state, thcunn::Kind::SoftMargin, input, target, output, sizeAverage, nullptr, 0, reduce);
}

void THNN_(SoftMarginCriterion_updateGradInput)(THCState *state, THCTensor *input, THCTensor *target,
                                                THCTensor *gradOutput, THCTensor *gradInput, bool sizeAverage,
                                                bool reduce) {
  thcunn::updateGradInput(state, thcunn::Kind::SoftMargin, input, target, gradOutput, gradInput, sizeAverage, nullptr,
                          0, reduce);
}
