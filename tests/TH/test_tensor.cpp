// Storages, tensors, views and copies: checked against index arithmetic done by hand.
#define BOOST_TEST_MODULE TH tensor core
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>

#include "th_test_util.hpp"

using tht::fromValues;
using tht::values;

namespace {
std::vector<double> iota(int n) {
  std::vector<double> v(n);
  for (int i = 0; i < n; i++) v[i] = i;
  return v;
}
}  // namespace

BOOST_AUTO_TEST_CASE(storage_basics) {
  THFloatStorage *s = THFloatStorage_newWithSize(5);
  BOOST_TEST(THFloatStorage_size(s) == 5);
  THFloatStorage_fill(s, 2.5f);
  for (int i = 0; i < 5; i++) BOOST_TEST(THFloatStorage_get(s, i) == 2.5f);
  THFloatStorage_set(s, 3, 7.f);
  BOOST_TEST(s->data[3] == 7.f);
  THFloatStorage_resize(s, 10);
  BOOST_TEST(THFloatStorage_size(s) == 10);
  BOOST_TEST(s->data[3] == 7.f);
  BOOST_CHECK_THROW(THFloatStorage_get(s, 10), th::Error);
  BOOST_CHECK_THROW(THFloatStorage_set(s, -1, 0.f), th::Error);
  THFloatStorage_retain(s);
  BOOST_TEST(s->refcount == 2);
  THFloatStorage_free(s);
  BOOST_TEST(s->refcount == 1);
  THFloatStorage_free(s);
}

BOOST_AUTO_TEST_CASE(storage_copy_all_type_pairs) {
  THDoubleStorage *d = THDoubleStorage_newWithSize4(1.0, -2.0, 3.75, 200.0);
  THByteStorage *b = THByteStorage_newWithSize(4);
  THByteStorage_copyDouble(b, d);
  BOOST_TEST(b->data[0] == 1);
  BOOST_TEST(b->data[3] == 200);
  THIntStorage *i = THIntStorage_newWithSize(4);
  THIntStorage_copyDouble(i, d);
  BOOST_TEST(i->data[1] == -2);
  BOOST_TEST(i->data[2] == 3);  // truncation, as a C cast
  THHalfStorage *h = THHalfStorage_newWithSize(4);
  THHalfStorage_copyDouble(h, d);
  THFloatStorage *f = THFloatStorage_newWithSize(4);
  THFloatStorage_copyHalf(f, h);
  for (int k = 0; k < 4; k++) BOOST_TEST(f->data[k] == (float)d->data[k]);  // exact in half
  THLongStorage *l = THLongStorage_newWithSize(3);
  BOOST_CHECK_THROW(THLongStorage_copyDouble(l, d), th::Error);
  THDoubleStorage_free(d);
  THByteStorage_free(b);
  THIntStorage_free(i);
  THHalfStorage_free(h);
  THFloatStorage_free(f);
  THLongStorage_free(l);
}

