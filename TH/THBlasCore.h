/* Note [A BLAS core that knows the processor]: Debian's OpenBLAS is built with DYNAMIC_ARCH:
 * as it loads it picks one of its kernel sets (a "core": Haswell, SkylakeX, Cooperlake, ...)
 * from the processor's family and model numbers. A processor newer than the library is not
 * in its table, and 0.3.21 then falls back to "Prescott", SSE3 kernels: on the lent GPU
 * machine's 16-core Xeon sgemm 1024 ran at 199-229 GFLOP/s there, 850-998 on a host of the
 * same kind that it recognised. The features the kernels need are what matters, and they can
 * be asked of the processor directly; so when TH loads, if OpenBLAS runs a core below what
 * the processor's features allow, TH re-runs OpenBLAS's own core selection with the best
 * core this OpenBLAS has for those features (OPENBLAS_CORETYPE, read by
 * gotoblas_dynamic_init). A core the user chose with OPENBLAS_CORETYPE is kept, and a core
 * this table does not know (a newer OpenBLAS's "SapphireRapids") is never replaced. Another
 * BLAS behind libopenblas.so (Debian's alternatives) is left alone: the symbols are looked
 * up, not linked.
 *
 *   printf("%s\n", THBlas_coreName());   // "Cooperlake"
 */
#ifndef TH_THBLASCORE_H
#define TH_THBLASCORE_H

#include "TH/THGeneral.h"

/* OpenBLAS's kernel set now in use ("Haswell"); "" when the BLAS is not a DYNAMIC_ARCH
 * OpenBLAS. */
TH_API const char *THBlas_coreName(void);

/* The choice above, which TH makes once as it loads; callable again (a test that forces a
 * generic core first). Must not run while a BLAS call is in flight. Returns the core in use
 * afterwards. */
TH_API const char *THBlas_chooseCore(void);

#endif
