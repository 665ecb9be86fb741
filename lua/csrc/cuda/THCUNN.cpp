// cunn's kernel table: THCUNN's kernels for CudaTensor, CudaDoubleTensor and CudaHalfTensor,
// callable from Lua without the state, as nn.THNN's are for Float and Double:
//   cutorch._C.THNN.Cuda.Tanh_updateOutput(input, output)
// Arguments are read as each kernel's declaration says (lua/csrc/KernelCall.h); the list is
// read off the headers THCUNN declares its kernels with, as the GPU build sees them
// (THCUNN_functions.inc, lua/cuda.bzl). A kernel missing from the table is one THCUNN has not
// written: cunn's Lua side says "not available on CUDA yet".
#include "lua/csrc/KernelCall.h"

#include "THCUNN/Linear.h"
#include "THCUNN/THCUNN.h"

namespace cutorch {
THCState *state();
}

namespace luatnn {

#define LC_TENSOR_ARG(CName)                                                                   \
  template <>                                                                                  \
  struct Arg<THCuda##CName##Tensor *> {                                                        \
    static THCuda##CName##Tensor *get(lua_State *L, int idx, bool nullable) {                  \
      return tensorArg<THCuda##CName##Tensor>(L, idx, nullable, "torch.Cuda" #CName "Tensor"); \
    }                                                                                          \
  };
LC_TENSOR_ARG()
LC_TENSOR_ARG(Double)
LC_TENSOR_ARG(Half)
LC_TENSOR_ARG(Long)
#undef LC_TENSOR_ARG

template <>
THCState *kernelState<THCState>() {
  return cutorch::state();
}

}  // namespace luatnn

#define LC_STR_(x) #x
#define LC_STR(x) LC_STR_(x)

#define THC_GENERIC_FILE "lua/csrc/cuda/generic/THCUNN.cpp"
#include "THC/THCGenerateFloatTypes.h"

namespace cutorch {
// C.THNN = { Cuda = {...}, CudaDouble = {...}, CudaHalf = {...} }
void openTHCUNN(lua_State *L) {
  lua_newtable(L);
  LCNN_Floatopen(L);
  LCNN_Doubleopen(L);
  LCNN_Halfopen(L);
  lua_setfield(L, -2, "THNN");
}
}  // namespace cutorch
