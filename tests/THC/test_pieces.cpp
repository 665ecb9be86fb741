// Note [32-bit pieces] (THC/THCPieces.hpp), checked on the CPU: a launch too large for an
// index limit is cut into pieces that each fit it, and running an element-wise op piece by
// piece, each piece indexed the way the kernels index it, gives what one pass over the
// whole tensors gives. The limit here is small, so that small tensors need many pieces.
#define BOOST_TEST_MODULE THC pieces
#include <boost/test/unit_test.hpp>
#include <cstdint>
#include <vector>

#include "THC/THCPieces.hpp"

namespace {

// Shaped like a tensor: what THCPieces.hpp reads of one.
struct Storage {
  float *data;
};
struct Tensor {
  Storage *storage;
  ptrdiff_t storageOffset;
  int nDimension;
  int64_t *size, *stride;
};

// A tensor view over memory the test holds.
struct View {
  std::vector<int64_t> size, stride;
  Storage storage;
  Tensor t;
  View(float *data, ptrdiff_t offset, std::vector<int64_t> sizes, std::vector<int64_t> strides)
      : size(std::move(sizes)), stride(std::move(strides)), storage{data} {
    t = Tensor{&storage, offset, static_cast<int>(size.size()), size.data(), stride.data()};
  }
};

// The offset of row-major index i in a piece, as TensorInfo::offset computes it.
template <typename P>
int64_t offsetOf(const P &p, int64_t i) {
  int64_t off = 0;
  for (int d = p.nDimension - 1; d >= 0; d--) {
    off += (i % p.size[d]) * p.stride[d];
    i /= p.size[d];
  }
  return off;
}

template <typename P>
int64_t count(const P &p) {
  int64_t n = 1;
  for (int d = 0; d < p.nDimension; d++) n *= p.size[d];
  return n;
}

// out[i] = a[i] + b[i] for every row-major index i of out's shape, piece by piece under
// limit; counts how many pieces there were and checks that each fits.
int addInPieces(const Tensor &out, const Tensor &a, const Tensor &b, int64_t limit) {
  thc::Piece<Tensor> po, pa, pb;
  thc::pieceOf(&po, &out);
  BOOST_REQUIRE(thc::pieceOf(&pa, &a, po));
  BOOST_REQUIRE(thc::pieceOf(&pb, &b, po));
  int pieces = 0;
  thc::forEachPiece(
      limit,
      [&](const auto &o, const auto &x, const auto &y) {
        BOOST_TEST(thc::fitsIndex(&o, limit));
        BOOST_TEST(thc::fitsIndex(&x, limit));
        BOOST_TEST(thc::fitsIndex(&y, limit));
        pieces++;
        for (int64_t i = 0; i < count(o); i++)
          o.storage->data[o.storageOffset + offsetOf(o, i)] +=
              x.storage->data[x.storageOffset + offsetOf(x, i)] + y.storage->data[y.storageOffset + offsetOf(y, i)];
      },
      po, pa, pb);
  return pieces;
}

std::vector<float> iota(size_t n, float first) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; i++) v[i] = first + static_cast<float>(i);
  return v;
}

}  // namespace

BOOST_AUTO_TEST_CASE(fits_counts_elements_and_the_largest_offset) {
  std::vector<float> m(60);
  View rows(m.data(), 0, {6, 10}, {10, 1});
  BOOST_TEST(thc::fitsIndex(&rows.t, 60));
  BOOST_TEST(!thc::fitsIndex(&rows.t, 59));   // 60 elements
  View spread(m.data(), 0, {2, 3}, {40, 1});  // 6 elements, offsets up to 42
  BOOST_TEST(thc::fitsIndex(&spread.t, 43));
  BOOST_TEST(!thc::fitsIndex(&spread.t, 42));
}

