#include "core/ops/Composite.h"

#include <algorithm>
#include <vector>

#include "autograd/Autograd.h"
#include "core/ops/Factory.h"
#include "core/ops/Indexing.h"
#include "core/ops/Linalg.h"
#include "core/ops/MathKernels.h"
#include "core/ops/RandomKernels.h"
#include "core/ops/ReduceKernels.h"
#include "core/ops/NNKernels.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"

namespace torch::composite {

namespace {

Tensor mul(const Tensor &a, const Tensor &b) { return binary(BinaryOp::Mul, a, b); }
Tensor sub(const Tensor &a, const Tensor &b) { return binary(BinaryOp::Sub, a, b); }
Tensor scaled(const Tensor &a, double s) { return binary(BinaryOp::Mul, a, Scalar(s)); }

// r (resized) = v, from any device.
void backInto(const Tensor &r, const Tensor &v) {
  if (r.sizes() != v.sizes()) resize_(r, v.sizes());
  copy_(r, v);
}

// Per-row statistics as a column [rows, 1], to broadcast against [rows, D].
Tensor column(const Tensor &v) { return view(v, {v.numel(), 1}); }

}  // namespace

// y = x W^T + b over a row [in] or rows [N, in]; the products are the device's BLAS.
void linearOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias, const Tensor &) {
  NoGradGuard plain;
  Tensor y = matmul(input, transpose(weight, 0, 1));
  if (bias.defined()) y = binary(BinaryOp::Add, y, bias);
  resize_(output, y.sizes());
  copy_(output, y);
}

void linearGradInput(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &weight) {
  NoGradGuard plain;
  resize_(gradInput, input.sizes());
  copy_(gradInput, matmul(gradOutput, weight));
}

void linearAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &, const Tensor &,
                   const Tensor &gradWeight, const Tensor &gradBias, const Tensor &, double scale) {
  NoGradGuard plain;
  Tensor x = input.dim() == 1 ? view(input, {1, input.size(0)}) : input;
  Tensor g = gradOutput.dim() == 1 ? view(gradOutput, {1, gradOutput.size(0)}) : gradOutput;
  binary_(BinaryOp::Add, gradWeight, matmul(transpose(g, 0, 1), x), Scalar(scale));
  if (gradBias.defined()) binary_(BinaryOp::Add, gradBias, sum(g, {0}, false), Scalar(scale));
}

void layerNormOutput(const Tensor &input, const Tensor &output, const Tensor &weight, const Tensor &bias,
                     const Tensor &saveMean, const Tensor &saveInvStd, int64_t normalized, double eps) {
  NoGradGuard plain;  // the kernel's own arithmetic, not the user's graph
  const int64_t D = normalized, rows = D > 0 ? input.numel() / D : 0;
  Tensor x = view(contiguous(input), {rows, D});
  Tensor mean = scaled(sum(x, {1}, false), 1.0 / D);
  Tensor centred = sub(x, column(mean));
  Tensor var = scaled(sum(mul(centred, centred), {1}, false), 1.0 / D);
  Tensor invstd = unary(UnaryOp::Rsqrt, binary(BinaryOp::Add, var, Scalar(eps)));
  Tensor y = mul(centred, column(invstd));
  if (weight.defined()) y = mul(y, view(weight, {1, D}));
  if (bias.defined()) y = binary(BinaryOp::Add, y, view(bias, {1, D}));
  resize_(output, input.sizes());
  copy_(output, view(y, input.sizes()));
  resize_(saveMean, {rows});
  resize_(saveInvStd, {rows});
  copy_(saveMean, mean);
  copy_(saveInvStd, invstd);
}

