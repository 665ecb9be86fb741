-- nn.THNN: THNN's kernels for Float and Double tensors (lua/csrc/THNN.cpp), also reachable
-- as `tensor.THNN` (the kernels of that tensor's type), as in torch7's nn:
--   input.THNN.Tanh_updateOutput(input, self.output)
-- Arguments follow THNN/THNN.h without the state; nil passes NULL where a kernel allows it.
local THNN = {}
nn.THNN = THNN

THNN.kernels = {}
for T, kernels in pairs(torch._C.THNN) do
   THNN[T] = kernels
   local name = 'torch.' .. T .. 'Tensor'
   THNN.kernels[name] = kernels
   torch.getmetatable(name).__methods.THNN = kernels
end

return THNN