// Floating values out of a narrow integer type's range wrap modulo 2^bits (through int64):
// the values PyTorch 1.13 gives for Byte, Char and Short; for Int, 3e9 - 2^32 (PyTorch's
// CPU gives INT_MIN there and its GPU INT_MAX: a direct conversion is undefined).
BOOST_AUTO_TEST_CASE(floating_to_narrow_integers_wraps) {
  THDoubleStorage *d = THDoubleStorage_newWithSize4(-27.0, 300.7, -1.5, 255.9);
  THByteStorage *b = THByteStorage_newWithSize(4);
  THByteStorage_copyDouble(b, d);
  const uint8_t bytes[4] = {229, 44, 255, 255};
  for (int k = 0; k < 4; k++) BOOST_TEST(+b->data[k] == +bytes[k]);
  THFloatStorage *f = THFloatStorage_newWithSize2(-129.f, 200.f);
  THCharStorage *c = THCharStorage_newWithSize(2);
  THCharStorage_copyFloat(c, f);
  BOOST_TEST(+c->data[0] == 127);
  BOOST_TEST(+c->data[1] == -56);
  THHalfStorage *h = THHalfStorage_newWithSize(2);
  THHalfStorage_copyFloat(h, f);  // -129 and 200 are exact in half
  THShortStorage *s = THShortStorage_newWithSize(2);
  THByteStorage *b2 = THByteStorage_newWithSize(2);
  THByteStorage_copyHalf(b2, h);
  BOOST_TEST(+b2->data[0] == 127);  // -129 mod 256
  BOOST_TEST(+b2->data[1] == 200);
  THByteStorage_free(b2);
  THDoubleStorage *big = THDoubleStorage_newWithSize2(40000.0, -40000.5);
  THShortStorage_copyDouble(s, big);
  BOOST_TEST(s->data[0] == -25536);
  BOOST_TEST(s->data[1] == 25536);
  THDoubleStorage *huge = THDoubleStorage_newWithSize1(3e9);
  THIntStorage *i = THIntStorage_newWithSize(1);
  THIntStorage_copyDouble(i, huge);
  BOOST_TEST(i->data[0] == (int32_t)(int64_t(3000000000) - (int64_t(1) << 32)));
  for (auto *x : {d, big, huge}) THDoubleStorage_free(x);
  THFloatStorage_free(f);
  THByteStorage_free(b);
  THCharStorage_free(c);
  THHalfStorage_free(h);
  THShortStorage_free(s);
  THIntStorage_free(i);
}

BOOST_AUTO_TEST_CASE(half_conversion) {
  // values and their binary16 bit patterns, from the IEEE 754 definition
  struct Case {
    float f;
    uint16_t bits;
  } cases[] = {{0.f, 0x0000},     {-0.f, 0x8000},        {1.f, 0x3c00},           {-2.f, 0xc000},
               {65504.f, 0x7bff}, {0.5f, 0x3800},        {5.9604645e-8f, 0x0001}, {6.1035156e-5f, 0x0400},
               {1e6f, 0x7c00},    {0.333333343f, 0x3555}};
  for (auto c : cases) {
    BOOST_TEST(TH_float2half(c.f).x == c.bits);
    if (c.bits != 0x7c00) BOOST_TEST(TH_half2float(THHalf{c.bits}) == (c.f == 0.333333343f ? 0.33325195f : c.f));
  }
  BOOST_TEST(std::isinf(TH_half2float(THHalf{0x7c00})));
  BOOST_TEST(std::isnan(TH_half2float(TH_float2half(NAN))));
  // round to nearest even: 2049 lies between 2048 and 2050
  BOOST_TEST(TH_half2float(TH_float2half(2049.f)) == 2048.f);
  BOOST_TEST(TH_half2float(TH_float2half(2051.f)) == 2052.f);
}

BOOST_AUTO_TEST_CASE(new_and_resize) {
  THFloatTensor *t = THFloatTensor_new();
  BOOST_TEST(t->nDimension == 1);
  BOOST_TEST(THFloatTensor_nElement(t) == 0);
  THFloatTensor_resize3d(t, 2, 3, 4);
  BOOST_TEST(THFloatTensor_nElement(t) == 24);
  BOOST_TEST(t->stride[0] == 12);
  BOOST_TEST(t->stride[1] == 4);
  BOOST_TEST(t->stride[2] == 1);
  BOOST_TEST(THFloatTensor_isContiguous(t));
  THFloatTensor_resize0d(t);
  BOOST_TEST(t->nDimension == 0);
  BOOST_TEST(THFloatTensor_nElement(t) == 1);
  int64_t bad[2] = {2, -3};
  BOOST_CHECK_THROW(THFloatTensor_resizeNd(t, 2, bad, nullptr), th::Error);
  BOOST_TEST(t->nDimension == 0);  // unchanged by the failed call
  int64_t huge[3] = {int64_t(1) << 40, int64_t(1) << 40, 1 << 20};
  BOOST_CHECK_THROW(THFloatTensor_resizeNd(t, 3, huge, nullptr), th::Error);  // element count overflows
  int64_t tooBig[1] = {int64_t(1) << 58};                                     // 2^60 bytes: the allocation itself fails
  BOOST_CHECK_THROW(THFloatTensor_resizeNd(t, 1, tooBig, nullptr), th::Error);
  BOOST_TEST(t->nDimension == 0);
  BOOST_TEST(THFloatTensor_nElement(t) == 1);
  THFloatTensor_free(t);
}