void layerNormBackward(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const Tensor &gradWeight,
                       const Tensor &gradBias, const Tensor &weight, const Tensor &saveMean, const Tensor &saveInvStd,
                       int64_t normalized, double scale) {
  NoGradGuard plain;
  const int64_t D = normalized, rows = D > 0 ? input.numel() / D : 0;
  Tensor x = view(contiguous(input), {rows, D}), g = view(contiguous(gradOutput), {rows, D});
  Tensor s = column(saveInvStd);
  Tensor xhat = mul(sub(x, column(saveMean)), s);
  if (gradInput.defined()) {
    // dx = invstd (dy w - mean(dy w) - xhat mean(dy w xhat))
    Tensor gw = weight.defined() ? mul(g, view(weight, {1, D})) : g;
    Tensor meanA = column(scaled(sum(gw, {1}, false), 1.0 / D));
    Tensor meanC = column(scaled(sum(mul(gw, xhat), {1}, false), 1.0 / D));
    Tensor dx = mul(s, sub(sub(gw, meanA), mul(xhat, meanC)));
    resize_(gradInput, input.sizes());
    copy_(gradInput, view(dx, input.sizes()));
  }
  if (gradWeight.defined())
    binary_(BinaryOp::Add, gradWeight, view(sum(mul(g, xhat), {0}, false), gradWeight.sizes()), Scalar(scale));
  if (gradBias.defined()) binary_(BinaryOp::Add, gradBias, view(sum(g, {0}, false), gradBias.sizes()), Scalar(scale));
}

void lookupTable(const Tensor &input, const Tensor &output, const Tensor &weight) {
  NoGradGuard plain;
  TORCH_CHECK(weight.dim() == 2, Value, "LookupTable_updateOutput: weight must be [nIndex, dim], got %s",
              weight.sizeString().c_str());
  IntList sizes = input.sizes();
  sizes.push_back(weight.size(1));
  Tensor rows = indexSelect(weight, 0, reshape(input, {input.numel()}));  // checks the indices
  resize_(output, sizes);
  copy_(output, view(rows, sizes));
}

void lookupTableAccGrad(const Tensor &input, const Tensor &gradOutput, const Tensor &gradWeight, const Tensor &count,
                        bool scaleGradByFreq, int paddingValue, double scale) {
  NoGradGuard plain;
  TORCH_CHECK(gradWeight.dim() == 2, Value, "LookupTable_accGradParameters: gradWeight must be [nIndex, dim], got %s",
              gradWeight.sizeString().c_str());
  const int64_t nIndex = gradWeight.size(0), dim = gradWeight.size(1), n = input.numel();
  Tensor rows = reshape(input, {n});
  // the factor of each input position: scale (over its row's frequency), 0 on the padding row
  Tensor hostRows = contiguous(to(rows, ScalarType::Long, Device::CPU));
  const int64_t *r = reinterpret_cast<const int64_t *>(hostRows.dataPtr());
  std::vector<int64_t> freq(scaleGradByFreq ? nIndex : 0, 0);
  for (int64_t i = 0; i < n; i++) {
    TORCH_CHECK(r[i] >= 0 && r[i] < nIndex, Index, "index out of range in self");
    if (scaleGradByFreq) freq[r[i]]++;
  }
  Tensor factors = empty({n, 1}, ScalarType::Double, Device::CPU);  // written on the host
  double *f = reinterpret_cast<double *>(factors.dataPtr());
  for (int64_t i = 0; i < n; i++)
    f[i] = r[i] == paddingValue ? 0.0 : scaleGradByFreq ? scale / static_cast<double>(freq[r[i]]) : scale;
  if (scaleGradByFreq) {
    Tensor c = empty({nIndex}, ScalarType::Int, Device::CPU);  // written on the host
    int32_t *cp = reinterpret_cast<int32_t *>(c.dataPtr());
    for (int64_t k = 0; k < nIndex; k++) cp[k] = static_cast<int32_t>(freq[k]);
    resize_(count, {nIndex});
    copy_(count, to(c, count.dtype(), count.device()));
  }
  Tensor g = mul(view(contiguous(gradOutput), {n, dim}), to(factors, gradWeight.dtype(), gradWeight.device()));
  indexAdd_(gradWeight, 0, rows, g, Scalar(int64_t(1)));
}

