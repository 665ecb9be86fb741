// Shared by the t7 suites: the torch7 fixtures, tensors read back as plain values, and a
// structural comparison of two values that also checks that sharing is the same.
#ifndef T7_TEST_UTIL_HPP
#define T7_TEST_UTIL_HPP

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#include "t7/t7.h"
#include "tests/common/fixtures.hpp"

namespace t7t {

const std::vector<std::string> kFixtures = {"tensors.t7", "mlp.t7",    "mlp_ascii.t7", "mlp_io.t7",
                                            "cnn.t7",     "cnn_io.t7", "rng.t7"};

inline std::string fixturePath(const std::string &name) {
  const std::string dir = fixtures::dir();
  BOOST_REQUIRE_MESSAGE(!dir.empty(),
                        "no fixtures: shared/fixtures must sit beside the checkout, or set TH_FIXTURES_DIR");
  return dir + "/t7/" + name;
}

inline std::string fixtureBytes(const std::string &name) {
  const std::string path = fixturePath(name);
  std::ifstream in(path, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in.good(), "cannot read the torch7 fixture " << path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

inline t7::Value fixture(const std::string &name) { return t7::loadFile(fixturePath(name)); }

template <typename T>
double asDouble(T x) {
  if constexpr (std::is_same_v<T, THHalf>)
    return TH_half2float(x);
  else
    return double(x);
}

// The elements in row-major order, as doubles.
inline std::vector<double> values(const t7::Tensor &t) {
  return t.visit([](auto *tensor) {
    std::vector<double> out;
    int64_t n = 1;
    for (int d = 0; d < tensor->nDimension; d++) n *= tensor->size[d];
    std::vector<int64_t> index(tensor->nDimension, 0);
    for (int64_t i = 0; i < n; i++) {
      int64_t offset = tensor->storageOffset;
      for (int d = 0; d < tensor->nDimension; d++) offset += index[d] * tensor->stride[d];
      out.push_back(asDouble(tensor->storage->data[offset]));
      for (int d = tensor->nDimension - 1; d >= 0 && ++index[d] == tensor->size[d]; d--) index[d] = 0;
    }
    return out;
  });
}

inline std::vector<int64_t> sizes(const t7::Tensor &t) {
  return t.visit([](auto *tensor) { return std::vector<int64_t>(tensor->size, tensor->size + tensor->nDimension); });
}

inline std::vector<int64_t> strides(const t7::Tensor &t) {
  return t.visit(
      [](auto *tensor) { return std::vector<int64_t>(tensor->stride, tensor->stride + tensor->nDimension); });
}

inline const void *storageOf(const t7::Tensor &t) {
  return t.visit([](auto *tensor) { return static_cast<const void *>(tensor->storage); });
}

// True when a and b have the same structure, the same contents bit for bit, and the same
// sharing: whatever is one object (table, torch object, function, TH storage) in a is one
// object in b. Sets why to the first difference.
class Isomorphic {
 public:
  std::string why;

  bool operator()(const t7::Value &a, const t7::Value &b, const std::string &path = "root") {
    using K = t7::Value::Kind;
    if (a.kind() != b.kind()) return differ(path, std::string(a.kindName()) + " vs " + b.kindName());
    switch (a.kind()) {
      case K::Nil: return true;
      case K::Number: {
        const double x = a.number(), y = b.number();
        return std::memcmp(&x, &y, sizeof x) == 0 || differ(path, std::to_string(x) + " vs " + std::to_string(y));
      }
      case K::Boolean: return a.boolean() == b.boolean() || differ(path, "booleans differ");
      case K::String: return a.string() == b.string() || differ(path, "'" + a.string() + "' vs '" + b.string() + "'");
      case K::Recursive:  // its target is being compared above it
        return (a.identity() && pair(a.identity(), b.identity()) && !fresh_) ||
               differ(path, "recursive references differ");
      case K::Table: {
        auto ta = a.table(), tb = b.table();
        if (!pair(ta.get(), tb.get())) return differ(path, "sharing differs");
        if (!fresh_) return true;
        if (ta->size() != tb->size()) return differ(path, "table sizes differ");
        for (size_t i = 0; i < ta->size(); i++) {
          const std::string at = path + "[" + describe(ta->entries[i].first) + "]";
          if (!(*this)(ta->entries[i].first, tb->entries[i].first, at + ".key")) return false;
          if (!(*this)(ta->entries[i].second, tb->entries[i].second, at)) return false;
        }
        return true;
      }
      case K::Function: {
        auto fa = a.function(), fb = b.function();
        if (!pair(fa.get(), fb.get())) return differ(path, "sharing differs");
        if (!fresh_) return true;
        if (fa->tag != fb->tag || fa->bytecode != fb->bytecode) return differ(path, "functions differ");
        return (*this)(fa->upvalues, fb->upvalues, path + ".upvalues");
      }
      case K::Object: {
        auto oa = a.object(), ob = b.object();
        if (!pair(oa.get(), ob.get())) return differ(path, "sharing differs");
        if (!fresh_) return true;
        if (oa->className != ob->className || oa->version != ob->version)
          return differ(path, oa->className + " " + oa->version + " vs " + ob->className + " " + ob->version);
        if (oa->tensor || ob->tensor) return tensors(oa->tensor, ob->tensor, path);
        if (oa->storage || ob->storage) return storages(oa->storage, ob->storage, path);
        return (*this)(oa->content, ob->content, path + ".content");
      }
    }
    return false;
  }

 private:
  static std::string describe(const t7::Value &key) {
    if (key.kind() == t7::Value::Kind::String) return key.string();
    if (key.kind() == t7::Value::Kind::Number) return std::to_string(key.number());
    return key.kindName();
  }

  bool differ(const std::string &path, const std::string &what) {
    if (why.empty()) why = path + ": " + what;
    return false;
  }

  // Pairs a with b; false when either is already paired with something else. fresh_ tells
  // whether the pair is new (its contents still have to be compared).
  bool pair(const void *a, const void *b) {
    auto [ia, newA] = forward_.emplace(a, b);
    auto [ib, newB] = backward_.emplace(b, a);
    fresh_ = newA && newB;
    return ia->second == b && ib->second == a;
  }

  bool tensors(const t7::Tensor &a, const t7::Tensor &b, const std::string &path) {
    if (!a || !b || a.type() != b.type()) return differ(path, "tensor types differ");
    if (sizes(a) != sizes(b) || strides(a) != strides(b)) return differ(path, "tensor shapes differ");
    const auto offset = [](const t7::Tensor &t) { return t.visit([](auto *x) { return int64_t(x->storageOffset); }); };
    if (offset(a) != offset(b)) return differ(path, "storage offsets differ");
    const auto storage = [](const t7::Tensor &t) { return t.visit([](auto *x) { return t7::Storage(x->storage); }); };
    return storages(storage(a), storage(b), path + ".storage");
  }

  bool storages(const t7::Storage &a, const t7::Storage &b, const std::string &path) {
    if (!a || !b || a.type() != b.type()) return differ(path, "storage types differ");
    if (!pair(a.raw(), b.raw())) return differ(path, "storage sharing differs");
    if (!fresh_) return true;
    return a.visit([&](auto *sa) {
      auto *sb = b.get<std::remove_pointer_t<decltype(sa->data)>>();
      if (sa->size != sb->size) return differ(path, "storage sizes differ");
      return sa->size == 0 || std::memcmp(sa->data, sb->data, sa->size * sizeof(*sa->data)) == 0 ||
             differ(path, "storage contents differ");
    });
  }

  std::map<const void *, const void *> forward_, backward_;
  bool fresh_ = false;
};

}  // namespace t7t

#endif
