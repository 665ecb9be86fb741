// The C side of nn's kernel table (torch7's nn.THNN): every THNN function, for Float and
// Double, callable from Lua without the state argument, e.g.
//   torch._C.THNN.Double.Tanh_updateOutput(input, output)
// The arguments are read as the kernel's declaration says (lua/csrc/KernelCall.h), so the
// list of kernels (THNN_functions.inc, made from THNN's headers by THNN/THNN_functions.py;
// the Python binding wraps the same list) is the only thing to keep; nil for a generator
// passes the default one, which torch.manualSeed seeds.
#include "lua/csrc/KernelCall.h"
#include "lua/csrc/open.h"

#include "THNN/THNN.h"

namespace luatnn {

#define LT_TENSOR_ARG(Name)                                                          \
  template <>                                                                        \
  struct Arg<TH##Name##Tensor *> {                                                   \
    static TH##Name##Tensor *get(lua_State *L, int idx, bool nullable) {             \
      return tensorArg<TH##Name##Tensor>(L, idx, nullable, "torch." #Name "Tensor"); \
    }                                                                                \
  };
LT_TENSOR_ARG(Float)
LT_TENSOR_ARG(Double)
LT_TENSOR_ARG(Long)
LT_TENSOR_ARG(Int)
#undef LT_TENSOR_ARG

// THNN's kernels take no state.
template <>
THNNState *kernelState<THNNState>() {
  return nullptr;
}

}  // namespace luatnn

#define LT_STR_(x) #x
#define LT_STR(x) LT_STR_(x)
#define LT_CAT3_(a, b, c) a##b##c
#define LT_CAT3(a, b, c) LT_CAT3_(a, b, c)

#include "lua/csrc/generic/THNN.cpp"
#include "TH/THGenerateFloatTypes.h"

namespace luat {
// torch._C.THNN = { Float = {...}, Double = {...} }
void openTHNN(lua_State *L) {
  lua_newtable(L);
  LTNN_Floatopen(L);
  LTNN_Doubleopen(L);
  lua_setfield(L, -2, "THNN");
}
}  // namespace luat
