// Reading the files the original torch7 wrote (fixtures/t7/README.md says what each holds):
// values, shapes, sharing, and the models' forward passes recomputed here with plain loops.
#define BOOST_TEST_MODULE t7 fixtures
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "t7_test_util.hpp"

namespace tt = boost::test_tools;
using t7::ScalarType;
using t7::Value;
using t7t::fixture;
using t7t::sizes;
using t7t::strides;
using t7t::values;

namespace {

using Vec = std::vector<double>;
using Shape = std::vector<int64_t>;

int64_t offsetOf(const t7::Tensor &t) {
  return t.visit([](auto *x) { return int64_t(x->storageOffset); });
}

// y = W x + b for a Linear module (weight is out x in).
Vec linear(const Value &module, const Vec &x) {
  const Vec w = values(module["weight"].tensor()), b = values(module["bias"].tensor());
  Vec y(b);
  for (size_t o = 0; o < y.size(); o++)
    for (size_t i = 0; i < x.size(); i++) y[o] += w[o * x.size() + i] * x[i];
  return y;
}

Vec logSoftMax(Vec x) {
  const double m = *std::max_element(x.begin(), x.end());
  double sum = 0;
  for (double v : x) sum += std::exp(v - m);
  for (double &v : x) v = v - m - std::log(sum);
  return x;
}

Vec row(const Vec &m, size_t r, size_t width) { return Vec(m.begin() + r * width, m.begin() + (r + 1) * width); }

void checkClose(const Vec &got, const Vec &want, double relative) {
  BOOST_REQUIRE_EQUAL(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) BOOST_TEST(got[i] == want[i], tt::tolerance(relative));
}

std::vector<std::string> classes(const Value &sequential) {
  std::vector<std::string> out;
  for (const auto &[key, module] : sequential["modules"].table()->entries) out.push_back(module.object()->className);
  return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_fixture_loads) {
  for (const auto &name : t7t::kFixtures) {
    BOOST_TEST_CONTEXT(name) {
      const Value v = fixture(name);
      BOOST_TEST((v.kind() == Value::Kind::Table || v.kind() == Value::Kind::Object));
    }
  }
}

BOOST_AUTO_TEST_CASE(tensors_t7_values_shapes_and_sharing) {
  const Value t = fixture("tensors.t7");

  const Value byte = t["byte_2x5"];
  BOOST_TEST(byte.object()->className == "torch.ByteTensor");
  BOOST_TEST(byte.object()->version == "V 1");
  BOOST_TEST((byte.tensor().type() == ScalarType::Byte));
  BOOST_TEST(sizes(byte.tensor()) == Shape({2, 5}));
  BOOST_TEST(values(byte.tensor()) == Vec({0, 1, 2, 127, 128, 200, 250, 253, 254, 255}));

  const t7::Tensor longs = t["long_123"].tensor();
  BOOST_TEST((longs.type() == ScalarType::Long));
  BOOST_TEST(values(longs) == Vec({1, 2, 3}));

  const Value misc = t["misc"];
  BOOST_TEST(misc.table()->size() == 7u);
  BOOST_TEST(misc["str"].string() == "hello t7");
  BOOST_TEST(misc["num"].number() == 3.25);
  BOOST_TEST(misc["int"].number() == 42);
  BOOST_TEST(misc["neg"].number() == -7);
  BOOST_TEST(misc["flag"].boolean() == true);
  BOOST_TEST(misc["off"].boolean() == false);
  BOOST_TEST(misc["absent"].isNil());
  const Value arr = misc["arr"];
  BOOST_TEST(arr.table()->size() == 3u);
  for (int i = 1; i <= 3; i++) BOOST_TEST(arr[i].number() == 10 * i);

  // The transpose of a 3x5 tensor: element (i, j) is element j * 5 + i of its storage.
  const t7::Tensor tr = t["transposed_5x3"].tensor();
  BOOST_TEST(sizes(tr) == Shape({5, 3}));
  BOOST_TEST(strides(tr) == Shape({1, 5}));
  BOOST_TEST(offsetOf(tr) == 0);  // 1 in the file
  THDoubleTensor *trd = tr.get<double>();
  BOOST_TEST(trd->storage->size == 15);
  const Vec trv = values(tr);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 3; j++) BOOST_TEST(trv[i * 3 + j] == trd->storage->data[j * 5 + i]);

