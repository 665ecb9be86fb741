// Resampling kernels (no indices). The typed entry points are in generic/Sampling.cpp,
// compiled for Float and Double; the argument checks and loops below serve all of them.
#include "THNN/Sampling.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "TH/THTensor.hpp"
#include "TH/THTensorMath.h"

namespace {

std::string sizeText(int nd, const int64_t *size) {
  std::string s = "[";
  for (int d = 0; d < nd; d++) s += (d ? ", " : "") + std::to_string(size[d]);
  return s + "]";
}
std::string sizeText(const std::vector<int64_t> &size) { return sizeText((int)size.size(), size.data()); }
template <typename TensorT>
std::string sizeText(TensorT *t) {
  return sizeText(t->nDimension, t->size);
}

// input is channels x `spatial` dimensions, with or without a leading batch dimension.
template <typename TensorT>
void checkInput(TensorT *input, int arg, int spatial) {
  const int nd = input->nDimension;
  THArgCheck(nd == spatial + 1 || nd == spatial + 2, arg, "%dD or %dD input tensor expected but got: %s", spatial + 1,
             spatial + 2, sizeText(input).c_str());
  for (int d = nd - spatial; d < nd; d++)
    THArgCheck(input->size[d] > 0, arg, "input has an empty spatial dimension: %s", sizeText(input).c_str());
}

template <typename TensorT>
void checkSizes(TensorT *t, int arg, const char *name, const std::vector<int64_t> &want) {
  bool same = t->nDimension == (int)want.size();
  for (int d = 0; same && d < t->nDimension; d++) same = t->size[d] == want[d];
  THArgCheck(same, arg, "%s should have sizes %s but got %s", name, sizeText(want).c_str(), sizeText(t).c_str());
}

// Note [Taps]: every kernel here but the grid sampler reads, for output position j along
// a spatial dimension, one or two input positions with weights (its taps); an output
// element is the sum over its taps in every dimension of the product of their weights
// times the input element. Nearest upsampling and padding have one tap of weight 1,
// linear upsampling two. The gradient sends each gradOutput element back the same way.
struct Tap {
  int64_t index[2];
  double weight[2];
  int count;
};
using Taps = std::vector<Tap>;  // one per output position

// Taps of the time, height and width dimensions; an image has a time axis of size 1.
struct Resampling {
  Taps dim[3];
};

Tap single(int64_t i) { return Tap{{i, i}, {1, 0}, 1}; }

Taps nearestTaps(int64_t inSize, int scale) {
  Taps taps(inSize * scale);
  for (int64_t j = 0; j < (int64_t)taps.size(); j++) taps[j] = single(j / scale);
  return taps;
}

// A negative pad crops; the caller checked that the output is not empty and, to reflect,
// that every pad is smaller than inSize.
Taps padTaps(int64_t inSize, int before, int after, bool reflect) {
  Taps taps(inSize + before + after);
  for (int64_t j = 0; j < (int64_t)taps.size(); j++) {
    int64_t k = j - before;
    if (reflect)
      k = k < 0 ? -k : k >= inSize ? 2 * (inSize - 1) - k : k;
    else
      k = std::min(std::max(k, int64_t(0)), inSize - 1);
    taps[j] = single(k);
  }
  return taps;
}

// Corners aligned (torch7): output j samples input j * (inSize - 1) / (outSize - 1).
Taps linearTaps(int64_t inSize, int64_t outSize) {
  const double ratio = outSize > 1 ? double(inSize - 1) / double(outSize - 1) : 0;
  Taps taps(outSize);
  for (int64_t j = 0; j < outSize; j++) {
    const double src = ratio * (double)j;
    const int64_t i0 = std::min((int64_t)src, inSize - 1);
    const double w1 = src - (double)i0;
    taps[j] = i0 == inSize - 1 || w1 == 0 ? single(i0) : Tap{{i0, i0 + 1}, {1 - w1, w1}, 2};
  }
  return taps;
}

// The first 3 - spatial dimensions of a Resampling are the unit axes of smaller inputs.
Resampling withUnitAxes(int spatial) {
  Resampling s;
  for (int d = 0; d < 3 - spatial; d++) s.dim[d] = {single(0)};
  return s;
}

template <typename TensorT>
Resampling nearestResampling(TensorT *input, int inputArg, int spatial, int scale, int scaleArg) {
  checkInput(input, inputArg, spatial);
  THArgCheck(scale >= 1, scaleArg, "scale_factor should be at least 1, but got: %d", scale);
  Resampling s = withUnitAxes(spatial);
  for (int d = 3 - spatial; d < 3; d++) s.dim[d] = nearestTaps(input->size[input->nDimension - 3 + d], scale);
  return s;
}

// pads: (before, after) for width, then height, then time, as the kernels take them.
template <typename TensorT>
Resampling paddingResampling(TensorT *input, int inputArg, int spatial, const int *pads, int padArg, bool reflect) {
  checkInput(input, inputArg, spatial);
  const int nd = input->nDimension;
  std::vector<int64_t> outSize(input->size, input->size + nd);
  for (int i = 0; i < spatial; i++) {
    const int dim = nd - 1 - i;
    const int before = pads[2 * i], after = pads[2 * i + 1];
    if (reflect)
      THArgCheck(before < input->size[dim] && after < input->size[dim], padArg + 2 * i,
                 "padding (%d, %d) should be smaller than the size %lld of dimension %d of input %s", before, after,
                 (long long)input->size[dim], dim, sizeText(input).c_str());
    outSize[dim] += before + after;
  }
  for (int i = 0; i < spatial; i++)
    THArgCheck(outSize[nd - 1 - i] > 0, padArg + 2 * i, "input %s is too small for the padding: the output would be %s",
               sizeText(input).c_str(), sizeText(outSize).c_str());
  Resampling s = withUnitAxes(spatial);
  for (int i = 0; i < spatial; i++)
    s.dim[2 - i] = padTaps(input->size[nd - 1 - i], pads[2 * i], pads[2 * i + 1], reflect);
  return s;
}

// inSize and outSize: `spatial` sizes each, checked positive.
Resampling linearResampling(int spatial, const int64_t *inSize, const int64_t *outSize) {
  Resampling s = withUnitAxes(spatial);
  for (int i = 0; i < spatial; i++) s.dim[3 - spatial + i] = linearTaps(inSize[i], outSize[i]);
  return s;
}

void checkOutputSizes(int spatial, const int64_t *outSize, int arg) {
  for (int i = 0; i < spatial; i++)
    THArgCheck(outSize[i] > 0, arg, "output sizes should be greater than 0, but got %s",
               sizeText(spatial, outSize).c_str());
}

// The gradInput sizes of a linear upsampling, given in numbers, checked with gradOutput:
// nbatch x nchannels x outSize, or nchannels x outSize for an unbatched gradOutput when
// nbatch is 1. gradInput gets gradOutput's rank.
template <typename TensorT>
std::vector<int64_t> linearGradSizes(TensorT *gradOutput, int gradOutputArg, int spatial, int64_t nbatch,
                                     int64_t nchannels, const int64_t *inSize, const int64_t *outSize, int sizeArg) {
  bool positive = nbatch >= 0 && nchannels >= 0;
  for (int i = 0; i < spatial; i++) positive = positive && inSize[i] > 0 && outSize[i] > 0;
  THArgCheck(positive, sizeArg, "sizes should be positive, but got nbatch %lld, nchannels %lld, input %s, output %s",
             (long long)nbatch, (long long)nchannels, sizeText(spatial, inSize).c_str(),
             sizeText(spatial, outSize).c_str());
  const bool unbatched = nbatch == 1 && gradOutput->nDimension == spatial + 1;
  std::vector<int64_t> want, in;
  if (!unbatched) want.push_back(nbatch), in.push_back(nbatch);
  want.push_back(nchannels), in.push_back(nchannels);
  want.insert(want.end(), outSize, outSize + spatial);
  in.insert(in.end(), inSize, inSize + spatial);
  checkSizes(gradOutput, gradOutputArg, "gradOutput", want);
  return in;
}

// input's sizes with the spatial ones replaced by the output sizes of s.
template <typename TensorT>
std::vector<int64_t> resampledSizes(TensorT *input, int spatial, const Resampling &s) {
  const int nd = input->nDimension;
  std::vector<int64_t> size(input->size, input->size + nd);
  for (int d = 3 - spatial; d < 3; d++) size[nd - 3 + d] = (int64_t)s.dim[d].size();
  return size;
}

// A tensor seen as batch x channels planes of three spatial dimensions (unit axes in
// front for images), any strides.
template <typename T>
struct Planes {
  T *data;
  int64_t channels, count, batchStride, channelStride;
  int64_t size[3], stride[3];
  T *plane(int64_t p) const { return data + p / channels * batchStride + p % channels * channelStride; }
};

template <typename TensorT>
auto planesOf(TensorT *t, int spatial) {
  const auto r = th::ref(t);
  Planes<std::remove_pointer_t<decltype(r.data)>> p;
  const int c = r.ndim - spatial - 1;  // the channel dimension: 1 when batched
  p.data = r.data;
  p.channels = r.size[c];
  p.channelStride = r.stride[c];
  p.batchStride = c ? r.stride[0] : 0;
  p.count = (c ? r.size[0] : 1) * p.channels;
  for (int d = 0; d < 3; d++) {
    const int src = r.ndim - 3 + d;
    p.size[d] = src > c ? r.size[src] : 1;
    p.stride[d] = src > c ? r.stride[src] : 0;
  }
  return p;
}

// See Note [Taps]. Output rows are independent: threads split them.
template <typename T>
void resampleForward(const Planes<T> &in, const Planes<T> &out, const Resampling &s) {
  const Taps &tz = s.dim[0], &ty = s.dim[1], &tx = s.dim[2];
  const int64_t rowsPerPlane = out.size[0] * out.size[1], width = out.size[2];
  const int64_t rows = out.count * rowsPerPlane;
  const int64_t inX = in.stride[2], outX = out.stride[2];
#pragma omp parallel for if (rows * width > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t r = 0; r < rows; r++) {
    const int64_t p = r / rowsPerPlane, z = r % rowsPerPlane / out.size[1], y = r % out.size[1];
    const T *ip = in.plane(p);
    T *orow = out.plane(p) + z * out.stride[0] + y * out.stride[1];
    bool first = true;
    for (int a = 0; a < tz[z].count; a++)
      for (int b = 0; b < ty[y].count; b++) {
        const T *irow = ip + tz[z].index[a] * in.stride[0] + ty[y].index[b] * in.stride[1];
        const double wzy = tz[z].weight[a] * ty[y].weight[b];
        for (int64_t x = 0; x < width; x++) {
          const Tap &t = tx[x];
          double v = t.weight[0] * irow[t.index[0] * inX];
          if (t.count == 2) v += t.weight[1] * irow[t.index[1] * inX];
          T &o = orow[x * outX];
          o = first ? T(wzy * v) : T(o + wzy * v);
        }
        first = false;
      }
  }
}

