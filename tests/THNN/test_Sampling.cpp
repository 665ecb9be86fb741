// Resampling kernels: every forward against a plain-loop reference over row-major values
// (in double and in float), every gradient against central differences in double, and
// bad arguments rejected with the sizes in the message and the tensors left as they were.
#define BOOST_TEST_MODULE THNN Sampling
#include <boost/test/unit_test.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "thnn_test_util.hpp"

using thnnt::values;

namespace {

// Each kernel of one element type under a name that does not carry the type.
template <typename T>
struct K;
#define SAMPLING_KERNELS(Real, T)                                                                \
  template <>                                                                                    \
  struct K<T> {                                                                                  \
    static constexpr auto create = TH##Real##Tensor_new;                                         \
    static constexpr auto transpose = TH##Real##Tensor_transpose;                                \
    static constexpr auto nearest = THNN_##Real##SpatialUpSamplingNearest_updateOutput;          \
    static constexpr auto nearest3 = THNN_##Real##VolumetricUpSamplingNearest_updateOutput;      \
    static constexpr auto bilinear = THNN_##Real##SpatialUpSamplingBilinear_updateOutput;        \
    static constexpr auto trilinear = THNN_##Real##VolumetricUpSamplingTrilinear_updateOutput;   \
    static constexpr auto reflection = THNN_##Real##SpatialReflectionPadding_updateOutput;       \
    static constexpr auto replication = THNN_##Real##SpatialReplicationPadding_updateOutput;     \
    static constexpr auto replication3 = THNN_##Real##VolumetricReplicationPadding_updateOutput; \
    static constexpr auto gridSampler = THNN_##Real##SpatialGridSamplerBilinear_updateOutput;    \
  };
SAMPLING_KERNELS(Float, float)
SAMPLING_KERNELS(Double, double)
#undef SAMPLING_KERNELS

template <typename T>
using Tensor = typename th::TH<T>::Tensor;
template <typename TensorPtr>
using Elem = std::remove_pointer_t<decltype(std::declval<TensorPtr>()->storage->data)>;
template <typename T>
using Owned = th::Owned<Tensor<T>>;
using Sizes = std::vector<int64_t>;

template <typename T = double>
Owned<T> empty() {
  return th::own(K<T>::create());
}

template <typename T = double>
Owned<T> random(const Sizes &size, unsigned seed, double lo = -1, double hi = 1) {
  return th::own(thnnt::randomTensor<T>(size, seed, lo, hi));
}

// A tensor of the given sizes whose last two dimensions are swapped in memory.
template <typename T = double>
Owned<T> transposed(Sizes size, unsigned seed) {
  const int nd = (int)size.size();
  std::swap(size[nd - 1], size[nd - 2]);
  auto base = random<T>(size, seed);
  auto view = empty<T>();
  K<T>::transpose(view.get(), base.get(), nd - 1, nd - 2);
  return view;
}

template <typename TensorT>
Sizes sizesOf(TensorT *t) {
  return Sizes(t->size, t->size + t->nDimension);
}

Owned<float> toFloat(THDoubleTensor *t) {
  auto f = th::own(THFloatTensor_newWithSize(t->nDimension, t->size, nullptr));
  thnnt::setValues(f.get(), values(t));
  return f;
}

int64_t product(const Sizes &s, size_t from = 0) {
  int64_t n = 1;
  for (size_t i = from; i < s.size(); i++) n *= s[i];
  return n;
}

// Row-major values and sizes of an expected output.
struct Ref {
  Sizes size;
  std::vector<double> v;
};

using At = std::function<double(const Sizes &)>;

// Resamples every plane (the dimensions before the last `spatial`) of a row-major input:
// the output value at spatial position pos is sample(at, inSpatial, pos), where at reads
// the plane's input at a spatial position.
Ref resampleRef(const std::vector<double> &in, const Sizes &size, int spatial, const Sizes &outSpatial,
                const std::function<double(const At &, const Sizes &, const Sizes &)> &sample) {
  const Sizes inSpatial(size.end() - spatial, size.end());
  const int64_t inPlane = product(inSpatial), outPlane = product(outSpatial);
  const int64_t planes = (int64_t)in.size() / inPlane;
  Ref r{Sizes(size.begin(), size.end() - spatial), {}};
  r.size.insert(r.size.end(), outSpatial.begin(), outSpatial.end());
  for (int64_t p = 0; p < planes; p++) {
    const At at = [&](const Sizes &ip) {
      int64_t offset = 0;
      for (int d = 0; d < spatial; d++) offset = offset * inSpatial[d] + ip[d];
      return in[p * inPlane + offset];
    };
    for (int64_t o = 0; o < outPlane; o++) {
      Sizes pos(spatial);
      for (int d = spatial - 1, rest = (int)o; d >= 0; d--) {
        pos[d] = rest % outSpatial[d];
        rest /= (int)outSpatial[d];
      }
      r.v.push_back(sample(at, inSpatial, pos));
    }
  }
  return r;
}

Ref nearestRef(THDoubleTensor *input, int spatial, int scale) {
  Sizes out(input->size + input->nDimension - spatial, input->size + input->nDimension);
  for (auto &s : out) s *= scale;
  return resampleRef(values(input), sizesOf(input), spatial, out, [&](const At &at, const Sizes &, const Sizes &pos) {
    Sizes ip(pos);
    for (auto &i : ip) i /= scale;
    return at(ip);
  });
}

// Corners aligned: output position o reads input o * (in - 1) / (out - 1), interpolated
// linearly between the two nearest input positions in every dimension.
Ref linearRef(THDoubleTensor *input, int spatial, const Sizes &out) {
  return resampleRef(values(input), sizesOf(input), spatial, out, [&](const At &at, const Sizes &in, const Sizes &pos) {
    double sum = 0;
    for (int corner = 0; corner < (1 << spatial); corner++) {
      Sizes ip(spatial);
      double w = 1;
      for (int d = 0; d < spatial; d++) {
        const double src = out[d] > 1 ? pos[d] * double(in[d] - 1) / double(out[d] - 1) : 0;
        const int64_t lo = std::min((int64_t)std::floor(src), in[d] - 1);
        const double frac = src - (double)lo;
        const bool high = corner >> d & 1;
        ip[d] = high ? std::min(lo + 1, in[d] - 1) : lo;
        w *= high ? frac : 1 - frac;
      }
      sum += w * at(ip);
    }
    return sum;
  });
}

// pads: (before, after) from the last dimension backwards, as the kernels take them.
Ref padRef(THDoubleTensor *input, int spatial, const std::vector<int> &pads, bool reflect) {
  const Sizes size = sizesOf(input);
  Sizes out(size.end() - spatial, size.end());
  for (int i = 0; i < spatial; i++) out[spatial - 1 - i] += pads[2 * i] + pads[2 * i + 1];
  return resampleRef(values(input), size, spatial, out, [&](const At &at, const Sizes &in, const Sizes &pos) {
    Sizes ip(spatial);
    for (int d = 0; d < spatial; d++) {
      const int64_t n = in[d];
      int64_t k = pos[d] - pads[2 * (spatial - 1 - d)];
      if (reflect) {
        while (k < 0 || k >= n) k = k < 0 ? -k : 2 * (n - 1) - k;
      } else {
        k = k < 0 ? 0 : k >= n ? n - 1 : k;
      }
      ip[d] = k;
    }
    return at(ip);
  });
}

// Bilinear sampling written as a sum over all pixels of the tent weights
// max(0, 1 - |ix - x|) max(0, 1 - |iy - y|); pixels outside read zero, or with border
// the point is first moved inside the image.
Ref gridRef(THDoubleTensor *input, THDoubleTensor *grid, bool border) {
  const Sizes is = sizesOf(input), gs = sizesOf(grid);
  const int64_t N = is[0], C = is[1], IH = is[2], IW = is[3], H = gs[1], W = gs[2];
  const std::vector<double> in = values(input), g = values(grid);
  Ref r{{N, C, H, W}, std::vector<double>(N * C * H * W)};
  for (int64_t n = 0; n < N; n++)
    for (int64_t h = 0; h < H; h++)
      for (int64_t w = 0; w < W; w++) {
        const double *pt = &g[((n * H + h) * W + w) * 2];
        double ix = (pt[0] + 1) * double(IW - 1) / 2, iy = (pt[1] + 1) * double(IH - 1) / 2;
        if (border) {
          ix = std::min(std::max(ix, 0.0), double(IW - 1));
          iy = std::min(std::max(iy, 0.0), double(IH - 1));
        }
        for (int64_t c = 0; c < C; c++) {
          double v = 0;
          for (int64_t y = 0; y < IH; y++)
            for (int64_t x = 0; x < IW; x++)
              v += std::max(0.0, 1 - std::fabs(ix - x)) * std::max(0.0, 1 - std::fabs(iy - y)) *
                   in[((n * C + c) * IH + y) * IW + x];
          r.v[((n * C + c) * H + h) * W + w] = v;
        }
      }
  return r;
}

// kernel(input, output) in double on `input` and in float on a copy, against want.
template <typename Kernel>
void checkForward(THDoubleTensor *input, const Ref &want, Kernel kernel) {
  auto out = empty();
  kernel(input, out.get());
  BOOST_TEST(sizesOf(out.get()) == want.size);
  BOOST_TEST(thnnt::maxAbsDiff(values(out.get()), want.v) < 1e-12);
  auto inputF = toFloat(input);
  auto outF = empty<float>();
  kernel(inputF.get(), outF.get());
  BOOST_TEST(sizesOf(outF.get()) == want.size);
  BOOST_TEST(thnnt::maxAbsDiff(values(outF.get()), want.v) < 1e-5);
}

// backward(gradOutput, gradInput) against the central differences of
// sum(gradOutput * forward(x)) with respect to x.
void checkGrad(THDoubleTensor *x, const std::function<void(THDoubleTensor *)> &forward,
               const std::function<void(THDoubleTensor *, THDoubleTensor *)> &backward, unsigned seed) {
  auto out = empty();
  forward(out.get());
  auto gradOutput = random(sizesOf(out.get()), seed);
  auto gradInput = random({3}, seed + 1);  // stale contents and sizes the kernel must replace
  backward(gradOutput.get(), gradInput.get());
  BOOST_TEST(sizesOf(gradInput.get()) == sizesOf(x));
  const auto numerical = thnnt::numericalGrad(x, [&] {
    auto o = empty();
    forward(o.get());
    return thnnt::dot(gradOutput.get(), o.get());
  });
  BOOST_TEST(thnnt::maxAbsDiff(values(gradInput.get()), numerical) < 1e-6);
}

// For inputs too large for central differences: the kernels are linear in x, so the
// gradient must satisfy sum(gradOutput * forward(x)) == sum(backward(gradOutput) * x).
void checkAdjoint(THDoubleTensor *x, const std::function<void(THDoubleTensor *)> &forward,
                  const std::function<void(THDoubleTensor *, THDoubleTensor *)> &backward, unsigned seed) {
  auto out = empty();
  forward(out.get());
  auto gradOutput = random(sizesOf(out.get()), seed);
  auto gradInput = empty();
  backward(gradOutput.get(), gradInput.get());
  const double lhs = thnnt::dot(gradOutput.get(), out.get()), rhs = thnnt::dot(gradInput.get(), x);
  BOOST_TEST(std::fabs(lhs - rhs) < 1e-9 * (1 + std::fabs(lhs)));
}

// call() raises th::Error with every fragment in its message and leaves the tensors as
// they were.
void checkRejects(const std::function<void()> &call, const std::vector<THDoubleTensor *> &tensors,
                  const std::vector<std::string> &fragments) {
  std::vector<Sizes> sizesBefore;
  std::vector<std::vector<double>> valuesBefore;
  for (auto *t : tensors) sizesBefore.push_back(sizesOf(t)), valuesBefore.push_back(values(t));
  BOOST_CHECK_EXCEPTION(call(), th::Error, [&](const th::Error &e) {
    const std::string msg = e.what();
    bool all = true;
    for (const auto &f : fragments) {
      if (msg.find(f) == std::string::npos) {
        BOOST_TEST_MESSAGE("'" << f << "' not in: " << msg);
        all = false;
      }
    }
    return all;
  });
  for (size_t i = 0; i < tensors.size(); i++) {
    BOOST_TEST(sizesOf(tensors[i]) == sizesBefore[i]);
    BOOST_TEST(values(tensors[i]) == valuesBefore[i]);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(upsampling_nearest)

BOOST_AUTO_TEST_CASE(spatial_forward) {
  for (int scale : {1, 2, 3}) {
    auto batched = random({2, 3, 5, 4}, 1);
    checkForward(batched.get(), nearestRef(batched.get(), 2, scale),
                 [&](auto *in, auto *out) { K<Elem<decltype(in)>>::nearest(nullptr, in, out, scale); });
  }
  auto unbatched = random({3, 5, 7}, 2);
  checkForward(unbatched.get(), nearestRef(unbatched.get(), 2, 2),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::nearest(nullptr, in, out, 2); });
  auto strided = transposed({2, 3, 4, 5}, 3);
  BOOST_TEST(!THDoubleTensor_isContiguous(strided.get()));
  checkForward(strided.get(), nearestRef(strided.get(), 2, 3),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::nearest(nullptr, in, out, 3); });
}

BOOST_AUTO_TEST_CASE(spatial_gradient) {
  for (const Sizes &size : {Sizes{2, 3, 5, 4}, Sizes{3, 3, 2}}) {
    auto x = random(size, 4);
    checkGrad(
        x.get(),
        [&](THDoubleTensor *out) { THNN_DoubleSpatialUpSamplingNearest_updateOutput(nullptr, x.get(), out, 3); },
        [&](THDoubleTensor *go, THDoubleTensor *gi) {
          THNN_DoubleSpatialUpSamplingNearest_updateGradInput(nullptr, x.get(), go, gi, 3);
        },
        5);
  }
  // A transposed gradOutput gives the same gradient as its contiguous copy.
  auto x = random({2, 2, 3, 4}, 6);
  auto go = transposed({2, 2, 6, 8}, 7);
  auto goCopy = th::own(THDoubleTensor_newClone(go.get()));
  auto gi = empty(), giCopy = empty();
  THNN_DoubleSpatialUpSamplingNearest_updateGradInput(nullptr, x.get(), go.get(), gi.get(), 2);
  THNN_DoubleSpatialUpSamplingNearest_updateGradInput(nullptr, x.get(), goCopy.get(), giCopy.get(), 2);
  BOOST_TEST(values(gi.get()) == values(giCopy.get()));
}

BOOST_AUTO_TEST_CASE(volumetric_forward_and_gradient) {
  for (const Sizes &size : {Sizes{2, 2, 3, 4, 5}, Sizes{2, 3, 2, 3}}) {
    auto x = random(size, 8);
    checkForward(x.get(), nearestRef(x.get(), 3, 2),
                 [](auto *in, auto *out) { K<Elem<decltype(in)>>::nearest3(nullptr, in, out, 2); });
    checkGrad(
        x.get(),
        [&](THDoubleTensor *out) { THNN_DoubleVolumetricUpSamplingNearest_updateOutput(nullptr, x.get(), out, 2); },
        [&](THDoubleTensor *go, THDoubleTensor *gi) {
          THNN_DoubleVolumetricUpSamplingNearest_updateGradInput(nullptr, x.get(), go, gi, 2);
        },
        9);
  }
  auto strided = transposed({1, 2, 3, 2, 4}, 10);
  checkForward(strided.get(), nearestRef(strided.get(), 3, 3),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::nearest3(nullptr, in, out, 3); });
}

