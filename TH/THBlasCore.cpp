#include "TH/THBlasCore.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <strings.h>

#include <cctype>
#include <string>

namespace {

// OpenBLAS's cores by the instructions their kernels use, for the ones this table knows.
// Only the last four can be chosen; each needs the processor features it lists.
struct Core {
  const char *name;  // as OpenBLAS spells it (openblas_get_corename, OPENBLAS_CORETYPE)
  int level;         // 0 SSE, 1 AVX, 2 AVX2+FMA, 3 AVX-512, 4 AVX-512 with bfloat16
  bool (*runs)();    // whether this processor has what its kernels use; null: never chosen
};

bool hasAvx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512cd");
}

const Core kCores[] = {
    {"Cooperlake", 4, [] { return hasAvx512() && __builtin_cpu_supports("avx512bf16"); }},
    {"SkylakeX", 3, hasAvx512},
    {"Haswell", 2, [] { return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"); }},
    {"Sandybridge", 1, [] { return bool(__builtin_cpu_supports("avx")); }},
    {"Zen", 2, nullptr},
    {"Excavator", 1, nullptr},
    {"Steamroller", 1, nullptr},
    {"Piledriver", 1, nullptr},
    {"Bulldozer", 1, nullptr},
    {"Prescott", 0, nullptr},
    {"Core2", 0, nullptr},
    {"Penryn", 0, nullptr},
    {"Dunnington", 0, nullptr},
    {"Nehalem", 0, nullptr},
    {"Atom", 0, nullptr},
    {"Barcelona", 0, nullptr},
    {"Opteron", 0, nullptr},
    {"Opteron_SSE3", 0, nullptr},
    {"Bobcat", 0, nullptr},
    {"Nano", 0, nullptr},
    {"Katmai", 0, nullptr},
    {"Coppermine", 0, nullptr},
    {"Northwood", 0, nullptr},
    {"Banias", 0, nullptr},
    {"Athlon", 0, nullptr},
    {"Unknown", 0, nullptr},
};

const Core *findCore(const char *name) {
  for (const Core &core : kCores)
    if (strcasecmp(core.name, name) == 0) return &core;
  return nullptr;
}

// Whether this OpenBLAS was built with the core's kernels: force_coretype falls back to
// Prescott for a name it does not have.
bool hasKernels(const Core &core) {
  std::string symbol = "gotoblas_";
  for (const char *c = core.name; *c; ++c) symbol += char(toupper(*c));
  return dlsym(RTLD_DEFAULT, symbol.c_str()) != nullptr;
}

template <typename Fn>
Fn lookup(const char *name) {
  return reinterpret_cast<Fn>(dlsym(RTLD_DEFAULT, name));
}

}  // namespace

const char *THBlas_coreName(void) {
  auto corename = lookup<char *(*)()>("openblas_get_corename");
  return corename && lookup<void (*)()>("gotoblas_dynamic_init") ? corename() : "";
}

const char *THBlas_chooseCore(void) {
  auto init = lookup<void (*)()>("gotoblas_dynamic_init");
  auto quit = lookup<void (*)()>("gotoblas_dynamic_quit");
  const char *current = THBlas_coreName();
  if (!init || !quit || getenv("OPENBLAS_CORETYPE")) return current;
  const Core *running = findCore(current);
  if (!running) return current;  // a core newer than this table
  __builtin_cpu_init();
  for (const Core &best : kCores) {
    if (!best.runs || !best.runs() || !hasKernels(best)) continue;
    if (best.level <= running->level) break;
    // OpenBLAS reads the variable once, in gotoblas_dynamic_init; it is removed again so that
    // child processes make their own choice.
    setenv("OPENBLAS_CORETYPE", best.name, 1);
    quit();
    init();
    unsetenv("OPENBLAS_CORETYPE");
    break;
  }
  return THBlas_coreName();
}

namespace {
// As TH loads: OpenBLAS, a library TH links, has finished its own selection by then.
[[maybe_unused]] const char *const kCoreAtLoad = THBlas_chooseCore();
}  // namespace
