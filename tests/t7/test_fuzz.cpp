// Fuzzing the reader with a seeded corpus of damaged fixtures: bit flips, truncations,
// lengths and counts replaced by extreme values, bytes inserted or removed. Every case
// either loads or raises a t7::Error naming an offset inside the input; nothing crashes
// or allocates beyond what the file can hold (run this suite under --config=asan to
// check the latter). What loads must also save and load again. The normal test run makes
// T7_FUZZ_CASES (default 4000) cases from seed T7_FUZZ_SEED (default 20170314);
// scripts/fuzz.sh makes many more under ASan and UBSan.
#define BOOST_TEST_MODULE t7 fuzzing
#include <boost/test/unit_test.hpp>

#include <cstdio>
#include <cstdlib>
#include <random>

#include "t7_test_util.hpp"

namespace {

long long envNumber(const char *name, long long fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::atoll(v) : fallback;
}

// Values that break lengths and counts when they land on one.
const int64_t kExtremes[] = {0,
                             1,
                             -1,
                             2,
                             255,
                             65535,
                             0x7fffffff,
                             -0x7fffffffLL - 1,
                             0xffffffffLL,
                             int64_t(1) << 31,
                             int64_t(1) << 40,
                             int64_t(1) << 62,
                             INT64_MAX,
                             INT64_MIN};

std::string mutate(std::string s, std::mt19937_64 &rng) {
  const auto pick = [&](uint64_t n) { return n == 0 ? 0 : size_t(rng() % n); };
  switch (rng() % 6) {
    case 0:  // flip a few bits
      for (int k = 1 + pick(8); k > 0 && !s.empty(); k--) s[pick(s.size())] ^= char(1 << pick(8));
      break;
    case 1:  // truncate
      s.resize(pick(s.size()));
      break;
    case 2:    // an extreme or random int32 where a tag, length or count may be
    case 3: {  // an extreme or random int64 where a size, stride or offset may be
      const size_t width = rng() % 2 ? 4 : 8;
      if (s.size() < width) break;
      const int64_t x = rng() % 3 ? kExtremes[pick(std::size(kExtremes))] : int64_t(rng());
      std::memcpy(&s[pick(s.size() - width + 1)], &x, width);
      break;
    }
    case 4:  // insert random bytes
      s.insert(pick(s.size() + 1), std::string(1 + pick(8), char(rng())));
      break;
    default:  // remove a few bytes
      if (!s.empty()) s.erase(pick(s.size()), 1 + pick(8));
      break;
  }
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(damaged_fixtures_load_or_raise) {
  std::vector<std::string> corpus;
  for (const auto &name : t7t::kFixtures) corpus.push_back(t7t::fixtureBytes(name));
  const long long cases = envNumber("T7_FUZZ_CASES", 4000);
  const uint64_t seed = uint64_t(envNumber("T7_FUZZ_SEED", 20170314));
  std::mt19937_64 rng(seed);
  long long loaded = 0, raised = 0;
  for (long long c = 0; c < cases; c++) {
    const std::string bytes = mutate(corpus[c % corpus.size()], rng);
    t7::Value value;
    try {
      value = t7::load(bytes);
    } catch (const t7::Error &e) {
      raised++;
      if (e.offset() < 0 || e.offset() > int64_t(bytes.size()))
        BOOST_ERROR("case " << c << ": offset " << e.offset() << " outside the input: " << e.what());
      continue;
    } catch (const std::exception &e) {
      BOOST_ERROR("case " << c << ": not a t7::Error: " << e.what());
      continue;
    }
    loaded++;
    try {
      // Saving normalizes what torch7 cannot express (a tensor with a 0 size becomes
      // torch7's empty tensor); after that, load and save give the same bytes again.
      const std::string saved = t7::save(value);
      if (t7::save(t7::load(saved)) != saved) BOOST_ERROR("case " << c << ": does not round trip");
    } catch (const std::exception &e) {
      BOOST_ERROR("case " << c << ": loaded but does not save and load again: " << e.what());
    }
  }
  BOOST_TEST_MESSAGE(loaded << " damaged files loaded, " << raised << " raised");
  std::printf("t7 fuzz: seed %llu, %lld cases: %lld loaded, %lld raised a t7::Error, 0 crashes\n",
              (unsigned long long)seed, cases, loaded, raised);
  BOOST_TEST(loaded + raised == cases);
  BOOST_TEST(loaded > cases / 20);  // damage in tensor contents loads: the corpus reaches deep
  BOOST_TEST(raised > cases / 4);
}