BOOST_AUTO_TEST_CASE(bad_arguments) {
  auto out = random({3}, 11);
  auto flat = random({5, 4}, 12);
  checkRejects([&] { THNN_DoubleSpatialUpSamplingNearest_updateOutput(nullptr, flat.get(), out.get(), 2); },
               {flat.get(), out.get()}, {"3D or 4D input", "[5, 4]"});
  auto x = random({2, 3, 5, 4}, 13);
  checkRejects([&] { THNN_DoubleSpatialUpSamplingNearest_updateOutput(nullptr, x.get(), out.get(), 0); },
               {x.get(), out.get()}, {"scale_factor", "0"});
  auto go = random({2, 3, 10, 7}, 14);
  checkRejects([&] { THNN_DoubleSpatialUpSamplingNearest_updateGradInput(nullptr, x.get(), go.get(), out.get(), 2); },
               {x.get(), go.get(), out.get()}, {"gradOutput", "[2, 3, 10, 8]", "[2, 3, 10, 7]"});
  auto image = random({2, 3, 4}, 15);
  checkRejects([&] { THNN_DoubleVolumetricUpSamplingNearest_updateOutput(nullptr, image.get(), out.get(), 2); },
               {image.get(), out.get()}, {"4D or 5D input", "[2, 3, 4]"});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(upsampling_linear)

BOOST_AUTO_TEST_CASE(bilinear_forward) {
  struct Case {
    Sizes in;
    int64_t oh, ow;
  };
  // Up, down, equal, and single rows and columns on either side.
  for (const Case &c : {Case{{2, 3, 5, 4}, 7, 9}, Case{{3, 4, 6}, 3, 2}, Case{{1, 2, 1, 5}, 4, 1},
                        Case{{2, 3, 3}, 3, 3}, Case{{1, 1, 4, 4}, 1, 6}}) {
    auto x = random(c.in, 20);
    checkForward(x.get(), linearRef(x.get(), 2, {c.oh, c.ow}),
                 [&](auto *in, auto *out) { K<Elem<decltype(in)>>::bilinear(nullptr, in, out, (int)c.oh, (int)c.ow); });
  }
  auto strided = transposed({2, 2, 3, 5}, 21);
  checkForward(strided.get(), linearRef(strided.get(), 2, {7, 4}),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::bilinear(nullptr, in, out, 7, 4); });
}