  THDoubleTensor *a = t["shared_a"].tensor().get<double>();
  THDoubleTensor *narrow = t["shared_a_narrow"].tensor().get<double>();
  BOOST_TEST(a->storage == narrow->storage);  // written once, referenced once
  BOOST_TEST(a->storage->size == 12);
  BOOST_TEST(sizes(t["shared_a_narrow"].tensor()) == Shape({2, 3}));
  BOOST_TEST(strides(t["shared_a_narrow"].tensor()) == Shape({3, 1}));
  BOOST_TEST(narrow->storageOffset == 3);  // 4 in the file
  const Vec av = values(t["shared_a"].tensor());
  BOOST_TEST(values(t["shared_a_narrow"].tensor()) == Vec(av.begin() + 3, av.begin() + 9));

  const t7::Tensor f = t["float_2x3x4"].tensor();
  BOOST_TEST((f.type() == ScalarType::Float));
  BOOST_TEST(sizes(f) == Shape({2, 3, 4}));
  BOOST_TEST(strides(f) == Shape({12, 4, 1}));
  BOOST_TEST(sizes(t["double_3x4"].tensor()) == Shape({3, 4}));
}

BOOST_AUTO_TEST_CASE(mlp_forward_matches_torch7) {
  const Value mlp = fixture("mlp.t7"), io = fixture("mlp_io.t7");
  BOOST_TEST(mlp.object()->className == "nn.Sequential");
  BOOST_TEST(classes(mlp) == std::vector<std::string>({"nn.Linear", "nn.Tanh", "nn.Linear", "nn.LogSoftMax"}));
  const Value l1 = mlp["modules"][1], l3 = mlp["modules"][3];
  BOOST_TEST(sizes(l1["weight"].tensor()) == Shape({20, 10}));
  BOOST_TEST(sizes(l3["weight"].tensor()) == Shape({5, 20}));
  // Saved right after construction: empty output buffers, zero gradients.
  BOOST_TEST(values(mlp["output"].tensor()).empty());
  for (double g : values(l1["gradWeight"].tensor())) BOOST_TEST(g == 0);

  const auto forward = [&](Vec x) {
    Vec h = linear(l1, x);
    for (double &v : h) v = std::tanh(v);
    return logSoftMax(linear(l3, h));
  };
  const Vec input = values(io["input"].tensor()), output = values(io["output"].tensor());
  BOOST_TEST(sizes(io["input"].tensor()) == Shape({3, 10}));
  for (size_t r = 0; r < 3; r++) checkClose(forward(row(input, r, 10)), row(output, r, 5), 1e-12);
  checkClose(forward(values(io["input_single"].tensor())), values(io["output_single"].tensor()), 1e-12);
}

BOOST_AUTO_TEST_CASE(mlp_ascii_is_the_same_model_bit_for_bit) {
  t7t::Isomorphic same;
  BOOST_TEST(same(fixture("mlp.t7"), fixture("mlp_ascii.t7")), same.why);
}