// Adds every gradOutput element into the gradInput elements it was read from (gradIn
// holds zeros). Rows of a plane meet in the same input rows, so threads split planes.
template <typename T>
void resampleBackward(const Planes<T> &gradOut, const Planes<T> &gradIn, const Resampling &s) {
  const Taps &tz = s.dim[0], &ty = s.dim[1], &tx = s.dim[2];
  const int64_t depth = gradOut.size[0], height = gradOut.size[1], width = gradOut.size[2];
  const int64_t inX = gradIn.stride[2], outX = gradOut.stride[2];
#pragma omp parallel for if (gradOut.count > 1 && gradOut.count * depth * height * width > TH_OMP_THRESHOLD) \
    num_threads(THUsableThreads())
  for (int64_t p = 0; p < gradOut.count; p++) {
    const T *op = gradOut.plane(p);
    T *ip = gradIn.plane(p);
    for (int64_t z = 0; z < depth; z++)
      for (int64_t y = 0; y < height; y++) {
        const T *orow = op + z * gradOut.stride[0] + y * gradOut.stride[1];
        for (int a = 0; a < tz[z].count; a++)
          for (int b = 0; b < ty[y].count; b++) {
            T *irow = ip + tz[z].index[a] * gradIn.stride[0] + ty[y].index[b] * gradIn.stride[1];
            const double wzy = tz[z].weight[a] * ty[y].weight[b];
            for (int64_t x = 0; x < width; x++) {
              const Tap &t = tx[x];
              const double g = wzy * orow[x * outX];
              irow[t.index[0] * inX] += T(t.weight[0] * g);
              if (t.count == 2) irow[t.index[1] * inX] += T(t.weight[1] * g);
            }
          }
      }
  }
}