void resample(const Tensor &x, const Tensor &y, int64_t outer, int64_t inner, const Taps &taps) {
  NoGradGuard plain;
  // Tap k of every output at once: the k-th input each output reads, gathered along the axis
  // and weighted. Reading only the taps' inputs (not a dense matrix's zeros) keeps a NaN or
  // an infinity where the taps put it. An output with fewer taps repeats its first with
  // weight 0 (it reads that input anyway).
  const int64_t out = taps.out();
  int64_t most = 0;
  for (int64_t j = 0; j < out; j++) most = std::max(most, taps.start[j + 1] - taps.start[j]);
  Tensor xv = view(contiguous(x), {outer, taps.in, inner});
  Tensor acc = zeros({outer, out, inner}, x.dtype(), x.device());
  Tensor index = empty({out}, ScalarType::Long, Device::CPU),
         weight = empty({1, out, 1}, ScalarType::Double, Device::CPU);
  int64_t *ip = reinterpret_cast<int64_t *>(index.dataPtr());  // both written on the host
  double *wp = reinterpret_cast<double *>(weight.dataPtr());
  for (int64_t k = 0; k < most; k++) {
    for (int64_t j = 0; j < out; j++) {
      const int64_t first = taps.start[j], n = taps.start[j + 1] - first;
      ip[j] = n == 0 ? 0 : taps.index[first + (k < n ? k : 0)];
      wp[j] = k < n ? taps.weight[first + k] : 0.0;
    }
    Tensor picked = indexSelect(xv, 1, to(index, ScalarType::Long, x.device()));
    binary_(BinaryOp::Add, acc, binary(BinaryOp::Mul, picked, to(weight, x.dtype(), x.device())));
  }
  copy_(y, view(acc, y.sizes()));
}

// Note [BCE at 0 and 1] (NNLayers.cpp): PyTorch's logs clamped at -100 and its gradient.
void bceOutput(const Tensor &input, const Tensor &target, const Tensor &output) {
  NoGradGuard plain;
  auto clampedLog = [](const Tensor &v) { return clamp(unary(UnaryOp::Log, v), Scalar(-100.0), std::nullopt); };
  Tensor oneMinusX = binary(BinaryOp::Sub, Scalar(1.0), input), oneMinusY = binary(BinaryOp::Sub, Scalar(1.0), target);
  Tensor loss = binary(BinaryOp::Add, mul(target, clampedLog(input)), mul(oneMinusY, clampedLog(oneMinusX)));
  backInto(output, unary(UnaryOp::Neg, loss));
}

void bceGradInput(const Tensor &input, const Tensor &target, const Tensor &gradInput) {
  NoGradGuard plain;
  Tensor denominator = clamp(mul(binary(BinaryOp::Sub, Scalar(1.0), input), input), Scalar(1e-12), std::nullopt);
  backInto(gradInput, binary(BinaryOp::Div, sub(input, target), denominator));
}

bool allProbabilities(const Tensor &input) {
  NoGradGuard plain;
  Tensor inside = binary(BinaryOp::Mul, toType(compare(CompareOp::Ge, input, Scalar(0.0)), ScalarType::Long),
                         toType(compare(CompareOp::Le, input, Scalar(1.0)), ScalarType::Long));  // NaN: 0
  return item(sum(inside, {}, false)).i == input.numel();
}

// ---- embedding_bag in Sum and Mean mode: each position's row, weighted, added into its bag ----

namespace {

// Per position of the flat indices: its bag (0 outside every bag) and the factor its row
// takes there (0 for padding and outside bags; Mean's 1 / count; 1 / frequency when asked).
struct BagPositions {
  Tensor bag, factor;  // Long [n] and Double [n, 1], on the host
};

BagPositions bagPositions(const Tensor &indices, const EmbeddingBags &bags, const std::vector<int64_t> &freq) {
  const int64_t n = indices.numel();
  Tensor host = contiguous(to(indices, ScalarType::Long, Device::CPU));
  const int64_t *ids = reinterpret_cast<const int64_t *>(host.dataPtr());
  BagPositions p{zeros({n}, ScalarType::Long, Device::CPU), zeros({n, 1}, ScalarType::Double, Device::CPU)};
  int64_t *bag = reinterpret_cast<int64_t *>(p.bag.dataPtr());  // both written on the host
  double *factor = reinterpret_cast<double *>(p.factor.dataPtr());
  for (size_t b = 0; b < bags.begin.size(); b++) {
    for (int64_t i = bags.begin[b]; i < bags.end[b]; i++) {
      if (ids[i] == bags.paddingIdx) continue;
      bag[i] = static_cast<int64_t>(b);
      factor[i] = bags.mode == nn::BagMode::Mean ? 1.0 / static_cast<double>(bags.count[b]) : 1.0;
      if (!freq.empty()) factor[i] /= static_cast<double>(freq[ids[i]]);
    }
  }
  return p;
}

Tensor toHost(const Tensor &t) { return t.defined() ? to(t, t.dtype(), Device::CPU) : t; }

// Max mode (a running maximum per bag, with its argmax) runs as the CPU's kernel on copies.
void maxBagOnHost(const Tensor &indices, const Tensor &output, const Tensor &weight, const Tensor &argmax,
                  const EmbeddingBags &bags) {
  Tensor out = toHost(output), am = toHost(argmax);
  nnKernels().embeddingBag(Device::CPU, weight.dtype(), toHost(indices), out, toHost(weight), Tensor(), am, bags);
  copy_(output, out);
  copy_(argmax, am);
}

}  // namespace