BOOST_AUTO_TEST_CASE(bilinear_gradient) {
  auto x = random({2, 2, 4, 3}, 22);
  checkGrad(
      x.get(),
      [&](THDoubleTensor *out) { THNN_DoubleSpatialUpSamplingBilinear_updateOutput(nullptr, x.get(), out, 7, 5); },
      [&](THDoubleTensor *go, THDoubleTensor *gi) {
        THNN_DoubleSpatialUpSamplingBilinear_updateGradInput(nullptr, go, gi, 2, 2, 4, 3, 7, 5);
      },
      23);
  // Unbatched: a 3D gradOutput with nbatch 1 gives a 3D gradInput.
  auto y = random({2, 5, 4}, 24);
  checkGrad(
      y.get(),
      [&](THDoubleTensor *out) { THNN_DoubleSpatialUpSamplingBilinear_updateOutput(nullptr, y.get(), out, 3, 8); },
      [&](THDoubleTensor *go, THDoubleTensor *gi) {
        THNN_DoubleSpatialUpSamplingBilinear_updateGradInput(nullptr, go, gi, 1, 2, 5, 4, 3, 8);
      },
      25);
}

BOOST_AUTO_TEST_CASE(trilinear_forward_and_gradient) {
  struct Case {
    Sizes in, out;
  };
  for (const Case &c :
       {Case{{1, 2, 3, 4, 5}, {5, 3, 7}}, Case{{2, 2, 3, 3}, {3, 5, 2}}, Case{{2, 1, 1, 2, 3}, {2, 1, 4}}}) {
    auto x = random(c.in, 30);
    const int od = (int)c.out[0], oh = (int)c.out[1], ow = (int)c.out[2];
    checkForward(x.get(), linearRef(x.get(), 3, c.out),
                 [&](auto *in, auto *out) { K<Elem<decltype(in)>>::trilinear(nullptr, in, out, od, oh, ow); });
    const bool batched = c.in.size() == 5;
    const int nbatch = batched ? (int)c.in[0] : 1, nchannels = (int)c.in[c.in.size() - 4];
    const Sizes &s = c.in;
    const size_t t = s.size() - 3;
    checkGrad(
        x.get(),
        [&](THDoubleTensor *out) {
          THNN_DoubleVolumetricUpSamplingTrilinear_updateOutput(nullptr, x.get(), out, od, oh, ow);
        },
        [&](THDoubleTensor *go, THDoubleTensor *gi) {
          THNN_DoubleVolumetricUpSamplingTrilinear_updateGradInput(nullptr, go, gi, nbatch, nchannels, (int)s[t],
                                                                   (int)s[t + 1], (int)s[t + 2], od, oh, ow);
        },
        31);
  }
  auto strided = transposed({2, 1, 2, 3, 4}, 32);
  checkForward(strided.get(), linearRef(strided.get(), 3, {3, 2, 5}),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::trilinear(nullptr, in, out, 3, 2, 5); });
}