template <typename TensorT>
void checkGridSampler(TensorT *input, int inputArg, TensorT *grid, int gridArg, int mode, int modeArg) {
  THArgCheck(input->nDimension == 4, inputArg, "4D input tensor (N x C x IH x IW) expected but got: %s",
             sizeText(input).c_str());
  THArgCheck(input->size[2] > 0 && input->size[3] > 0, inputArg, "input has an empty spatial dimension: %s",
             sizeText(input).c_str());
  THArgCheck(grid->nDimension == 4 && grid->size[0] == input->size[0] && grid->size[3] == 2, gridArg,
             "grid should have sizes [%lld, H, W, 2] for input %s but got %s", (long long)input->size[0],
             sizeText(input).c_str(), sizeText(grid).c_str());
  THArgCheck(mode == 0 || mode == 1, modeArg, "padding_mode should be 0 (zeros) or 1 (border), but got %d", mode);
}

// Grid coordinate in [-1, 1] to pixel units in [0, size - 1]. Beyond a pixel outside the
// image a sample no longer changes (its corners are all outside, or all clipped to the
// border), so clamping there changes nothing and keeps floor's conversion defined for
// huge or NaN coordinates.
double pixelCoord(double g, int64_t size) {
  const double v = (g + 1) / 2 * double(size - 1);
  if (!(v >= -2)) return -2;
  return std::min(v, double(size + 1));
}

