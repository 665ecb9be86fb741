// Note [A BLAS core that knows the processor] (TH/THBlasCore.h): the core TH leaves OpenBLAS
// on, against the processor's features as the kernel lists them in /proc/cpuinfo, and the
// mend itself on a misdetection made by hand (OpenBLAS forced to its generic Prescott core).
#define BOOST_TEST_MODULE TH blas core
#include <boost/test/unit_test.hpp>

#include <dlfcn.h>
#include <stdlib.h>

#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "TH/THBlas.h"
#include "TH/THBlasCore.h"
#include "th_test_util.hpp"

extern "C" {
char *openblas_get_corename(void);
void gotoblas_dynamic_init(void);
void gotoblas_dynamic_quit(void);
}

namespace {

std::set<std::string> cpuFlags() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(line.substr(line.find(':') + 1));
    std::set<std::string> flags;
    for (std::string flag; words >> flag;) flags.insert(flag);
    return flags;
  }
  BOOST_FAIL("no flags line in /proc/cpuinfo");
  return {};
}

// The best core of 0.3.21's x86-64 kernel sets this processor can run, from the kernel's
// own list of features.
std::string bestCoreFor(const std::set<std::string> &flags) {
  auto has = [&](std::initializer_list<const char *> names) {
    for (const char *name : names)
      if (!flags.count(name)) return false;
    return true;
  };
  const bool avx512 = has({"avx512f", "avx512vl", "avx512bw", "avx512dq", "avx512cd"});
  if (avx512 && has({"avx512_bf16"}) && dlsym(RTLD_DEFAULT, "gotoblas_COOPERLAKE")) return "Cooperlake";
  if (avx512) return "SkylakeX";
  if (has({"avx2", "fma"})) return "Haswell";
  if (has({"avx"})) return "Sandybridge";
  return "Prescott";
}

// OpenBLAS re-selecting its core as if it had just loaded, with OPENBLAS_CORETYPE as given.
void reselect(const char *coretype) {
  setenv("OPENBLAS_CORETYPE", coretype, 1);
  gotoblas_dynamic_quit();
  gotoblas_dynamic_init();
}

// sgemm through TH against a double loop: the kernels of the core in use compute it.
void checkGemm() {
  const int n = 67;
  std::vector<double> av = tht::randomValues(n * n, 11, -1, 1), bv = tht::randomValues(n * n, 12, -1, 1);
  std::vector<float> a(av.begin(), av.end()), b(bv.begin(), bv.end()), c(n * n, 0);
  THFloatBlas_gemm('n', 'n', n, n, n, 1, a.data(), n, b.data(), n, 0, c.data(), n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double want = 0;
      for (int k = 0; k < n; ++k) want += double(a[k * n + i]) * b[j * n + k];
      BOOST_TEST_REQUIRE(std::fabs(c[j * n + i] - want) <= 1e-5 * n, "c(" << i << "," << j << ")");
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(core_name_is_openblas_own) {
  BOOST_TEST(std::string(THBlas_coreName()) == openblas_get_corename());
  BOOST_TEST(std::string(THBlas_coreName()) != "");
}

BOOST_AUTO_TEST_CASE(loaded_core_is_as_good_as_the_processor_allows) {
  const std::map<std::string, int> level = {{"Prescott", 0}, {"Sandybridge", 1}, {"Haswell", 2},       {"Zen", 2},
                                            {"SkylakeX", 3}, {"Cooperlake", 4},  {"SapphireRapids", 5}};
  const std::string best = bestCoreFor(cpuFlags());
  const std::string now = THBlas_coreName();
  BOOST_TEST_MESSAGE("OpenBLAS core: " << now << ", best for this processor's flags: " << best);
  BOOST_TEST_REQUIRE(level.count(now), "core " << now);
  BOOST_TEST(level.at(now) >= level.at(best));
  checkGemm();
}

BOOST_AUTO_TEST_CASE(a_generic_core_is_replaced) {
  const std::string best = bestCoreFor(cpuFlags());
  reselect("Prescott");
  unsetenv("OPENBLAS_CORETYPE");
  BOOST_TEST_REQUIRE(std::string(openblas_get_corename()) == "Prescott");
  checkGemm();
  BOOST_TEST(std::string(THBlas_chooseCore()) == best);
  BOOST_TEST(std::string(openblas_get_corename()) == best);
  BOOST_TEST(getenv("OPENBLAS_CORETYPE") == nullptr);  // a child process makes its own choice
  checkGemm();
}

BOOST_AUTO_TEST_CASE(the_users_choice_is_kept) {
  const std::string best = bestCoreFor(cpuFlags());
  reselect("Prescott");
  BOOST_TEST(std::string(THBlas_chooseCore()) == "Prescott");
  BOOST_TEST(std::string(getenv("OPENBLAS_CORETYPE")) == "Prescott");
  unsetenv("OPENBLAS_CORETYPE");
  BOOST_TEST(std::string(THBlas_chooseCore()) == best);
}