// out = a + b.t() with out and a contiguous [6, 10]: every element written once (out starts
// at zero), each from the elements of a and b at its own index.
BOOST_AUTO_TEST_CASE(transposed_input_in_pieces) {
  std::vector<float> out(60, 0.f), a = iota(60, 0.f), b = iota(60, 1000.f);
  View o(out.data(), 0, {6, 10}, {10, 1}), x(a.data(), 0, {6, 10}, {10, 1});
  View y(b.data(), 0, {6, 10}, {1, 6});  // a [10, 6] tensor transposed
  BOOST_TEST(addInPieces(o.t, x.t, y.t, 16) > 1);
  for (int r = 0; r < 6; r++)
    for (int c = 0; c < 10; c++) BOOST_TEST(out[r * 10 + c] == a[r * 10 + c] + b[c * 6 + r]);
}

// An expanded input (stride 0) and an input at an offset in its storage.
BOOST_AUTO_TEST_CASE(expanded_and_offset_inputs_in_pieces) {
  std::vector<float> out(4 * 5 * 3, 0.f), row = iota(3, 1.f), big = iota(100, 0.f);
  View o(out.data(), 0, {4, 5, 3}, {15, 3, 1});
  View x(row.data(), 0, {4, 5, 3}, {0, 0, 1});
  View y(big.data(), 7, {4, 5, 3}, {20, 4, 1});  // a [4, 5, 3] slice of a [5, 4, 5]-strided block
  BOOST_TEST(addInPieces(o.t, x.t, y.t, 8) > 1);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 5; j++)
      for (int k = 0; k < 3; k++) BOOST_TEST(out[i * 15 + j * 3 + k] == row[k] + big[7 + i * 20 + j * 4 + k]);
}

// TH pairs elements by row-major index whatever the shapes: a contiguous input of another
// shape is seen in out's shape.
BOOST_AUTO_TEST_CASE(contiguous_input_of_another_shape) {
  std::vector<float> out(24, 0.f), a = iota(24, 0.f), b = iota(24, 100.f);
  View o(out.data(), 0, {2, 3, 4}, {12, 4, 1}), x(a.data(), 0, {24}, {1}), y(b.data(), 0, {4, 6}, {6, 1});
  BOOST_TEST(addInPieces(o.t, x.t, y.t, 5) > 1);
  for (int i = 0; i < 24; i++) BOOST_TEST(out[i] == a[i] + b[i]);
}

BOOST_AUTO_TEST_CASE(strided_input_of_another_shape_is_not_a_piece) {
  std::vector<float> m(24);
  View o(m.data(), 0, {2, 12}, {12, 1}), t(m.data(), 0, {4, 6}, {1, 4});
  thc::Piece<Tensor> shape, p;
  thc::pieceOf(&shape, &o.t);
  BOOST_TEST(!thc::pieceOf(&p, &t.t, shape));
}

// Dimensions of size 1 change no element's place: a [3, 1, 4] tensor and a [3, 4] one pair up
// as they are.
BOOST_AUTO_TEST_CASE(size_one_dimensions_are_left_out) {
  std::vector<float> out(12, 0.f), a = iota(12, 0.f), b = iota(12, 1.f);
  View o(out.data(), 0, {3, 1, 4}, {4, 99, 1}), x(a.data(), 0, {3, 4}, {1, 3}), y(b.data(), 0, {1, 12}, {5, 1});
  thc::Piece<Tensor> p;
  thc::pieceOf(&p, &o.t);
  BOOST_TEST(p.nDimension == 2);
  BOOST_TEST(addInPieces(o.t, x.t, y.t, 4) > 1);
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 4; c++) BOOST_TEST(out[r * 4 + c] == a[c * 3 + r] + b[r * 4 + c]);
}

BOOST_AUTO_TEST_CASE(a_launch_that_fits_is_one_piece) {
  std::vector<float> out(12, 0.f), a = iota(12, 0.f), b = iota(12, 1.f);
  View o(out.data(), 0, {3, 4}, {4, 1}), x(a.data(), 0, {3, 4}, {4, 1}), y(b.data(), 0, {3, 4}, {1, 3});
  BOOST_TEST(addInPieces(o.t, x.t, y.t, 1 << 20) == 1);
}