BOOST_AUTO_TEST_CASE(narrow_select_transpose) {
  auto *t = fromValues<double>({3, 4}, iota(12));  // t[i][j] = 4i + j
  THDoubleTensor *n = THDoubleTensor_newNarrow(t, 1, 1, 2);
  BOOST_TEST(values(n) == std::vector<double>({1, 2, 5, 6, 9, 10}));
  BOOST_TEST(!THDoubleTensor_isContiguous(n));
  BOOST_TEST(n->storage == t->storage);
  THDoubleTensor *s = THDoubleTensor_newSelect(t, 0, 2);
  BOOST_TEST(values(s) == std::vector<double>({8, 9, 10, 11}));
  THDoubleTensor *tr = THDoubleTensor_newTranspose(t, 0, 1);
  BOOST_TEST(tr->size[0] == 4);
  BOOST_TEST(THDoubleTensor_get2d(tr, 3, 1) == 7);
  THDoubleTensor_set2d(tr, 0, 2, -1);
  BOOST_TEST(THDoubleTensor_get2d(t, 2, 0) == -1);  // same storage
  BOOST_CHECK_THROW(THDoubleTensor_newNarrow(t, 1, 3, 2), th::Error);
  BOOST_CHECK_THROW(THDoubleTensor_newSelect(t, 0, 3), th::Error);
  BOOST_CHECK_THROW(THDoubleTensor_newSelect(t, 2, 0), th::Error);
  BOOST_CHECK_THROW(THDoubleTensor_get2d(t, 0, 4), th::Error);
  try {
    THDoubleTensor_newSelect(t, 0, 7);
  } catch (const th::Error &e) {
    BOOST_TEST(std::string(e.what()).find("index 7 is out of range for dimension 0 of size 3") != std::string::npos);
    BOOST_TEST((e.kind() == th::ErrorKind::Index));
  }
  for (auto *x : {n, s, tr, t}) THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(permute_unfold_squeeze) {
  auto *t = fromValues<float>({2, 3, 4}, iota(24));
  int dims[3] = {2, 0, 1};
  THFloatTensor *p = THFloatTensor_new();
  THFloatTensor_permute(p, t, dims);
  BOOST_TEST(p->size[0] == 4);
  BOOST_TEST(p->size[1] == 2);
  BOOST_TEST(p->size[2] == 3);
  for (int a = 0; a < 4; a++)
    for (int b = 0; b < 2; b++)
      for (int c = 0; c < 3; c++) BOOST_TEST(THFloatTensor_get3d(p, a, b, c) == 12 * b + 4 * c + a);
  int dup[3] = {0, 0, 1};
  BOOST_CHECK_THROW(THFloatTensor_permute(p, t, dup), th::Error);

  auto *v = fromValues<float>({7}, iota(7));
  THFloatTensor *u = THFloatTensor_newUnfold(v, 0, 3, 2);  // windows 0-2, 2-4, 4-6
  BOOST_TEST(u->size[0] == 3);
  BOOST_TEST(u->size[1] == 3);
  BOOST_TEST(values(u) == std::vector<double>({0, 1, 2, 2, 3, 4, 4, 5, 6}));
  BOOST_CHECK_THROW(THFloatTensor_newUnfold(v, 0, 8, 1), th::Error);

  auto *q = fromValues<float>({1, 3, 1, 2}, iota(6));
  THFloatTensor *sq = THFloatTensor_new();
  THFloatTensor_squeeze(sq, q);
  BOOST_TEST(sq->nDimension == 2);
  THFloatTensor_squeeze1d(sq, q, 2);
  BOOST_TEST(sq->nDimension == 3);
  BOOST_TEST(sq->size[2] == 2);
  THFloatTensor_unsqueeze1d(sq, q, 4);
  BOOST_TEST(sq->nDimension == 5);
  BOOST_TEST(sq->size[4] == 1);
  BOOST_TEST(values(sq) == values(q));
  for (auto *x : {t, p, v, u, q, sq}) THFloatTensor_free(x);
}

BOOST_AUTO_TEST_CASE(view_reshape_expand) {
  auto *t = fromValues<double>({4, 6}, iota(24));
  int64_t shape[3] = {2, -1, 3};
  THDoubleTensor *v = THDoubleTensor_newView(t, 3, shape);
  BOOST_TEST(v->size[1] == 4);
  BOOST_TEST(values(v) == values(t));
  BOOST_TEST(v->storage == t->storage);
  int64_t badShape[2] = {5, 5};
  BOOST_CHECK_THROW(THDoubleTensor_newView(t, 2, badShape), th::Error);

  // a transpose cannot be viewed flat, but reshape copies
  THDoubleTensor *tr = THDoubleTensor_newTranspose(t, 0, 1);
  int64_t flat[1] = {24};
  BOOST_CHECK_THROW(THDoubleTensor_newView(tr, 1, flat), th::Error);
  THDoubleTensor *r = THDoubleTensor_new();
  THDoubleTensor_reshape(r, tr, 1, flat);
  BOOST_TEST(r->storage != t->storage);
  BOOST_TEST(values(r) == values(tr));
  // a column slice keeps its rows contiguous: splitting the columns is a view
  THDoubleTensor *cols = THDoubleTensor_newNarrow(t, 1, 0, 4);
  int64_t split[3] = {4, 2, 2};
  THDoubleTensor *cv = THDoubleTensor_newView(cols, 3, split);
  BOOST_TEST(cv->storage == t->storage);
  BOOST_TEST(values(cv) == values(cols));

  auto *col = fromValues<double>({3, 1}, {1, 2, 3});
  int64_t big[3] = {2, 3, 4};
  THDoubleTensor *e = THDoubleTensor_newExpand(col, 3, big);
  BOOST_TEST(e->stride[0] == 0);
  BOOST_TEST(e->stride[2] == 0);
  BOOST_TEST(THDoubleTensor_get3d(e, 1, 2, 3) == 3);
  int64_t wrong[2] = {4, 4};
  BOOST_CHECK_THROW(THDoubleTensor_newExpand(col, 2, wrong), th::Error);
  for (auto *x : {t, v, tr, r, cols, cv, col, e}) THDoubleTensor_free(x);
}

BOOST_AUTO_TEST_CASE(copy_between_types_and_layouts) {
  auto *d = fromValues<double>({3, 4}, tht::randomValues(12, 1));
  THDoubleTensor *dt = THDoubleTensor_newTranspose(d, 0, 1);
  THFloatTensor *f = THFloatTensor_newWithSize2d(4, 3);
  THFloatTensor_copyDouble(f, dt);
  auto want = values(dt);
  auto got = values(f);
  for (int i = 0; i < 12; i++) BOOST_TEST(got[i] == (double)(float)want[i]);
  // copy into a non-contiguous destination
  THFloatTensor *g = THFloatTensor_newWithSize2d(3, 4);
  THFloatTensor *gt = THFloatTensor_newTranspose(g, 0, 1);
  THFloatTensor_copy(gt, f);
  BOOST_TEST(values(gt) == values(f));
  // different shapes, same element count: row-major order on both sides
  THLongTensor *l = THLongTensor_newWithSize1d(12);
  THLongTensor_copyFloat(l, g);
  auto gv = values(g);
  auto lv = values(l);
  for (int i = 0; i < 12; i++) BOOST_TEST(lv[i] == (double)(int64_t)gv[i]);
  THLongTensor *small = THLongTensor_newWithSize1d(5);
  BOOST_CHECK_THROW(THLongTensor_copyFloat(small, g), th::Error);
  // large strided copy runs in parallel chunks and must still be exact
  THDoubleTensor *big = THDoubleTensor_newWithSize2d(700, 300);
  for (int64_t i = 0; i < 700 * 300; i++) THDoubleTensor_data(big)[i] = (double)i;
  THDoubleTensor *bigT = THDoubleTensor_newTranspose(big, 0, 1);
  THDoubleTensor *bigC = THDoubleTensor_newContiguous(bigT);
  BOOST_TEST(THDoubleTensor_isContiguous(bigC));
  bool ok = true;
  for (int i = 0; i < 300 && ok; i++)
    for (int j = 0; j < 700; j++)
      if (THDoubleTensor_get2d(bigC, i, j) != (double)(j * 300 + i)) ok = false;
  BOOST_TEST(ok);
  THDoubleTensor_free(d);
  THDoubleTensor_free(dt);
  THDoubleTensor_free(big);
  THDoubleTensor_free(bigT);
  THDoubleTensor_free(bigC);
  THFloatTensor_free(f);
  THFloatTensor_free(g);
  THFloatTensor_free(gt);
  THLongTensor_free(l);
  THLongTensor_free(small);
}

BOOST_AUTO_TEST_CASE(mapped_storages) {
  char path[] = "/tmp/th_test_mapXXXXXX";
  int fd = mkstemp(path);
  BOOST_REQUIRE(fd >= 0);
  close(fd);
  {
    THFloatStorage *s = THFloatStorage_newWithMapping(path, 8, TH_ALLOCATOR_MAPPED_SHARED);
    for (int i = 0; i < 8; i++) s->data[i] = (float)i * 1.5f;
    THFloatStorage_free(s);
  }
  {
    std::ifstream in(path, std::ios::binary);
    float buf[8];
    in.read(reinterpret_cast<char *>(buf), sizeof buf);
    BOOST_TEST(in.gcount() == (std::streamsize)sizeof buf);
    for (int i = 0; i < 8; i++) BOOST_TEST(buf[i] == (float)i * 1.5f);
  }
  {
    // private mapping: size 0 maps the whole file; writes stay in memory
    THFloatStorage *p = THFloatStorage_newWithMapping(path, 0, 0);
    BOOST_TEST(THFloatStorage_size(p) == 8);
    p->data[0] = 99.f;
    BOOST_CHECK_THROW(THFloatStorage_resize(p, 20), th::Error);
    THFloatStorage_free(p);
    THFloatStorage *again = THFloatStorage_newWithMapping(path, 0, 0);
    BOOST_TEST(again->data[0] == 0.f);
    THFloatStorage_free(again);
  }
  unlink(path);
  BOOST_CHECK_THROW(THFloatStorage_newWithMapping("/nonexistent/dir/file", 4, 0), th::Error);
}

BOOST_AUTO_TEST_CASE(shared_memory_storages) {
  char name[64];
  THSharedMemory_newName(name, sizeof name);
  THDoubleStorage *a =
      THDoubleStorage_newWithMapping(name, 16, TH_ALLOCATOR_MAPPED_SHAREDMEM | TH_ALLOCATOR_MAPPED_EXCLUSIVE);
  // a second mapping of the same name sees the same memory
  THDoubleStorage *b = THDoubleStorage_newWithMapping(
      name, 16, TH_ALLOCATOR_MAPPED_SHAREDMEM | TH_ALLOCATOR_MAPPED_NOCREATE | TH_ALLOCATOR_MAPPED_UNLINK);
  a->data[5] = 3.25;
  BOOST_TEST(b->data[5] == 3.25);
  BOOST_TEST(a->data != b->data);
  THDoubleStorage_free(a);
  THDoubleStorage_free(b);
  // unlinked: opening it again without creating fails
  BOOST_CHECK_THROW(
      THDoubleStorage_newWithMapping(name, 16, TH_ALLOCATOR_MAPPED_SHAREDMEM | TH_ALLOCATOR_MAPPED_NOCREATE),
      th::Error);
}

BOOST_AUTO_TEST_CASE(shared_memory_by_descriptor_keeps_a_descriptor) {
  int fd = memfd_create("th_test", MFD_CLOEXEC);
  BOOST_REQUIRE(fd >= 0);
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  THDoubleStorage *s =
      THDoubleStorage_newWithMapping(path, 4, TH_ALLOCATOR_MAPPED_SHAREDMEM | TH_ALLOCATOR_MAPPED_SHARED);
  close(fd);
  // Note [Shared memory by descriptor]: the mapping's filename names a descriptor of its own
  // (close on exec) on the same memory, which lives as long as the mapping.
  const char *kept = THMapAllocatorContext_filename(static_cast<THMapAllocatorContext *>(s->allocatorContext));
  BOOST_REQUIRE(strncmp(kept, "/proc/self/fd/", 14) == 0);
  int keptFd = atoi(kept + 14);
  BOOST_TEST(keptFd != fd);
  BOOST_TEST((fcntl(keptFd, F_GETFD) & FD_CLOEXEC) != 0);
  s->data[2] = 6.5;
  double v = 0;
  BOOST_TEST(pread(keptFd, &v, sizeof v, 2 * sizeof v) == (ssize_t)sizeof v);
  BOOST_TEST(v == 6.5);
  THDoubleStorage_free(s);
  BOOST_TEST(fcntl(keptFd, F_GETFD) == -1);
}

namespace {
int handlerCalls = 0;
void countingHandler(const char *, void *) { handlerCalls++; }
}  // namespace

BOOST_AUTO_TEST_CASE(error_handler) {
  THSetErrorHandler(countingHandler, nullptr);
  THFloatTensor *t = THFloatTensor_newWithSize1d(3);
  BOOST_CHECK_THROW(THFloatTensor_get1d(t, 3), th::Error);  // handler returned: exception follows
  BOOST_TEST(handlerCalls == 1);
  THSetErrorHandler(nullptr, nullptr);
  THFloatTensor_free(t);
}

BOOST_AUTO_TEST_CASE(set_storage_and_views_of_storages) {
  THFloatStorage *s = THFloatStorage_newWithSize(10);
  for (int i = 0; i < 10; i++) s->data[i] = (float)i;
  int64_t size[2] = {2, 3}, stride[2] = {1, 2};
  THFloatTensor *t = THFloatTensor_newWithStorage(s, 2, 2, size, stride);
  BOOST_TEST(values(t) == std::vector<double>({2, 4, 6, 3, 5, 7}));
  BOOST_TEST(s->refcount == 2);
  THFloatTensor *u = THFloatTensor_newWithTensor(t);
  BOOST_TEST(THFloatTensor_isSetTo(u, t));
  BOOST_TEST(s->refcount == 3);
  THFloatTensor_free(u);
  THFloatTensor_free(t);
  BOOST_TEST(s->refcount == 1);
  THFloatStorage_free(s);
}

BOOST_AUTO_TEST_CASE(copy_mixed_layouts_3d) {
  // a permuted 3-d source into a contiguous destination: apply walks it in tiles
  const int64_t A = 3, B = 50, C = 40;
  THDoubleTensor *src = THDoubleTensor_newWithSize3d(C, A, B);  // element (c, a, b) = 10000c + 100a + b
  for (int64_t c = 0; c < C; c++)
    for (int64_t a = 0; a < A; a++)
      for (int64_t b = 0; b < B; b++) THDoubleTensor_set3d(src, c, a, b, 10000.0 * c + 100.0 * a + b);
  int dims[3] = {1, 2, 0};  // view (a, b, c)
  THDoubleTensor *view = THDoubleTensor_new();
  THDoubleTensor_permute(view, src, dims);
  THDoubleTensor *dst = THDoubleTensor_newWithSize3d(A, B, C);
  THDoubleTensor_copy(dst, view);
  bool ok = true;
  const double *d = THDoubleTensor_data(dst);
  for (int64_t a = 0; a < A; a++)
    for (int64_t b = 0; b < B; b++)
      for (int64_t c = 0; c < C; c++)
        if (d[(a * B + b) * C + c] != 10000.0 * c + 100.0 * a + b) ok = false;
  BOOST_TEST(ok);
  // and back: a contiguous source into the permuted view
  for (int64_t i = 0; i < A * B * C; i++) THDoubleTensor_data(src)[i] = 0;
  THDoubleTensor_copy(view, dst);
  ok = true;
  for (int64_t c = 0; c < C; c++)
    for (int64_t a = 0; a < A; a++)
      for (int64_t b = 0; b < B; b++)
        if (THDoubleTensor_get3d(src, c, a, b) != 10000.0 * c + 100.0 * a + b) ok = false;
  BOOST_TEST(ok);
  for (auto *x : {src, view, dst}) THDoubleTensor_free(x);
}
