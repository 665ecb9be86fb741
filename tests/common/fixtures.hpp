// The folder of the fixtures written by torch7 and PyTorch 1.13 (shared/fixtures beside the
// checkout): $TH_FIXTURES_DIR when set, else the copy Bazel lays in the test's runfiles.
#ifndef TESTS_COMMON_FIXTURES_HPP
#define TESTS_COMMON_FIXTURES_HPP

#include <sys/stat.h>

#include <cstdlib>
#include <string>

namespace fixtures {

inline bool isDirectory(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// "" when neither is there; the caller fails the test naming what it looked for.
inline std::string dir() {
  if (const char *env = std::getenv("TH_FIXTURES_DIR")) return env;
  if (const char *runfiles = std::getenv("TEST_SRCDIR")) {
    for (const char *rel : {"/fixtures", "/torch_monorepo/external/fixtures"}) {
      std::string candidate = std::string(runfiles) + rel;
      if (isDirectory(candidate + "/t7")) return candidate;
    }
  }
  return "";
}

}  // namespace fixtures

#endif
