#ifndef THC_GENERIC_FILE
#error "compile THC/THCTensorReduce.cu instead"
#endif

#if !defined(TH_REAL_IS_HALF)

/* ---- Whole-tensor reductions ---- */

accreal THCTensor_(sumall)(THCState *state, THCTensor *t) { return thc::foldAll(state, t, thc::sumFold<scalar_t>()); }
accreal THCTensor_(prodall)(THCState *state, THCTensor *t) { return thc::foldAll(state, t, thc::prodFold<scalar_t>()); }
scalar_t THCTensor_(maxall)(THCState *state, THCTensor *t) { return thc::extremeAll(state, t, true); }
scalar_t THCTensor_(minall)(THCState *state, THCTensor *t) { return thc::extremeAll(state, t, false); }
accreal THCTensor_(trace)(THCState *state, THCTensor *t) { return thc::traceOf(state, t); }
int THCTensor_(equal)(THCState *state, THCTensor *a, THCTensor *b) { return thc::equalOf(state, a, b); }

/* ---- Reductions and scans along a dimension ---- */

void THCTensor_(sum)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim) {
  thc::foldDim(state, r, t, dim, keepdim, "sum", thc::sumFold<scalar_t>());
}

void THCTensor_(prod)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim) {
  thc::foldDim(state, r, t, dim, keepdim, "prod", thc::prodFold<scalar_t>());
}

void THCTensor_(cumsum)(THCState *state, THCTensor *r, THCTensor *t, int dim) {
  thc::scanDim(state, r, t, dim, "cumsum", thc::sumFold<scalar_t>());
}

void THCTensor_(cumprod)(THCState *state, THCTensor *r, THCTensor *t, int dim) {
  thc::scanDim(state, r, t, dim, "cumprod", thc::prodFold<scalar_t>());
}

/* ---- Construction ---- */

void THCTensor_(zeros)(THCState *state, THCTensor *r, int nDimension, const int64_t *size) {
  thc::filled(state, r, nDimension, size, scalar_t(0), "zeros");
}

void THCTensor_(ones)(THCState *state, THCTensor *r, int nDimension, const int64_t *size) {
  thc::filled(state, r, nDimension, size, scalar_t(1), "ones");
}

void THCTensor_(eye)(THCState *state, THCTensor *r, int64_t n, int64_t m) { thc::eyeOf(state, r, n, m); }

void THCTensor_(range)(THCState *state, THCTensor *r, accreal xmin, accreal xmax, accreal step) {
  thc::checkStep(xmin, xmax, step, "range");
  thc::arithmeticOf(state, r, xmin, step, (int64_t)((xmax - xmin) / step) + 1);
}

void THCTensor_(arange)(THCState *state, THCTensor *r, accreal start, accreal end, accreal step) {
  thc::checkStep(start, end, step, "arange");
  thc::arithmeticOf(state, r, start, step, (int64_t)std::ceil((double)(end - start) / (double)step));
}

/* ---- Structure ---- */

void THCTensor_(diag)(THCState *state, THCTensor *r, THCTensor *t, int k) { thc::diagOf(state, r, t, k); }
void THCTensor_(tril)(THCState *state, THCTensor *r, THCTensor *t, int64_t k) {
  thc::triangleOf(state, r, t, k, false);
}
void THCTensor_(triu)(THCState *state, THCTensor *r, THCTensor *t, int64_t k) { thc::triangleOf(state, r, t, k, true); }

void THCTensor_(catArray)(THCState *state, THCTensor *r, THCTensor **inputs, int numInputs, int dim) {
  thc::catOf(state, r, inputs, numInputs, dim);
}

void THCTensor_(cat)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b, int dim) {
  THCTensor *inputs[2] = {a, b};
  thc::catOf(state, r, inputs, 2, dim);
}

void THCTensor_(cross)(THCState *state, THCTensor *r, THCTensor *a, THCTensor *b, int dim) {
  thc::crossOf(state, r, a, b, dim);
}

#if TH_REAL_IS_FLOATING

/* ---- Statistics and norms ---- */

accreal THCTensor_(meanall)(THCState *state, THCTensor *t) {
  return thc::foldAll(state, t, thc::sumFold<scalar_t>()) / (accreal)thc::numel(t);
}
accreal THCTensor_(varall)(THCState *state, THCTensor *t, int biased) { return thc::varAll(state, t, biased); }
accreal THCTensor_(stdall)(THCState *state, THCTensor *t, int biased) {
  return std::sqrt(thc::varAll(state, t, biased));
}
accreal THCTensor_(normall)(THCState *state, THCTensor *t, scalar_t p) { return thc::normAll(state, t, p); }
accreal THCTensor_(dist)(THCState *state, THCTensor *a, THCTensor *b, scalar_t p) {
  return thc::distOf(state, a, b, p);
}

void THCTensor_(mean)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim) {
  thc::foldDim(state, r, t, dim, keepdim, "mean", thc::meanFold<scalar_t>());
}

void THCTensor_(var)(THCState *state, THCTensor *r, THCTensor *t, int dim, int biased, int keepdim) {
  thc::reduceDim(state, r, t, dim, keepdim, "var", thc::reduce::MomentsOp<scalar_t>{biased != 0, false});
}

void THCTensor_(std)(THCState *state, THCTensor *r, THCTensor *t, int dim, int biased, int keepdim) {
  thc::reduceDim(state, r, t, dim, keepdim, "std", thc::reduce::MomentsOp<scalar_t>{biased != 0, true});
}

void THCTensor_(norm)(THCState *state, THCTensor *r, THCTensor *t, scalar_t p, int dim, int keepdim) {
  thc::foldDim(state, r, t, dim, keepdim, "norm", thc::reduce::normFold(p));
}

void THCTensor_(linspace)(THCState *state, THCTensor *r, scalar_t a, scalar_t b, int64_t n) {
  thc::spacedOf(state, r, a, b, n, false);
}

void THCTensor_(logspace)(THCState *state, THCTensor *r, scalar_t a, scalar_t b, int64_t n) {
  thc::spacedOf(state, r, a, b, n, true);
}

void THCTensor_(histc)(THCState *state, THCTensor *hist, THCTensor *t, int64_t nbins, scalar_t minvalue,
                       scalar_t maxvalue) {
  thc::histcOf(state, hist, t, nbins, minvalue, maxvalue);
}

void THCTensor_(renorm)(THCState *state, THCTensor *r, THCTensor *t, scalar_t p, int dim, scalar_t maxnorm) {
  thc::renormOf(state, r, t, p, dim, maxnorm);
}

#endif

#if defined(TH_REAL_IS_BYTE)

/* ---- Masks ---- */

int THCTensor_(logicalall)(THCState *state, THCTensor *t) {
  return thc::foldAll(state, t, thc::allFold<scalar_t>()) != 0;
}

int THCTensor_(logicalany)(THCState *state, THCTensor *t) {
  return thc::foldAll(state, t, thc::anyFold<scalar_t>()) != 0;
}

void THCTensor_(logicalAll)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim) {
  thc::foldDim(state, r, t, dim, keepdim, "logicalAll", thc::allFold<scalar_t>());
}

void THCTensor_(logicalAny)(THCState *state, THCTensor *r, THCTensor *t, int dim, int keepdim) {
  thc::foldDim(state, r, t, dim, keepdim, "logicalAny", thc::anyFold<scalar_t>());
}

#endif

#endif