void embeddingBag(const Tensor &indices, const Tensor &output, const Tensor &weight, const Tensor &perSampleWeights,
                  const Tensor &argmax, const EmbeddingBags &bags) {
  NoGradGuard plain;
  if (bags.mode == nn::BagMode::Max) return maxBagOnHost(indices, output, weight, argmax, bags);
  BagPositions p = bagPositions(indices, bags, {});
  Tensor factor = to(p.factor, weight.dtype(), weight.device());
  if (perSampleWeights.defined()) factor = mul(factor, view(perSampleWeights, {indices.numel(), 1}));
  Tensor rows = mul(indexSelect(weight, 0, reshape(indices, {indices.numel()})), factor);
  indexAdd_(output, 0, to(p.bag, ScalarType::Long, weight.device()), rows, Scalar(int64_t(1)));
}

void embeddingBagBackward(const Tensor &indices, const Tensor &gradOutput, const Tensor &gradWeight,
                          const Tensor &gradPerSampleWeights, const Tensor &weight, const Tensor &perSampleWeights,
                          const Tensor &argmax, const EmbeddingBags &bags, const std::vector<int64_t> &freq) {
  NoGradGuard plain;
  if (bags.mode == nn::BagMode::Max) {  // on the host, as the forward
    Tensor gw = toHost(gradWeight);
    nnKernels().embeddingBagBackward(Device::CPU, gradOutput.dtype(), toHost(indices), toHost(gradOutput), gw, Tensor(),
                                     toHost(weight), Tensor(), toHost(argmax), bags, freq);
    if (gradWeight.defined()) copy_(gradWeight, gw);
    return;
  }
  const int64_t n = indices.numel();
  Tensor ids = reshape(indices, {n});
  BagPositions p = bagPositions(indices, bags, freq);
  Tensor bag = to(p.bag, ScalarType::Long, gradOutput.device());
  Tensor perBag = indexSelect(gradOutput, 0, bag);  // each position's bag's gradient [n, D]
  if (gradWeight.defined()) {
    Tensor factor = to(p.factor, gradOutput.dtype(), gradOutput.device());
    if (perSampleWeights.defined()) factor = mul(factor, view(perSampleWeights, {n, 1}));
    indexAdd_(gradWeight, 0, ids, mul(perBag, factor), Scalar(int64_t(1)));
  }
  if (gradPerSampleWeights.defined()) {
    // the dot product of each position's row with its bag's gradient; 0 for padding
    BagPositions unweighted =
        bagPositions(indices, EmbeddingBags{bags.begin, bags.end, bags.count, bags.paddingIdx, nn::BagMode::Sum}, {});
    Tensor dots = sum(mul(indexSelect(weight, 0, ids), perBag), {1}, false);
    Tensor counted = view(to(unweighted.factor, gradOutput.dtype(), gradOutput.device()), {n});
    backInto(gradPerSampleWeights, mul(dots, counted));
  }
}

// ---- through the host: a kernel whose only output is its first tensor runs as the CPU's on
// copies, and its result is copied back. For what needs the CPU's exact semantics and is not
// worth a device kernel of its own (a factory's sequence, a histogram, poisson draws from
// the CPU generator's stream, isclose's NaN and infinity rules).