// The four pixels around (ix, iy) (k = 0..3: left/right in bit 0, top/bottom in bit 1),
// their bilinear weights and the weights' derivatives in ix and iy.
struct Corners {
  int64_t x[4], y[4];
  bool valid[4];
  double weight[4], dx[4], dy[4];
};

Corners cornersOf(double ix, double iy, int64_t width, int64_t height, bool border) {
  Corners c;
  const double fx = std::floor(ix), fy = std::floor(iy);
  for (int k = 0; k < 4; k++) {
    const int right = k & 1, bottom = k >> 1;
    const double wx = right ? ix - fx : fx + 1 - ix, wy = bottom ? iy - fy : fy + 1 - iy;
    c.weight[k] = wx * wy;
    c.dx[k] = right ? wy : -wy;
    c.dy[k] = bottom ? wx : -wx;
    int64_t x = (int64_t)fx + right, y = (int64_t)fy + bottom;
    if (border) {
      x = std::min(std::max(x, int64_t(0)), width - 1);
      y = std::min(std::max(y, int64_t(0)), height - 1);
    }
    c.valid[k] = x >= 0 && x < width && y >= 0 && y < height;
    c.x[k] = x;
    c.y[k] = y;
  }
  return c;
}

template <typename T>
Corners gridCorners(const th::TensorRef<T> &grid, int64_t n, int64_t h, int64_t w, int64_t width, int64_t height,
                    bool border) {
  const T *g = grid.data + n * grid.stride[0] + h * grid.stride[1] + w * grid.stride[2];
  return cornersOf(pixelCoord(g[0], width), pixelCoord(g[grid.stride[3]], height), width, height, border);
}

