#include "core/ops/NNSpatial.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

#include "autograd/Derivatives.h"
#include "core/Autocast.h"
#include "core/ops/Factory.h"
#include "core/ops/NNSpatialInternal.h"
#include "core/ops/Pointwise.h"
#include "core/ops/Reduce.h"

namespace torch::nn {

// ---- shared with the derivative formulas (NNSpatialInternal.h) ----

namespace spatial {

Tensor canonical(const Tensor &t, int s, bool batched) {
  Tensor x = batched ? t : unsqueeze(t, 0);
  return s == 1 ? unsqueeze(x, 2) : x;
}

// The result is not a view for autograd: the tensor it views is made here and no one else
// holds it, and an in-place op on the result must record on the result itself.
Tensor uncanonical(const Tensor &t, int s, bool batched) {
  Tensor x = s == 1 ? squeeze(t, 2) : t;
  if (!batched) x = squeeze(x, 0);
  return x.isSameAs(t) ? x : detach(x);
}

Tensor shapeOnly(const IntList &sizes, ScalarType dtype, Device device) {
  Tensor one = zeros({1}, dtype, device);
  return asStrided(one, sizes, IntList(sizes.size(), 0), 0);
}

const char *convName(int s, bool transposed) {
  static const char *names[2][3] = {{"conv1d", "conv2d", "conv3d"},
                                    {"conv_transpose1d", "conv_transpose2d", "conv_transpose3d"}};
  return names[transposed][s - 1];
}

}  // namespace spatial

using namespace spatial;

namespace {

NNKernels &kernels() { return nnKernels(); }

// ---- argument checks ----

std::string listString(const IntList &v) {
  std::string s;
  for (size_t i = 0; i < v.size(); i++) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

void checkFloating(const char *op, const Tensor &t, const char *what) {
  TORCH_CHECK(hasFloatingKernels(t.dtype()), Runtime,
              "%s: expected %s to be a floating point tensor (Float, Double or BFloat16), but got %s", op, what,
              scalarTypeName(t.dtype()));
}

void checkSameType(const char *op, const Tensor &a, const char *an, const Tensor &b, const char *bn) {
  TORCH_CHECK(a.dtype() == b.dtype(), Runtime, "%s: expected %s and %s to have the same dtype, but got %s and %s", op,
              an, bn, scalarTypeName(a.dtype()), scalarTypeName(b.dtype()));
}

void checkListSize(const char *op, const IntList &v, size_t s, const char *what) {
  TORCH_CHECK(v.size() == s, Runtime, "%s: expected %s to have %zu elements, but got %zu ([%s])", op, what, s, v.size(),
              listString(v).c_str());
}

// Every value of v at least min; THNN takes them as int.
void checkAll(const char *op, const IntList &v, int64_t min, const char *what) {
  for (int64_t x : v) {
    TORCH_CHECK(x >= min, Runtime, "%s: %s must be %s, but got [%s]", op, what,
                min > 0 ? "greater than zero" : "non-negative", listString(v).c_str());
    TORCH_CHECK(x <= INT32_MAX, Runtime, "%s: %s must be at most %d, but got [%s]", op, what, INT32_MAX,
                listString(v).c_str());
  }
}

// Note [Spatial ranks]: [C, *s] or [N, C, *s], with non-empty planes.
bool checkSpatialInput(const char *op, const Tensor &t, int s) {
  TORCH_CHECK(t.dim() == s + 1 || t.dim() == s + 2, Runtime,
              "%s: Expected %dD (unbatched) or %dD (batched) input, but got input of size: %s", op, s + 1, s + 2,
              t.sizeString().c_str());
  for (int d = t.dim() - s - 1; d < t.dim(); d++)
    TORCH_CHECK(t.size(d) > 0, Runtime,
                "%s: Expected input to have non-zero size for its channel and spatial dimensions, but got input of "
                "size: %s",
                op, t.sizeString().c_str());
  return t.dim() == s + 2;
}

// A kernel parameter list for the canonical rank: 1-d lists get a leading `unit`.
IntList kernelList(const IntList &v, int64_t unit) {
  if (v.size() != 1) return v;
  return {unit, v[0]};
}

IntList spatialSizes(const Tensor &t, int s) {
  IntList all = t.sizes();
  return IntList(all.end() - s, all.end());
}

// ============================================================================================
// Convolutions
// ============================================================================================

Tensor group(const Tensor &t, int dim, int64_t g, int64_t groups) {
  if (groups == 1 || !t.defined()) return t;
  int64_t n = t.size(dim) / groups;
  return narrow(t, dim, g * n, n);
}

// Note [Dilated transposed volumes]: THNN's VolumetricFullConvolution has no dilation. A
// transposed convolution is the input gradient of a convolution with the same weight, so
// it runs VolumetricDilatedConvolution's updateGradInput; its gradients are that
// convolution's forward (input) and accGradParameters with input and gradOutput swapped
// (weight). Output padding adds positions no input reaches (bias only), so the kernels see
// the unpadded output region.
IntList unpaddedOutput(const Conv &c, const Tensor &x, const Tensor &w) {
  IntList sizes = {x.size(0), w.size(1)};
  for (size_t a = 0; a < c.k.size(); a++) sizes.push_back(c.outSize(a, x.size(2 + a)));
  return sizes;
}

Tensor unpaddedRegion(const Conv &c, const Tensor &t, const IntList &unpadded) {
  Tensor r = t;
  for (size_t a = 0; a < c.k.size(); a++) r = narrow(r, 2 + a, 0, unpadded[2 + a]);
  return r;
}

// Note [Column buffers]: THNN's convolution scratch holds the unfolded input (kernel size
// times the input's size). A fresh buffer per call costs more in page faults than the
// unfolding itself (large blocks go back to the system on free), so each thread keeps one
// per element type, grown by the kernels as needed, and drops it when it passes 256 MiB.
// Every kernel call fills the buffer before reading it, so sequential users may share it.
class Columns {
 public:
  // A 16-bit type's kernels compute in float (Note [Half through Float]): its scratch is
  // Float's, which they use as it is.
  Columns(ScalarType dtype, Device device) : slot_(slot(isReducedFloat(dtype) ? ScalarType::Float : dtype, device)) {
    if (!slot_.defined()) slot_ = empty({0}, isReducedFloat(dtype) ? ScalarType::Float : dtype, device);
  }
  ~Columns() {
    if (slot_.storage().nbytes() > (size_t(256) << 20)) slot_ = Tensor();
  }
  Columns(const Columns &) = delete;
  Columns &operator=(const Columns &) = delete;
  const Tensor &get() const { return slot_; }

 private:
  static Tensor &slot(ScalarType dtype, Device device) {
    thread_local Tensor slots[kNumDevices][2];
    return slots[static_cast<int>(device)][dtype == ScalarType::Double ? 1 : 0];
  }
  Tensor &slot_;
};

// One group's forward: out (of the right size) = conv(x, w) + b.
void convForward(const Conv &c, const Tensor &x, const Tensor &w, const Tensor &b, const Tensor &out) {
  Columns columns(x.dtype(), x.device());
  Tensor cols = columns.get();
  const IntList &k = c.k, &st = c.st, &pd = c.pd, &dl = c.dl, &adj = c.adj;
  const Device device = x.device();
  const ScalarType type = x.dtype();
  if (!c.transposed) {
    kernels().dilatedConvolution.updateOutput(device, type, x, out, w, b, cols, k, st, pd, dl);
  } else if (k.size() == 2 || c.unitDilation()) {
    kernels().fullConvolution.updateOutput(device, type, x, out, w, b, cols, empty({0}, type, device), k, st, pd, dl,
                                           adj);
  } else {  // Note [Dilated transposed volumes]
    IntList unpadded = unpaddedOutput(c, x, w);
    if (b.defined())
      copyValues_(out, view(b, {1, b.size(0), 1, 1, 1}));
    else
      zero_(out);
    Tensor region = unpaddedRegion(c, out, unpadded);
    Tensor part = b.defined() ? empty(unpadded, type, device) : region;
    kernels().dilatedConvolution.updateGradInput(device, type, shapeOnly(unpadded, type, device), x, part, w, cols, k,
                                                 st, pd, dl);
    if (b.defined()) binary_(BinaryOp::Add, region, part);
  }
}

// One group's input gradient into gi (x's size).
void convBackwardInput(const Conv &c, const Tensor &x, const Tensor &w, const Tensor &go, const Tensor &gi) {
  Columns columns(x.dtype(), x.device());
  Tensor cols = columns.get();
  const IntList &k = c.k, &st = c.st, &pd = c.pd, &dl = c.dl, &adj = c.adj;
  const Device device = x.device();
  const ScalarType type = x.dtype();
  if (!c.transposed) {
    kernels().dilatedConvolution.updateGradInput(device, type, x, go, gi, w, cols, k, st, pd, dl);
  } else if (k.size() == 2 || c.unitDilation()) {
    kernels().fullConvolution.updateGradInput(device, type, x, go, gi, w, cols, empty({0}, type, device), k, st, pd, dl,
                                              adj);
  } else {  // Note [Dilated transposed volumes]
    Tensor region = unpaddedRegion(c, go, unpaddedOutput(c, x, w));
    kernels().dilatedConvolution.updateOutput(device, type, region, gi, w, Tensor(), cols, k, st, pd, dl);
  }
}

// One group's weight (and bias, when gb is defined) gradients added into gw and gb.
void convBackwardParams(const Conv &c, const Tensor &x, const Tensor &go, const Tensor &gw, const Tensor &gb) {
  Columns columns(x.dtype(), x.device());
  Tensor cols = columns.get();
  const IntList &k = c.k, &st = c.st, &pd = c.pd, &dl = c.dl, &adj = c.adj;
  const Device device = x.device();
  const ScalarType type = x.dtype();
  if (!c.transposed) {
    kernels().dilatedConvolution.accGradParameters(device, type, x, go, gw, gb, cols, k, st, pd, dl, 1.0);
  } else if (k.size() == 2 || c.unitDilation()) {
    kernels().fullConvolution.accGradParameters(device, type, x, go, gw, gb, cols, empty({0}, type, device), k, st, pd,
                                                dl, adj, 1.0);
  } else {  // Note [Dilated transposed volumes]
    Tensor region = unpaddedRegion(c, go, unpaddedOutput(c, x, gw));
    kernels().dilatedConvolution.accGradParameters(device, type, region, x, gw, Tensor(), cols, k, st, pd, dl, 1.0);
    if (gb.defined()) binary_(BinaryOp::Add, gb, sum(go, {0, 2, 3, 4}, false));
  }
}

// Checks and completes c for input and weight; returns the output's canonical sizes.
IntList checkConvolution(Conv &c, const Tensor &input, const Tensor &weight, const Tensor &bias, bool batched) {
  const char *op = c.name();
  const int s = c.s;
  checkFloating(op, input, "input");
  checkSameType(op, input, "input", weight, "weight");
  if (bias.defined()) checkSameType(op, input, "input", bias, "bias");
  TORCH_CHECK(weight.dim() == s + 2, Runtime, "%s: expected weight to be %d-dimensional, but got weight of size %s", op,
              s + 2, weight.sizeString().c_str());
  TORCH_CHECK(c.groups > 0, Runtime, "%s: non-positive groups is not supported (groups=%lld)", op,
              static_cast<long long>(c.groups));
  checkAll(op, c.stride, 1, "stride");
  checkAll(op, c.padding, 0, "padding");
  checkAll(op, c.dilation, 1, "dilation");
  for (int64_t d = 0; d < weight.dim(); d++)
    TORCH_CHECK(weight.size(d) > 0, Runtime, "%s: expected weight to be non-empty, but got weight of size %s", op,
                weight.sizeString().c_str());
  const int64_t channels = input.size(batched ? 1 : 0);
  int64_t outChannels;
  if (!c.transposed) {
    TORCH_CHECK(weight.size(0) % c.groups == 0, Runtime,
                "%s: Given groups=%lld, expected weight to be divisible by %lld at dimension 0, but got weight of "
                "size %s instead",
                op, static_cast<long long>(c.groups), static_cast<long long>(c.groups), weight.sizeString().c_str());
    TORCH_CHECK(channels == weight.size(1) * c.groups, Runtime,
                "%s: Given groups=%lld, weight of size %s, expected input%s to have %lld channels, but got %lld "
                "channels instead",
                op, static_cast<long long>(c.groups), weight.sizeString().c_str(), input.sizeString().c_str(),
                static_cast<long long>(weight.size(1) * c.groups), static_cast<long long>(channels));
    outChannels = weight.size(0);
  } else {
    TORCH_CHECK(channels == weight.size(0), Runtime,
                "%s: Given transposed=1, weight of size %s, expected input%s to have %lld channels, but got %lld "
                "channels instead",
                op, weight.sizeString().c_str(), input.sizeString().c_str(), static_cast<long long>(weight.size(0)),
                static_cast<long long>(channels));
    TORCH_CHECK(channels % c.groups == 0, Runtime,
                "%s: Given groups=%lld, expected input channels (%lld) to be divisible by groups", op,
                static_cast<long long>(c.groups), static_cast<long long>(channels));
    checkAll(op, c.outputPadding, 0, "output_padding");
    for (int a = 0; a < s; a++)
      TORCH_CHECK(c.outputPadding[a] < c.stride[a] || c.outputPadding[a] < c.dilation[a], Runtime,
                  "%s: output padding must be smaller than either stride or dilation, but got output_padding=[%s], "
                  "stride=[%s], dilation=[%s]",
                  op, listString(c.outputPadding).c_str(), listString(c.stride).c_str(),
                  listString(c.dilation).c_str());
    outChannels = weight.size(1) * c.groups;
  }
  if (bias.defined())
    TORCH_CHECK(bias.dim() == 1 && bias.size(0) == outChannels, Runtime,
                "%s: Given weight of size %s, expected bias to be 1-dimensional with %lld elements, but got bias of "
                "size %s instead",
                op, weight.sizeString().c_str(), static_cast<long long>(outChannels), bias.sizeString().c_str());

  const IntList weightSizes = weight.sizes();
  IntList kernel(weightSizes.begin() + 2, weightSizes.end());
  c.k = kernelList(kernel, 1);
  c.st = kernelList(c.stride, 1);
  c.pd = kernelList(c.padding, 0);
  c.dl = kernelList(c.dilation, 1);
  c.adj = kernelList(c.transposed ? c.outputPadding : IntList(s, 0), 0);

  IntList out = {batched ? input.size(0) : 1, outChannels};
  if (s == 1) out.push_back(1);
  IntList in = spatialSizes(input, s), padded, dilated;
  for (int a = 0; a < s; a++) {
    padded.push_back(in[a] + 2 * c.padding[a]);
    dilated.push_back(c.dilation[a] * (kernel[a] - 1) + 1);
  }
  for (int a = 0; a < s; a++) {
    const int ka = static_cast<int>(c.k.size()) - s + a;
    if (!c.transposed) {
      TORCH_CHECK(padded[a] >= dilated[a], Runtime,
                  "%s: Calculated padded input size per channel: (%s). Kernel size: (%s). Kernel size can't be "
                  "greater than actual input size",
                  op, listString(padded).c_str(), listString(dilated).c_str());
      out.push_back(c.outSize(ka, in[a]));
    } else {
      const int64_t o = c.outSize(ka, in[a]) + c.outputPadding[a];
      TORCH_CHECK(o >= 1, Runtime,
                  "%s: input of size %s with kernel [%s], stride [%s], padding [%s], dilation [%s] and "
                  "output_padding [%s] gives a non-positive output size along spatial dimension %d",
                  op, input.sizeString().c_str(), listString(kernel).c_str(), listString(c.stride).c_str(),
                  listString(c.padding).c_str(), listString(c.dilation).c_str(), listString(c.outputPadding).c_str(),
                  a);
      out.push_back(o);
    }
  }
  return out;
}

}  // namespace

TensorList spatial::convolutionBackward(const Conv &c, const Tensor &input, const Tensor &weight, const Tensor &grad,
                                        bool batched, bool needX, bool needW, bool needB) {
  const int s = c.s;
  Tensor w = s == 1 ? unsqueeze(weight, 2) : weight;
  Tensor g = canonical(grad, s, batched);
  Tensor x = canonical(input, s, batched);
  Tensor gx, gw, gb;
  if (needX) gx = empty(x.sizes(), x.dtype(), x.device());
  if (needW) gw = zeros(w.sizes(), w.dtype(), w.device());
  if (needB) gb = zeros({g.size(1)}, g.dtype(), g.device());
  const int64_t G = c.groups;
  for (int64_t i = 0; i < G; i++) {
    Tensor xi = group(x, 1, i, G), wi = group(w, 0, i, G), gi = group(g, 1, i, G);
    if (needX) convBackwardInput(c, xi, wi, gi, group(gx, 1, i, G));
    if (needW) convBackwardParams(c, xi, gi, group(gw, 0, i, G), group(gb, 0, i, G));
  }
  if (needB && !needW) gb = sum(g, s == 3 ? IntList{0, 2, 3, 4} : IntList{0, 2, 3}, false);
  if (needX) gx = uncanonical(gx, s, batched);
  if (needW && s == 1) gw = squeeze(gw, 2);
  return {gx, gw, gb};
}

namespace {

Tensor runConvolution(Conv c, const Tensor &input, const Tensor &weight, const Tensor &bias) {
  const char *op = c.name();
  checkListSize(op, c.stride, c.s, "stride");
  checkListSize(op, c.padding, c.s, "padding");
  checkListSize(op, c.dilation, c.s, "dilation");
  if (c.transposed) checkListSize(op, c.outputPadding, c.s, "output_padding");
  const bool batched = checkSpatialInput(op, input, c.s);
  IntList outSizes = checkConvolution(c, input, weight, bias, batched);

  RecordScope rec({&input, &weight, &bias});
  Tensor x = canonical(input, c.s, batched), w = c.s == 1 ? unsqueeze(weight, 2) : weight;
  Tensor out = empty(outSizes, input.dtype(), input.device());
  const int64_t G = c.groups;
  for (int64_t i = 0; i < G; i++)
    convForward(c, group(x, 1, i, G), group(w, 0, i, G), group(bias, 0, i, G), group(out, 1, i, G));
  Tensor result = uncanonical(out, c.s, batched);
  if (rec) derivatives::convolution(c, input, weight, bias, batched, result);
  return result;
}

// ============================================================================================
// Pooling
// ============================================================================================

int64_t floorDiv(int64_t a, int64_t b) { return a / b - (a % b != 0 && a < 0); }

// Note [Pooled size] of THNN/generic/Pooling.h.
int64_t pooledSize(int64_t in, int64_t k, int64_t st, int64_t pad, int64_t dil, bool ceilMode) {
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1;
  int64_t out = (ceilMode ? -floorDiv(-span, st) : floorDiv(span, st)) + 1;
  if (out > 0 && (out - 1) * st >= in + pad) out--;
  return out;
}

// Checks p against input; returns the output's spatial sizes.
IntList checkPool(Pool &p, const Tensor &input, bool withDilation) {
  const char *op = p.op;
  const int s = p.s;
  if (p.stride.empty()) p.stride = p.kernel;
  checkListSize(op, p.kernel, s, "kernel_size");
  checkListSize(op, p.stride, s, "stride");
  checkListSize(op, p.padding, s, "padding");
  if (withDilation)
    checkListSize(op, p.dilation, s, "dilation");
  else
    p.dilation = IntList(s, 1);
  checkAll(op, p.kernel, 1, "kernel_size");
  checkAll(op, p.stride, 1, "stride");
  checkAll(op, p.padding, 0, "padding");
  checkAll(op, p.dilation, 1, "dilation");
  for (int a = 0; a < s; a++)
    TORCH_CHECK(p.padding[a] <= p.kernel[a] / 2, Runtime,
                "%s: pad should be at most half of kernel size, but got pad=[%s] and kernel_size=[%s]", op,
                listString(p.padding).c_str(), listString(p.kernel).c_str());
  checkFloating(op, input, "input");
  checkSpatialInput(op, input, s);
  IntList in = spatialSizes(input, s), out;
  for (int a = 0; a < s; a++)
    out.push_back(pooledSize(in[a], p.kernel[a], p.stride[a], p.padding[a], p.dilation[a], p.ceilMode));
  for (int64_t o : out)
    TORCH_CHECK(
        o >= 1, Runtime,
        "%s: Given input size %s, kernel_size [%s], stride [%s], padding [%s] and dilation [%s], the calculated "
        "output size [%s] is too small",
        op, input.sizeString().c_str(), listString(p.kernel).c_str(), listString(p.stride).c_str(),
        listString(p.padding).c_str(), listString(p.dilation).c_str(), listString(out).c_str());
  p.k = kernelList(p.kernel, 1);
  p.st = kernelList(p.stride, 1);
  p.pd = kernelList(p.padding, 0);
  p.dl = kernelList(p.dilation, 1);
  return out;
}

// THNN's pooling kernels reject an empty input; a batch of no samples pools to no samples.
std::pair<Tensor, Tensor> emptyPooled(const Tensor &input, const IntList &outSpatial, const char *node) {
  RecordScope rec({&input});
  IntList sizes = input.sizes();
  std::copy(outSpatial.begin(), outSpatial.end(), sizes.end() - outSpatial.size());
  Tensor out = empty(sizes, input.dtype(), input.device()), idx = empty(sizes, ScalarType::Long, input.device());
  if (rec) derivatives::emptyPooled(node, input, out);
  return {out, idx};
}

// divisor_override: THNN divides each window by its own count; the result is multiplied
// by count / divisor, a product of one factor per axis, as a tensor over the output's
// spatial sizes.
Tensor divisorFactors(const Pool &p, const Tensor &input, const IntList &out, bool countIncludePad, int64_t divisor,
                      ScalarType dtype) {
  const int s = p.s;
  IntList in = spatialSizes(input, s);
  std::vector<std::vector<double>> axis(s);
  for (int a = 0; a < s; a++) {
    for (int64_t o = 0; o < out[a]; o++) {
      const int64_t start = o * p.stride[a] - p.padding[a];
      const int64_t end = std::min(start + p.kernel[a], in[a] + p.padding[a]);
      const int64_t count = countIncludePad ? end - start : std::min(end, in[a]) - std::max<int64_t>(start, 0);
      axis[a].push_back(static_cast<double>(count));
    }
  }
  Tensor f = empty(out, ScalarType::Double, Device::CPU);  // computed on the host
  double *d = reinterpret_cast<double *>(f.dataPtr());
  const int64_t n = f.numel();
  for (int64_t i = 0; i < n; i++) {
    double v = 1.0 / static_cast<double>(divisor);
    int64_t rest = i;
    for (int a = s - 1; a >= 0; a--) {
      v *= axis[a][rest % out[a]];
      rest /= out[a];
    }
    d[i] = v;
  }
  return to(f, dtype, input.device());
}

// ============================================================================================
// Note [Taps]: resampling one axis by lists of taps
// ============================================================================================

// struct Taps is declared in core/ops/NNKernels.h, where the resample kernel takes it.

}  // namespace

Tensor spatial::resampleAxis(const Tensor &x, int dim, const TapsPtr &taps, const char *name) {
  RecordScope rec({&x});
  Tensor xc = contiguous(x);
  IntList sizes = x.sizes();
  sizes[dim] = taps->out();
  Tensor y = empty(sizes, x.dtype(), x.device());
  int64_t outer = 1, inner = 1;
  for (int d = 0; d < dim; d++) outer *= sizes[d];
  for (int d = dim + 1; d < x.dim(); d++) inner *= sizes[d];
  kernels().resample(x.device(), x.dtype(), xc, y, outer, inner, *taps);
  if (rec) derivatives::resampled(name, x, dim, taps, y);
  return y;
}

namespace {

// x resampled along its last taps.size() dims.
Tensor resampleLast(const Tensor &x, const std::vector<TapsPtr> &taps, const char *name) {
  Tensor r = x;
  const int first = x.dim() - static_cast<int>(taps.size());
  for (size_t a = 0; a < taps.size(); a++) r = resampleAxis(r, first + static_cast<int>(a), taps[a], name);
  return r;
}

TapsPtr adaptiveTaps(int64_t in, int64_t out) {
  auto t = std::make_shared<Taps>();
  t->in = in;
  for (int64_t o = 0; o < out; o++) {
    const int64_t first = o * in / out, end = ((o + 1) * in + out - 1) / out;
    for (int64_t i = first; i < end; i++) t->add(i, 1.0 / static_cast<double>(end - first));
    t->next();
  }
  return t;
}

// The windows of a sliding average along one axis, as THNN lays them out: output o averages
// [o * st - pad, + k) clipped to the input, divided by the window's length clipped to the
// padded input (countIncludePad) or by the elements it holds.
TapsPtr averageTaps(int64_t in, int64_t k, int64_t st, int64_t pad, int64_t out, bool countIncludePad) {
  auto t = std::make_shared<Taps>();
  t->in = in;
  for (int64_t o = 0; o < out; o++) {
    const int64_t start = o * st - pad, end = std::min(start + k, in + pad);
    const int64_t first = std::max<int64_t>(start, 0), last = std::min(end, in);
    const double divisor = static_cast<double>(countIncludePad ? end - start : last - first);
    for (int64_t i = first; i < last; i++) t->add(i, 1.0 / divisor);
    t->next();
  }
  return t;
}

// PyTorch's scale of a resampling axis: 1 / the user's scale factor when given, else in / out.
double axisScale(int64_t in, int64_t out, const std::vector<double> &scales, size_t a) {
  if (!scales.empty() && scales[a] > 0) return 1.0 / scales[a];
  return static_cast<double>(in) / static_cast<double>(out);
}

// nearest: floor(j * scale); nearest-exact: floor((j + 0.5) * scale); in float, as PyTorch.
TapsPtr nearestTaps(int64_t in, int64_t out, double scale, bool exact) {
  auto t = std::make_shared<Taps>();
  t->in = in;
  const float fs = static_cast<float>(scale);
  for (int64_t j = 0; j < out; j++) {
    int64_t i;
    if (exact)
      i = static_cast<int64_t>(std::floor((static_cast<float>(j) + 0.5f) * fs));
    else if (out == in)
      i = j;
    else if (out == 2 * in)
      i = j >> 1;
    else
      i = static_cast<int64_t>(std::floor(static_cast<float>(j) * fs));
    t->add(std::min(i, in - 1), 1.0);
    t->next();
  }
  return t;
}

// Source coordinate of output j (PyTorch's area_pixel_compute_source_index).
double sourceIndex(int64_t j, int64_t in, int64_t out, double scale, bool alignCorners, bool cubic) {
  if (alignCorners) return out > 1 ? static_cast<double>(j) * static_cast<double>(in - 1) / (out - 1) : 0.0;
  const double src = scale * (static_cast<double>(j) + 0.5) - 0.5;
  return !cubic && src < 0 ? 0.0 : src;
}

TapsPtr linearTaps(int64_t in, int64_t out, double scale, bool alignCorners) {
  auto t = std::make_shared<Taps>();
  t->in = in;
  for (int64_t j = 0; j < out; j++) {
    const double src = sourceIndex(j, in, out, scale, alignCorners, false);
    const int64_t i0 = std::min(static_cast<int64_t>(src), in - 1);
    const int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
    const double l1 = src - static_cast<double>(i0);
    t->add(i0, 1.0 - l1);
    t->add(i1, l1);
    t->next();
  }
  return t;
}

// Keys' cubic convolution with A = -0.75, indices clamped to the input (PyTorch's bicubic).
TapsPtr cubicTaps(int64_t in, int64_t out, double scale, bool alignCorners) {
  const double A = -0.75;
  auto near = [A](double x) { return ((A + 2) * x - (A + 3)) * x * x + 1; };
  auto far = [A](double x) { return ((A * x - 5 * A) * x + 8 * A) * x - 4 * A; };
  auto t = std::make_shared<Taps>();
  t->in = in;
  for (int64_t j = 0; j < out; j++) {
    const double src = sourceIndex(j, in, out, scale, alignCorners, true);
    const double f = std::floor(src);
    const double d = src - f;
    const double w[4] = {far(d + 1), near(d), near(1 - d), far(2 - d)};
    for (int k = 0; k < 4; k++) {
      const int64_t i = std::min(std::max(static_cast<int64_t>(f) - 1 + k, int64_t(0)), in - 1);
      t->add(i, w[k]);
    }
    t->next();
  }
  return t;
}

// Padding of one axis by a map of output positions to input positions.
TapsPtr paddingTaps(int64_t in, int64_t before, int64_t after, bool reflect) {
  auto t = std::make_shared<Taps>();
  t->in = in;
  for (int64_t j = 0; j < in + before + after; j++) {
    int64_t i = j - before;
    if (reflect)
      i = i < 0 ? -i : (i >= in ? 2 * (in - 1) - i : i);
    else
      i = ((i % in) + in) % in;
    t->add(i, 1.0);
    t->next();
  }
  return t;
}

// ============================================================================================
// Constant padding, pixel shuffles, affine grids, im2col
// ============================================================================================

// Constant padding; negative pads crop. Its own adjoint with the pads negated and value 0.
Tensor constantPad(const Tensor &input, const IntList &pad, double value) {
  const char *op = "constant_pad_nd";
  const int nPad = static_cast<int>(pad.size() / 2);
  IntList sizes = input.sizes();
  for (int i = 0; i < nPad; i++) {
    const int d = input.dim() - 1 - i;
    const int64_t n = sizes[d] + pad[2 * i] + pad[2 * i + 1];
    TORCH_CHECK(n >= 0, Runtime,
                "%s: The input size %lld, plus negative padding %lld and %lld resulted in a negative output size, "
                "which is invalid. Check dimension %d of your input.",
                op, static_cast<long long>(sizes[d]), static_cast<long long>(pad[2 * i]),
                static_cast<long long>(pad[2 * i + 1]), d);
    sizes[d] = n;
  }
  RecordScope rec({&input});
  Tensor out = full(sizes, Scalar(value), input.dtype(), input.device());
  Tensor src = input, dst = out;
  bool nothing = false;
  for (int i = 0; i < nPad; i++) {
    const int d = input.dim() - 1 - i;
    const int64_t cropBefore = std::max<int64_t>(-pad[2 * i], 0), cropAfter = std::max<int64_t>(-pad[2 * i + 1], 0);
    const int64_t len = input.size(d) - cropBefore - cropAfter;
    if (len <= 0) {
      nothing = true;
      break;
    }
    src = narrow(src, d, cropBefore, len);
    dst = narrow(dst, d, std::max<int64_t>(pad[2 * i], 0), len);
  }
  if (!nothing && src.numel() > 0) copyValues_(dst, src);
  if (rec) derivatives::constantPad(input, pad, out);
  return out;
}

// [*, C r^2, H, W] <-> [*, C, H r, W r].
Tensor shuffle(const Tensor &input, int64_t r, bool up) {
  const char *op = up ? "pixel_shuffle" : "pixel_unshuffle";
  TORCH_CHECK(input.dim() >= 3, Runtime,
              "%s expects input to have at least 3 dimensions, but got input with %d dimension(s)", op, input.dim());
  TORCH_CHECK(r > 0, Runtime, "%s expects %s to be greater than zero, but got %lld", op,
              up ? "upscale_factor" : "downscale_factor", static_cast<long long>(r));
  const int n = input.dim();
  const int64_t C = input.size(n - 3), H = input.size(n - 2), W = input.size(n - 1);
  const IntList inSizes = input.sizes();
  IntList lead(inSizes.begin(), inSizes.end() - 3);
  IntList split = lead, order, outSizes = lead;
  const int L = static_cast<int>(lead.size());
  for (int i = 0; i < L; i++) order.push_back(i);
  if (up) {
    TORCH_CHECK(C % (r * r) == 0, Runtime,
                "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of "
                "upscale_factor, but input.size(-3)=%lld is not divisible by %lld",
                static_cast<long long>(C), static_cast<long long>(r * r));
    const int64_t oc = C / (r * r);
    split.insert(split.end(), {oc, r, r, H, W});
    for (int i : {0, 3, 1, 4, 2}) order.push_back(L + i);
    outSizes.insert(outSizes.end(), {oc, H * r, W * r});
  } else {
    TORCH_CHECK(H % r == 0 && W % r == 0, Runtime,
                "pixel_unshuffle expects height and width to be divisible by downscale_factor, but input of size %s "
                "is not divisible by %lld",
                input.sizeString().c_str(), static_cast<long long>(r));
    split.insert(split.end(), {C, H / r, r, W / r, r});
    for (int i : {0, 2, 4, 1, 3}) order.push_back(L + i);
    outSizes.insert(outSizes.end(), {C * r * r, H / r, W / r});
  }
  RecordScope rec({&input});
  Tensor permuted = permute(reshape(input, split), order);
  Tensor out = empty(outSizes, input.dtype(), input.device());
  copyValues_(view(out, permuted.sizes()), permuted);
  if (rec) derivatives::pixelShuffle(up, input, r, out);
  return out;
}

// Base coordinates of affine_grid along an axis of n points.
std::vector<double> gridLine(int64_t n, bool alignCorners) {
  std::vector<double> v(n, 0.0);
  if (n <= 1) return v;
  for (int64_t i = 0; i < n; i++) {
    double x = -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
    v[i] = alignCorners ? x : x * static_cast<double>(n - 1) / static_cast<double>(n);
  }
  return v;
}

struct Im2col {
  IntList kernel, dilation, padding, stride;
  int64_t blocks(int a, int64_t in) const {
    return (in + 2 * padding[a] - dilation[a] * (kernel[a] - 1) - 1) / stride[a] + 1;
  }
};

void checkIm2colParams(const char *op, const Im2col &g) {
  checkListSize(op, g.kernel, 2, "kernel_size");
  checkListSize(op, g.dilation, 2, "dilation");
  checkListSize(op, g.padding, 2, "padding");
  checkListSize(op, g.stride, 2, "stride");
  checkAll(op, g.kernel, 1, "kernel_size");
  checkAll(op, g.dilation, 1, "dilation");
  checkAll(op, g.padding, 0, "padding");
  checkAll(op, g.stride, 1, "stride");
}

IntList checkBlocks(const char *op, const Im2col &g, int64_t H, int64_t W) {
  const int64_t oH = g.blocks(0, H), oW = g.blocks(1, W);
  TORCH_CHECK(H + 2 * g.padding[0] >= g.dilation[0] * (g.kernel[0] - 1) + 1 &&
                  W + 2 * g.padding[1] >= g.dilation[1] * (g.kernel[1] - 1) + 1 && oH >= 1 && oW >= 1,
              Runtime,
              "%s: Given input with spatial size (%lld, %lld), kernel_size=(%s), dilation=(%s), padding=(%s), "
              "calculated shape of the array of sliding blocks is non-positive, but its components must be at "
              "least one.",
              op, static_cast<long long>(H), static_cast<long long>(W), listString(g.kernel).c_str(),
              listString(g.dilation).c_str(), listString(g.padding).c_str());
  return {oH, oW};
}

// ============================================================================================
// Grid sampling (THNN: align_corners=True geometry)
// ============================================================================================

Tensor gridSampleAligned(const Tensor &input, const Tensor &grid, int paddingMode) {
  RecordScope rec({&input, &grid});
  Tensor out = empty({0}, input.dtype(), input.device());
  kernels().gridSamplerBilinear.updateOutput(input.device(), input.dtype(), input, grid, out, paddingMode);
  if (rec) derivatives::gridSampleAligned(input, grid, paddingMode, out);
  return out;
}

}  // namespace

// ============================================================================================
// Public ops
// ============================================================================================

Tensor convolution(const Tensor &input, const Tensor &weight, const Tensor &bias, const IntList &stride,
                   const IntList &padding, const IntList &dilation, int64_t groups) {
  if (autocast::on(input)) {
    return autocast::run(
        autocast::Policy::Lower, [](auto &&...x) { return convolution(x...); }, input, weight, bias, stride, padding,
        dilation, groups);
  }
  const int s = static_cast<int>(stride.size());
  TORCH_CHECK(s >= 1 && s <= 3, Runtime, "convolution: expected 1 to 3 spatial dimensions, but got stride [%s]",
              listString(stride).c_str());
  return runConvolution(Conv{s, false, stride, padding, dilation, IntList(s, 0), groups, {}, {}, {}, {}, {}}, input,
                        weight, bias);
}

Tensor convolution(const Tensor &input, const Tensor &weight, const Tensor &bias, const IntList &stride,
                   const std::string &padding, const IntList &dilation, int64_t groups) {
  const int s = static_cast<int>(stride.size());
  TORCH_CHECK(s >= 1 && s <= 3, Runtime, "convolution: expected 1 to 3 spatial dimensions, but got stride [%s]",
              listString(stride).c_str());
  const char *op = convName(s, false);
  if (padding == "valid") return convolution(input, weight, bias, stride, IntList(s, 0), dilation, groups);
  TORCH_CHECK(padding == "same", Runtime, "%s: Invalid padding string '%s', should be one of 'valid' or 'same'", op,
              padding.c_str());
  checkListSize(op, dilation, s, "dilation");
  TORCH_CHECK(std::all_of(stride.begin(), stride.end(), [](int64_t x) { return x == 1; }), Runtime,
              "%s: padding='same' is not supported for strided convolutions", op);
  TORCH_CHECK(weight.dim() == s + 2, Runtime, "%s: expected weight to be %d-dimensional, but got weight of size %s", op,
              s + 2, weight.sizeString().c_str());
  // PyTorch's choice: half the total padding on each side, the odd element after.
  IntList left(s), extra(2 * s, 0);
  bool asymmetric = false;
  for (int a = 0; a < s; a++) {
    const int64_t total = dilation[a] * (weight.size(2 + a) - 1);
    left[a] = total / 2;
    if (total % 2) {
      extra[2 * (s - 1 - a) + 1] = 1;
      asymmetric = true;
    }
  }
  if (!asymmetric) return convolution(input, weight, bias, stride, left, dilation, groups);
  checkSpatialInput(op, input, s);
  return convolution(constantPad(input, extra, 0.0), weight, bias, stride, left, dilation, groups);
}

Tensor convTranspose(const Tensor &input, const Tensor &weight, const Tensor &bias, const IntList &stride,
                     const IntList &padding, const IntList &outputPadding, int64_t groups, const IntList &dilation) {
  // float32 on the CPU, lower precision on CUDA, as PyTorch 1.13's lists have it
  if (autocast::on(input)) {
    return autocast::run(
        input.device() == Device::CPU ? autocast::Policy::Float32 : autocast::Policy::Lower,
        [](auto &&...x) { return convTranspose(x...); }, input, weight, bias, stride, padding, outputPadding, groups,
        dilation);
  }
  const int s = static_cast<int>(stride.size());
  TORCH_CHECK(s >= 1 && s <= 3, Runtime, "conv_transpose: expected 1 to 3 spatial dimensions, but got stride [%s]",
              listString(stride).c_str());
  return runConvolution(Conv{s, true, stride, padding, dilation, outputPadding, groups, {}, {}, {}, {}, {}}, input,
                        weight, bias);
}

std::pair<Tensor, Tensor> maxPool(const Tensor &input, const IntList &kernel, const IntList &stride,
                                  const IntList &padding, const IntList &dilation, bool ceilMode) {
  const int s = static_cast<int>(kernel.size());
  TORCH_CHECK(s >= 1 && s <= 3, Runtime, "max_pool: expected 1 to 3 kernel sizes, but got [%s]",
              listString(kernel).c_str());
  static const char *names[3] = {"max_pool1d", "max_pool2d", "max_pool3d"};
  Pool p{names[s - 1], s, kernel, stride, padding, dilation, ceilMode, {}, {}, {}, {}};
  IntList outSpatial = checkPool(p, input, true);
  if (input.numel() == 0) return emptyPooled(input, outSpatial, "MaxPool2DWithIndicesBackward");
  const bool batched = input.dim() == s + 2;

  RecordScope rec({&input});
  Tensor x = canonical(input, s, batched);
  Tensor out = empty({0}, input.dtype(), input.device()), idx = empty({0}, ScalarType::Long, input.device());
  kernels().dilatedMaxPooling.updateOutput(x.device(), x.dtype(), x, out, idx, p.k, p.st, p.pd, p.dl, p.ceilMode);
  Tensor result = uncanonical(out, s, batched), indices = uncanonical(idx, s, batched);
  if (rec) {
    static const char *nodes[3] = {"MaxPool2DWithIndicesBackward", "MaxPool2DWithIndicesBackward",
                                   "MaxPool3DWithIndicesBackward"};
    derivatives::maxPool(nodes[s - 1], p, input, indices, batched, result);
  }
  return {result, indices};
}

Tensor avgPool(const Tensor &input, const IntList &kernel, const IntList &stride, const IntList &padding, bool ceilMode,
               bool countIncludePad, std::optional<int64_t> divisorOverride) {
  const int s = static_cast<int>(kernel.size());
  TORCH_CHECK(s >= 1 && s <= 3, Runtime, "avg_pool: expected 1 to 3 kernel sizes, but got [%s]",
              listString(kernel).c_str());
  static const char *names[3] = {"avg_pool1d", "avg_pool2d", "avg_pool3d"};
  Pool p{names[s - 1], s, kernel, stride, padding, {}, ceilMode, {}, {}, {}, {}};
  IntList outSpatial = checkPool(p, input, false);
  TORCH_CHECK(!divisorOverride || *divisorOverride != 0, Runtime, "%s: divisor must be not zero", p.op);
  if (input.numel() == 0) return emptyPooled(input, outSpatial, "AvgPool2DBackward").first;
  const bool batched = input.dim() == s + 2;

  Tensor factors;
  if (divisorOverride) factors = divisorFactors(p, input, outSpatial, countIncludePad, *divisorOverride, input.dtype());
  if (input.device() != Device::CPU) {
    // Note [Taps]: THNN's box averages are one average per axis (the divisor too: a product
    // of the axes' counts), which a device without THNN does as matrix products
    std::vector<TapsPtr> taps;
    for (int a = 0; a < s; a++)
      taps.push_back(averageTaps(input.size(input.dim() - s + a), p.kernel[a], p.stride[a], p.padding[a], outSpatial[a],
                                 countIncludePad));
    Tensor result = resampleLast(input, taps, s == 3 ? "AvgPool3DBackward" : "AvgPool2DBackward");
    return factors.defined() ? binary(BinaryOp::Mul, result, factors) : result;
  }
  RecordScope rec({&input});
  Tensor x = canonical(input, s, batched);
  Tensor out = empty({0}, input.dtype(), input.device());
  kernels().averagePooling.updateOutput(x.device(), x.dtype(), x, out, p.k, p.st, p.pd, p.ceilMode, countIncludePad);
  Tensor result = uncanonical(out, s, batched);
  if (factors.defined()) result = binary(BinaryOp::Mul, result, factors);
  if (rec) {
    static const char *nodes[3] = {"AvgPool2DBackward", "AvgPool2DBackward", "AvgPool3DBackward"};
    derivatives::avgPool(nodes[s - 1], p, countIncludePad, factors, input, batched, result);
  }
  return result;
}

namespace {

void checkAdaptive(const char *op, const Tensor &input, const IntList &outputSize, int s) {
  checkFloating(op, input, "input");
  checkSpatialInput(op, input, s);
  checkListSize(op, outputSize, s, "output_size");
  checkAll(op, outputSize, 1, "output_size");
}

}  // namespace

std::pair<Tensor, Tensor> adaptiveMaxPool(const Tensor &input, const IntList &outputSize) {
  const int s = static_cast<int>(outputSize.size());
  TORCH_CHECK(s == 1 || s == 2, Runtime,
              "adaptive_max_pool: expected 1 or 2 output sizes (THNN has no volumetric kernel), but got [%s]",
              listString(outputSize).c_str());
  const char *op = s == 1 ? "adaptive_max_pool1d" : "adaptive_max_pool2d";
  checkAdaptive(op, input, outputSize, s);
  if (input.numel() == 0) return emptyPooled(input, outputSize, "AdaptiveMaxPool2DBackward");
  const bool batched = input.dim() == s + 2;
  const IntList o = kernelList(outputSize, 1);

  RecordScope rec({&input});
  Tensor x = canonical(input, s, batched);
  Tensor out = empty({0}, input.dtype(), input.device()), idx = empty({0}, ScalarType::Long, input.device());
  kernels().adaptiveMaxPooling.updateOutput(x.device(), x.dtype(), x, out, idx, o);
  Tensor result = uncanonical(out, s, batched), indices = uncanonical(idx, s, batched);
  if (rec) derivatives::adaptiveMaxPool(input, indices, s, batched, result);
  return {result, indices};
}

Tensor adaptiveAvgPool(const Tensor &input, const IntList &outputSize) {
  const int s = static_cast<int>(outputSize.size());
  TORCH_CHECK(s >= 1 && s <= 3, Runtime, "adaptive_avg_pool: expected 1 to 3 output sizes, but got [%s]",
              listString(outputSize).c_str());
  static const char *names[3] = {"adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d"};
  const char *op = names[s - 1];
  checkAdaptive(op, input, outputSize, s);
  const bool batched = input.dim() == s + 2;
  // Note [Taps]: a box average is one average per axis (also off the CPU, where there is no
  // THNN: the taps' resampling is one matrix product a device can do)
  if (s == 3 || input.device() != Device::CPU) {
    std::vector<TapsPtr> taps;
    for (int a = 0; a < s; a++) taps.push_back(adaptiveTaps(input.size(input.dim() - s + a), outputSize[a]));
    return resampleLast(input, taps, s == 3 ? "AdaptiveAvgPool3DBackward" : "AdaptiveAvgPool2DBackward");
  }
  if (input.numel() == 0) return emptyPooled(input, outputSize, "AdaptiveAvgPool2DBackward").first;
  const IntList o = kernelList(outputSize, 1);

  RecordScope rec({&input});
  Tensor x = canonical(input, s, batched);
  Tensor out = empty({0}, input.dtype(), input.device());
  kernels().adaptiveAveragePooling.updateOutput(x.device(), x.dtype(), x, out, o);
  Tensor result = uncanonical(out, s, batched);
  if (rec) derivatives::adaptiveAvgPool(input, s, batched, result);
  return result;
}

Tensor maxUnpool(const Tensor &input, const Tensor &indices, const IntList &outputSize) {
  const int s = static_cast<int>(outputSize.size());
  TORCH_CHECK(s >= 1 && s <= 3, Runtime, "max_unpool: expected 1 to 3 output sizes, but got [%s]",
              listString(outputSize).c_str());
  static const char *names[3] = {"max_unpool1d", "max_unpool2d", "max_unpool3d"};
  const char *op = names[s - 1];
  checkFloating(op, input, "input");
  const bool batched = checkSpatialInput(op, input, s);
  TORCH_CHECK(indices.dtype() == ScalarType::Long, Runtime, "%s: expected indices to be a Long tensor, but got %s", op,
              scalarTypeName(indices.dtype()));
  TORCH_CHECK(indices.isSameSizeAs(input), Runtime,
              "%s: Expected shape of indices to be same as that of the input tensor (%s) but got indices tensor with "
              "shape: %s",
              op, input.sizeString().c_str(), indices.sizeString().c_str());
  checkAll(op, outputSize, 1, "output_size");
  if (input.numel() == 0) return emptyPooled(input, outputSize, "MaxUnpool2DBackward").first;
  int64_t plane = 1;
  for (int64_t o : outputSize) plane *= o;
  {
    Tensor ic = contiguous(to(indices, ScalarType::Long, Device::CPU));  // read on the host
    const int64_t *ip = reinterpret_cast<const int64_t *>(ic.dataPtr());
    for (int64_t i = 0; i < ic.numel(); i++)
      TORCH_CHECK(ip[i] >= 0 && ip[i] < plane, Runtime,
                  "%s: Found an invalid max index: %lld (output volumes are of size [%s])", op,
                  static_cast<long long>(ip[i]), listString(outputSize).c_str());
  }
  const IntList o = kernelList(outputSize, 1);

  RecordScope rec({&input});
  Tensor x = canonical(input, s, batched), ix = canonical(indices, s, batched);
  Tensor out = empty({0}, input.dtype(), input.device());
  kernels().maxUnpooling.updateOutput(x.device(), x.dtype(), x, out, ix, o);
  Tensor result = uncanonical(out, s, batched);
  if (rec) {
    const char *node = s == 3 ? "MaxUnpool3DBackward" : "MaxUnpool2DBackward";
    derivatives::maxUnpool(node, input, indices, o, s, batched, result);
  }
  return result;
}

// ---- resampling ----

namespace {

const char *upsampleName(const std::string &mode, int s) {
  static const char *nearest[3] = {"UpsampleNearest1DBackward", "UpsampleNearest2DBackward",
                                   "UpsampleNearest3DBackward"};
  static const char *exact[3] = {"UpsampleNearestExact1DBackward", "UpsampleNearestExact2DBackward",
                                 "UpsampleNearestExact3DBackward"};
  static const char *linear[3] = {"UpsampleLinear1DBackward", "UpsampleBilinear2DBackward",
                                  "UpsampleTrilinear3DBackward"};
  if (mode == "nearest") return nearest[s - 1];
  if (mode == "nearest-exact") return exact[s - 1];
  if (mode == "bicubic") return "UpsampleBicubic2DBackward";
  return linear[s - 1];
}

// THNN's nearest kernels: the same integer factor on every axis, s = 2 or 3.
int64_t integerFactor(const Tensor &input, const IntList &outputSize, const std::vector<double> &scales) {
  const int s = static_cast<int>(outputSize.size());
  if (s < 2) return 0;
  const int64_t f = outputSize[0] / input.size(2);
  if (f < 1) return 0;
  for (int a = 0; a < s; a++) {
    if (outputSize[a] != input.size(2 + a) * f) return 0;
    if (!scales.empty() && scales[a] > 0 && scales[a] != static_cast<double>(f)) return 0;
  }
  return f;
}

Tensor nearestTHNN(const Tensor &input, int64_t factor) {
  const int s = input.dim() - 2;
  const char *name = upsampleName("nearest", s);
  RecordScope rec({&input});
  Tensor out = empty({0}, input.dtype(), input.device());
  kernels().upSamplingNearest.updateOutput(input.device(), input.dtype(), input, out, factor);
  if (rec) derivatives::upsampleNearest(name, input, factor, out);
  return out;
}

// THNN's linear kernels (corners aligned); 1-d runs the bilinear kernel on a unit height.
Tensor linearTHNN(const Tensor &input, const IntList &outputSize) {
  const int s = input.dim() - 2;
  const char *name = upsampleName("linear", s);
  RecordScope rec({&input});
  Tensor x = canonical(input, s, true);
  const IntList o = kernelList(outputSize, 1);
  Tensor out = empty({0}, input.dtype(), input.device());
  kernels().upSamplingLinear.updateOutput(x.device(), x.dtype(), x, out, o);
  Tensor result = uncanonical(out, s, true);
  if (rec) derivatives::upsampleLinear(name, input, o, s, result);
  return result;
}

}  // namespace

Tensor interpolate(const Tensor &input, const std::string &mode, const IntList &outputSize,
                   const std::vector<double> &scales, bool alignCorners) {
  const int s = static_cast<int>(outputSize.size());
  const char *op = "interpolate";
  TORCH_CHECK(s >= 1 && s <= 3, Runtime, "%s: expected 1 to 3 output sizes, but got [%s]", op,
              listString(outputSize).c_str());
  TORCH_CHECK(input.dim() == s + 2, Runtime,
              "%s: expected a %dD input (batch, channels and %d spatial dimension(s)) for output_size [%s], but got "
              "input of size %s",
              op, s + 2, s, listString(outputSize).c_str(), input.sizeString().c_str());
  TORCH_CHECK(scales.empty() || static_cast<int>(scales.size()) == s, Runtime,
              "%s: expected %d scale factors, but got %zu", op, s, scales.size());
  checkFloating(op, input, "input");
  checkAll(op, outputSize, 1, "output_size");
  for (int d = 2; d < input.dim(); d++)
    TORCH_CHECK(input.size(d) > 0, Runtime, "%s: expected non-empty spatial dimensions, but got input of size %s", op,
                input.sizeString().c_str());
  const bool linear = mode == "linear" || mode == "bilinear" || mode == "trilinear";
  if (linear || mode == "bicubic") {
    const int want = mode == "linear" ? 1 : mode == "trilinear" ? 3 : 2;
    TORCH_CHECK(s == want, Runtime, "%s: Got %dD input, but %s mode needs %dD input", op, s + 2, mode.c_str(),
                want + 2);
  } else {
    TORCH_CHECK(mode == "nearest" || mode == "nearest-exact" || mode == "area", Runtime,
                "%s: mode '%s' is not supported (use nearest, nearest-exact, linear, bilinear, bicubic, trilinear or "
                "area)",
                op, mode.c_str());
  }
  if (mode == "area") return adaptiveAvgPool(input, outputSize);
  if (mode == "nearest") {
    if (int64_t f = integerFactor(input, outputSize, scales)) return nearestTHNN(input, f);
  }
  if (linear && alignCorners) return linearTHNN(input, outputSize);

  std::vector<TapsPtr> taps;
  for (int a = 0; a < s; a++) {
    const int64_t in = input.size(2 + a), out = outputSize[a];
    const double scale = axisScale(in, out, scales, a);
    if (mode == "nearest" || mode == "nearest-exact")
      taps.push_back(nearestTaps(in, out, scale, mode != "nearest"));
    else if (linear)
      taps.push_back(linearTaps(in, out, scale, false));
    else
      taps.push_back(cubicTaps(in, out, scale, alignCorners));
  }
  return resampleLast(input, taps, upsampleName(mode, s));
}

Tensor pad(const Tensor &input, const IntList &pad, const std::string &mode, double value) {
  const char *op = "pad";
  TORCH_CHECK(pad.size() % 2 == 0, Runtime, "%s: Padding length must be divisible by 2, but got %zu", op, pad.size());
  TORCH_CHECK(static_cast<int>(pad.size() / 2) <= input.dim(), Runtime,
              "%s: Padding length too large: %zu values pad %zu dimensions of an input of size %s", op, pad.size(),
              pad.size() / 2, input.sizeString().c_str());
  if (mode == "constant") return constantPad(input, pad, value);
  TORCH_CHECK(mode == "reflect" || mode == "replicate" || mode == "circular", Runtime,
              "%s: Unrecognised padding mode '%s' (use constant, reflect, replicate or circular)", op, mode.c_str());
  const int s = static_cast<int>(pad.size() / 2);
  TORCH_CHECK(s >= 1 && s <= 3 && (input.dim() == s + 1 || input.dim() == s + 2), Runtime,
              "%s: %s padding of %d dimension(s) expects a %dD or %dD input, but got input of size %s (only 2D, 3D, "
              "4D, 5D inputs with 1 to 3 padded dimensions are supported)",
              op, mode.c_str(), s, s + 1, s + 2, input.sizeString().c_str());
  checkFloating(op, input, "input");
  const bool batched = input.dim() == s + 2;
  for (int i = 0; i < s; i++) {
    const int d = input.dim() - 1 - i;
    const int64_t n = input.size(d);
    TORCH_CHECK(n > 0, Runtime, "%s: %s padding needs non-empty spatial dimensions, but got input of size %s", op,
                mode.c_str(), input.sizeString().c_str());
    if (mode == "reflect")
      TORCH_CHECK(pad[2 * i] < n && pad[2 * i + 1] < n, Runtime,
                  "%s: Padding size should be less than the corresponding input dimension, but got: padding (%lld, "
                  "%lld) at dimension %d of input %s",
                  op, static_cast<long long>(pad[2 * i]), static_cast<long long>(pad[2 * i + 1]), d,
                  input.sizeString().c_str());
    if (mode == "circular")
      TORCH_CHECK(pad[2 * i] <= n && pad[2 * i + 1] <= n, Runtime,
                  "%s: Padding value causes wrapping around more than once (padding (%lld, %lld) at dimension %d of "
                  "input %s)",
                  op, static_cast<long long>(pad[2 * i]), static_cast<long long>(pad[2 * i + 1]), d,
                  input.sizeString().c_str());
    TORCH_CHECK(n + pad[2 * i] + pad[2 * i + 1] > 0, Runtime,
                "%s: input of size %s is too small for padding [%s]: the output would be empty", op,
                input.sizeString().c_str(), listString(pad).c_str());
  }
  if (mode == "circular" || (mode == "reflect" && s == 3)) {
    std::vector<TapsPtr> taps;
    for (int a = 0; a < s; a++) {
      const int i = s - 1 - a;  // pads list the last dimension first
      taps.push_back(paddingTaps(input.size(input.dim() - s + a), pad[2 * i], pad[2 * i + 1], mode == "reflect"));
    }
    return resampleLast(input, taps, mode == "reflect" ? "ReflectionPad3DBackward" : "CircularPadBackward");
  }

  // THNN: Spatial{Reflection,Replication}Padding (1-d on a unit height), VolumetricReplicationPadding.
  const int kind = (mode == "reflect" ? 0 : 1) * 3 + (s - 1);
  static const char *nodes[6] = {"ReflectionPad1DBackward",  "ReflectionPad2DBackward",  "ReflectionPad3DBackward",
                                 "ReplicationPad1DBackward", "ReplicationPad2DBackward", "ReplicationPad3DBackward"};
  const char *node = nodes[kind];
  IntList p = pad;
  if (s == 1) p.insert(p.end(), {0, 0});
  const bool reflect = mode == "reflect";
  const auto &module = reflect ? kernels().reflectionPadding : kernels().replicationPadding;
  RecordScope rec({&input});
  Tensor x = canonical(input, s, batched);
  Tensor out = empty({0}, input.dtype(), input.device());
  module.updateOutput(x.device(), x.dtype(), x, out, p);
  Tensor result = uncanonical(out, s, batched);
  if (rec) derivatives::padding(node, module, input, p, s, batched, result);
  return result;
}

Tensor pixelShuffle(const Tensor &input, int64_t upscale) { return shuffle(input, upscale, true); }
Tensor pixelUnshuffle(const Tensor &input, int64_t downscale) { return shuffle(input, downscale, false); }

Tensor gridSample(const Tensor &input, const Tensor &grid, const std::string &mode, const std::string &paddingMode,
                  bool alignCorners) {
  const char *op = "grid_sample";
  TORCH_CHECK(mode == "bilinear", Runtime, "%s: mode '%s' is not supported (THNN has a bilinear kernel only)", op,
              mode.c_str());
  TORCH_CHECK(paddingMode == "zeros" || paddingMode == "border", Runtime,
              "%s: padding_mode '%s' is not supported (use zeros or border)", op, paddingMode.c_str());
  checkFloating(op, input, "input");
  checkSameType(op, input, "input", grid, "grid");
  TORCH_CHECK(input.dim() == 4, Runtime,
              "%s: expected a 4D input [N, C, H, W] (THNN has no volumetric kernel), but got input of size %s", op,
              input.sizeString().c_str());
  TORCH_CHECK(grid.dim() == 4 && grid.size(0) == input.size(0) && grid.size(3) == 2, Runtime,
              "%s: expected grid of size [%lld, H, W, 2] for input of size %s, but got grid of size %s", op,
              static_cast<long long>(input.size(0)), input.sizeString().c_str(), grid.sizeString().c_str());
  TORCH_CHECK(input.size(2) > 0 && input.size(3) > 0, Runtime,
              "%s: expected input to have non-empty spatial dimensions, but got input of size %s", op,
              input.sizeString().c_str());
  const int paddingCode = paddingMode == "border" ? 1 : 0;
  if (alignCorners) return gridSampleAligned(input, grid, paddingCode);
  // THNN maps -1 and 1 to the centres of the corner pixels; align_corners=False maps them to
  // the pixels' outer edges: pixel = ((g + 1) S - 1) / 2. Scaling g by S / (S - 1) gives that
  // under THNN's mapping. A size-1 axis is first padded by a pixel on each side (zeros, or
  // the edge for border) and scaled by S / (S + 1).
  const int64_t W = input.size(3), H = input.size(2);
  const bool padW = W == 1, padH = H == 1;
  Tensor x = input;
  if (padW || padH) {
    IntList p = {padW ? 1 : 0, padW ? 1 : 0, padH ? 1 : 0, padH ? 1 : 0};
    x = paddingCode ? pad(input, p, "replicate", 0.0) : constantPad(input, p, 0.0);
  }
  Tensor factors = empty({2}, grid.dtype(), grid.device());
  fill_(narrow(factors, 0, 0, 1), Scalar(static_cast<double>(W) / static_cast<double>(padW ? W + 1 : W - 1)));
  fill_(narrow(factors, 0, 1, 1), Scalar(static_cast<double>(H) / static_cast<double>(padH ? H + 1 : H - 1)));
  return gridSampleAligned(x, binary(BinaryOp::Mul, grid, factors), paddingCode);
}

Tensor affineGrid(const Tensor &theta, const IntList &size, bool alignCorners) {
  const char *op = "affine_grid";
  checkFloating(op, theta, "theta");
  TORCH_CHECK(size.size() == 4 || size.size() == 5, Runtime,
              "%s: affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, respectively. Got size "
              "[%s].",
              op, listString(size).c_str());
  const int dims = static_cast<int>(size.size()) - 2;
  TORCH_CHECK(theta.dim() == 3 && theta.size(0) == size[0] && theta.size(1) == dims && theta.size(2) == dims + 1,
              Runtime, "%s: Expected a batch of %dD affine matrices of shape Nx%dx%d for size [%s]. Got %s.", op, dims,
              dims, dims + 1, listString(size).c_str(), theta.sizeString().c_str());
  for (int64_t d : size)
    TORCH_CHECK(d > 0, Runtime, "%s: Expected non-zero, positive output size. Got [%s]", op, listString(size).c_str());
  std::vector<std::vector<double>> lines;
  for (int a = 0; a < dims; a++) lines.push_back(gridLine(size[size.size() - 1 - a], alignCorners));  // x, y[, z]
  IntList outSizes = {size[0]};
  for (int a = 0; a < dims; a++) outSizes.push_back(size[2 + a]);
  outSizes.push_back(dims);

  RecordScope rec({&theta});
  Tensor th = contiguous(theta);
  Tensor grid = empty(outSizes, theta.dtype(), theta.device());
  kernels().affineGrid.updateOutput(th.device(), th.dtype(), th, grid, lines);
  if (rec) derivatives::affineGrid(theta, lines, grid);
  return grid;
}

Tensor im2col(const Tensor &input, const IntList &kernel, const IntList &dilation, const IntList &padding,
              const IntList &stride) {
  const char *op = "im2col";
  Im2col g{kernel, dilation, padding, stride};
  checkIm2colParams(op, g);
  checkFloating(op, input, "input");
  TORCH_CHECK((input.dim() == 3 || input.dim() == 4) && input.size(input.dim() - 3) > 0 &&
                  input.size(input.dim() - 2) > 0 && input.size(input.dim() - 1) > 0,
              Runtime, "%s: Expected non-empty 3D or 4D input tensor, but got input of size %s", op,
              input.sizeString().c_str());
  const bool batched = input.dim() == 4;
  const int64_t N = batched ? input.size(0) : 1, C = input.size(input.dim() - 3);
  const int64_t H = input.size(input.dim() - 2), W = input.size(input.dim() - 1);
  IntList blocks = checkBlocks(op, g, H, W);
  const int64_t L = blocks[0] * blocks[1];

  RecordScope rec({&input});
  Tensor x = contiguous(input);
  Tensor out = batched ? empty({N, C * kernel[0] * kernel[1], L}, input.dtype(), input.device())
                       : empty({C * kernel[0] * kernel[1], L}, input.dtype(), input.device());
  kernels().im2col(x.device(), x.dtype(), x, out, N * C, {H, W}, blocks, kernel, dilation, padding, stride);
  if (rec) derivatives::im2col(input, {H, W}, kernel, dilation, padding, stride, out);
  return out;
}

Tensor col2im(const Tensor &input, const IntList &outputSize, const IntList &kernel, const IntList &dilation,
              const IntList &padding, const IntList &stride) {
  const char *op = "col2im";
  Im2col g{kernel, dilation, padding, stride};
  checkIm2colParams(op, g);
  checkListSize(op, outputSize, 2, "output_size");
  checkAll(op, outputSize, 1, "output_size");
  checkFloating(op, input, "input");
  TORCH_CHECK(
      (input.dim() == 2 || input.dim() == 3) && input.size(input.dim() - 2) > 0 && input.size(input.dim() - 1) > 0,
      Runtime, "%s: Expected non-empty 2D or 3D input tensor, but got input of size %s", op,
      input.sizeString().c_str());
  const bool batched = input.dim() == 3;
  const int64_t K = kernel[0] * kernel[1], rows = input.size(input.dim() - 2), L = input.size(input.dim() - 1);
  TORCH_CHECK(rows % K == 0, Runtime,
              "%s: Expected size of input's dimension %d to be divisible by the product of kernel_size, but got "
              "input.size(%d)=%lld and kernel_size=(%s)",
              op, batched ? 1 : 0, batched ? 1 : 0, static_cast<long long>(rows), listString(kernel).c_str());
  IntList blocks = checkBlocks(op, g, outputSize[0], outputSize[1]);
  TORCH_CHECK(blocks[0] * blocks[1] == L, Runtime,
              "%s: Given output_size=(%s), kernel_size=(%s), dilation=(%s), padding=(%s), stride=(%s), expected size "
              "of input's dimension %d to match the calculated number of sliding blocks %lld * %lld = %lld, but got "
              "input.size(%d)=%lld.",
              op, listString(outputSize).c_str(), listString(kernel).c_str(), listString(dilation).c_str(),
              listString(padding).c_str(), listString(stride).c_str(), batched ? 2 : 1,
              static_cast<long long>(blocks[0]), static_cast<long long>(blocks[1]),
              static_cast<long long>(blocks[0] * blocks[1]), batched ? 2 : 1, static_cast<long long>(L));
  const int64_t N = batched ? input.size(0) : 1, C = rows / K;

  RecordScope rec({&input});
  Tensor cols = contiguous(input);
  Tensor out = batched ? empty({N, C, outputSize[0], outputSize[1]}, input.dtype(), input.device())
                       : empty({C, outputSize[0], outputSize[1]}, input.dtype(), input.device());
  kernels().col2im(cols.device(), cols.dtype(), out, cols, N * C, outputSize, blocks, kernel, dilation, padding,
                   stride);
  if (rec) derivatives::col2im(input, kernel, dilation, padding, stride, out);
  return out;
}

}  // namespace torch::nn

namespace torch {

Taps Taps::transposed() const {
  Taps r;
  r.in = out();
  std::vector<int64_t> count(in + 1, 0);
  for (int64_t i : index) count[i + 1]++;
  for (int64_t i = 0; i < in; i++) count[i + 1] += count[i];
  r.start = count;
  r.index.resize(index.size());
  r.weight.resize(index.size());
  std::vector<int64_t> slot(count.begin(), count.end() - 1);
  for (int64_t j = 0; j < out(); j++) {
    for (int64_t t = start[j]; t < start[j + 1]; t++) {
      const int64_t at = slot[index[t]]++;
      r.index[at] = j;
      r.weight[at] = weight[t];
    }
  }
  return r;
}

}  // namespace torch