BOOST_AUTO_TEST_CASE(bad_arguments) {
  auto out = random({3}, 33);
  auto x = random({2, 3, 5, 4}, 34);
  checkRejects([&] { THNN_DoubleSpatialUpSamplingBilinear_updateOutput(nullptr, x.get(), out.get(), 0, 4); },
               {x.get(), out.get()}, {"output sizes", "[0, 4]"});
  auto flat = random({5, 4}, 35);
  checkRejects([&] { THNN_DoubleSpatialUpSamplingBilinear_updateOutput(nullptr, flat.get(), out.get(), 3, 3); },
               {flat.get(), out.get()}, {"3D or 4D input", "[5, 4]"});
  auto go = random({2, 3, 7, 9}, 36);
  checkRejects(
      [&] { THNN_DoubleSpatialUpSamplingBilinear_updateGradInput(nullptr, go.get(), out.get(), 2, 3, 5, 4, 7, 8); },
      {go.get(), out.get()}, {"gradOutput", "[2, 3, 7, 8]", "[2, 3, 7, 9]"});
  // A 3D gradOutput stands for one unbatched sample only.
  auto go3 = random({3, 7, 8}, 37);
  checkRejects(
      [&] { THNN_DoubleSpatialUpSamplingBilinear_updateGradInput(nullptr, go3.get(), out.get(), 2, 3, 5, 4, 7, 8); },
      {go3.get(), out.get()}, {"gradOutput", "[2, 3, 7, 8]", "[3, 7, 8]"});
  checkRejects(
      [&] { THNN_DoubleSpatialUpSamplingBilinear_updateGradInput(nullptr, go3.get(), out.get(), 1, 3, 0, 4, 7, 8); },
      {go3.get(), out.get()}, {"positive", "[0, 4]"});
  auto vol = random({1, 2, 3, 4, 5}, 38);
  checkRejects([&] { THNN_DoubleVolumetricUpSamplingTrilinear_updateOutput(nullptr, vol.get(), out.get(), 2, -1, 2); },
               {vol.get(), out.get()}, {"output sizes", "[2, -1, 2]"});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(padding)

// Asymmetric pads up to size - 1, and negative pads that crop.
const std::vector<std::vector<int>> kSpatialPads = {{1, 2, 0, 3}, {3, 0, 2, 1}, {-1, 2, 1, -2}, {0, 0, 0, 0}};

BOOST_AUTO_TEST_CASE(reflection_forward_and_gradient) {
  for (const Sizes &size : {Sizes{2, 3, 5, 4}, Sizes{2, 4, 5}}) {
    for (const auto &p : kSpatialPads) {
      auto x = random(size, 40);
      checkForward(x.get(), padRef(x.get(), 2, p, true), [&](auto *in, auto *out) {
        K<Elem<decltype(in)>>::reflection(nullptr, in, out, p[0], p[1], p[2], p[3]);
      });
      checkGrad(
          x.get(),
          [&](THDoubleTensor *out) {
            THNN_DoubleSpatialReflectionPadding_updateOutput(nullptr, x.get(), out, p[0], p[1], p[2], p[3]);
          },
          [&](THDoubleTensor *go, THDoubleTensor *gi) {
            THNN_DoubleSpatialReflectionPadding_updateGradInput(nullptr, x.get(), go, gi, p[0], p[1], p[2], p[3]);
          },
          41);
    }
  }
  auto strided = transposed({2, 3, 4, 5}, 42);
  checkForward(strided.get(), padRef(strided.get(), 2, {2, 1, 3, 3}, true),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::reflection(nullptr, in, out, 2, 1, 3, 3); });
}