BOOST_AUTO_TEST_CASE(cnn_structure_buffers_and_forward) {
  const Value cnn = fixture("cnn.t7"), io = fixture("cnn_io.t7");
  BOOST_TEST(classes(cnn) ==
             std::vector<std::string>({"nn.SpatialConvolution", "nn.ReLU", "nn.SpatialMaxPooling",
                                       "nn.SpatialBatchNormalization", "nn.View", "nn.Linear", "nn.LogSoftMax"}));
  const Value conv = cnn["modules"][1], relu = cnn["modules"][2], pool = cnn["modules"][3], bn = cnn["modules"][4],
              view = cnn["modules"][5], fc = cnn["modules"][6];
  BOOST_TEST((conv["weight"].tensor().type() == ScalarType::Float));
  BOOST_TEST(sizes(conv["weight"].tensor()) == Shape({8, 3, 3, 3}));
  BOOST_TEST(sizes(conv["bias"].tensor()) == Shape({8}));
  BOOST_TEST(sizes(conv["finput"].tensor()) == Shape({4, 27, 64}));
  BOOST_TEST(sizes(fc["weight"].tensor()) == Shape({10, 128}));
  for (const auto &[key, module] : cnn["modules"].table()->entries) BOOST_TEST(module["train"].boolean() == false);
  BOOST_TEST(values(bn["running_mean"].tensor()) == values(io["bn_running_mean"].tensor()));
  BOOST_TEST(values(bn["running_var"].tensor()) == values(io["bn_running_var"].tensor()));
  THLongStorage *viewSize = view["size"].storage().get<int64_t>();  // a torch.LongStorage
  BOOST_TEST(viewSize->size == 1);
  BOOST_TEST(viewSize->data[0] == 128);
  // nn shares buffers: the container's output is its last module's, View's output views BN's.
  BOOST_TEST((cnn["output"] == cnn["modules"][7]["output"]));
  BOOST_TEST(t7t::storageOf(view["output"].tensor()) == t7t::storageOf(bn["output"].tensor()));

  // Max-pooling indices are kept as torch7 wrote them, 1-based (Note [Index base]): the
  // flat position of each maximum in its 8x8 input plane, plus one.
  const t7::Tensor indices = pool["indices"].tensor();
  BOOST_TEST((indices.type() == ScalarType::Long));
  BOOST_TEST(sizes(indices) == Shape({4, 8, 4, 4}));
  const Vec idx = values(indices), pooled = values(pool["output"].tensor()),
            rectified = values(relu["output"].tensor());
  for (size_t k = 0; k < idx.size(); k++) {
    const size_t plane = k / 16, y = k % 16 / 4, x = k % 4;
    const int64_t at = int64_t(idx[k]) - 1, ay = at / 8, ax = at % 8;
    BOOST_TEST((ay / 2 == int64_t(y) && ax / 2 == int64_t(x)));
    BOOST_TEST(rectified[plane * 64 + at] == pooled[k]);
  }

  // The evaluate-mode forward of torch7, recomputed in double from the loaded parameters.
  const Vec in = values(io["input"].tensor()), w = values(conv["weight"].tensor()), b = values(conv["bias"].tensor());
  const Vec mean = values(bn["running_mean"].tensor()), var = values(bn["running_var"].tensor());
  const Vec gamma = values(bn["weight"].tensor()), beta = values(bn["bias"].tensor());
  const double eps = bn["eps"].number();
  const Vec want = values(io["output"].tensor());
  for (int n = 0; n < 2; n++) {
    Vec features(128);
    for (int o = 0; o < 8; o++) {
      double plane[8][8];
      for (int y = 0; y < 8; y++)
        for (int x = 0; x < 8; x++) {
          double s = b[o];
          for (int i = 0; i < 3; i++)
            for (int ky = 0; ky < 3; ky++)
              for (int kx = 0; kx < 3; kx++) {
                const int iy = y + ky - 1, ix = x + kx - 1;
                if (iy >= 0 && iy < 8 && ix >= 0 && ix < 8)
                  s += w[((o * 3 + i) * 3 + ky) * 3 + kx] * in[((n * 3 + i) * 8 + iy) * 8 + ix];
              }
          plane[y][x] = std::max(s, 0.0);
        }
      for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
          const double m = std::max(
              {plane[2 * y][2 * x], plane[2 * y][2 * x + 1], plane[2 * y + 1][2 * x], plane[2 * y + 1][2 * x + 1]});
          features[o * 16 + y * 4 + x] = (m - mean[o]) / std::sqrt(var[o] + eps) * gamma[o] + beta[o];
        }
    }
    checkClose(logSoftMax(linear(fc, features)), row(want, n, 10), 1e-4);
  }
}

BOOST_AUTO_TEST_CASE(rng_t7_equals_rng_txt) {
  const Value rng = fixture("rng.t7");
  std::ifstream txt(t7t::fixturePath("rng.txt"));
  BOOST_REQUIRE(txt.good());
  int streams = 0;
  for (std::string line; std::getline(txt, line);) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    Vec want;
    for (std::string w; words >> w;) want.push_back(std::strtod(w.c_str(), nullptr));
    BOOST_TEST_CONTEXT(name) { BOOST_TEST(values(rng[name].tensor()) == want); }
    streams++;
  }
  BOOST_TEST(streams == 7);
  BOOST_TEST((rng["float_uniform"].tensor().type() == ScalarType::Float));
}
