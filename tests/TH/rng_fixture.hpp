// Shared by the random suites: the streams the original torch7 produced for seed 123
// (fixtures/t7/rng.txt), and a generator owned for one test.
#ifndef TH_RNG_FIXTURE_HPP
#define TH_RNG_FIXTURE_HPP

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "TH/THRandom.h"
#include "tests/common/fixtures.hpp"

namespace {

std::vector<double> fixture(const std::string &name) {
  const std::string dir = fixtures::dir();
  BOOST_REQUIRE_MESSAGE(!dir.empty(),
                        "no fixtures: shared/fixtures must sit beside the checkout, or set TH_FIXTURES_DIR");
  const std::string path = dir + "/t7/rng.txt";
  std::ifstream in(path);
  BOOST_REQUIRE_MESSAGE(in.good(), "cannot read the torch7 fixture " << path);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    if (key != name) continue;
    std::vector<double> v;
    for (std::string w; words >> w;) v.push_back(std::strtod(w.c_str(), nullptr));
    return v;
  }
  BOOST_FAIL("stream '" << name << "' is missing from " << path);
  return {};
}

struct Gen {
  THGenerator *g = THGenerator_new();
  explicit Gen(uint64_t seed) { THRandom_manualSeed(g, seed); }
  ~Gen() { THGenerator_free(g); }
  operator THGenerator *() const { return g; }
};

}  // namespace

#endif