BOOST_AUTO_TEST_CASE(replication_forward_and_gradient) {
  // Replication pads may exceed the input size.
  std::vector<std::vector<int>> pads = kSpatialPads;
  pads.push_back({6, 1, 0, 7});
  for (const Sizes &size : {Sizes{2, 3, 5, 4}, Sizes{2, 4, 5}}) {
    for (const auto &p : pads) {
      auto x = random(size, 43);
      checkForward(x.get(), padRef(x.get(), 2, p, false), [&](auto *in, auto *out) {
        K<Elem<decltype(in)>>::replication(nullptr, in, out, p[0], p[1], p[2], p[3]);
      });
      checkGrad(
          x.get(),
          [&](THDoubleTensor *out) {
            THNN_DoubleSpatialReplicationPadding_updateOutput(nullptr, x.get(), out, p[0], p[1], p[2], p[3]);
          },
          [&](THDoubleTensor *go, THDoubleTensor *gi) {
            THNN_DoubleSpatialReplicationPadding_updateGradInput(nullptr, x.get(), go, gi, p[0], p[1], p[2], p[3]);
          },
          44);
    }
  }
  auto strided = transposed({1, 2, 3, 4}, 45);
  checkForward(strided.get(), padRef(strided.get(), 2, {2, 1, 0, 4}, false),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::replication(nullptr, in, out, 2, 1, 0, 4); });
}