namespace {

Tensor onHost(const Tensor &t) { return to(t, t.dtype(), Device::CPU); }
// a host copy of what a kernel may read and write (undefined stays undefined)
Tensor toHostOrEmpty(const Tensor &t) { return t.defined() ? to(t, t.dtype(), Device::CPU, true) : t; }

void sequenceOnHost(const Tensor &r, const Sequence &sequence) {
  NoGradGuard plain;
  Tensor host = empty(r.sizes(), r.dtype(), Device::CPU);
  mathKernels().sequence(Device::CPU, r.dtype(), host, sequence);
  backInto(r, host);
}

void histcOnHost(const Tensor &r, const Tensor &t, int64_t bins, double min, double max) {
  NoGradGuard plain;
  Tensor host = empty({0}, r.dtype(), Device::CPU);
  mathKernels().histc(Device::CPU, t.dtype(), host, onHost(t), bins, min, max);
  backInto(r, host);
}

void iscloseOnHost(const Tensor &r, const Tensor &a, const Tensor &b, double rtol, double atol, bool equalNan) {
  NoGradGuard plain;
  Tensor host = empty(r.sizes(), r.dtype(), Device::CPU);
  reduceKernels().isclose(Device::CPU, a.dtype(), host, onHost(a), onHost(b), rtol, atol, equalNan);
  backInto(r, host);
}

void poissonOnHost(const Tensor &t, Generator &gen, const Tensor &rates) {
  NoGradGuard plain;
  Tensor host = empty(t.sizes(), t.dtype(), Device::CPU);
  randomKernels().poisson(Device::CPU, t.dtype(), host, gen, onHost(rates));
  backInto(t, host);
}

// The CPU's kernel of an NN module on host copies; `written` (already sized or resized by the
// kernel) are copied back. For THNN kernels with no GPU twin yet, kept exact.
template <typename Run>
void nnOnHost(std::initializer_list<std::pair<const Tensor *, Tensor *>> written, Run run) {
  NoGradGuard plain;
  run();
  for (const auto &[deviceTensor, hostTensor] : written) {
    if (!deviceTensor->defined()) continue;
    backInto(*deviceTensor, *hostTensor);
  }
}

void adaptiveMaxOutputOnHost(const Tensor &input, const Tensor &output, const Tensor &indices, const IntList &size) {
  Tensor out = toHostOrEmpty(output), idx = toHostOrEmpty(indices);
  nnOnHost({{&output, &out}, {&indices, &idx}}, [&] {
    nnKernels().adaptiveMaxPooling.updateOutput(Device::CPU, input.dtype(), onHost(input), out, idx, size);
  });
}
void adaptiveMaxGradOnHost(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput,
                           const Tensor &indices) {
  Tensor gi = toHostOrEmpty(gradInput);
  nnOnHost({{&gradInput, &gi}}, [&] {
    nnKernels().adaptiveMaxPooling.updateGradInput(Device::CPU, input.dtype(), onHost(input), onHost(gradOutput), gi,
                                                   onHost(indices));
  });
}
void gridSampleOutputOnHost(const Tensor &input, const Tensor &grid, const Tensor &output, int mode) {
  Tensor out = toHostOrEmpty(output);
  nnOnHost({{&output, &out}}, [&] {
    nnKernels().gridSamplerBilinear.updateOutput(Device::CPU, input.dtype(), onHost(input), onHost(grid), out, mode);
  });
}
void gridSampleGradOnHost(const Tensor &input, const Tensor &gradInput, const Tensor &grid, const Tensor &gradGrid,
                          const Tensor &gradOutput, int mode) {
  Tensor gi = toHostOrEmpty(gradInput), gg = toHostOrEmpty(gradGrid);
  nnOnHost({{&gradInput, &gi}, {&gradGrid, &gg}}, [&] {
    nnKernels().gridSamplerBilinear.updateGradInput(Device::CPU, input.dtype(), onHost(input), gi, onHost(grid), gg,
                                                    onHost(gradOutput), mode);
  });
}
template <NNModule<PaddingOutput, PaddingGradInput> NNKernels::*Module>
void paddingOutputOnHost(const Tensor &input, const Tensor &output, const IntList &pad) {
  Tensor out = toHostOrEmpty(output);
  nnOnHost({{&output, &out}},
           [&] { (nnKernels().*Module).updateOutput(Device::CPU, input.dtype(), onHost(input), out, pad); });
}
template <NNModule<PaddingOutput, PaddingGradInput> NNKernels::*Module>
void paddingGradOnHost(const Tensor &input, const Tensor &gradOutput, const Tensor &gradInput, const IntList &pad) {
  Tensor gi = toHostOrEmpty(gradInput);
  nnOnHost({{&gradInput, &gi}}, [&] {
    (nnKernels().*Module).updateGradInput(Device::CPU, input.dtype(), onHost(input), onHost(gradOutput), gi, pad);
  });
}

template <typename K, typename Fn>
void addWhereMissing(K &kernels, Device device, ScalarType dtype, Fn fn) {
  if (!kernels.has(device, dtype) && kernels.has(Device::CPU, dtype)) kernels.add(device, dtype, fn);
}

}  // namespace