// Output points are independent: threads split the rows of the grid.
template <typename T>
void gridSampleForward(const th::TensorRef<T> &in, const th::TensorRef<T> &grid, const th::TensorRef<T> &out,
                       bool border) {
  const int64_t N = in.size[0], C = in.size[1], IH = in.size[2], IW = in.size[3];
  const int64_t H = grid.size[1], W = grid.size[2];
#pragma omp parallel for if (N * H * W * C > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t r = 0; r < N * H; r++) {
    const int64_t n = r / H, h = r % H;
    for (int64_t w = 0; w < W; w++) {
      const Corners c = gridCorners(grid, n, h, w, IW, IH, border);
      const T *ip = in.data + n * in.stride[0];
      T *op = out.data + n * out.stride[0] + h * out.stride[2] + w * out.stride[3];
      for (int64_t ch = 0; ch < C; ch++) {
        const T *plane = ip + ch * in.stride[1];
        double v = 0;
        for (int k = 0; k < 4; k++)
          if (c.valid[k]) v += c.weight[k] * plane[c.y[k] * in.stride[2] + c.x[k] * in.stride[3]];
        op[ch * out.stride[1]] = T(v);
      }
    }
  }
}

// gradIn holds zeros. The points of one sample meet in the same input pixels, so threads
// split the batch.
template <typename T>
void gridSampleBackward(const th::TensorRef<T> &in, const th::TensorRef<T> &gradIn, const th::TensorRef<T> &grid,
                        const th::TensorRef<T> &gradGrid, const th::TensorRef<T> &gradOut, bool border) {
  const int64_t N = in.size[0], C = in.size[1], IH = in.size[2], IW = in.size[3];
  const int64_t H = grid.size[1], W = grid.size[2];
#pragma omp parallel for if (N > 1 && N * H * W * C > TH_OMP_THRESHOLD) num_threads(THUsableThreads())
  for (int64_t n = 0; n < N; n++)
    for (int64_t h = 0; h < H; h++)
      for (int64_t w = 0; w < W; w++) {
        const Corners c = gridCorners(grid, n, h, w, IW, IH, border);
        double gx = 0, gy = 0;
        for (int64_t ch = 0; ch < C; ch++) {
          const T *plane = in.data + n * in.stride[0] + ch * in.stride[1];
          T *gradPlane = gradIn.data + n * gradIn.stride[0] + ch * gradIn.stride[1];
          const double go =
              gradOut
                  .data[n * gradOut.stride[0] + ch * gradOut.stride[1] + h * gradOut.stride[2] + w * gradOut.stride[3]];
          for (int k = 0; k < 4; k++) {
            if (!c.valid[k]) continue;
            gradPlane[c.y[k] * gradIn.stride[2] + c.x[k] * gradIn.stride[3]] += T(c.weight[k] * go);
            const double v = plane[c.y[k] * in.stride[2] + c.x[k] * in.stride[3]] * go;
            gx += c.dx[k] * v;
            gy += c.dy[k] * v;
          }
        }
        T *gg = gradGrid.data + n * gradGrid.stride[0] + h * gradGrid.stride[1] + w * gradGrid.stride[2];
        gg[0] = T(gx * double(IW - 1) / 2);
        gg[gradGrid.stride[3]] = T(gy * double(IH - 1) / 2);
      }
}

}  // namespace

#define TH_GENERIC_FILE "THNN/generic/Sampling.cpp"
#include "TH/THGenerateFloatTypes.h"