BOOST_AUTO_TEST_CASE(volumetric_replication_forward_and_gradient) {
  const std::vector<std::vector<int>> pads = {{1, 2, 0, 3, 2, 1}, {2, 0, 1, 1, 0, 3}, {-1, 1, 2, -1, -1, 0}};
  for (const Sizes &size : {Sizes{2, 2, 3, 4, 5}, Sizes{2, 3, 2, 4}}) {
    for (const auto &p : pads) {
      auto x = random(size, 46);
      checkForward(x.get(), padRef(x.get(), 3, p, false), [&](auto *in, auto *out) {
        K<Elem<decltype(in)>>::replication3(nullptr, in, out, p[0], p[1], p[2], p[3], p[4], p[5]);
      });
      checkGrad(
          x.get(),
          [&](THDoubleTensor *out) {
            THNN_DoubleVolumetricReplicationPadding_updateOutput(nullptr, x.get(), out, p[0], p[1], p[2], p[3], p[4],
                                                                 p[5]);
          },
          [&](THDoubleTensor *go, THDoubleTensor *gi) {
            THNN_DoubleVolumetricReplicationPadding_updateGradInput(nullptr, x.get(), go, gi, p[0], p[1], p[2], p[3],
                                                                    p[4], p[5]);
          },
          47);
    }
  }
  auto strided = transposed({1, 2, 2, 3, 4}, 48);
  checkForward(strided.get(), padRef(strided.get(), 3, {1, 1, 2, 0, 0, 1}, false),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::replication3(nullptr, in, out, 1, 1, 2, 0, 0, 1); });
}

