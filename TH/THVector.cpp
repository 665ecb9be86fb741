// The choice of Note [Vector kernels]: the best instruction set the processor has, capped
// by TH_VECTOR.
#include "TH/THVector.h"

#include <cstdlib>
#include <cstring>

#include "TH/THError.hpp"

namespace th::vec {

bool supported(Isa isa) {
  switch (isa) {
    case Isa::Default: return true;
    case Isa::Avx2: return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case Isa::Avx512: return supported(Isa::Avx2) && __builtin_cpu_supports("avx512f");
  }
  return false;
}

const char *name(Isa isa) {
  switch (isa) {
    case Isa::Default: return "default";
    case Isa::Avx2: return "avx2";
    case Isa::Avx512: return "avx512";
  }
  return "?";
}

const Kernels &kernelsFor(Isa isa) {
  static const Kernels none = [] {
    Kernels k{};  // every kernel null
    k.name = "default";
    return k;
  }();
  if (!supported(isa)) THError("the processor lacks %s: its vector kernels cannot run here", name(isa));
  switch (isa) {
    case Isa::Default: return none;
    case Isa::Avx2: return avx2Kernels();
    case Isa::Avx512: return avx512Kernels();
  }
  return none;
}

static Isa chosenIsa() {
  Isa cap = Isa::Avx512;
  if (const char *env = std::getenv("TH_VECTOR")) {
    if (!std::strcmp(env, "default"))
      cap = Isa::Default;
    else if (!std::strcmp(env, "avx2"))
      cap = Isa::Avx2;
    else if (std::strcmp(env, "avx512"))
      THError("TH_VECTOR=%s: expected default, avx2 or avx512", env);
  }
  for (Isa isa : {Isa::Avx512, Isa::Avx2})
    if (int(isa) <= int(cap) && supported(isa)) return isa;
  return Isa::Default;
}

const Kernels &kernels() {
  static const Kernels &chosen = kernelsFor(chosenIsa());
  return chosen;
}

}  // namespace th::vec
