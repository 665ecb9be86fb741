// Writing: fixtures saved back give their bytes again; values built in C++ survive save and
// load in every encoding with their sharing; malformed files raise errors that say where.
#define BOOST_TEST_MODULE t7 round trips
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

#include "t7_test_util.hpp"

using t7::Format;
using t7::ScalarType;
using t7::Value;
using t7t::fixture;
using t7t::fixtureBytes;
using t7t::sizes;
using t7t::values;
using Vec = std::vector<double>;

namespace {

// The three encodings a file can have.
struct Encoding {
  const char *name;
  t7::WriteOptions options;
};
const Encoding kEncodings[] = {
    {"binary", {Format::Binary, 8}}, {"binary with 4-byte longs", {Format::Binary, 4}}, {"ascii", {Format::Ascii, 8}}};

bool isAscii(const std::string &fixtureName) { return fixtureName.find("ascii") != std::string::npos; }

// A binary file written by hand, for the malformed cases.
struct Bytes {
  std::string s;
  Bytes &i(int32_t x) { return raw(&x, 4); }
  Bytes &l(int64_t x) { return raw(&x, 8); }
  Bytes &d(double x) { return raw(&x, 8); }
  Bytes &str(const std::string &x) {
    i(int32_t(x.size()));
    s += x;
    return *this;
  }
  Bytes &raw(const void *p, size_t n) {
    s.append(static_cast<const char *>(p), n);
    return *this;
  }
  // A torch object header: tag, index, version, class.
  Bytes &object(int32_t index, const std::string &className) { return i(4).i(index).str("V 1").str(className); }
};

// The error a load raises, or "" when it loads.
std::string loadError(const std::string &bytes, const t7::ReadOptions &options = {}) {
  try {
    t7::load(bytes, options);
  } catch (const t7::Error &e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

template <typename T>
typename th::TH<T>::Tensor *matrix(int64_t rows, int64_t cols, double first) {
  auto *storage = th::TH<T>::S::newWithSize(rows * cols);
  for (int64_t k = 0; k < rows * cols; k++) {
    if constexpr (std::is_same_v<T, THHalf>)
      storage->data[k] = TH_float2half(float(first + k));
    else
      storage->data[k] = T(first + k);
  }
  const int64_t size[2] = {rows, cols};
  auto *t = th::TH<T>::newWithStorage(storage, 0, 2, size, nullptr);
  t7::detail::release<T>(storage);
  return t;
}

// Takes over the caller's reference to a new TH tensor.
template <typename P>
Value adopt(P *p) {
  Value v(p);
  using T = std::remove_pointer_t<decltype(p->storage->data)>;
  t7::detail::release<T>(p);
  return v;
}

// Everything a .t7 file can hold, built in C++.
Value everything() {
  auto root = t7::makeTable();
  // one 2x3 tensor of each element type, at the edges of its range
  root->set("byte", adopt(matrix<uint8_t>(2, 3, 250)));
  root->set("char", adopt(matrix<int8_t>(2, 3, -128)));
  root->set("short", adopt(matrix<int16_t>(2, 3, -32768)));
  root->set("int", adopt(matrix<int32_t>(2, 3, 2147483642)));
  root->set("long", adopt(matrix<int64_t>(2, 3, -2147483648.0)));
  root->set("float", adopt(matrix<float>(2, 3, 0.1)));
  root->set("double", adopt(matrix<double>(2, 3, 1.0 / 3)));
  root->set("half", adopt(matrix<THHalf>(2, 3, -2.5)));
  // views sharing one storage, which is also saved on its own
  THDoubleTensor *base = matrix<double>(3, 4, 1);
  root->set("transposed", adopt(THDoubleTensor_newTranspose(base, 0, 1)));
  root->set("narrow", adopt(THDoubleTensor_newNarrow(base, 0, 1, 2)));
  const int64_t expanded[3] = {2, 3, 4};
  root->set("expanded", adopt(THDoubleTensor_newExpand(base, 3, expanded)));
  root->set("storage", Value(base->storage));
  const Value baseValue = adopt(base);
  root->set("base", baseValue);
  root->set("base again", baseValue);
  root->set("empty", adopt(THFloatTensor_new()));
  // scalars of every kind
  const std::string binary("a\0b\xff\n\r \x1b", 8);
  root->set("binary string", binary);
  root->set("", "empty key");
  root->set("newline first", "\nstarts with a newline");
  root->set("digits", "12345");
  root->set("true", true);
  root->set("false", false);
  root->set("nothing", Value());
  auto numbers = t7::makeList({0.0, -0.0, 1e-300, 1e300, 3.25, -7, 9007199254740993.0,
                               std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::denorm_min()});
  root->set("numbers", numbers);
  root->set(2.5, "a fractional key");
  root->set(true, "a boolean key");
  // nesting, sharing and cycles
  auto inner = t7::makeTable({{"deep", t7::makeTable({{"deeper", t7::makeList({1, 2, 3})}})}});
  root->set("inner", inner);
  root->set("inner again", inner);
  inner->set("parent", Value::recursive(root));
  inner->set("self", Value::recursive(inner));
  // an nn module and functions
  auto linear = t7::makeObject("nn.Linear", t7::makeTable({{"weight", root->get("double")}, {"train", true}}));
  root->set("module", linear);
  auto f = std::make_shared<t7::Function>();
  f->bytecode = std::string("\x1bLJ\x02\x00\x09@fn.lua\n\x00", 13);
  f->upvalues =
      t7::makeList({t7::makeTable({{"name", "x"}, {"value", 3}}), t7::makeTable({{"name", "m"}, {"value", linear}})});
  root->set("function", f);
  root->set("function again", f);
  auto legacy = std::make_shared<t7::Function>(*f);
  legacy->tag = t7::Function::Tag::LegacyRecur;
  legacy->upvalues = t7::makeList({1, "two"});
  root->set("legacy function", legacy);
  auto plain = std::make_shared<t7::Function>(*legacy);
  plain->tag = t7::Function::Tag::Plain;
  root->set("plain function", plain);
  return Value(root);
}

}  // namespace

BOOST_AUTO_TEST_CASE(fixtures_save_back_to_their_bytes) {
  for (const auto &name : t7t::kFixtures) {
    BOOST_TEST_CONTEXT(name) {
      const std::string bytes = fixtureBytes(name);
      const std::string saved = t7::save(t7::load(bytes), {isAscii(name) ? Format::Ascii : Format::Binary, 8});
      size_t same = 0;
      while (same < bytes.size() && same < saved.size() && bytes[same] == saved[same]) same++;
      BOOST_TEST(saved.size() == bytes.size());
      BOOST_TEST(same == bytes.size(), "the bytes differ from byte " << same);
    }
  }
}

BOOST_AUTO_TEST_CASE(fixtures_survive_every_encoding) {
  for (const auto &name : t7t::kFixtures) {
    const Value original = fixture(name);
    for (const auto &encoding : kEncodings) {
      BOOST_TEST_CONTEXT(name << " as " << encoding.name) {
        const std::string bytes = t7::save(original, encoding.options);
        t7::Reader reader(bytes.data(), bytes.size());
        const Value back = reader.read();
        BOOST_TEST(reader.atEnd());
        if (encoding.options.format == Format::Binary) BOOST_TEST(reader.longSize() == encoding.options.longSize);
        t7t::Isomorphic same;
        BOOST_TEST(same(original, back), same.why);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(built_values_round_trip_with_their_sharing) {
  const Value original = everything();
  for (const auto &encoding : kEncodings) {
    BOOST_TEST_CONTEXT(encoding.name) {
      const std::string bytes = t7::save(original, encoding.options);
      const Value back = t7::load(bytes);
      t7t::Isomorphic same;
      BOOST_TEST(same(original, back), same.why);
      BOOST_TEST(t7::save(back, encoding.options) == bytes);
      // sharing, seen from TH
      BOOST_TEST(back["transposed"].tensor().get<double>()->storage == back["storage"].storage().get<double>());
      BOOST_TEST(back["expanded"].tensor().get<double>()->storage == back["storage"].storage().get<double>());
      BOOST_TEST((back["base"] == back["base again"]));
      BOOST_TEST((back["function"] == back["function again"]));
      BOOST_TEST((back["inner"]["parent"].kind() == Value::Kind::Recursive));
      BOOST_TEST((back["inner"]["parent"].target() == back));
      BOOST_TEST((back["inner"]["self"] == back["inner"]));
      BOOST_TEST(std::isnan(back["numbers"][10].number()));
      BOOST_TEST(values(back["half"].tensor()) == Vec({-2.5, -1.5, -0.5, 0.5, 1.5, 2.5}));
    }
  }
}

BOOST_AUTO_TEST_CASE(one_th_tensor_is_one_object) {
  // As torch.pointer in torch7: two values wrapping one TH tensor are written once.
  THDoubleTensor *x = matrix<double>(2, 2, 0);
  const Value back = t7::load(t7::save(t7::makeList({x, x})));
  THDoubleTensor_free(x);
  BOOST_TEST((back[1] == back[2]));
}

BOOST_AUTO_TEST_CASE(th_shapes_torch7_lacks) {
  // A tensor without elements is torch7's empty tensor: no dimensions, a nil storage.
  const std::string empty = t7::save(adopt(THFloatTensor_new()));
  const std::string expected = Bytes().object(1, "torch.FloatTensor").i(0).l(1).i(0).s;
  BOOST_TEST(empty == expected);
  const t7::Tensor back = t7::load(empty).tensor();
  BOOST_TEST(sizes(back) == std::vector<int64_t>({0}));
  // A 0-dim scalar is saved as a 1-element vector.
  THDoubleTensor *scalar = THDoubleTensor_newWithSize0d();
  THDoubleTensor_set0d(scalar, 7);
  const t7::Tensor vector = t7::load(t7::save(adopt(scalar))).tensor();
  BOOST_TEST(sizes(vector) == std::vector<int64_t>({1}));
  BOOST_TEST(values(vector) == Vec({7}));
}

BOOST_AUTO_TEST_CASE(ascii_numbers_are_printed_as_torch7_printed_them) {
  // DiskFile wrote doubles with %.17g, floats with %.9g, longs with %ld.
  std::mt19937_64 rng(7);
  std::vector<double> doubles = {0.0, -0.0, 1e-05, 0.1, 1.0 / 3, 1e300, 5e-324, 123456789012345678.0, -2.5e-310};
  for (int k = 0; k < 200; k++) {
    uint64_t bits = rng();
    double x;
    std::memcpy(&x, &bits, 8);
    if (std::isfinite(x)) doubles.push_back(x);
  }
  THDoubleStorage *d = THDoubleStorage_newWithSize(int64_t(doubles.size()));
  THFloatStorage *f = THFloatStorage_newWithSize(int64_t(doubles.size()));
  std::string wantDoubles, wantFloats;
  char buffer[64];
  for (size_t k = 0; k < doubles.size(); k++) {
    d->data[k] = doubles[k];
    f->data[k] = float(doubles[k] * 1e-290);
    std::snprintf(buffer, sizeof buffer, "%.17g", d->data[k]);
    wantDoubles += (k ? " " : "") + std::string(buffer);
    std::snprintf(buffer, sizeof buffer, "%.9g", double(f->data[k]));
    wantFloats += (k ? " " : "") + std::string(buffer);
  }
  const std::string text = t7::save(t7::makeList({d, f}), {Format::Ascii, 8});
  BOOST_TEST(contains(text, "\n" + std::to_string(doubles.size()) + "\n" + wantDoubles + "\n"));
  BOOST_TEST(contains(text, "\n" + std::to_string(doubles.size()) + "\n" + wantFloats + "\n"));
  THDoubleStorage_free(d);
  THFloatStorage_free(f);
}

BOOST_AUTO_TEST_CASE(four_byte_longs) {
  const Value mlp = fixture("mlp.t7");
  const std::string four = t7::save(mlp, {Format::Binary, 4}), eight = t7::save(mlp);
  BOOST_TEST(four.size() < eight.size());
  t7::Reader detected(four.data(), four.size());
  t7t::Isomorphic same;
  BOOST_TEST(same(mlp, detected.read()), same.why);
  BOOST_TEST(detected.longSize() == 4);
  BOOST_TEST(loadError(four, {Format::Binary, 4}) == "");
  BOOST_TEST(loadError(four, {Format::Binary, 8}) != "");
  // A long that does not fit in 4 bytes cannot be written so.
  THLongTensor *big = THLongTensor_newWithSize1d(1);
  THLongTensor_set1d(big, 0, int64_t(1) << 40);
  BOOST_CHECK_EXCEPTION(t7::save(adopt(big), {Format::Binary, 4}), t7::Error, [](const t7::Error &e) {
    return contains(e.what(), "cannot write the long 1099511627776 in 4 bytes");
  });
  BOOST_CHECK_THROW(t7::save(Value(), {Format::Binary, 2}), t7::Error);
}

BOOST_AUTO_TEST_CASE(long_size_detection_policy) {
  // Note [Long size]: 8-byte longs when their reading gets to the end of the input, else
  // 4-byte ones when theirs does, else the 8-byte reading; an attempt that cannot be made
  // again stands.
  struct Case {
    t7::LongSizeAttempt with8, with4;
    std::vector<int> tried;
    int stands;
  };
  const Case cases[] = {
      {{true, false}, {true, false}, {8}, 8},      {{false, false}, {true, false}, {8, 4}, 4},
      {{false, false}, {false, false}, {8, 4}, 8}, {{false, true}, {true, false}, {8}, 8},
      {{false, false}, {false, true}, {8, 4}, 4},
  };
  for (const Case &c : cases) {
    std::vector<int> tried;
    const int stands = t7::detectLongSize([&](int n) {
      tried.push_back(n);
      return n == 8 ? c.with8 : c.with4;
    });
    BOOST_TEST(tried == c.tried, boost::test_tools::per_element());
    BOOST_TEST(stands == c.stands);
  }
  BOOST_TEST((t7::detectFormat("4\n", 2) == Format::Ascii));
  BOOST_TEST((t7::detectFormat("\4\0\0\0", 4) == Format::Binary));
  BOOST_TEST((t7::detectFormat("", 0) == Format::Binary));
}

BOOST_AUTO_TEST_CASE(long_size_detection_stops_at_a_payload) {
  // Note [Own payloads]: the payload reader took the bytes after the class name, so the
  // reader cannot read the object again with 4-byte longs; the 8-byte reading stands though
  // another object (a nil) follows it.
  const std::string bytes = Bytes().object(1, "Custom").i(7).i(0).s;
  t7::Reader reader(bytes.data(), bytes.size());
  int payloads = 0;
  reader.setPayloadReader([&](t7::Object &o) {
    const size_t at = reader.offset();
    int32_t x;
    std::memcpy(&x, bytes.data() + at, 4);
    o.content = Value(x);
    payloads++;
    reader.resume(bytes.data() + at + 4, bytes.size() - at - 4);
    return true;
  });
  const Value custom = reader.read();
  BOOST_TEST(payloads == 1);
  BOOST_TEST(custom.object()->className == "Custom");
  BOOST_TEST(custom.object()->content.number() == 7);
  BOOST_TEST(reader.longSize() == 8);
  BOOST_TEST(!reader.atEnd());
}

BOOST_AUTO_TEST_CASE(successive_objects_share_references) {
  auto shared = t7::makeTable({{"x", 1}});
  t7::Writer writer;
  writer.write(t7::makeTable({{"first", shared}}));
  writer.write(t7::makeTable({{"second", shared}}));
  const std::string bytes = writer.bytes();
  t7::Reader reader(bytes.data(), bytes.size());
  const Value first = reader.read();
  BOOST_TEST(!reader.atEnd());
  const Value second = reader.read();
  BOOST_TEST(reader.atEnd());
  BOOST_TEST((first["first"] == second["second"]));
  BOOST_TEST(second["second"]["x"].number() == 1);
  // load reads the first object and ignores the rest, as torch.load does.
  BOOST_TEST(t7::load(bytes)["first"]["x"].number() == 1);
}

BOOST_AUTO_TEST_CASE(files_on_disk) {
  const std::string path =
      std::string(std::getenv("TEST_TMPDIR") ? std::getenv("TEST_TMPDIR") : "/tmp") + "/t7_roundtrip.t7";
  t7::saveFile(path, everything(), {Format::Ascii, 8});
  t7t::Isomorphic same;
  BOOST_TEST(same(everything()["inner"]["deep"], t7::loadFile(path)["inner"]["deep"]), same.why);
  BOOST_CHECK_EXCEPTION(t7::loadFile(path + ".missing"), t7::Error,
                        [](const t7::Error &e) { return contains(e.what(), "t7: cannot open"); });
}

BOOST_AUTO_TEST_CASE(value_api) {
  auto t = t7::makeTable({{"a", 1}, {"b", 2}});
  t->set("a", 3);  // replaces, keeps the position
  BOOST_TEST(t->size() == 2u);
  BOOST_TEST(t->entries[0].second.number() == 3);
  t->entries.emplace_back("b", 4);  // a duplicate key: the last one wins, as in Lua
  BOOST_TEST(Value(t)["b"].number() == 4);
  BOOST_TEST((Value(1) == Value(1.0)));
  BOOST_TEST((Value("1") != Value(1)));
  BOOST_TEST((Value(std::numeric_limits<double>::quiet_NaN()) != Value(std::numeric_limits<double>::quiet_NaN())));
  BOOST_CHECK_EXCEPTION(Value(t).number(), t7::Error, [](const t7::Error &e) {
    return std::string(e.what()) == "t7: expected a number, got a table";
  });
  BOOST_CHECK_THROW(Value(5)["x"], t7::Error);
  BOOST_CHECK_THROW(Value::recursive(Value("not an object")), t7::Error);

  // Wrapping a TH tensor takes a reference; the last value holding it gives it back.
  THFloatTensor *x = THFloatTensor_newWithSize1d(3);
  {
    Value v(x);
    BOOST_TEST(x->refcount == 2);
    BOOST_TEST(v.object()->className == "torch.FloatTensor");
    BOOST_TEST(v.tensor().get<float>() == x);
    BOOST_CHECK_THROW(v.tensor().get<double>(), t7::Error);
    BOOST_CHECK_THROW(v.storage(), t7::Error);
  }
  BOOST_TEST(x->refcount == 1);
  THFloatTensor_free(x);

  // A recursive reference whose target is gone reads as nil and cannot be saved.
  Value dangling;
  {
    auto gone = t7::makeTable();
    dangling = Value::recursive(gone);
    BOOST_TEST((dangling.target() == Value(gone)));
  }
  BOOST_TEST(dangling.target().isNil());
  BOOST_CHECK_THROW(t7::save(t7::makeTable({{"x", dangling}})), t7::Error);
}

BOOST_AUTO_TEST_CASE(objects_the_writer_refuses) {
  auto wrongType = t7::makeObject("torch.FloatTensor", Value());
  wrongType->tensor = t7::Tensor(THDoubleTensor_new());
  THDoubleTensor_free(wrongType->tensor.get<double>());  // the handle holds the only reference now
  BOOST_CHECK_EXCEPTION(t7::save(wrongType), t7::Error,
                        [](const t7::Error &e) { return contains(e.what(), "holds no Float tensor"); });
  auto notAnArray = t7::makeObject("nn.Linear", Value());
  notAnArray->storage = wrongType->tensor.get<double>()->storage;
  BOOST_CHECK_THROW(t7::save(notAnArray), t7::Error);
  // deeper than kMaxDepth
  auto root = t7::makeTable(), at = root;
  for (int d = 0; d < t7::kMaxDepth + 1; d++) {
    auto next = t7::makeTable();
    at->set(1, next);
    at = next;
  }
  BOOST_CHECK_EXCEPTION(t7::save(root), t7::Error, [](const t7::Error &e) { return contains(e.what(), "nested"); });
}

BOOST_AUTO_TEST_CASE(malformed_files_raise_with_their_offset) {
  // tensors.t7 cut inside the size of byte_2x5's storage (8 bytes at 398)
  const std::string tensors = fixtureBytes("tensors.t7");
  BOOST_TEST(loadError(tensors.substr(0, 400), {Format::Binary, 8}) ==
             "t7: truncated file at byte 397: expected 8 bytes of a long (the size of a torch.ByteStorage), 3 remain");
  // every prefix fails, with an offset inside the prefix
  for (size_t n = 0; n < tensors.size(); n++) {
    try {
      t7::load(tensors.substr(0, n));
      BOOST_ERROR("a prefix of " << n << " bytes loaded");
    } catch (const t7::Error &e) {
      BOOST_TEST(e.offset() <= int64_t(n));
      BOOST_TEST(contains(e.what(), "t7: truncated file at byte "), e.what());
    }
  }
  BOOST_TEST(loadError("") == "t7: truncated file at byte 0: expected 4 bytes of an int (a type tag), 0 remain");
  BOOST_TEST(loadError(Bytes().i(9).s) == "t7: unknown type tag 9 at byte 0: expected 0 to 8");
  BOOST_TEST(loadError(Bytes().i(2).i(-5).s) == "t7: bad length -5 at byte 4: of a string");
  BOOST_TEST(loadError(Bytes().i(3).i(1).i(1000000).s) ==
             "t7: truncated file at byte 8: a table of 1000000 entries needs at least 8000000 bytes, 0 remain");
  // sizes are checked against the file before anything is allocated
  BOOST_TEST(loadError(Bytes().object(1, "torch.DoubleStorage").l(int64_t(1) << 40).d(1).s, {Format::Binary, 8}) ==
             "t7: truncated file at byte 38: a torch.DoubleStorage of 1099511627776 elements needs at least "
             "8796093022208 bytes, 8 remain");
  BOOST_TEST(contains(loadError(Bytes().object(1, "torch.DoubleStorage").l(-1).s), "bad storage size -1 at byte 38"));
  // tensors that do not fit their storage, or get the wrong one
  const auto tensor = [](int64_t size, int64_t stride, int64_t offset, const std::string &storageClass) {
    return Bytes()
        .object(1, "torch.DoubleTensor")
        .i(1)
        .l(size)
        .l(stride)
        .l(offset)
        .object(2, storageClass)
        .l(4)
        .d(0)
        .d(1)
        .d(2)
        .d(3)
        .s;
  };
  BOOST_TEST(loadError(tensor(4, 1, 1, "torch.DoubleStorage")) == "");
  BOOST_TEST(
      loadError(tensor(3, 2, 1, "torch.DoubleStorage")) ==
      "t7: bad tensor at byte 37: torch.DoubleTensor of 1 dimensions reaches element 5 of a storage of 4 elements");
  BOOST_TEST(contains(loadError(tensor(2, 1, 9, "torch.DoubleStorage")), "bad storage offset 9 at byte 37"));
  BOOST_TEST(contains(loadError(tensor(-2, 1, 1, "torch.DoubleStorage")), "size -2 and stride 1 in dimension 0"));
  BOOST_TEST(contains(loadError(tensor(4, 1, 1, "torch.FloatStorage")),
                      "bad storage at byte 65: expected a torch.DoubleStorage or nil for a torch.DoubleTensor, got a "
                      "torch.FloatStorage"));
  BOOST_TEST(contains(loadError(Bytes().object(1, "torch.DoubleTensor").i(1).l(2).l(1).l(1).i(0).s), "has no storage"));
  // no elements, but a view whose extent overflows (TH computes it all the same)
  BOOST_TEST(
      contains(loadError(Bytes().object(1, "torch.DoubleTensor").i(2).l(int64_t(1) << 62).l(0).l(3).l(1).l(1).i(0).s),
               "its view overflows"));
  // nesting deeper than kMaxDepth
  Bytes deep;
  for (int d = 0; d < t7::kMaxDepth + 1; d++) deep.i(3).i(d + 1).i(1).i(1).d(1);
  BOOST_TEST(contains(loadError(deep.s), "values nested too deeply"));
  // ascii
  BOOST_TEST(loadError("1\nabc\n") == "t7: bad number at byte 2: 'abc' is not a double (a number)");
  BOOST_TEST(loadError("2\n5\nab") == "t7: truncated file at byte 4: expected 5 bytes of chars (a string), 2 remain");
  BOOST_TEST(loadError("4\n1\n3\nV 1\n17\ntorch.ByteStorage\n3\n") ==
             "t7: truncated file at byte 31: a torch.ByteStorage of 3 elements needs at least 3 bytes, 0 remain");
  BOOST_TEST(loadError("4\n1\n3\nV 1\n18\ntorch.ShortStorage\n1\n70000\n") ==
             "t7: bad number at byte 34: '70000' is not a short (the elements of a torch.ShortStorage)");
}

BOOST_AUTO_TEST_CASE(old_files_without_versions_and_cuda_classes) {
  // Before versions, the class name came first; saving keeps the file's form.
  const std::string old = Bytes().i(4).i(1).str("torch.ByteStorage").l(2).raw("\x07\x08", 2).s;
  const Value v = t7::load(old);
  BOOST_TEST(v.object()->version == "");
  THByteStorage *s = v.storage().get<uint8_t>();
  BOOST_TEST(s->size == 2);
  BOOST_TEST(s->data[1] == 8);
  BOOST_TEST(t7::save(v) == old);
  // cutorch writes its tensors as the CPU ones of the same element type.
  const std::string cuda = Bytes()
                               .object(1, "torch.CudaTensor")
                               .i(1)
                               .l(2)
                               .l(1)
                               .l(1)
                               .object(2, "torch.CudaStorage")
                               .l(2)
                               .raw("\0\0\x80\x3f\0\0\0\x40", 8)
                               .s;
  const Value c = t7::load(cuda);
  BOOST_TEST((c.tensor().type() == ScalarType::Float));
  BOOST_TEST(values(c.tensor()) == Vec({1, 2}));
  BOOST_TEST(t7::save(c) == cuda);
}