BOOST_AUTO_TEST_CASE(bad_arguments) {
  auto out = random({3}, 49);
  auto x = random({2, 3, 5, 4}, 50);
  // Reflection pads must be smaller than the padded size (4 wide, 5 high).
  checkRejects([&] { THNN_DoubleSpatialReflectionPadding_updateOutput(nullptr, x.get(), out.get(), 4, 0, 0, 0); },
               {x.get(), out.get()}, {"padding (4, 0)", "size 4", "[2, 3, 5, 4]"});
  checkRejects([&] { THNN_DoubleSpatialReflectionPadding_updateOutput(nullptr, x.get(), out.get(), 0, 0, 1, 5); },
               {x.get(), out.get()}, {"padding (1, 5)", "size 5", "[2, 3, 5, 4]"});
  checkRejects([&] { THNN_DoubleSpatialReplicationPadding_updateOutput(nullptr, x.get(), out.get(), -3, -1, 0, 0); },
               {x.get(), out.get()}, {"too small", "[2, 3, 5, 4]", "[2, 3, 5, 0]"});
  auto go = random({2, 3, 5, 6}, 51);
  checkRejects(
      [&] { THNN_DoubleSpatialReplicationPadding_updateGradInput(nullptr, x.get(), go.get(), out.get(), 1, 2, 0, 1); },
      {x.get(), go.get(), out.get()}, {"gradOutput", "[2, 3, 6, 7]", "[2, 3, 5, 6]"});
  checkRejects(
      [&] { THNN_DoubleVolumetricReplicationPadding_updateOutput(nullptr, x.get(), out.get(), 0, 0, 0, 0, -2, -1); },
      {x.get(), out.get()}, {"too small", "[2, 3, 5, 4]", "[2, 0, 5, 4]"});
  auto flat = random({5, 4}, 52);
  checkRejects(
      [&] { THNN_DoubleVolumetricReplicationPadding_updateOutput(nullptr, flat.get(), out.get(), 1, 1, 1, 1, 1, 1); },
      {flat.get(), out.get()}, {"4D or 5D input", "[5, 4]"});
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(grid_sampler)

// A grid of points over and somewhat beyond the image, kept 0.1 pixel away from whole
// pixel positions, where bilinear sampling has kinks.
Owned<double> gridFor(int64_t N, int64_t H, int64_t W, int64_t IH, int64_t IW, unsigned seed) {
  auto grid = random({N, H, W, 2}, seed, -1.3, 1.3);
  std::vector<double> v = values(grid.get());
  for (size_t i = 0; i < v.size(); i++) {
    const double size = double(i % 2 ? IH : IW);
    double pixel = (v[i] + 1) * (size - 1) / 2;
    const double frac = pixel - std::floor(pixel);
    if (frac < 0.1 || frac > 0.9) pixel += 0.3;
    v[i] = pixel * 2 / (size - 1) - 1;
  }
  thnnt::setValues(grid.get(), v);
  return grid;
}

BOOST_AUTO_TEST_CASE(forward) {
  for (int mode : {0, 1}) {
    auto input = random({2, 3, 4, 5}, 60);
    auto grid = gridFor(2, 3, 6, 4, 5, 61);
    // The grid's corner points land exactly on the image corners.
    THDoubleTensor_set4d(grid.get(), 0, 0, 0, 0, -1);
    THDoubleTensor_set4d(grid.get(), 0, 0, 0, 1, -1);
    THDoubleTensor_set4d(grid.get(), 1, 2, 5, 0, 1);
    THDoubleTensor_set4d(grid.get(), 1, 2, 5, 1, 1);
    const Ref want = gridRef(input.get(), grid.get(), mode == 1);
    auto out = empty();
    THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, input.get(), grid.get(), out.get(), mode);
    BOOST_TEST(sizesOf(out.get()) == want.size);
    BOOST_TEST(thnnt::maxAbsDiff(values(out.get()), want.v) < 1e-12);
    BOOST_TEST(THDoubleTensor_get4d(out.get(), 0, 1, 0, 0) == THDoubleTensor_get4d(input.get(), 0, 1, 0, 0));
    BOOST_TEST(THDoubleTensor_get4d(out.get(), 1, 2, 2, 5) == THDoubleTensor_get4d(input.get(), 1, 2, 3, 4));

    auto inputF = toFloat(input.get()), gridF = toFloat(grid.get());
    auto outF = empty<float>();
    THNN_FloatSpatialGridSamplerBilinear_updateOutput(nullptr, inputF.get(), gridF.get(), outF.get(), mode);
    BOOST_TEST(thnnt::maxAbsDiff(values(outF.get()), want.v) < 1e-5);

    // A transposed input and a grid whose coordinates are not adjacent in memory.
    auto stridedInput = transposed({1, 2, 3, 4}, 62);
    auto gridValues = gridFor(1, 2, 5, 3, 4, 63);
    auto gridStorage = th::own(THDoubleTensor_newWithSize4d(1, 2, 2, 5));  // N x 2 x H x W
    auto stridedGrid = empty();
    const int toGrid[] = {0, 2, 3, 1};
    THDoubleTensor_permute(stridedGrid.get(), gridStorage.get(), toGrid);
    thnnt::setValues(stridedGrid.get(), values(gridValues.get()));
    BOOST_TEST(!THDoubleTensor_isContiguous(stridedGrid.get()));
    const Ref wantStrided = gridRef(stridedInput.get(), stridedGrid.get(), mode == 1);
    THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, stridedInput.get(), stridedGrid.get(), out.get(), mode);
    BOOST_TEST(thnnt::maxAbsDiff(values(out.get()), wantStrided.v) < 1e-12);
  }
}

BOOST_AUTO_TEST_CASE(gradients) {
  for (int mode : {0, 1}) {
    auto input = random({2, 3, 4, 5}, 64);
    auto grid = gridFor(2, 3, 4, 4, 5, 65);
    auto forward = [&](THDoubleTensor *out) {
      THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, input.get(), grid.get(), out, mode);
    };
    auto gradOf = [&](bool wantGrid) {
      return [&, wantGrid](THDoubleTensor *go, THDoubleTensor *g) {
        auto other = random({2}, 66);
        THDoubleTensor *gi = wantGrid ? other.get() : g, *gg = wantGrid ? g : other.get();
        THNN_DoubleSpatialGridSamplerBilinear_updateGradInput(nullptr, input.get(), gi, grid.get(), gg, go, mode);
      };
    };
    checkGrad(input.get(), forward, gradOf(false), 67);
    checkGrad(grid.get(), forward, gradOf(true), 68);
  }
}