void registerComposites(Device device) {
  NNKernels &k = nnKernels();
  for (ScalarType dtype : {ScalarType::Float, ScalarType::Double}) {
    if (!k.linear.updateOutput.has(device, dtype)) {
      k.linear.updateOutput.add(device, dtype, &linearOutput);
      k.linear.updateGradInput.add(device, dtype, &linearGradInput);
      k.linear.accGradParameters.add(device, dtype, &linearAccGrad);
    }
    if (!k.layerNormalization.updateOutput.has(device, dtype)) {
      k.layerNormalization.updateOutput.add(device, dtype, &layerNormOutput);
      k.layerNormalization.updateGradInput.add(device, dtype, &layerNormBackward);
    }
    if (!k.lookupTable.has(device, dtype)) k.lookupTable.add(device, dtype, &lookupTable);
    if (!k.lookupTableAccGradParameters.has(device, dtype))
      k.lookupTableAccGradParameters.add(device, dtype, &lookupTableAccGrad);
    if (!k.resample.has(device, dtype)) k.resample.add(device, dtype, &resample);
    if (!k.embeddingBag.has(device, dtype)) {
      k.embeddingBag.add(device, dtype, &embeddingBag);
      k.embeddingBagBackward.add(device, dtype, &embeddingBagBackward);
    }
    if (!k.binaryCrossEntropy.updateOutput.has(device, dtype)) {
      k.binaryCrossEntropy.updateOutput.add(device, dtype, &bceOutput);
      k.binaryCrossEntropy.updateGradInput.add(device, dtype, &bceGradInput);
    }
    if (!k.allProbabilities.has(device, dtype)) k.allProbabilities.add(device, dtype, &allProbabilities);
    addWhereMissing(mathKernels().histc, device, dtype, &histcOnHost);
    addWhereMissing(k.adaptiveMaxPooling.updateOutput, device, dtype, &adaptiveMaxOutputOnHost);
    addWhereMissing(k.adaptiveMaxPooling.updateGradInput, device, dtype, &adaptiveMaxGradOnHost);
    addWhereMissing(k.gridSamplerBilinear.updateOutput, device, dtype, &gridSampleOutputOnHost);
    addWhereMissing(k.gridSamplerBilinear.updateGradInput, device, dtype, &gridSampleGradOnHost);
    addWhereMissing(k.reflectionPadding.updateOutput, device, dtype,
                    &paddingOutputOnHost<&NNKernels::reflectionPadding>);
    addWhereMissing(k.reflectionPadding.updateGradInput, device, dtype,
                    &paddingGradOnHost<&NNKernels::reflectionPadding>);
    addWhereMissing(k.replicationPadding.updateOutput, device, dtype,
                    &paddingOutputOnHost<&NNKernels::replicationPadding>);
    addWhereMissing(k.replicationPadding.updateGradInput, device, dtype,
                    &paddingGradOnHost<&NNKernels::replicationPadding>);
    addWhereMissing(randomKernels().poisson, device, dtype, &poissonOnHost);
  }
  for (int t = 0; t < kNumScalarTypes; t++) {
    const auto dtype = static_cast<ScalarType>(t);
    addWhereMissing(mathKernels().sequence, device, dtype, &sequenceOnHost);
    addWhereMissing(reduceKernels().isclose, device, dtype, &iscloseOnHost);
  }
}

}  // namespace torch::composite
