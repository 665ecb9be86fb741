#include "THC/THCLazyLibrary.h"

#include <dlfcn.h>

#include <mutex>

#include <cublas_api.h>
#include <cusolver_common.h>
#include <nccl.h>

#include "TH/THGeneral.h"

namespace thc {

namespace {

// The SONAMEs of the versions THC was compiled against.
const char *fileOf(Library library) {
  switch (library) {
    case Library::Cublas: return "libcublas.so." THC_LAZY_STR(CUBLAS_VER_MAJOR);
    case Library::Cusolver: return "libcusolver.so." THC_LAZY_STR(CUSOLVER_VER_MAJOR);
    case Library::Nccl: return "libnccl.so." THC_LAZY_STR(NCCL_MAJOR);
  }
  return "";
}

}  // namespace

void *lazySymbol(Library library, const char *name) {
  static std::mutex opening;
  static void *handles[3] = {nullptr, nullptr, nullptr};
  void *handle;
  {
    std::lock_guard<std::mutex> hold(opening);
    void *&h = handles[static_cast<int>(library)];
    if (!h) {
      h = dlopen(fileOf(library), RTLD_NOW | RTLD_LOCAL);
      if (!h) THError("%s could not be loaded: %s", fileOf(library), dlerror());
    }
    handle = h;
  }
  void *address = dlsym(handle, name);
  if (!address) THError("%s has no function %s", fileOf(library), name);
  return address;
}

}  // namespace thc