BOOST_AUTO_TEST_CASE(bad_arguments) {
  auto out = random({3}, 69), out2 = random({2}, 70);
  auto input = random({2, 3, 4, 5}, 71);
  auto badCoords = random({2, 3, 6, 3}, 72);
  checkRejects(
      [&] { THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, input.get(), badCoords.get(), out.get(), 0); },
      {input.get(), badCoords.get(), out.get()}, {"grid", "[2, H, W, 2]", "[2, 3, 6, 3]"});
  auto badBatch = random({1, 3, 6, 2}, 73);
  checkRejects(
      [&] { THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, input.get(), badBatch.get(), out.get(), 0); },
      {input.get(), badBatch.get(), out.get()}, {"grid", "[2, 3, 4, 5]", "[1, 3, 6, 2]"});
  auto grid = gridFor(2, 3, 6, 4, 5, 74);
  checkRejects(
      [&] { THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, input.get(), grid.get(), out.get(), 2); },
      {input.get(), grid.get(), out.get()}, {"padding_mode", "2"});
  auto image = random({3, 4, 5}, 75);
  checkRejects(
      [&] { THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, image.get(), grid.get(), out.get(), 0); },
      {image.get(), grid.get(), out.get()}, {"4D input", "[3, 4, 5]"});
  auto go = random({2, 3, 3, 5}, 76);
  checkRejects(
      [&] {
        THNN_DoubleSpatialGridSamplerBilinear_updateGradInput(nullptr, input.get(), out.get(), grid.get(), out2.get(),
                                                              go.get(), 0);
      },
      {input.get(), grid.get(), go.get(), out.get(), out2.get()}, {"gradOutput", "[2, 3, 3, 6]", "[2, 3, 3, 5]"});
}

BOOST_AUTO_TEST_SUITE_END()

// Sizes above TH_OMP_THRESHOLD, so that the threaded loops run.
BOOST_AUTO_TEST_SUITE(large)

BOOST_AUTO_TEST_CASE(upsampling) {
  auto x = random({4, 8, 32, 32}, 80);
  checkForward(x.get(), nearestRef(x.get(), 2, 2),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::nearest(nullptr, in, out, 2); });
  checkAdjoint(
      x.get(), [&](THDoubleTensor *out) { THNN_DoubleSpatialUpSamplingNearest_updateOutput(nullptr, x.get(), out, 2); },
      [&](THDoubleTensor *go, THDoubleTensor *gi) {
        THNN_DoubleSpatialUpSamplingNearest_updateGradInput(nullptr, x.get(), go, gi, 2);
      },
      81);
  auto y = random({2, 4, 40, 40}, 82);
  checkForward(y.get(), linearRef(y.get(), 2, {63, 65}),
               [](auto *in, auto *out) { K<Elem<decltype(in)>>::bilinear(nullptr, in, out, 63, 65); });
  checkAdjoint(
      y.get(),
      [&](THDoubleTensor *out) { THNN_DoubleSpatialUpSamplingBilinear_updateOutput(nullptr, y.get(), out, 63, 65); },
      [&](THDoubleTensor *go, THDoubleTensor *gi) {
        THNN_DoubleSpatialUpSamplingBilinear_updateGradInput(nullptr, go, gi, 2, 4, 40, 40, 63, 65);
      },
      83);
}

BOOST_AUTO_TEST_CASE(grid_sampler) {
  auto input = random({4, 8, 16, 16}, 84);
  auto grid = random({4, 33, 32, 2}, 85, -1.2, 1.2);
  const Ref want = gridRef(input.get(), grid.get(), false);
  auto out = empty();
  THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, input.get(), grid.get(), out.get(), 0);
  BOOST_TEST(thnnt::maxAbsDiff(values(out.get()), want.v) < 1e-12);
  auto gradGrid = empty();
  checkAdjoint(
      input.get(),
      [&](THDoubleTensor *o) {
        THNN_DoubleSpatialGridSamplerBilinear_updateOutput(nullptr, input.get(), grid.get(), o, 0);
      },
      [&](THDoubleTensor *go, THDoubleTensor *gi) {
        THNN_DoubleSpatialGridSamplerBilinear_updateGradInput(nullptr, input.get(), gi, grid.get(), gradGrid.get(), go,
                                                              0);
      },
      86);
  // The grid gradient of each point is computed whole by one thread: one thread or many agree.
  auto go = random(sizesOf(out.get()), 86);
  auto gi1 = empty(), gg1 = empty();
  const int threads = THGetNumThreads();
  THSetNumThreads(1);
  THNN_DoubleSpatialGridSamplerBilinear_updateGradInput(nullptr, input.get(), gi1.get(), grid.get(), gg1.get(),
                                                        go.get(), 0);
  THSetNumThreads(threads);
  BOOST_TEST(values(gradGrid.get()) == values(gg1.get()));
}

BOOST_AUTO_TEST_SUITE_END()
