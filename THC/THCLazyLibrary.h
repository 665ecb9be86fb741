/* Note [cuBLAS and cuSOLVER loaded on first use]: THC calls cuBLAS and cuSOLVER through
 * THC_LAZY, which opens the library with dlopen the first time one of its functions is
 * called, rather than linking it (and NCCL, for torch.distributed's nccl backend, which
 * python/csrc/Nccl.cpp calls the same way). cuBLAS alone costs a process about 150 MB of resident
 * memory and 60 ms as it loads, and every program that links THC (the Python package does,
 * for torch.cuda) would pay that at start-up, GPU or not; a CPU-only program now never loads
 * it, and a GPU program loads it with its first matrix product, as PyTorch does.
 *
 *   checkStatus(THC_LAZY(Cublas, cublasSgemm)(handle, ...), fn);
 *
 * The function's type comes from the library's own header (decltype), so a call is checked
 * as a direct one would be. A library or function that cannot be found raises a THError
 * naming it; nothing is called then. */
#ifndef THC_LAZY_LIBRARY_H
#define THC_LAZY_LIBRARY_H

namespace thc {

enum class Library { Cublas, Cusolver, Nccl };

/* The address of `name` in `library`, opened on first use (thread-safe). */
__attribute__((visibility("default"))) void *lazySymbol(Library library, const char *name);

}  // namespace thc

#define THC_LAZY_STR_(x) #x
#define THC_LAZY_STR(x) THC_LAZY_STR_(x)
/* fn's address in the library, looked up once per call site; fn may be a macro of the
 * library's header (cublasSgemm is cublasSgemm_v2): it is expanded before it is named. */
#define THC_LAZY(library, fn) THC_LAZY_AS(library, fn, decltype(&fn))
/* The same for a function the header overloads in C++: Pointer is the C function's type. */
#define THC_LAZY_AS(library, fn, Pointer)                                                        \
  ([]() {                                                                                        \
    static const auto address =                                                                  \
        reinterpret_cast<Pointer>(::thc::lazySymbol(::thc::Library::library, THC_LAZY_STR(fn))); \
    return address;                                                                              \
  }())

#endif
